"""Issue 30 §8: retry hints, ``retry_after: FIELD``, in every runtime.

"retry_after: FIELD on a code, a domain or the top level names the details
field (seconds, integer or number) that says when to retry; every runtime
exposes it (Python err.retry_after, TypeScript err.retryAfter, Go RetryAfter()
time.Duration), absent where the field is."  The packages are the golden ones of
``tests/cases/oauth_device`` (RFC 8628's slow_down, its ``interval``: a code's
own) and ``tests/cases/k8s_retry`` (Kubernetes' ``retryAfterSeconds``: the top
level's); which field applies is read from the YAML (``tests/spec_oracle.py``).
The conformance vectors (kind ``retry_after``) hold every language to the same.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path
from typing import Any

from tests.spec_oracle import read_spec
from tests.support import REPO, cases, import_generated, require_typescript_tools
from tests.targets.go.test_go import _add_test, _go, _write
from tests.targets.go.test_go import go_env  # noqa: F401  (the fixture, by name)

CASES = {case.name: case for case in cases()}


def test_the_yaml_says_which_field_each_code_waits_on() -> None:
    device = read_spec(CASES["oauth_device"].taxonomy).codes
    assert device["slow_down"].retry_after == "interval"
    assert device["authorization_pending"].retry_after is None
    kube = read_spec(CASES["k8s_retry"].taxonomy).codes
    assert {c.retry_after for c in kube.values()} == {"retryAfterSeconds"}


def test_python_retry_after_is_the_field_in_seconds() -> None:
    mod = import_generated(CASES["oauth_device"])
    assert mod.SlowDownError.retry_after_field == "interval"
    err = mod.SlowDownError(interval=10)
    assert err.retry_after == 10.0 and type(err.retry_after) is float
    assert mod.SlowDownError().retry_after is None  # absent where the field is
    assert mod.InvalidRequestError().retry_after is None  # no field named
    got = mod.from_payload(
        {"error": "slow_down", "error_description": "d", "interval": 5}
    )
    assert got.retry_after == 5.0
    assert "retry_after" not in got.to_payload()  # a reading, never a member
    pending = mod.from_payload(
        {"error": "authorization_pending", "error_description": "d", "interval": 5}
    )
    assert pending.retry_after is None


def test_python_a_top_level_field_is_every_code_s() -> None:
    mod = import_generated(CASES["k8s_retry"])
    for code in ("NotFound", "TooManyRequests", "ServerTimeout"):
        got = mod.from_payload(
            {"reason": code, "message": "m", "details": {"retryAfterSeconds": 3}}
        )
        assert got.retry_after == 3.0, code
        assert mod.from_payload({"reason": code, "message": "m"}).retry_after is None
    # An unknown reason is the fallback's class, and reads the fallback's field.
    unknown = mod.from_payload(
        {"reason": "Unheard", "message": "m", "details": {"retryAfterSeconds": 2}}
    )
    assert unknown.retry_after == 2.0


def test_typescript_retry_after(compiled_ts: Any) -> None:
    node = require_typescript_tools()
    env = {**os.environ, "TAXOGEN_MODULE": str(compiled_ts(CASES["oauth_device"]))}
    done = subprocess.run(
        [node, "--test", str(REPO / "tests/targets/typescript/ts/retry.test.mjs")],
        env=env,
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_go_retry_after(tmp_path: Path, go_env: dict[str, str]) -> None:  # noqa: F811
    module = _write(CASES["oauth_device"], tmp_path)
    _add_test(module, REPO / "tests/targets/go/retry_test.go", "retry")
    vet = _go(["go", "vet", "./..."], module, go_env)
    assert vet.returncode == 0, vet.stdout + vet.stderr
    done = _go(["go", "test", "-count=1", "./retry"], module, go_env)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.startswith("ok"), done.stdout
