"""Arguments and config that cannot be turned against the user (issue 12, section 5)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from taxogen.cli import main
from tests.support import REPO, require_tool


def _git(repo: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=repo, check=True, capture_output=True)


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    require_tool(shutil.which("git") is not None, "git")
    folder = tmp_path / "a repo"  # a space in the path
    (folder / "spec dir").mkdir(parents=True)
    shutil.copy(REPO / "taxonomy.yaml", folder / "spec dir" / "my taxonomy.yaml")
    _git(folder, "init", "-q")
    _git(folder, "-c", "user.name=t", "-c", "user.email=t@t", "add", ".")
    _git(folder, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "x")
    monkeypatch.chdir(folder)
    return folder


def test_a_path_with_spaces_works(repo: Path) -> None:
    assert (
        main(["diff", "--against", "HEAD", "--taxonomy", "spec dir/my taxonomy.yaml"])
        == 0
    )


@pytest.mark.parametrize(
    "ref", ["--output=/tmp/pwned", "-p", "", "HEAD\n", "no-such-ref"]
)
def test_option_like_or_unknown_refs_are_refused_before_git_runs(
    repo: Path, ref: str, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["diff", f"--against={ref}", "--taxonomy", "spec dir/my taxonomy.yaml"]
    try:
        status = main(argv)
    except SystemExit as exc:  # argparse itself refuses some option-like values
        status = int(exc.code or 0)
    assert status == 2
    assert "Traceback" not in capsys.readouterr().err
    assert not Path("/tmp/pwned").exists()


def test_no_git_repository_is_a_clear_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    require_tool(shutil.which("git") is not None, "git")
    shutil.copy(REPO / "taxonomy.yaml", tmp_path / "taxonomy.yaml")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("GIT_CEILING_DIRECTORIES", str(tmp_path.parent))
    assert main(["diff", "--against", "HEAD"]) == 2
    assert "not in a git repository" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("toml", "line", "col", "key"),
    [
        ("tool = 1\n", 1, 8, "tool"),
        ("[tool.taxogen]\nout = 3\n", 2, 7, "tool.taxogen.out"),
        ("[tool.taxogen]\ntaxonomy = ['a']\n", 2, 12, "tool.taxogen.taxonomy"),
        ("[tool]\ntaxogen = 'x'\n", 2, 11, "tool.taxogen"),
        ("[tool.taxogen.lint]\nenable = 'x'\n", 2, 10, "tool.taxogen.lint.enable"),
        ("[tool.taxogen]\nlint = [1]\n", 2, 8, "tool.taxogen.lint"),
    ],
)
def test_config_values_of_the_wrong_type_point_at_their_line(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    toml: str,
    line: int,
    col: int,
    key: str,
) -> None:
    (tmp_path / "pyproject.toml").write_text(toml)
    monkeypatch.chdir(tmp_path)
    for command in (["generate"], ["check"], ["lint"]):
        assert main(command) == 2
        err = capsys.readouterr().err
        assert f"pyproject.toml:{line}:{col}: error: {key}: expected" in err, err


def test_a_hostile_file_name_stays_inside_every_header(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    name = "x --> <b>* \u2028.yaml"
    shutil.copy(REPO / "taxonomy.yaml", tmp_path / name)
    monkeypatch.chdir(tmp_path)
    assert main(["generate", "-q", "--taxonomy", name, "--out", "out"]) == 0
    for path in (tmp_path / "out").rglob("*"):
        if path.is_file() and path.suffix in (".md", ".py", ".ts", ".toml", ".json"):
            head = path.read_text(encoding="utf-8").split("\n", 3)[:3]
            text = "\n".join(head)
            assert "-->" not in text.replace("<!-- ", "").rsplit(" -->", 1)[0]
            assert "\u2028" not in text and "<b>" not in text
