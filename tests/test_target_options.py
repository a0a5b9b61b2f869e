"""A target's options: ``[tool.taxogen.<target>]``, checked by the target.

Issue 31 §1: a target's options are read from its own table (Go:
``module = "example.com/acme/errors"``; ``go_module`` in ``[tool.taxogen]`` is
the old spelling and keeps working), validated by the target's folder, reported
at ``pyproject.toml:LINE:COL`` like every setting, and part of everything a
run's output depends on (the memo digests the selected targets' options).  The
expected messages are the README's words ("Choosing targets").
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from taxogen.cli import _options, main
from taxogen.settings import settings
from tests.support import REPO


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    shutil.copy(REPO / "taxonomy.yaml", tmp_path / "taxonomy.yaml")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _settings(project: Path, text: str) -> None:
    (project / "pyproject.toml").write_text(text, encoding="utf-8")


def test_the_go_table_names_the_module(project: Path) -> None:
    _settings(
        project,
        '[tool.taxogen]\ntargets = ["go"]\n\n'
        '[tool.taxogen.go]\nmodule = "example.com/acme/errors"\n',
    )
    assert main(["generate", "-q"]) == 0
    go = project / "generated" / "go"
    assert "\nmodule example.com/acme/errors\n" in (go / "go.mod").read_text()
    assert main(["check"]) == 0
    text = (project / "pyproject.toml").read_text()
    _settings(project, text.replace("acme/errors", "acme/other"))
    assert main(["check"]) == 1  # the memo must not answer for another module


def _errors(capsys: pytest.CaptureFixture[str]) -> list[str]:
    """The error lines of a refused run (its last line says nothing was written)."""
    assert main(["generate"]) == 2
    return capsys.readouterr().err.splitlines()[:-1]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            '[tool.taxogen]\ngo_module = "example.com/a"\n\n'
            '[tool.taxogen.go]\nmodule = "example.com/b"\n',
            "pyproject.toml:2:13: error: tool.taxogen.go_module: the old spelling "
            "of tool.taxogen.go.module, which is given too; keep one",
        ),
        (
            '[tool.taxogen.go]\nmodul = "example.com/b"\n',
            "pyproject.toml:2:9: error: tool.taxogen.go.modul: not an option of "
            "the go target; expected one of module",
        ),
        (
            "[tool.taxogen.docs]\ntitle = 3\n",
            "pyproject.toml:2:9: error: tool.taxogen.docs.title: not an option of "
            "the docs target; it takes none",
        ),
        (
            "[tool.taxogen]\ngo = 3\n",
            "pyproject.toml:2:6: error: tool.taxogen.go: expected a table, got "
            "integer 3",
        ),
        (
            '[tool.taxogen.go]\nmodule = "a b"\n',
            "pyproject.toml:2:10: error: tool.taxogen.go.module: expected a Go "
            "module path (as example.com/acme/errors), got 'a b'",
        ),
    ],
)
def test_a_wrong_option_is_refused_where_it_stands(
    project: Path, capsys: pytest.CaptureFixture[str], text: str, message: str
) -> None:
    _settings(project, text)
    assert _errors(capsys) == [message]
    assert not (project / "generated").exists()


def test_the_memo_digests_the_options_of_the_selected_targets_only(
    project: Path,
) -> None:
    _settings(project, '[tool.taxogen.go]\nmodule = "example.com/acme/errors"\n')
    config = settings(project)
    assert _options(config, ("go", "docs")) == {
        "go.module": '"example.com/acme/errors"'
    }
    assert _options(config, ("docs",)) == {}  # go writes nothing: nothing changes
    assert _options(config, None) == {}  # go is off by default (README)
