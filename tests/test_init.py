"""``taxogen init [DIR]``: a starter that generates, checks and lints cleanly.

Issue 33 §2: one command writes a starter taxonomy (one domain, a few codes,
one with typed details and a message template, comments that teach the
format) and the configuration, refuses to overwrite anything, and what it
writes generates and checks cleanly (and passes ``lint --strict``, the shipped
pre-commit hook, with default settings).
"""

from __future__ import annotations

import builtins
import os
from pathlib import Path

import pytest

from taxogen.cli import main
from taxogen.pipeline import load_taxonomy


def _run(folder: Path, argv: list[str], monkeypatch: pytest.MonkeyPatch) -> int:
    monkeypatch.chdir(folder)
    try:
        return main(argv, use_memo=False)
    except SystemExit as exc:
        return int(exc.code or 0)


def test_init_then_generate_check_and_lint_in_an_empty_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    project = tmp_path / "billing-api"
    assert _run(tmp_path, ["init", "billing-api"], monkeypatch) == 0
    assert sorted(p.name for p in project.iterdir()) == [
        "taxogen.toml",
        "taxonomy.yaml",
    ]
    for argv in (["generate", "-q"], ["check"], ["lint", "--strict"]):
        assert _run(project, argv, monkeypatch) == 0, argv
    assert (project / "generated" / "python" / "src" / "billing_api_errors").is_dir()


def test_the_starter_shows_what_the_issue_asks_of_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert _run(tmp_path, ["init"], monkeypatch) == 0
    text = (tmp_path / "taxonomy.yaml").read_text("utf-8")
    taxonomy = load_taxonomy(tmp_path / "taxonomy.yaml")
    assert len(taxonomy.domains) == 1
    codes = [code for domain in taxonomy.domains for code in domain.codes]
    assert len(codes) >= 3
    assert any(code.fields and code.message for code in codes)
    comments = [line for line in text.splitlines() if line.lstrip().startswith("#")]
    assert len(comments) >= 10  # it teaches the format


@pytest.mark.parametrize("existing", ["taxonomy.yaml", "taxogen.toml"])
def test_init_overwrites_nothing(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    existing: str,
) -> None:
    (tmp_path / existing).write_text("mine\n", encoding="utf-8")
    assert _run(tmp_path, ["init"], monkeypatch) == 2
    assert f"has {existing} already" in capsys.readouterr().err
    assert [p.name for p in tmp_path.iterdir()] == [existing]
    assert (tmp_path / existing).read_text("utf-8") == "mine\n"


def test_init_refuses_a_project_its_pyproject_configures_already(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pyproject = '[project]\nname = "x"\n\n[tool.taxogen]\nout = "gen"\n'
    (tmp_path / "pyproject.toml").write_text(pyproject, encoding="utf-8")
    assert _run(tmp_path, ["init"], monkeypatch) == 2
    assert [p.name for p in tmp_path.iterdir()] == ["pyproject.toml"]


def test_init_beside_a_pyproject_without_tool_taxogen_works(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "x"\n', "utf-8")
    assert _run(tmp_path, ["init"], monkeypatch) == 0
    assert _run(tmp_path, ["generate", "-q"], monkeypatch) == 0
    assert _run(tmp_path, ["check"], monkeypatch) == 0


def test_a_link_planted_as_the_taxonomy_is_refused_and_its_target_untouched(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    victim = tmp_path / "victim.txt"
    victim.write_text("keep\n", encoding="utf-8")
    project = tmp_path / "p"
    project.mkdir()
    os.symlink(victim, project / "taxogen.toml")
    assert _run(project, ["init"], monkeypatch) == 2
    assert victim.read_text("utf-8") == "keep\n"
    assert not (project / "taxonomy.yaml").exists()


def test_a_folder_whose_name_makes_a_builtin_gets_a_valid_name(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A folder ``type`` would make the base class ``TypeError``, a Python
    builtin taxogen refuses as a class name: the starter must still work."""
    assert "TypeError" in dir(builtins)
    project = tmp_path / "type"
    assert _run(tmp_path, ["init", "type"], monkeypatch) == 0
    assert _run(project, ["generate", "-q"], monkeypatch) == 0
    assert _run(project, ["check"], monkeypatch) == 0
    assert load_taxonomy(project / "taxonomy.yaml").base != "TypeError"
