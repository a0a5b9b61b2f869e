"""Every Python snippet of the manual (README.md and docs/) passes mypy --strict
(issue 30 §11).

A reader copies the manual's examples; they must type-check as written against
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

import pytest
import yaml

from taxogen.cli import main
from tests.support import MANUAL, cases, package

FENCE = re.compile(r"^( *)```python\n(.*?)^\1```$", re.M | re.S)
YAML = re.compile(r"^( *)```yaml\n(.*?)^\1```$", re.M | re.S)


def snippets() -> list[str]:
    return [
        textwrap.dedent(body)
        for page in MANUAL
        for _, body in FENCE.findall(page.read_text(encoding="utf-8"))
    ]


@pytest.fixture(scope="module")
def packages(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Each generated Python package's name → the folder that holds it: the
    cases', and those of the manual's own whole taxonomies (README's first one)."""
    sources = [package(case) / "python" / "src" for case in cases()]
    for index, text in enumerate(_manual_taxonomies()):
        folder = tmp_path_factory.mktemp(f"manual{index}")
        (folder / "taxonomy.yaml").write_text(text, encoding="utf-8")
        out = folder / "out"
        assert (
            main(
                [
                    "generate",
                    "-q",
                    "--taxonomy",
                    str(folder / "taxonomy.yaml"),
                    "--out",
                    str(out),
                    "--target",
                    "python",
                ]
            )
            == 0
        )
        sources.append(out / "python" / "src")
    return {folder.name: src for src in sources for folder in src.iterdir()}


def _manual_taxonomies() -> list[str]:
    """The manual's yaml blocks that are whole taxonomies, with every value given."""
    found = []
    for page in MANUAL:
        for _, body in YAML.findall(page.read_text(encoding="utf-8")):
            data = yaml.safe_load(body)
            if isinstance(data, dict) and "domains" in data and "format" in data:
                if "..." not in body:
                    found.append(textwrap.dedent(body))
    return found


def _imported(source: str) -> set[str]:
    tree = ast.parse(source)
    return {
        node.module.split(".")[0]
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and node.module
    }


def test_the_readme_has_python_snippets_that_import_a_package(
    packages: dict[str, Path],
) -> None:
    found = snippets()
    assert len(found) >= 3
    for source in found:
        assert _imported(source) & set(packages), source[:200]


def test_every_python_snippet_passes_mypy_strict(
    tmp_path: Path, packages: dict[str, Path]
) -> None:
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
