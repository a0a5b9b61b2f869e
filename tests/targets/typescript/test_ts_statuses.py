"""Issue 30 §2 in TypeScript, compiled and run: each error's own ``httpStatus``.

The golden TypeScript modules of ``tests/cases/oauth_statuses``,
``tests/cases/http_api`` (typed constructors) and ``tests/cases/k8s_status``
(the status member) are compiled with the repository's ``tsc`` and run under
node by ``tests/targets/typescript/ts/statuses.test.mjs``, whose expectations
are the YAML's (``tests/spec_oracle.py``), never the module's.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any

from tests.spec_oracle import read_spec
from tests.support import REPO, cases, require_typescript_tools

CASES = {case.name: case for case in cases()}


def _statuses(case: str, *codes: str) -> dict[str, Any]:
    spec = read_spec(CASES[case].taxonomy)
    out: dict[str, Any] = {}
    for code in codes:
        entry = spec.codes[code]
        out[code] = entry.http_statuses or [entry.http_status]
    out["member"] = spec.payload.get("status")
    return out


def test_each_error_has_its_own_http_status(tmp_path: Path, compiled_ts: Any) -> None:
    node = require_typescript_tools()
    specs = {
        "oauth": _statuses("oauth_statuses", "invalid_client"),
        "typed": _statuses("http_api", "parameter_missing"),
        "k8s": _statuses("k8s_status", "not_found"),
    }
    spec_file = tmp_path / "specs.json"
    spec_file.write_text(json.dumps(specs), encoding="utf-8")
    env = {
        **os.environ,
        "TAXOGEN_OAUTH": str(compiled_ts(CASES["oauth_statuses"])),
        "TAXOGEN_TYPED": str(compiled_ts(CASES["http_api"])),
        "TAXOGEN_K8S": str(compiled_ts(CASES["k8s_status"])),
        "TAXOGEN_SPEC": str(spec_file),
    }
    done = subprocess.run(
        [
            node,
            "--test",
            "--test-reporter=spec",
            str(REPO / "tests/targets/typescript/ts/statuses.test.mjs"),
        ],
        env=env,
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr
