"""Every Python snippet of README.md passes mypy --strict (issue 30 §11).

A reader copies the README's examples; they must type-check as written against
the package they import (``ErrorCode.METHOD_NOT_FOUND == -32601`` did not:
mypy's comparison-overlap).  Each ```python block, fenced at any indent, is a
module of its own checked by ``mypy --strict`` with the generated packages it
imports (the shipped taxonomy's, or a tests/cases one's, found by its package
name) on its path.  A line the README shows failing says so with
``# type: ignore[<code>]``, which --strict's unused-ignore check proves mypy
does flag.
"""

from __future__ import annotations

import ast
import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

from tests.support import REPO, cases, package

FENCE = re.compile(r"^( *)```python\n(.*?)^\1```$", re.M | re.S)


def snippets() -> list[str]:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    return [textwrap.dedent(body) for _, body in FENCE.findall(readme)]


def _packages() -> dict[str, Path]:
    """Each generated Python package's name → the folder that holds it."""
    found = {}
    for case in cases():
        src = package(case) / "python" / "src"
        for folder in src.iterdir():
            found[folder.name] = src
    return found


def _imported(source: str) -> set[str]:
    tree = ast.parse(source)
    return {
        node.module.split(".")[0]
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and node.module
    }


def test_the_readme_has_python_snippets_that_import_a_package() -> None:
    found = snippets()
    assert len(found) >= 3
    packages = _packages()
    for source in found:
        assert _imported(source) & set(packages), source[:200]


def test_every_python_snippet_passes_mypy_strict(tmp_path: Path) -> None:
    packages = _packages()
    paths: list[str] = []
    for index, source in enumerate(snippets()):
        (tmp_path / f"readme_snippet_{index}.py").write_text(source, encoding="utf-8")
        paths += [str(packages[name]) for name in _imported(source) if name in packages]
    config = tmp_path / "mypy.ini"
    config.write_text("[mypy]\n", encoding="utf-8")
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "mypy",
            "--strict",
            "--no-incremental",
            "--config-file",
            str(config),
            *sorted(p.name for p in tmp_path.glob("readme_snippet_*.py")),
        ],
        cwd=tmp_path,
        env={**os.environ, "MYPYPATH": os.pathsep.join(sorted(set(paths)))},
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
