"""`taxogen diff` and `taxogen lint` from the command line: formats, exit codes, git."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml

from taxogen.cli import main
from tests.support import REPO, require_tool

BASE = (REPO / "taxonomy.yaml").read_text(encoding="utf-8")
RETRYABLE_FLIP = (
    "      task_timeout:\n        retryable: true",
    "      task_timeout:\n        retryable: false",
)
ADDED = (
    "      task_cancelled: {retryable: false, meaning: Task was cancelled}\n",
    "      task_cancelled: {retryable: false, meaning: Task was cancelled}\n"
    "      task_stalled: {retryable: true, meaning: Task stopped making progress,"
    " since: 0.3.0}\n",
)


def _write(path: Path, *edits: tuple[str, str], version: str | None = None) -> Path:
    text = BASE
    for old, new in edits:
        assert old in text
        text = text.replace(old, new, 1)
    if version is not None:
        text = text.replace("version: 0.2.0", f"version: {version}")
    path.write_text(text, encoding="utf-8")
    return path


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    _write(tmp_path / "old.yaml")
    return tmp_path


def test_diff_breaking_change_needs_a_bump(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _write(project / "new.yaml", RETRYABLE_FLIP)
    assert main(["diff", "old.yaml", "new.yaml"]) == 1
    out, err = capsys.readouterr()
    assert (
        "new.yaml:" in out and "breaking retryable-changed: code 'task_timeout'" in out
    )
    assert "too small" in err and "0.3.0" in err
    _write(project / "new.yaml", RETRYABLE_FLIP, version="0.3.0")
    assert main(["diff", "old.yaml", "new.yaml"]) == 0


def test_diff_addition_needs_a_minor_bump(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _write(project / "new.yaml", ADDED, version="0.2.1")
    assert main(["diff", "old.yaml", "new.yaml"]) == 1
    assert (
        "compatible code-added: code 'task_stalled' was added"
        in capsys.readouterr().out
    )
    _write(project / "new.yaml", ADDED, version="0.3.0")
    assert main(["diff", "old.yaml", "new.yaml"]) == 0


def test_diff_of_date_versions_has_no_bump_rule_and_never_goes_back(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 14 §4: a date version says what the release is; only going back
    fails, and a move from semantic to date versions is said as such."""
    _write(project / "old.yaml", version="2024-06-20")
    _write(project / "new.yaml", RETRYABLE_FLIP, version="2024-09-01")
    assert main(["diff", "old.yaml", "new.yaml"]) == 0
    out = capsys.readouterr().out
    assert "breaking retryable-changed" in out
    assert out.endswith(
        "version 2024-06-20 → 2024-09-01: ok (a date version has no bump rule, it "
        "only must not go backwards); this release is breaking\n"
    )
    _write(project / "new.yaml", ADDED, version="2024-06-19")
    assert main(["diff", "old.yaml", "new.yaml"]) == 1
    assert capsys.readouterr().err == (
        "version 2024-06-20 → 2024-06-19 goes backwards: a date version must not be "
        "earlier than the one before (this release is compatible)\n"
    )
    _write(project / "old.yaml")
    assert main(["diff", "old.yaml", "new.yaml", "--format", "json"]) == 0
    version = json.loads(capsys.readouterr().out)["version"]
    assert (version["ok"], version["required"]) == (True, "none")
    assert "moves from semantic to date versions" in version["message"]


