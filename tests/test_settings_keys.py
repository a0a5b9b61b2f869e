"""Every key of the settings is one taxogen reads, in pyproject.toml or taxogen.toml.

Issue 33 §4: a typo in ``[tool.taxogen]`` (``tagets = ["python"]``) was
silently ignored, every default target written, exit 0.  Now a key the
section does not know is an error where it stands, with the key it is closest
to; and the same keys can live at the top of a standalone ``taxogen.toml``
(a Go- or TypeScript-only repository has no pyproject.toml), read first in a
folder, with a ``[tool.taxogen]`` beside it refused rather than ignored.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from taxogen.cli import main
from tests.support import REPO

MINIMAL = REPO / "tests" / "cases" / "minimal" / "taxonomy.yaml"


def _run(folder: Path, argv: list[str], monkeypatch: pytest.MonkeyPatch) -> int:
    monkeypatch.chdir(folder)
    try:
        return main(argv, use_memo=False)
    except SystemExit as exc:  # argparse's refusals
        return int(exc.code or 0)


def _where(text: str, key: str) -> tuple[int, int]:
    """The line of ``key`` in ``text`` and the column (1-based) of its value,
    where settings messages point (docs "The command line": at the value),
    found in the file as written."""
    for number, line in enumerate(text.splitlines(), 1):
        if line.startswith(key):
            return number, line.index("=") + 3
    raise AssertionError(key)


def _project(folder: Path, name: str, text: str) -> None:
    shutil.copy(MINIMAL, folder / "taxonomy.yaml")
    (folder / name).write_text(text, encoding="utf-8")


@pytest.mark.parametrize(
    ("typo", "meant"), [("tagets", "targets"), ("templats", "templates")]
)
def test_a_typo_in_tool_taxogen_is_an_error_at_its_line_with_the_key_meant(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    typo: str,
    meant: str,
) -> None:
    text = f'[project]\nname = "x"\n\n[tool.taxogen]\nout = "gen"\n{typo} = "x"\n'
    _project(tmp_path, "pyproject.toml", text)
    assert _run(tmp_path, ["generate", "-q"], monkeypatch) == 2
    line, col = _where(text, typo)
    err = capsys.readouterr().err
    assert (
        f"pyproject.toml:{line}:{col}: error: tool.taxogen.{typo}: unknown key "
        f"{typo!r} (did you mean {meant!r}?)"
    ) in err
    assert "Traceback" not in err
    assert not (tmp_path / "gen").exists()  # nothing written


def test_a_key_close_to_none_is_still_refused_and_every_key_named(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _project(tmp_path, "pyproject.toml", "[tool.taxogen]\nzzz = 1\n")
    assert _run(tmp_path, ["check"], monkeypatch) == 2
    err = capsys.readouterr().err
    assert "unknown key 'zzz'; expected one of " in err
    # docs "The command line": the keys [tool.taxogen] takes.
    for key in ("taxonomy", "out", "targets", "templates", "lint", "plugins", "go"):
        assert key in err.split("expected one of ")[1]


def test_every_key_the_readme_documents_is_accepted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "tpl").mkdir()
    text = (
        '[tool.taxogen]\ntaxonomy = "taxonomy.yaml"\nout = "gen"\n'
        'targets = ["docs", "go"]\ntemplates = "tpl"\n'
        "[tool.taxogen.lint]\n[tool.taxogen.plugins]\n"
        '[tool.taxogen.go]\nmodule = "example.com/x"\n'
    )
    _project(tmp_path, "pyproject.toml", text)
    assert _run(tmp_path, ["generate", "-q"], monkeypatch) == 0
    assert (tmp_path / "gen" / "docs" / "errors.md").is_file()


def test_a_taxogen_toml_holds_the_same_keys_at_its_top_level(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _project(tmp_path, "taxogen.toml", 'out = "gen"\ntargets = ["docs"]\n')
    assert _run(tmp_path, ["generate", "-q"], monkeypatch) == 0
    written = {
        p.relative_to(tmp_path / "gen").as_posix()
        for p in (tmp_path / "gen").rglob("*")
        if p.is_file()
    }
    assert written == {"docs/errors.md", ".taxogen-manifest.json"}
    assert _run(tmp_path, ["check"], monkeypatch) == 0


def test_a_taxogen_toml_is_found_from_a_folder_below(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / ".git").mkdir()  # the repository root the search stops at
    _project(tmp_path, "taxogen.toml", 'out = "gen"\ntargets = ["docs"]\n')
    below = tmp_path / "src" / "deep"
    below.mkdir(parents=True)
    assert _run(below, ["generate", "-q"], monkeypatch) == 0
    assert (tmp_path / "gen" / "docs" / "errors.md").is_file()


def test_a_typo_in_taxogen_toml_points_at_its_own_key(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    text = 'out = "gen"\n\n[go]\nmodul = "example.com/x"\n'
    _project(tmp_path, "taxogen.toml", text)
    assert _run(tmp_path, ["generate", "-q"], monkeypatch) == 2
    line, col = _where(text, "modul")
    err = capsys.readouterr().err
    assert f"taxogen.toml:{line}:{col}: error: go.modul: " in err
    assert "tool.taxogen" not in err


def test_tool_taxogen_beside_a_taxogen_toml_is_refused_not_ignored(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _project(tmp_path, "taxogen.toml", 'out = "gen"\n')
    text = '[project]\nname = "x"\n\n[tool.taxogen]\nout = "other"\n'
    (tmp_path / "pyproject.toml").write_text(text, encoding="utf-8")
    assert _run(tmp_path, ["generate", "-q"], monkeypatch) == 2
    err = capsys.readouterr().err
    assert "taxogen.toml beside this file configures taxogen too; keep one" in err
    assert "pyproject.toml:4:" in err  # the [tool.taxogen] header's line
    assert not (tmp_path / "gen").exists() and not (tmp_path / "other").exists()


def test_a_pyproject_without_tool_taxogen_beside_taxogen_toml_is_fine(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _project(tmp_path, "taxogen.toml", 'out = "gen"\ntargets = ["docs"]\n')
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "x"\n', "utf-8")
    assert _run(tmp_path, ["generate", "-q"], monkeypatch) == 0
    assert (tmp_path / "gen" / "docs" / "errors.md").is_file()
