"""Selecting targets: ``targets`` in ``[tool.taxogen]`` and ``--target NAME``.

Issue 15: each built-in output can be generated alone.  The README names each
target's folder in the output folder; a selection writes exactly those folders,
a later selection removes what is no longer selected (as any obsolete file), and
``check`` holds the folder to the selection.  A name that is no target is an
error before anything is written.
"""

from __future__ import annotations

import functools
import importlib
import shutil
from pathlib import Path

import pytest

from taxogen.cli import main
from taxogen.pipeline import build_plan
from taxogen.settings import DEFAULT_TARGETS, TARGET_NAMES
from taxogen.targets import every
from tests import readme_targets
from tests.support import REPO

MANIFEST = ".taxogen-manifest.json"
#: docs "Choosing targets": what is generated when nothing is selected.
DEFAULT = ("python", "typescript", "docs", "schema", "conformance")


def _defined() -> dict[str, str]:
    """Every target a folder's target.py defines, and the folder."""
    found = {}
    for path in sorted((REPO / "generator" / "targets").glob("*/target.py")):
        module = importlib.import_module(f"taxogen.targets.{path.parent.name}.target")
        found.update({target.name: path.parent.name for target in module.TARGETS})
    return found


def test_the_command_line_knows_every_target_a_folder_defines() -> None:
    assert set(TARGET_NAMES) == set(_defined())
    assert tuple(target.name for target in every()) == TARGET_NAMES
    assert set(DEFAULT) <= set(DEFAULT_TARGETS)  # README: these, and any new one


@functools.cache
def _folders(name: str) -> set[str]:
    """The top folders of what the target ``name`` writes for the shipped taxonomy."""
    plan = build_plan(REPO / "taxonomy.yaml", [name])
    return {path.split("/")[0] + "/" for path in plan if path != MANIFEST}


@pytest.mark.parametrize("name", TARGET_NAMES)
def test_one_target_writes_one_folder_of_its_own(name: str) -> None:
    (folder,) = _folders(name)
    others = {other for other in TARGET_NAMES if other != name}
    assert all(folder not in _folders(other) for other in others)


#: README "What is generated": the folder of the output folder each built-in
#: target writes.
FOLDERS = {
    "python": "python/",
    "typescript": "typescript/",
    "docs": "docs/",
    "schema": "schema/",
    "conformance": "conformance/",
    "openapi": "openapi/",
    "go": "go/",
}


@pytest.mark.parametrize("name", list(FOLDERS))
def test_a_built_in_target_writes_the_folder_the_readme_names(name: str) -> None:
    assert _folders(name) == {FOLDERS[name]}


def test_the_default_targets_together_are_the_default_plan() -> None:
    """Each target writes the same files whatever is selected beside it, but
    the docs page, which lists what was generated beside it (issue 33 §6,
    tests/targets/docs/test_docs_generated.py)."""
    default = build_plan(REPO / "taxonomy.yaml")
    assert build_plan(REPO / "taxonomy.yaml", DEFAULT) == default
    varies = {MANIFEST, "docs/errors.md"}
    alone = {
        path: data
        for name in DEFAULT
        for path, data in build_plan(REPO / "taxonomy.yaml", [name]).items()
        if path not in varies
    }
    assert {p: data for p, data in default.items() if p not in varies} == alone
    everything = build_plan(REPO / "taxonomy.yaml", TARGET_NAMES)
    others = [name for name in TARGET_NAMES if name not in DEFAULT_TARGETS]
    assert {p for p in everything if p not in default} == {
        p for p in build_plan(REPO / "taxonomy.yaml", others) if p != MANIFEST
    }


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    shutil.copy(REPO / "taxonomy.yaml", tmp_path / "taxonomy.yaml")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _written(root: Path) -> set[str]:
    """The top folders of the generated files on disk."""
    out = root / "generated"
    return {
        path.relative_to(out).parts[0] + "/"
        for path in out.rglob("*")
        if path.is_file() and path.name != MANIFEST
    }


def test_a_new_selection_removes_what_is_no_longer_selected(project: Path) -> None:
    assert main(["generate", "-q", "--target", "docs", "--target", "schema"]) == 0
    assert _written(project) == {FOLDERS["docs"], FOLDERS["schema"]}
    assert main(["check", "--target", "schema", "--target", "docs"]) == 0
    assert main(["check"]) == 1  # every target: most files are missing
    assert main(["generate", "-q", "--target", "python"]) == 0
    assert _written(project) == {FOLDERS["python"]}
    assert main(["check", "--target", "python"]) == 0
    assert main(["check", "--target", "docs"]) == 1


def test_the_selection_in_pyproject_and_the_option_over_it(project: Path) -> None:
    (project / "pyproject.toml").write_text(
        '[tool.taxogen]\ntargets = ["conformance", "docs"]\n', encoding="utf-8"
    )
    assert main(["generate", "-q"]) == 0
    assert _written(project) == {FOLDERS["conformance"], FOLDERS["docs"]}
    assert main(["check"]) == 0
    # The command line's selection replaces the file's, it does not add to it.
    assert main(["generate", "-q", "--target", "typescript"]) == 0
    assert _written(project) == {FOLDERS["typescript"]}


@pytest.mark.parametrize(
    ("value", "message"),
    [
        (
            '["docs", "cobol", 3]',
            [
                "pyproject.toml:2:11: error: tool.taxogen.targets: item 2: expected "
                f"one of {', '.join(TARGET_NAMES)}, got 'cobol'",
                "pyproject.toml:2:11: error: tool.taxogen.targets: item 3: expected "
                f"one of {', '.join(TARGET_NAMES)}, got integer 3",
            ],
        ),
        (
            "[]",
            [
                "pyproject.toml:2:11: error: tool.taxogen.targets: expected a "
                "non-empty list of target names, got an empty list"
            ],
        ),
        (
            '"docs"',
            [
                "pyproject.toml:2:11: error: tool.taxogen.targets: expected a "
                "non-empty list of target names, got string 'docs'"
            ],
        ),
    ],
)
def test_a_wrong_selection_in_pyproject_points_at_it(
    project: Path, capsys: pytest.CaptureFixture[str], value: str, message: list[str]
) -> None:
    (project / "pyproject.toml").write_text(
        f"[tool.taxogen]\ntargets = {value}\n", encoding="utf-8"
    )
    capsys.readouterr()
    assert main(["generate"]) == 2
    assert capsys.readouterr().err.splitlines()[:-1] == message
    assert not (project / "generated").exists()


def test_an_unknown_target_option_writes_nothing(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["generate", "--target", "cobol"])
    assert exited.value.code == 2
    assert "invalid choice: 'cobol'" in capsys.readouterr().err
    assert not (project / "generated").exists()


def test_the_readme_table_of_targets_is_every_targets_own_row() -> None:
    """Issue 31 §2: README's "What is generated" is made from each target's
    target.toml by ``make golden``, a row per discovered target in planning
    order; a README edited by hand, or a target added without ``make golden``,
    fails here."""
    readme = (REPO / "README.md").read_text("utf-8")
    start = readme.index(readme_targets.START)
    end = readme.index(readme_targets.END) + len(readme_targets.END)
    assert readme[start:end] == readme_targets.table()
    rows = readme[start:end].splitlines()[3:-1]
    named = [row.split(" | ")[1].split("`")[1] for row in rows]
    assert sorted(named) == sorted(_defined())  # each folder's targets, once