def test_diff_json_and_github_formats(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    new = _write(project / "new.yaml", RETRYABLE_FLIP, ADDED)
    assert main(["diff", "old.yaml", "new.yaml", "--format", "json"]) == 1
    document = json.loads(capsys.readouterr().out)
    assert {(c["kind"], c["rule"]) for c in document["changes"]} == {
        ("breaking", "retryable-changed"),
        ("compatible", "code-added"),
    }
    assert document["version"] == {
        **document["version"],
        "ok": False,
        "required": "minor",
    }
    line = next(
        i for i, t in enumerate(new.read_text().splitlines(), 1) if "task_timeout:" in t
    )
    assert any(c["line"] == line for c in document["changes"])

    assert main(["diff", "old.yaml", "new.yaml", "--format", "github"]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert (
        f"::error file=new.yaml,line={line},col=7,title=breaking%3A"
        " retryable-changed::code 'task_timeout': retryable changed from true to false"
        in lines
    )
    assert any(
        l.startswith("::notice file=new.yaml,") and "code-added" in l for l in lines
    )
    assert any(
        l.startswith("::error file=new.yaml,line=") and "version bump too small" in l
        for l in lines
    )


def test_diff_bad_input_exits_2(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (project / "new.yaml").write_text("format: 1\nname: [\n", encoding="utf-8")
    assert main(["diff", "old.yaml", "new.yaml"]) == 2
    assert "new.yaml:" in capsys.readouterr().err
    assert main(["diff"]) == 2


def _git(cwd: Path, *args: str) -> None:
    subprocess.run(
        ["git", "-c", "user.name=t", "-c", "user.email=t@example.invalid", *args],
        cwd=cwd,
        check=True,
        capture_output=True,
    )


def test_diff_against_a_git_revision(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    require_tool(shutil.which("git") is not None, "git")
    repo = tmp_path / "repo"
    (repo / "spec").mkdir(parents=True)
    (repo / "pyproject.toml").write_text(
        '[tool.taxogen]\ntaxonomy = "spec/taxonomy.yaml"\n', encoding="utf-8"
    )
    _write(repo / "spec/taxonomy.yaml")
    _git(repo, "init", "-q")
    _git(repo, "add", ".")
    _git(repo, "commit", "-qm", "first")
    _write(repo / "spec/taxonomy.yaml", RETRYABLE_FLIP)
    monkeypatch.chdir(repo / "spec")
    assert main(["diff", "--against", "HEAD"]) == 1
    out = capsys.readouterr().out
    assert "HEAD:spec/taxonomy.yaml → " in out and "retryable-changed" in out
    _git(repo, "commit", "-qam", "second")
    assert main(["diff", "--against", "HEAD~1"]) == 1
    assert main(["diff", "--against", "no-such-ref"]) == 2
    assert '--against "no-such-ref": not a commit' in capsys.readouterr().err


@pytest.mark.parametrize("fmt", ["text", "json", "github"])
def test_diff_against_a_revision_without_the_taxonomy_reports_a_new_one(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    fmt: str,
) -> None:
    """Issue 33 §5: the pull request that first adds a taxonomy is diffed
    against a base branch that has none: a new taxonomy, exit 0, not an
    error; an invalid new one is still exit 2."""
    require_tool(shutil.which("git") is not None, "git")
    repo = tmp_path / "repo"
    repo.mkdir()
    (repo / "README").write_text("before the taxonomy\n", encoding="utf-8")
    _git(repo, "init", "-q")
    _git(repo, "add", ".")
    _git(repo, "commit", "-qm", "first")
    _write(repo / "taxonomy.yaml")
    monkeypatch.chdir(repo)
    assert main(["diff", "--against", "HEAD", "--format", fmt]) == 0
    out = capsys.readouterr().out
    version = yaml.safe_load((repo / "taxonomy.yaml").read_text("utf-8"))["version"]
    if fmt == "json":
        document = json.loads(out)
        assert document["old"] is None and document["changes"] == []
        assert document["new"]["version"] == version and document["version"]["ok"]
    elif fmt == "github":
        assert out.startswith("::notice file=taxonomy.yaml,line=")
        assert "new taxonomy" in out
    else:
        assert f"a new taxonomy, version {version}" in out
    (repo / "taxonomy.yaml").write_text("format: 1\nname: [\n", encoding="utf-8")
    assert main(["diff", "--against", "HEAD", "--format", fmt]) == 2


def test_diff_against_the_previous_commit_works_in_a_clone_of_this_repository(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``diff --against HEAD~1`` in this repository's own layout (its
    pyproject.toml, its taxonomy.yaml): a clone gets one more commit, whose
    change is breaking and keeps the version, so README's exit table gives one
    outcome, 1 (the bump is too small), whatever this repository's history
    holds; against HEAD, nothing changed, 0.  A clone always has the parent it
    is asked for, shallow or not."""
    require_tool(shutil.which("git") is not None, "git")
    clone = tmp_path / "clone"
    _git(tmp_path, "clone", "-q", str(REPO), str(clone))
    taxonomy = clone / "taxonomy.yaml"
    text = taxonomy.read_text(encoding="utf-8")
    assert RETRYABLE_FLIP[0] in text
    taxonomy.write_text(text.replace(*RETRYABLE_FLIP, 1), encoding="utf-8")
    _git(clone, "commit", "-qam", "task_timeout is no longer retryable")
    monkeypatch.chdir(clone)
    assert main(["diff", "--against", "HEAD~1"]) == 1
    out, err = capsys.readouterr()
    assert "HEAD~1:taxonomy.yaml → taxonomy.yaml" in out
    assert "breaking retryable-changed: code 'task_timeout'" in out
    assert "too small" in err
    assert main(["diff", "--against", "HEAD"]) == 0
    assert "HEAD:taxonomy.yaml → taxonomy.yaml" in capsys.readouterr().out


def test_lint_strict_and_levels(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["lint", "--taxonomy", "old.yaml", "--strict"]) == 0
    _write(project / "bad.yaml", RETRYABLE_FLIP)
    # timeout-retryable is one style's convention: opt-in (issue 30 §9).
    assert main(["lint", "--taxonomy", "bad.yaml", "--strict"]) == 0
    (project / "pyproject.toml").write_text(
        '[tool.taxogen.lint]\nextend-select = ["timeout-retryable"]\n',
        encoding="utf-8",
    )
    assert (
        main(["lint", "--taxonomy", "bad.yaml"]) == 0
    )  # a warning alone does not fail
    assert "bad.yaml:" in capsys.readouterr().out
    assert main(["lint", "--taxonomy", "bad.yaml", "--strict"]) == 1
    out = capsys.readouterr().out
    assert ": warning timeout-retryable: 'task_timeout'" in out

    (project / "pyproject.toml").write_text(
        '[tool.taxogen.lint]\nlevel = {"timeout-retryable" = "error"}\n',
        encoding="utf-8",
    )
    assert main(["lint", "--taxonomy", "bad.yaml"]) == 1
    (project / "pyproject.toml").write_text(
        '[tool.taxogen.lint]\nselect = ["ALL"]\n'
        'ignore = ["code-domain-prefix", "task_timeout"]\n',
        encoding="utf-8",
    )
    assert main(["lint", "--taxonomy", "bad.yaml", "--strict"]) == 0
    (project / "pyproject.toml").write_text(
        '[tool.taxogen.lint]\ndisable = ["nope"]\n', encoding="utf-8"
    )
    assert main(["lint", "--taxonomy", "bad.yaml"]) == 2
    assert "unknown rule 'nope'" in capsys.readouterr().err
    (project / "pyproject.toml").write_text(
        '[tool.taxogen.lint]\nselect = ["nope"]\n', encoding="utf-8"
    )
    assert main(["lint", "--taxonomy", "bad.yaml"]) == 2
    err = capsys.readouterr().err
    assert "pyproject.toml:2:" in err and "unknown rule 'nope'" in err


def test_lint_github_format(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _write(project / "bad.yaml", RETRYABLE_FLIP)
    (project / "pyproject.toml").write_text(
        '[tool.taxogen.lint]\nextend-select = ["timeout-retryable"]\n',
        encoding="utf-8",
    )
    assert (
        main(["lint", "--taxonomy", "bad.yaml", "--format", "github", "--strict"]) == 1
    )
    assert "::error file=bad.yaml,line=" in capsys.readouterr().out


def test_shipped_taxonomy_passes_lint_strict(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(REPO)
    assert main(["lint", "--strict"]) == 0


def test_pre_commit_hooks_name_real_commands() -> None:
    text = (REPO / ".pre-commit-hooks.yaml").read_text(encoding="utf-8")
    for hook in ("taxogen-check", "taxogen-lint"):
        assert f"id: {hook}" in text
    assert "entry: taxogen check" in text and "entry: taxogen lint --strict" in text


def test_unexpected_failures_are_one_line_not_a_traceback(
    project: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import taxogen.pipeline as pipeline

    def broken(*args: object, **kwargs: object) -> dict[str, bytes]:
        raise RuntimeError("template exploded")

    monkeypatch.setattr(pipeline, "build", broken)  # the cli imports it per run
    monkeypatch.delenv("TAXOGEN_DEBUG", raising=False)
    shutil.copy(project / "old.yaml", project / "taxonomy.yaml")
    assert main(["generate"]) == 70
    err = capsys.readouterr().err
    assert (
        "internal error: RuntimeError: template exploded" in err
        and "Traceback" not in err
    )
    assert not (project / "generated").exists()
