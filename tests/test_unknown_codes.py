"""Issue 30 §3: unknown codes keep their identity (``fallback: null``).

"An unknown code becomes the base class (or the class of the domain whose
``match:`` claims it), reports the received code as its code in every
language, is not retryable unless the payload says so (or
``unknown_retryable: by_status``) and has the status it was received with or
none.  A bare base error then needs a code to be built."  The decoding of real
bodies is tests/test_real_bodies.py's (the cases ``oauth_unknown``,
``s3_unknown``, ``k8s_unknown``, ``lsp_unknown``) and the vectors' of every
language; here: building a bare root error in Python, TypeScript and Go (and the
type checkers refusing one without its code), and JSON-RPC's application code
``1`` through all three languages, judged by the oracle (tests/spec_oracle.py).
"""

from __future__ import annotations

import importlib
import json
import os
import pickle
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from taxogen.pipeline import build_plan
from tests import spec_oracle as oracle
from tests.support import REPO, cases, import_generated, package
from tests.support import require_typescript_tools
from tests.targets.contract.test_conformance import run_vector
from tests.targets.go.test_go import RUNNER, _add_test, _go, _write
from tests.targets.go.test_go import go_env  # noqa: F401  (the fixture, by name)
from tests.targets.python.test_typing import MYPY
from tests.targets.typescript.test_ts_typed import TSC, _compiled, _run, _type_project

CASES = {case.name: case for case in cases()}
OAUTH = CASES["oauth_unknown"]
#: A code no RFC lists (GitHub's, tests/catalogues/oauth/bodies/05).
GITHUB = "incorrect_client_credentials"


def test_a_python_root_error_carries_the_code_it_is_given() -> None:
    spec = oracle.read_spec(OAUTH.taxonomy)
    assert spec.fallback is None and spec.known(GITHUB) is None
    mod = import_generated(OAUTH)
    err = mod.OAuthError("bad credentials", code=GITHUB)
    assert (err.code, err.wire_code, err.domain) == (GITHUB, GITHUB, None)
    assert err.retryable is False and err.http_status is None
    assert err.to_payload() == {"error": GITHUB, "error_description": "bad credentials"}
    again = pickle.loads(pickle.dumps(err))
    assert (type(again), again.code, again.wire_code) == (
        mod.OAuthError,
        GITHUB,
        GITHUB,
    )
    # No message: the root's meaning, the taxonomy's title.
    assert mod.OAuthError(code=GITHUB).message == spec.title
    # A domain's own class has no code either; a code's class needs none.
    token = mod.TokenError(code=GITHUB)
    assert (token.code, token.domain) == (GITHUB, "token")
    assert mod.InvalidClientError().code == "invalid_client"
    with pytest.raises(TypeError, match="code"):
        mod.OAuthError("no code")
    with pytest.raises(TypeError, match="code: expected a string, got a number"):
        mod.OAuthError("m", code=5)


def test_mypy_refuses_a_bare_root_error_without_its_code(tmp_path: Path) -> None:
    src = tmp_path / "src"
    shutil.copytree(package(OAUTH) / "python" / "src", src)
    uses = src / "uses.py"
    uses.write_text(
        "from typing import assert_type\n"
        "from oauth_unknown_errors import ErrorCode, InvalidClientError, OAuthError\n"
        "from oauth_unknown_errors import TokenError\n"
        f'err = OAuthError("m", code="{GITHUB}")\n'
        "assert_type(err.code, ErrorCode | str)\n"
        "assert_type(InvalidClientError().code, ErrorCode)\n"
        'TokenError("m", code=ErrorCode.INVALID_CLIENT)\n'
        'OAuthError("m")  # E\n'
        'TokenError("m")  # E\n'
        'OAuthError("m", code=5)  # E\n',
        encoding="utf-8",
    )
    expected = {
        index
        for index, line in enumerate(uses.read_text().splitlines(), 1)
        if line.endswith("# E")
    }
    done = subprocess.run(
        [*MYPY, "uses.py"], cwd=src, capture_output=True, text=True, check=False
    )
    reported = {
        int(m) for m in re.findall(r"^uses\.py:(\d+): error:", done.stdout, re.M)
    }
    assert reported == expected, done.stdout


def test_tsc_refuses_a_bare_root_error_without_its_code(tmp_path: Path) -> None:
    require_typescript_tools()
    pkg = _compiled(package(OAUTH) / "typescript", tmp_path)
    head = (
        "import { OAuthError, TokenError, InvalidClientError }"
        ' from "../pkg/dist/index.js";\n'
    )
    good = (
        f'export const a: string = new OAuthError("m", {{ code: "{GITHUB}" }}).code;\n'
        'export const b: "invalid_client" = new InvalidClientError("m").code;\n'
        f'export const c = new TokenError("m", {{ code: "{GITHUB}" }});\n'
    )
    bad = (
        "// @ts-expect-error the root class has no code of its own\n"
        'export const d = new OAuthError("m");\n'
        "// @ts-expect-error nor has a domain's own class\n"
        'export const e = new TokenError("m");\n'
        "// @ts-expect-error a code is a string here\n"
        'export const f = new OAuthError("m", { code: 5 });\n'
    )
    files = {"unknown.ts": head + good + bad}
    result = _run([str(TSC), "-p", str(_type_project(pkg, tmp_path / "t", files))])
    assert result.returncode == 0, result.stdout + result.stderr
    # Each @ts-expect-error is needed: without them, three errors.
    files = {"unknown.ts": head + good + bad.replace("// @ts-expect-error", "//")}
    result = _run([str(TSC), "-p", str(_type_project(pkg, tmp_path / "u", files))])
    assert result.stdout.count("error TS") == 3, result.stdout


