"""taxogen's own source is held to the bar of its output: black-formatted.

``black --check`` over ``generator/``, ``templates/``, ``tests/`` and
``benchmarks/``, with the settings of ``[tool.black]`` in pyproject.toml (the
golden files under ``tests/cases/`` are generated code, compared byte for byte
by their own tests).
"""

from __future__ import annotations

import subprocess
import sys

from tests.support import REPO


def test_the_source_is_black_formatted() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "black", "--check", "--diff", "--quiet"]
        + ["generator", "templates", "tests", "benchmarks"],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stdout[-20000:] + done.stderr
