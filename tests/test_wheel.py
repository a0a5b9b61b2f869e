"""The wheel carries every target folder, whole, with nothing listed by hand.

Issue 31 §2: a new target is its folders and nothing else, so the packaging
finds every package under ``generator/`` and ships each target's
``target.toml`` and runtime by glob.  When a target folder was listed by hand in
pyproject.toml, a folder left off the list made a wheel without it, whose every
command exited 70, and only the slow install test noticed.  Here the checkout's
working tree is copied and built into a wheel (``pip wheel``, no isolation, no
dependencies: about 2 s), and the wheel must hold every file of ``generator/``
and ``templates/`` as git lists them, under the import package ``taxogen``
(issue 33: no top-level name a user's folder could shadow): the tree is the
oracle, never the packaging's own configuration.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from tests.test_install import copy_working_tree, ok

REPO = Path(__file__).resolve().parent.parent


def build_wheel(tree: Path, out: Path) -> Path:
    """The wheel ``pip wheel`` builds from ``tree`` into ``out``."""
    ok(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--quiet",
            "--no-deps",
            "--no-build-isolation",
            "--wheel-dir",
            out,
            tree,
        ],
        tree,
    )
    (wheel,) = out.glob("*.whl")
    return wheel


def shipped(wheel: Path) -> set[str]:
    """The package files a wheel holds (its .dist-info aside)."""
    with zipfile.ZipFile(wheel) as archive:
        return {
            name
            for name in archive.namelist()
            if not name.split("/")[0].endswith(".dist-info")
        }


def package_files(tree: Path) -> set[str]:
    """What a wheel of ``tree`` must hold: every file git lists under
    ``generator/`` as ``taxogen/``, and under ``templates/`` as
    ``taxogen/templates/``."""
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=tree,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    found = set()
    for name in filter(None, listed.split("\0")):
        if not (tree / name).is_file():
            continue
        if name.startswith("generator/"):
            found.add("taxogen/" + name.removeprefix("generator/"))
        elif name.startswith("templates/"):
            found.add("taxogen/" + name)
    return found


@pytest.fixture(scope="module")
def tree(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return copy_working_tree(tmp_path_factory.mktemp("tree") / "taxogen")


def test_the_wheel_holds_every_file_of_the_package_and_templates(
    tree: Path, tmp_path: Path
) -> None:
    expected = package_files(REPO)
    assert "taxogen/targets/go/runtime/runtime.go" in expected  # the oracle sees it
    names = shipped(build_wheel(tree, tmp_path))
    assert names == expected
    # One top-level name, the tool's own: nothing named generator/ or templates/.
    assert {name.split("/")[0] for name in names} == {"taxogen"}


def test_a_new_target_folder_ships_without_a_line_elsewhere(
    tree: Path, tmp_path: Path
) -> None:
    """A folder added beside the others, with a runtime in a language nothing
    names yet, is in the wheel, whole."""
    folder = tree / "generator" / "targets" / "scratch"
    (folder / "runtime").mkdir(parents=True)
    (folder / "__init__.py").write_text('"""A scratch target."""\n')
    (folder / "target.toml").write_text(
        '[[targets]]\nname = "scratch"\norder = 99\ndefault = false\n'
        'writes = "scratch/"\nsummary = "a scratch"\n'
    )
    (folder / "runtime" / "runtime.rs").write_text("pub fn f() {}\n")
    try:
        names = shipped(build_wheel(tree, tmp_path))
    finally:
        shutil.rmtree(folder)
    for name in ("__init__.py", "target.toml", "runtime/runtime.rs"):
        assert f"taxogen/targets/scratch/{name}" in names
