"""The TypeScript module runs every conformance vector, and answers as the YAML says.

The second test is test_conformance.py's oracle applied to TypeScript: the
probes of ``tests/spec_oracle.py`` run in one node process per case
(``tests/targets/typescript/ts/probe.mjs``) and each observation is checked against the
case's
``taxonomy.yaml``, not against the generator's names or model.
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from tests import spec_oracle
from tests.spec_oracle import read_spec
from tests.support import (
    REPO,
    Case,
    case_ids,
    cases,
    require_typescript_tools,
    run_node_probes,
)

VECTORS_PATH = "conformance/vectors.json"


@pytest.mark.parametrize("case", cases(), ids=case_ids())
def test_typescript_passes_every_vector(
    case: Case, compiled_ts: Callable[[Case], Path]
) -> None:
    node = require_typescript_tools()
    module = compiled_ts(case)
    env = {
        **os.environ,
        "TAXOGEN_MODULE": str(module),
        "TAXOGEN_VECTORS": str(case.expected / VECTORS_PATH),
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


@pytest.mark.parametrize("case", cases(), ids=case_ids())
def test_typescript_answers_every_probe_as_the_yaml_says(
    case: Case,
    compiled_ts: Callable[[Case], Path],
    tmp_path: Path,
) -> None:
    node = require_typescript_tools()
    module = compiled_ts(case)
    spec = read_spec(case.taxonomy)
    probes = spec_oracle.probes(spec)
    observed = run_node_probes(node, module, probes, tmp_path)
    wrong = spec_oracle.disagreements(
        spec, ((op, given, seen) for (op, given), seen in zip(probes, observed))
    )
    assert not wrong, "\n".join(wrong[:10])
    # The pinned name is the class's (docs "TypeScript").
    named = [seen for seen in observed if "class" in seen and "name" in seen]
    assert named and all(seen["name"] == seen["class"] for seen in named)
