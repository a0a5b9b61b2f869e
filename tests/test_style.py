"""taxogen's own source is held to the bar of its output: black-formatted, and no
line wider than black's line length.

``black --check`` over ``generator/``, ``templates/``, ``tests/`` and
``benchmarks/``, with the settings of ``[tool.black]`` in pyproject.toml (the
golden files under ``tests/cases/`` are generated code, compared byte for byte
by their own tests).  black leaves alone what it cannot split (long strings,
comments, docstrings), so the width of every line of the ``*.py`` files under
``generator/``, ``tests/`` and ``benchmarks/`` is checked on its own.
"""

from __future__ import annotations

import ast
import subprocess
import sys
import tomllib
import unicodedata
from pathlib import Path

import pytest

from tests.support import REPO

#: The widest line allowed: black's own setting, so the two checks cannot disagree.
LIMIT: int = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))[
    "tool"
]["black"]["line-length"]


def _sources() -> list[str]:
    found = []
    for folder in ("generator", "tests", "benchmarks"):
        for path in sorted((REPO / folder).rglob("*.py")):
            name = path.relative_to(REPO).as_posix()
            if not name.startswith("tests/cases/"):
                found.append(name)
    return found


def columns(line: str) -> int:
    """The width black gives ``line``: a wide or fullwidth character (CJK, say)
    counts two columns, every other character one.
    """
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in line)


def too_wide(path: Path, name: str) -> list[str]:
    """Every line of ``path`` wider than ``LIMIT``, as ``name:line: N columns``."""
    lines = path.read_text(encoding="utf-8").splitlines()
    return [
        f"{name}:{number}: {columns(line)} columns"
        for number, line in enumerate(lines, 1)
        if columns(line) > LIMIT
    ]


SOURCES = _sources()


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


def test_every_folder_is_walked() -> None:
    # The line check below is only as good as the list it is given.
    for folder in ("generator/", "tests/", "benchmarks/"):
        assert any(name.startswith(folder) for name in SOURCES), folder
    assert "generator/cli.py" in SOURCES and "tests/test_style.py" in SOURCES


def test_columns_counts_wide_characters_twice() -> None:
    assert columns("abc") == 3
    assert columns("漢字") == 4
    assert columns("ｗｉｄｅ") == 8
    assert columns("e\u0301") == 2  # a combining mark is a character like any other


@pytest.mark.parametrize("name", SOURCES)
def test_no_line_is_wider_than_black_allows(name: str) -> None:
    wide = too_wide(REPO / name, name)
    assert not wide, "\n".join(wide)


#: Issue 13: no module under generator/ over about 300 lines without saying why.
LONG = 300


def opening(source: str) -> str | None:
    """The docstring a module opens with, or None."""
    return ast.get_docstring(ast.parse(source))


def long_without_a_reason(source: str) -> bool:
    """Whether a module runs past ``LONG`` lines while its opening docstring does
    not say so (a reason names the figure: "longer than 300 lines because ...")."""
    doc = opening(source) or ""
    return len(source.splitlines()) > LONG and str(LONG) not in doc


def test_the_module_rules_read_what_they_must() -> None:
    short = '"""What it is for."""\nX = 1\n'
    long = "\n" * LONG + "X = 1\n"
    assert opening(short) == "What it is for." and opening("X = 1\n") is None
    assert not long_without_a_reason(short)
    assert long_without_a_reason('"""What it is for."""' + long)
    assert not long_without_a_reason(
        f'"""What it is for.\n\nIt is longer than {LONG} lines because ..."""' + long
    )


@pytest.mark.parametrize("name", [n for n in SOURCES if n.startswith("generator/")])
def test_every_module_says_what_it_is_for_and_a_long_one_why(name: str) -> None:
    source = (REPO / name).read_text(encoding="utf-8")
    assert opening(source), f"{name}: no docstring says what the module is for"
    assert not long_without_a_reason(
        source
    ), f"{name}: {len(source.splitlines())} lines, and its docstring says not why"


#: Issue 13 §2: templates render only what varies, and none is over 150 lines.
TEMPLATE_LINES = 150


@pytest.mark.parametrize(
    "name",
    sorted(p.relative_to(REPO).as_posix() for p in (REPO / "templates").rglob("*.j2")),
)
def test_no_template_is_over_150_lines(name: str) -> None:
    lines = len((REPO / name).read_text(encoding="utf-8").splitlines())
    assert lines <= TEMPLATE_LINES, f"{name}: {lines} lines; move a part to its own"
