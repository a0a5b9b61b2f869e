"""taxogen co-installs with the black a project already uses, and writes the same bytes.

Issue 33 §1: an exact ``black==`` pin made ``pip install taxogen black==25.1.0``
unresolvable.  taxogen requires a range of black (pyproject.toml); the
generated Python is black's layout, written by taxogen's own helpers and
passed through black only for a line they cannot lay out (two golden cases
today), so the output must not depend on which black of the range is there.
Here the oldest black the range admits is installed beside taxogen's wheel in
a fresh virtual environment, from PyPI, and every golden case is generated
with it: each file must equal the golden one byte for byte (the newest black
of the range is the one the rest of the suite runs with, pinned in
constraints.txt).
"""

from __future__ import annotations

import re
import sys
import tomllib
from pathlib import Path

import pytest

from tests.support import REPO, Case, case_ids, cases, package
from tests.test_install import copy_working_tree, ok
from tests.test_wheel import build_wheel


def _range() -> tuple[str, str]:
    """The lowest black version pyproject.toml admits, and its upper bound."""
    project = tomllib.loads((REPO / "pyproject.toml").read_text("utf-8"))["project"]
    (black,) = [d for d in project["dependencies"] if d.startswith("black")]
    found = re.fullmatch(r"black>=([\d.]+),<([\d.]+)", black)
    assert found, f"black is not required as a range: {black!r}"
    return found.group(1), found.group(2)


def test_black_is_a_range_that_admits_the_pinned_version() -> None:
    low, high = _range()
    pinned = [
        line.split("==")[1]
        for line in (REPO / "constraints.txt").read_text("utf-8").splitlines()
        if line.startswith("black==")
    ]
    assert pinned, "constraints.txt pins the black the suite runs with"

    def key(version: str) -> tuple[int, ...]:
        return tuple(int(part) for part in version.split("."))

    assert key(low) <= key(pinned[0]) < key(high)


@pytest.fixture(scope="module")
def oldest(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A virtual environment with taxogen's wheel and the oldest black allowed."""
    root = tmp_path_factory.mktemp("black")
    tree = copy_working_tree(root / "taxogen")
    wheel = build_wheel(tree, root / "dist")
    venv = root / "venv"
    ok([sys.executable, "-m", "venv", venv], root)
    python = venv / "bin" / "python"
    low, _high = _range()
    ok([python, "-m", "pip", "install", "--quiet", f"black=={low}"], root)
    # taxogen's other requirements as the suite has them, taxogen without its
    # own (black would be upgraded to the pin otherwise).
    pins = [
        line
        for line in (REPO / "constraints.txt").read_text("utf-8").splitlines()
        if line.lower().startswith(("jinja2==", "markupsafe==", "pyyaml=="))
    ]
    ok([python, "-m", "pip", "install", "--quiet", *pins], root)
    ok([python, "-m", "pip", "install", "--quiet", "--no-deps", wheel], root)
    shown = ok([python, "-c", "import black; print(black.__version__)"], root)
    assert shown.strip() == low
    return python


@pytest.mark.parametrize("case", cases(), ids=case_ids())
def test_every_case_is_byte_identical_with_the_oldest_black(
    oldest: Path, case: Case, tmp_path: Path
) -> None:
    out = tmp_path / "out"
    ok(
        [oldest, "-P", "-m", "taxogen", "generate", "-q"]
        + ["--taxonomy", case.taxonomy, "--out", out],
        tmp_path,
    )
    golden = package(case)
    written = {p.relative_to(out) for p in out.rglob("*") if p.is_file()}
    expected = {p.relative_to(golden) for p in golden.rglob("*") if p.is_file()}
    assert written == expected
    for path in sorted(written):
        assert (out / path).read_bytes() == (golden / path).read_bytes(), path
