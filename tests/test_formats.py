"""``--format text|github|json`` on every command, its errors included (issue 33 §5).

An invalid taxonomy under ``--format github`` printed plain text, not
annotations, and ``check`` had no ``--format``.  Each command is run on a
taxonomy with several problems: as text it prints ``file:line:col: error:
key: message`` lines, the oracle here; with ``github`` each of those must be
one annotation at the same file, line and column (GitHub's workflow command
syntax), and with ``json`` one document lists the same problems.  ``check``
of a drifted folder says first what to run and how many files differ, caps
its diff, never shows the manifest's digests, and speaks each format.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from taxogen import cli
from taxogen.cli import main
from tests.support import REPO

BAD = REPO / "tests" / "bad" / "booleans_as_text.yaml"
#: Every command that reads a taxonomy, with what it needs besides.
COMMANDS = {
    "generate": ["generate", "--taxonomy", str(BAD)],
    "check": ["check", "--taxonomy", str(BAD)],
    "lint": ["lint", "--taxonomy", str(BAD)],
    "model": ["model", "--taxonomy", str(BAD)],
    "diff": ["diff", str(BAD), str(BAD)],
}
_TEXT = re.compile(r"^(?P<file>[^:]+):(?P<line>\d+):(?P<col>\d+): error: (?P<rest>.*)$")


def _run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    status = main(argv, use_memo=False)
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def _problems(text: str) -> list[tuple[str, int, int, str]]:
    found = []
    for line in text.splitlines():
        match = _TEXT.match(line)
        if match:
            found.append(
                (
                    match["file"],
                    int(match["line"]),
                    int(match["col"]),
                    match["rest"],
                )
            )
    return found


@pytest.mark.parametrize("command", list(COMMANDS))
def test_every_command_reports_the_taxonomy_s_errors_in_each_format(
    command: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.chdir(tmp_path)
    status, out, err = _run(COMMANDS[command], capsys)
    assert status == 2
    problems = _problems(err)
    assert len(problems) >= 2, err  # the case holds several
    status, out, err = _run([*COMMANDS[command], "--format", "github"], capsys)
    assert status == 2
    annotations = [line for line in out.splitlines() if line.startswith("::error ")]
    assert len(annotations) == len(problems), out
    for (file, line, col, _rest), annotation in zip(problems, annotations):
        assert annotation.startswith(f"::error file={file},line={line},col={col},")
    status, out, err = _run([*COMMANDS[command], "--format", "json"], capsys)
    assert status == 2
    errors = json.loads(out)["errors"]
    assert [(e["file"], e["line"], e["col"]) for e in errors] == [
        p[:3] for p in problems
    ]
    for error, problem in zip(errors, problems):
        assert f"{error['key']}: {error['message']}" == problem[3]


def test_a_settings_error_is_an_annotation_too(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "pyproject.toml").write_text("[tool.taxogen]\nout = 3\n", "utf-8")
    monkeypatch.chdir(tmp_path)
    status, out, _err = _run(["check", "--format", "github"], capsys)
    assert status == 2
    assert out.startswith("::error file=pyproject.toml,line=2,col=7,")


@pytest.fixture
def drifted(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A project whose generated folder differs from its taxonomy in three
    files: one edited, one removed, one that was never generated."""
    shutil.copy2(REPO / "taxonomy.yaml", tmp_path / "taxonomy.yaml")
    monkeypatch.chdir(tmp_path)
    assert main(["generate", "-q"], use_memo=False) == 0
    out = tmp_path / "generated"
    page = out / "docs" / "errors.md"
    page.write_text(page.read_text("utf-8").replace("Task", "Job"), "utf-8")
    (out / "schema" / "error-payload.schema.json").unlink()
    return out


def test_check_says_first_what_to_run_and_how_many_files_differ(
    drifted: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, _err = _run(["check"], capsys)
    assert status == 1
    first = out.splitlines()[0]
    assert first == "generated is out of date (2 files differ); run `taxogen generate`"
    assert "sha256" not in out and not re.search(r"\b[0-9a-f]{64}\b", out)


def test_check_caps_its_diff(drifted: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # Each file's diff is cut at 40 lines (emit); across files, the cap holds.
    texts = sorted(p for p in drifted.rglob("*") if p.suffix in (".py", ".ts", ".md"))
    assert len(texts) > cli.CHECK_DIFF_LINES // 40
    for path in texts:
        path.write_text("\n".join(f"line {n}" for n in range(500)) + "\n", "utf-8")
    status, out, _err = _run(["check"], capsys)
    assert status == 1
    diff_lines = [line for line in out.splitlines() if line[:1] in "+- @"]
    assert len(diff_lines) <= cli.CHECK_DIFF_LINES
    assert f"more lines of diff not shown (at most {cli.CHECK_DIFF_LINES})" in out


def test_check_speaks_github_and_json(
    drifted: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, _err = _run(["check", "--format", "github"], capsys)
    assert status == 1
    annotations = [line for line in out.splitlines() if line.startswith("::error ")]
    assert sorted(a.split(",")[0] for a in annotations) == [
        "::error file=generated/docs/errors.md",
        "::error file=generated/schema/error-payload.schema.json",
    ]
    status, out, _err = _run(["check", "--format", "json"], capsys)
    assert status == 1
    document = json.loads(out)
    assert document["clean"] is False
    assert document["stale"] == ["docs/errors.md"]
    assert document["missing"] == ["schema/error-payload.schema.json"]
    assert main(["generate", "-q", "--force"], use_memo=False) == 0
    capsys.readouterr()
    status, out, _err = _run(["check", "--format", "json"], capsys)
    assert status == 0 and json.loads(out)["clean"] is True


def test_lint_speaks_json(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    status, out, _err = _run(
        ["lint", "--taxonomy", str(REPO / "taxonomy.yaml"), "--format", "json"], capsys
    )
    document = json.loads(out)
    assert status == (1 if document["failed"] else 0)
    assert document["file"].endswith("taxonomy.yaml")
