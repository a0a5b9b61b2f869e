"""Issue 30: real bodies, quoted from the public specifications, round-trip exactly.

A golden case with a ``bodies/`` folder (``tests/cases/<case>/bodies/``, each
body a JSON file, ``index.json`` saying where each is from and the code it
carries) holds real error bodies of the protocol its taxonomy models.  Here
each body is judged by the oracle (``tests/spec_oracle.py``: the YAML and the
issue's words, never the generator), which must say it is accepted as the code
``index.json`` names and written back as it was received (as parsed JSON); then
the bodies, as conformance vectors with those expectations, run through the
generated Python, TypeScript, Go and Java packages with each language's own runner
(the same runners every case's vectors go through); the Rust crate runs them in
tests/targets/rust/test_rust.py, in its one build of every case.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any

import pytest

from tests import spec_oracle as oracle
from tests.support import REPO, Case, cases, import_generated
from tests.support import require_typescript_tools
from tests.targets.contract.test_conformance import run_vector
from tests.targets.go.test_go import RUNNER, _add_test, _go, _write
from tests.targets.go.test_go import go_env  # noqa: F401  (the fixture, by name)
from tests.targets.java.support import Compiled, case_package, conformance

#: The golden cases that hold real bodies.
WITH_BODIES = [c for c in cases() if (c.taxonomy.parent / "bodies").is_dir()]
#: Issue 30 §1's cases: each point has one.
assert {c.name for c in WITH_BODIES} >= {
    "oauth_token",
    "kubernetes_status",
    "lsp_response",
}


def _index(case: Case) -> list[dict[str, Any]]:
    folder = case.taxonomy.parent / "bodies"
    entries: list[dict[str, Any]] = json.loads((folder / "index.json").read_text())
    files = {p.name for p in folder.glob("*.json")} - {"index.json"}
    assert {e["file"] for e in entries} == files, "index.json lists every body"
    return entries


def _vectors(case: Case, tmp_path: Path) -> Path:
    """The case's real bodies as from_payload vectors, expectations the oracle's;
    the path of the vectors file."""
    spec = oracle.read_spec(case.taxonomy)
    vectors = []
    for entry in _index(case):
        body = json.loads((case.taxonomy.parent / "bodies" / entry["file"]).read_text())
        want = oracle.expected(spec, "from_payload", body)
        assert want["ok"], (entry["file"], want)
        # "written back as received": the re-emitted payload is the body itself.
        assert oracle.same_json(want["payload"], body), (entry["file"], want)
        assert want["wire_code"] == entry["code"], entry["file"]
        want.pop("ancestors")
        vectors.append(
            {
                "id": f"real/{entry['file']}",
                "kind": "from_payload",
                "description": entry["source"],
                "input": body,
                "expect": want,
            }
        )
    assert vectors
    path = tmp_path / "vectors.json"
    path.write_text(json.dumps({"kinds": {}, "vectors": vectors}), encoding="utf-8")
    return path


@pytest.mark.parametrize("case", WITH_BODIES, ids=lambda c: c.name)
def test_real_bodies_round_trip_in_python(case: Case, tmp_path: Path) -> None:
    mod = import_generated(case)
    document = json.loads(_vectors(case, tmp_path).read_text())
    for vector in document["vectors"]:
        run_vector(mod, vector)
        # As JSON text too: what a server would send back.
        again = json.loads(json.dumps(mod.from_payload(vector["input"]).to_payload()))
        assert again == vector["input"], vector["id"]


@pytest.mark.parametrize("case", WITH_BODIES, ids=lambda c: c.name)
def test_real_bodies_round_trip_in_typescript(
    case: Case, tmp_path: Path, compiled_ts: Any
) -> None:
    node = require_typescript_tools()
    env = {
        **os.environ,
        "TAXOGEN_MODULE": str(compiled_ts(case)),
        "TAXOGEN_VECTORS": str(_vectors(case, tmp_path)),
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


@pytest.mark.parametrize("case", WITH_BODIES, ids=lambda c: c.name)
def test_real_bodies_round_trip_in_go(
    case: Case, tmp_path: Path, go_env: dict[str, str]  # noqa: F811
) -> None:
    vectors = _vectors(case, tmp_path)
    module = _write(case, tmp_path / "module")
    _add_test(module, RUNNER, "conformance")
    done = _go(
        ["go", "test", "-count=1", "./conformance"],
        module,
        {**go_env, "TAXOGEN_VECTORS": str(vectors)},
    )
    assert done.returncode == 0, done.stdout + done.stderr


@pytest.mark.parametrize("case", WITH_BODIES, ids=lambda c: c.name)
def test_real_bodies_round_trip_in_java(
    case: Case, tmp_path: Path, compiled_java: Compiled
) -> None:
    vectors = _vectors(case, tmp_path)
    count = len(json.loads(vectors.read_text())["vectors"])
    code, output = conformance(compiled_java, [(case_package(case), vectors)])
    assert code == 0, output
    assert f"ran {count} of {count} vectors, 0 failures" in output, output
