"""Issue 30 §2: the real Kubernetes ``NotFound`` Status body round-trips.

``tests/catalogues/kubernetes/bodies/01-api-conventions-notfound.json`` is the
example of the Kubernetes API conventions ("Response Status Kind", answered
``HTTP/1.1 404 Not Found``), quoted verbatim; its ``code`` member holds the
HTTP status.  Through the generated Python, TypeScript and Go packages of
``tests/cases/k8s_status`` (``payload: {status: code}``) it is received and
written back byte-for-byte as JSON (as parsed), and the error's own HTTP status
is the one the body carries.  The oracle is the body and ``index.json``, never
the packages.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any

import pytest

from tests.support import REPO, cases, import_generated, require_typescript_tools
from tests.targets.go.test_go import _add_test, _go, _write
from tests.targets.go.test_go import go_env  # noqa: F401  (the fixture, by name)

CASE = next(case for case in cases() if case.name == "k8s_status")
BODIES = REPO / "tests" / "catalogues" / "kubernetes" / "bodies"
(ENTRY,) = [
    entry
    for entry in json.loads((BODIES / "index.json").read_text(encoding="utf-8"))
    if entry["code"] == "NotFound"
]
BODY = BODIES / ENTRY["file"]


def test_the_body_is_the_conventions_404() -> None:
    body = json.loads(BODY.read_text(encoding="utf-8"))
    assert ENTRY["verbatim"] and ENTRY["http_status"] == 404
    assert (body["reason"], body["code"]) == ("NotFound", 404)


def test_the_real_body_round_trips_in_python() -> None:
    mod = import_generated(CASE)
    text = BODY.read_text(encoding="utf-8")
    error = mod.from_payload(json.loads(text))
    assert type(error) is mod.NotFoundError and error.wire_code == ENTRY["code"]
    assert error.http_status == ENTRY["http_status"]
    assert json.loads(json.dumps(error.to_payload())) == json.loads(text)


def test_the_real_body_round_trips_in_typescript(compiled_ts: Any) -> None:
    node = require_typescript_tools()
    env = {
        **os.environ,
        "TAXOGEN_MODULE": str(compiled_ts(CASE)),
        "TAXOGEN_BODY": str(BODY),
        "TAXOGEN_BODY_CODE": ENTRY["code"],
        "TAXOGEN_BODY_STATUS": str(ENTRY["http_status"]),
    }
    done = subprocess.run(
        [node, "--test", str(REPO / "tests/targets/typescript/ts/body.test.mjs")],
        env=env,
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_real_body_round_trips_in_go(
    tmp_path: Path, go_env: dict[str, str]  # noqa: F811
) -> None:
    module = _write(CASE, tmp_path)
    _add_test(module, REPO / "tests/targets/go/body_test.go", "body")
    env = {
        **go_env,
        "TAXOGEN_BODY": BODY.read_text(encoding="utf-8"),
        "TAXOGEN_BODY_CODE": ENTRY["code"],
        "TAXOGEN_BODY_STATUS": str(ENTRY["http_status"]),
    }
    done = _go(["go", "test", "-count=1", "./body"], module, env)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.startswith("ok"), done.stdout


@pytest.mark.parametrize("status", [418, 503])
def test_another_status_in_the_body_is_the_error_s_own(status: int) -> None:
    # The same body answered otherwise: the received status, not the class's.
    mod = import_generated(CASE)
    body = {**json.loads(BODY.read_text(encoding="utf-8")), "code": status}
    error = mod.from_payload(body)
    assert error.http_status == status and type(error).http_status == 404
    assert error.to_payload() == body
