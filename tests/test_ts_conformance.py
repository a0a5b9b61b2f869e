"""The TypeScript module runs every conformance vector too (see test_conformance.py)."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from generator.contract import VECTORS_PATH
from tests.support import REPO, Case, case_ids, cases


@pytest.mark.parametrize("case", cases(), ids=case_ids())
def test_typescript_passes_every_vector(
    case: Case, compiled_ts: Callable[[Case], Path]
) -> None:
    module = compiled_ts(case)
    env = {
        **os.environ,
        "TAXOGEN_MODULE": str(module),
        "TAXOGEN_VECTORS": str(case.expected / VECTORS_PATH),
    }
    done = subprocess.run(
        [
            "node",
            "--test",
            "--test-reporter=dot",
            str(REPO / "tests/ts/conformance.test.mjs"),
        ],
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