def test_go_new_builds_an_error_of_an_unknown_code(
    tmp_path: Path, go_env: dict[str, str]  # noqa: F811
) -> None:
    spec = oracle.read_spec(OAUTH.taxonomy)
    given = {"code": GITHUB, "title": spec.title, "member": spec.payload["code"]}
    module = _write(OAUTH, tmp_path)
    _add_test(module, Path(__file__).parent / "targets/go/unknown_test.go", "unknown")
    done = _go(
        ["go", "test", "-count=1", "./unknown"],
        module,
        {**go_env, "TAXOGEN_UNKNOWN": json.dumps(given)},
    )
    assert done.returncode == 0, done.stdout + done.stderr


# ---------------------------------------- an application code, in every language

LSP = CASES["lsp_unknown"]
#: JSON-RPC 2.0 §5.1: "The remainder of the space is available for application
#: defined errors": 1, with JSON-RPC §7's response shape around it; -32050 in
#: the range the jsonrpc domain's match claims (no <domain>_error code there).
BODIES = [
    {"jsonrpc": "2.0", "error": {"code": 1, "message": "application error"}, "id": 7},
    {"jsonrpc": "2.0", "error": {"code": -1, "message": "m", "data": [1]}, "id": None},
    {"jsonrpc": "2.0", "error": {"code": -32050, "message": "reserved"}, "id": "1"},
]


def _vectors(tmp_path: Path) -> Path:
    spec = oracle.read_spec(LSP.taxonomy)
    vectors = []
    for index, body in enumerate(BODIES):
        want = oracle.expected(spec, "from_payload", body)
        assert want["ok"] and oracle.same_json(want["payload"], body), want
        assert want["code"] == body["error"]["code"] == want["wire_code"]
        want.pop("ancestors")
        vectors.append(
            {
                "id": f"application/{index}",
                "kind": "from_payload",
                "description": "an unknown code keeps its identity",
                "input": body,
                "expect": want,
            }
        )
    # The oracle's own reading: 1 is the root's, -32050 the jsonrpc domain's.
    assert [v["expect"]["class"] for v in vectors] == [
        spec.base,
        spec.base,
        spec.domains["jsonrpc"],
    ]
    path = tmp_path / "vectors.json"
    path.write_text(json.dumps({"kinds": {}, "vectors": vectors}), encoding="utf-8")
    return path


def test_an_application_code_keeps_its_identity_in_python(tmp_path: Path) -> None:
    mod = import_generated(LSP)
    for vector in json.loads(_vectors(tmp_path).read_text())["vectors"]:
        run_vector(mod, vector)


def test_an_application_code_keeps_its_identity_in_typescript(
    tmp_path: Path, compiled_ts: Any
) -> None:
    node = require_typescript_tools()
    env = {
        **os.environ,
        "TAXOGEN_MODULE": str(compiled_ts(LSP)),
        "TAXOGEN_VECTORS": str(_vectors(tmp_path)),
    }
    done = subprocess.run(
        [
            node,
            "--test",
            "--test-reporter=dot",
            str(REPO / "tests/targets/typescript/ts/conformance.test.mjs"),
        ],
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_an_application_code_keeps_its_identity_in_go(
    tmp_path: Path, go_env: dict[str, str]  # noqa: F811
) -> None:
    vectors = _vectors(tmp_path)
    module = _write(LSP, tmp_path / "module")
    _add_test(module, RUNNER, "conformance")
    done = _go(
        ["go", "test", "-count=1", "./conformance"],
        module,
        {**go_env, "TAXOGEN_VECTORS": str(vectors)},
    )
    assert done.returncode == 0, done.stdout + done.stderr


# ------------------------------ a domain's fallback: null with a <domain>_error code


def test_a_domain_s_own_code_class_keeps_what_its_match_claims(tmp_path: Path) -> None:
    """The shipped taxonomy's task domain, whose class is its task_error code's,
    given ``match: "task_"`` and ``fallback: null``: an unknown task_ code is a
    TaskError carrying itself (not task_error), any other one the top level's
    fallback; a known code of the domain is its own."""
    text = (REPO / "taxonomy.yaml").read_text(encoding="utf-8")
    text = text.replace("name: harmovela\n", "name: kept_probe\n", 1)
    text = text.replace(
        "  task:\n    title: Task Errors\n",
        '  task:\n    title: Task Errors\n    match: "task_"\n    fallback: null\n',
        1,
    )
    source = tmp_path / "taxonomy.yaml"
    source.write_text(text, encoding="utf-8")
    spec = oracle.read_spec(source)
    for path, data in build_plan(source, ["python"]).items():
        target = tmp_path / "out" / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
    sys.path.insert(0, str(tmp_path / "out" / "python" / "src"))
    try:
        mod = importlib.import_module("kept_probe_errors")
    finally:
        sys.path.pop(0)
    payloads = [
        {"code": "task_brand_new", "message": "m", "retryable": True},
        {"code": "brand_new", "message": "m", "retryable": False},
        {"code": "task_cancelled", "message": "m", "retryable": False},
    ]
    for payload in payloads:
        want = oracle.expected(spec, "from_payload", payload)
        err = mod.from_payload(payload)
        assert type(err).__name__ == want["class"], payload
        assert (err.code, err.wire_code, str(err.domain)) == (
            want["code"],
            want["wire_code"],
            want["domain"],
        ), payload
        assert err.to_payload()["code"] == payload["code"]
    kept = mod.from_payload(payloads[0])
    assert type(kept) is mod.TaskError and kept.code == "task_brand_new"
    assert mod.from_payload(payloads[1]).code == spec.wire_of(str(spec.fallback))
