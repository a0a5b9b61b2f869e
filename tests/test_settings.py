"""Settings stop at the project, and what a run takes from them is said or refused.

Issue 29, section 3.  The settings lookup reads the first ``pyproject.toml``
found going up, with ``[tool.taxogen]`` or without, and never one beyond a
repository root (a ``.git`` folder or file), the user's home, or in a shared
temporary folder: a ``pyproject.toml`` planted above the project (in ``/tmp``, a
CI workspace, a monorepo root) must neither run its plugins and templates nor
point ``check`` at another folder.  A run that uses plugins or user templates
named by a configuration file says which file, on its first line of stderr;
``--no-plugins`` (or ``TAXOGEN_NO_PLUGINS``) refuses them, exit 2, nothing run
or written.  ``lint``, ``diff`` and ``model`` never run either.
"""

from __future__ import annotations

import os
import shutil
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from taxogen.cli import main
from taxogen.lint_config import LintConfig
from taxogen.settings import Settings, settings
from tests.support import REPO

MINIMAL = REPO / "tests" / "cases" / "minimal" / "taxonomy.yaml"
NO_PLUGINS = "TAXOGEN_NO_PLUGINS"
MARKER_PLUGIN = (
    "import sys\n"
    "open(sys.argv[1], 'w').close()\n"
    'sys.stdout.write(\'{"files": [{"path": "ran.txt", "content": "ran"}]}\')\n'
)


@pytest.fixture(autouse=True)
def _no_plugins_unset(monkeypatch: pytest.MonkeyPatch) -> None:
    """The variable of the CI that runs these tests must not decide them."""
    monkeypatch.delenv(NO_PLUGINS, raising=False)


def _status(argv: list[str], *, use_memo: bool = False) -> int:
    """``main``'s exit status, argparse's refusals (SystemExit) included."""
    try:
        return main(argv, use_memo=use_memo)
    except SystemExit as exc:
        return int(exc.code or 0)


def _plugin(folder: Path) -> tuple[str, Path]:
    """A plugin that leaves a marker file when it runs: its TOML command and the
    marker's path."""
    script = folder / "marker_plugin.py"
    script.write_text(MARKER_PLUGIN, encoding="utf-8")
    marker = folder / "PLUGIN-RAN"
    command = ", ".join(f'"{part}"' for part in (sys.executable, script, marker))
    return f"[{command}]", marker


def _templates(folder: Path, name: str) -> None:
    """A template folder whose docs page says ``PLANTED``."""
    (folder / name / "docs").mkdir(parents=True)
    (folder / name / "docs" / "errors.md.j2").write_text("PLANTED\n", "utf-8")


def _configured(folder: Path, *, plugin: bool, templates: bool) -> Path:
    """A project in ``folder`` whose pyproject.toml names a plugin and/or user
    templates: the plugin's marker file (left only if it runs)."""
    shutil.copy(MINIMAL, folder / "taxonomy.yaml")
    command, marker = _plugin(folder)
    text = "[tool.taxogen]\n"
    if templates:
        _templates(folder, "my-templates")
        text += 'templates = "my-templates"\n'
    if plugin:
        text += (
            f'[tool.taxogen.plugins]\nmarks = {{command = {command}, out = "gen"}}\n'
        )
    (folder / "pyproject.toml").write_text(text, encoding="utf-8")
    return marker


# ---------------------------------------------------------- the lookup's bounds
def _own_pyproject(outer: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (outer / "project").mkdir()
    (outer / "project" / "pyproject.toml").write_text(
        '[project]\nname = "mine"\n\n[tool.black]\nline-length = 88\n', "utf-8"
    )
    return outer / "project"


def _own_pyproject_below(outer: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (outer / "project" / "sub").mkdir(parents=True)
    (outer / "project" / "pyproject.toml").write_text(
        '[project]\nname = "mine"\n', "utf-8"
    )
    return outer / "project" / "sub"


def _git_folder(outer: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (outer / "repo" / ".git").mkdir(parents=True)
    (outer / "repo" / "sub").mkdir()
    return outer / "repo" / "sub"


def _git_file(outer: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (outer / "worktree").mkdir()
    (outer / "worktree" / ".git").write_text("gitdir: /elsewhere/.git\n", "utf-8")
    return outer / "worktree"


def _home(outer: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (outer / "home" / "work").mkdir(parents=True)
    monkeypatch.setenv("HOME", str(outer / "home"))
    return outer / "home" / "work"


def _home_through_a_link(outer: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (outer / "home" / "work").mkdir(parents=True)
    (outer / "me").symlink_to(outer / "home")
    monkeypatch.setenv("HOME", str(outer / "me") + "/")
    return outer / "home" / "work"


def _shared_temp(outer: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (outer / "work").mkdir()
    outer.chmod(0o1777)  # as /tmp is: anyone may write, the sticky bit set
    return outer / "work"


def _world_writable(outer: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (outer / "work").mkdir()
    outer.chmod(0o777)  # anyone may write, no sticky bit: as open to a plant
    return outer / "work"


LAYOUTS: dict[str, Callable[[Path, pytest.MonkeyPatch], Path]] = {
    "above its own pyproject.toml": _own_pyproject,
    "above its own pyproject.toml, run from a subfolder": _own_pyproject_below,
    "above a .git folder": _git_folder,
    "above a .git file (a worktree or submodule)": _git_file,
    "above the home folder": _home,
    "above the home folder, HOME a link with a slash": _home_through_a_link,
    "a shared temporary folder": _shared_temp,
    "a folder anyone may write to": _world_writable,
}


@pytest.mark.parametrize("layout", LAYOUTS.values(), ids=LAYOUTS.keys())
def test_a_pyproject_planted_above_the_project_is_never_read(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    layout: Callable[[Path, pytest.MonkeyPatch], Path],
) -> None:
    outer = tmp_path / "outer"
    outer.mkdir()
    here = layout(outer, monkeypatch)
    monkeypatch.chdir(here)
    shutil.copy(MINIMAL, here / "taxonomy.yaml")
    # Above the project, a taxonomy whose outputs are all up to date...
    shutil.copy(MINIMAL, outer / "taxonomy.yaml")
    good = ["--taxonomy", str(outer / "taxonomy.yaml"), "--out", str(outer / "good")]
    assert main(["generate", "-q", *good]) == 0
    # ...and a pyproject.toml pointing at them: check must not pass on its word
    # while the project's own generated/ does not even exist.
    planted = '[tool.taxogen]\ntaxonomy = "taxonomy.yaml"\nout = "good"\n'
    (outer / "pyproject.toml").write_text(planted, encoding="utf-8")
    assert main(["check"]) == 1
    # Its plugins and templates must not run either.
    command, marker = _plugin(outer)
    _templates(outer, "planted-templates")
    planted += (
        'templates = "planted-templates"\n'
        f'[tool.taxogen.plugins]\nplanted = {{command = {command}, out = "pl"}}\n'
    )
    (outer / "pyproject.toml").write_text(planted, encoding="utf-8")
    assert main(["generate", "-q"]) == 0
    assert not marker.exists()
    assert not (outer / "pl").exists()
    page = (here / "generated" / "docs" / "errors.md").read_text(encoding="utf-8")
    assert "PLANTED" not in page
    assert main(["check"]) == 0


@pytest.mark.parametrize("home", [None, "", "relative/home", "/"])
def test_an_unset_or_odd_home_changes_nothing_else(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, home: str | None
) -> None:
    if home is None:
        monkeypatch.delenv("HOME", raising=False)
    else:
        monkeypatch.setenv("HOME", home)
    (tmp_path / "pyproject.toml").write_text(
        '[tool.taxogen]\nout = "planted"\n', encoding="utf-8"
    )
    here = _git_folder(tmp_path, monkeypatch)
    monkeypatch.chdir(here)
    assert settings(Path.cwd()) == _defaults()
    (here.parent / "pyproject.toml").write_text(
        '[tool.taxogen]\nout = "mine"\n', encoding="utf-8"
    )
    assert settings(Path.cwd()).out == Path("../mine")


def _defaults() -> Settings:
    """The settings without a configuration, as docs "The command line" has
    them: taxonomy.yaml and generated/ in the current folder, every default."""
    return Settings(
        taxonomy=Path("taxonomy.yaml"),
        out=Path("generated"),
        lint=LintConfig.from_table({}),
    )


def test_the_project_s_pyproject_is_read_from_below_its_repository_root(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The repository root bounds the search, it does not hide the root's own
    pyproject.toml; nor does the home folder hide its own."""
    (tmp_path / "repo" / ".git").mkdir(parents=True)
    (tmp_path / "repo" / "a" / "b").mkdir(parents=True)
    (tmp_path / "repo" / "pyproject.toml").write_text(
        '[tool.taxogen]\nout = "out"\n', encoding="utf-8"
    )
    found = settings(tmp_path / "repo" / "a" / "b")
    assert found.out == Path(os.path.relpath(tmp_path / "repo" / "out"))
    assert found.source == Path(os.path.relpath(tmp_path / "repo" / "pyproject.toml"))
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    (tmp_path / "home" / "work").mkdir(parents=True)
    (tmp_path / "home" / "pyproject.toml").write_text(
        '[tool.taxogen]\nout = "home-out"\n', encoding="utf-8"
    )
    monkeypatch.chdir(tmp_path / "home" / "work")
    assert settings(Path.cwd()).out == Path("../home-out")


def test_a_project_without_tool_taxogen_gets_the_defaults_of_the_current_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "pyproject.toml").write_text(
        '[tool.taxogen]\nout = "planted"\n', encoding="utf-8"
    )
    (tmp_path / "project" / "sub").mkdir(parents=True)
    (tmp_path / "project" / "pyproject.toml").write_text("[tool.black]\n", "utf-8")
    monkeypatch.chdir(tmp_path / "project" / "sub")
    assert settings(Path.cwd()) == _defaults()


def test_a_pyproject_that_is_not_a_regular_file_is_an_error_not_a_hang(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The first pyproject.toml going up is the project's, whatever it is: a FIFO
    there is reported (exit 2) at once, never read, never skipped for the one
    above it."""
    (tmp_path / "pyproject.toml").write_text(
        '[tool.taxogen]\nout = "planted"\n', encoding="utf-8"
    )
    (tmp_path / "project").mkdir()
    os.mkfifo(tmp_path / "project" / "pyproject.toml")
    monkeypatch.chdir(tmp_path / "project")
    started = time.monotonic()
    assert main(["check"]) == 2
    assert time.monotonic() - started < 10
    assert capsys.readouterr().err.splitlines() == [
        "pyproject.toml: error: not a regular file",
        "taxogen: 1 error in pyproject.toml; nothing was written",
    ]


# ----------------------------------------------------- where settings came from
def test_settings_name_the_file_they_were_read_from(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "sub").mkdir()
    (tmp_path / ".git").mkdir()
    monkeypatch.chdir(tmp_path / "sub")
    assert settings(Path.cwd()).source is None
    (tmp_path / "pyproject.toml").write_text("[tool.taxogen]\n", encoding="utf-8")
    assert settings(Path.cwd()).source == Path("../pyproject.toml")
    (tmp_path / "pyproject.toml").write_text("[tool.other]\n", encoding="utf-8")
    assert settings(Path.cwd()).source is None  # nothing of taxogen's read


def _notice(what: str, keys: str, source: str = "pyproject.toml") -> str:
    return (
        f"taxogen: using {what} configured in {source} ({keys}); "
        "--no-plugins or TAXOGEN_NO_PLUGINS=1 refuses them"
    )


@pytest.mark.parametrize("command", ["generate", "check"])
def test_a_run_says_first_which_file_named_its_plugins_and_templates(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    command: str,
) -> None:
    _configured(tmp_path, plugin=True, templates=True)
    (tmp_path / "sub").mkdir()
    monkeypatch.chdir(tmp_path / "sub")
    shutil.copy(MINIMAL, tmp_path / "sub" / "taxonomy.yaml")
    script = tmp_path / "marker_plugin.py"
    keys = (
        f"tool.taxogen.plugins.marks: {sys.executable} {script} "
        f"{tmp_path / 'PLUGIN-RAN'}; tool.taxogen.templates: ../my-templates"
    )
    expected = _notice("plugins and user templates", keys, "../pyproject.toml")
    argv = [command] + (["-q"] if command == "generate" else [])
    main(argv)
    assert capsys.readouterr().err.splitlines()[0] == expected


def test_templates_alone_are_named_alone(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    _configured(tmp_path, plugin=False, templates=True)
    monkeypatch.chdir(tmp_path)
    assert main(["generate", "-q"]) == 0
    expected = _notice("user templates", "tool.taxogen.templates: my-templates")
    assert capsys.readouterr().err.splitlines() == [expected]


def test_plugins_given_on_the_command_line_are_not_said_to_be_configured(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The user typed them: no line, and none that names a configured plugin the
    option replaced."""
    _configured(tmp_path, plugin=True, templates=False)
    monkeypatch.chdir(tmp_path)
    script = tmp_path / "marker_plugin.py"
    option = f"marks={sys.executable} {script} {tmp_path / 'other'}:gen"
    assert main(["generate", "-q", "--plugin", option]) == 0
    assert (tmp_path / "other").exists()
    assert capsys.readouterr().err == ""


# ------------------------------------------------------------------ --no-plugins
NEEDS = {
    "plugins": ({"plugin": True, "templates": False}, "plugins", "marks"),
    "templates": ({"plugin": False, "templates": True}, "user templates", ""),
    "both": ({"plugin": True, "templates": True}, "plugins and user templates", ""),
}
REFUSERS = {
    "--no-plugins": (["--no-plugins"], None, "--no-plugins"),
    "TAXOGEN_NO_PLUGINS=1": ([], "1", "TAXOGEN_NO_PLUGINS"),
    "TAXOGEN_NO_PLUGINS=yes": ([], "yes", "TAXOGEN_NO_PLUGINS"),
    "TAXOGEN_NO_PLUGINS=false": ([], "false", "TAXOGEN_NO_PLUGINS"),
}


@pytest.mark.parametrize("command", ["generate", "check"])
@pytest.mark.parametrize("refuser", REFUSERS.values(), ids=REFUSERS.keys())
@pytest.mark.parametrize("need", NEEDS.values(), ids=NEEDS.keys())
def test_no_plugins_refuses_a_tree_that_needs_them(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    command: str,
    refuser: tuple[list[str], str | None, str],
    need: tuple[dict[str, bool], str, str],
) -> None:
    options, variable, named = refuser
    kinds, what, _ = need
    marker = _configured(tmp_path, **kinds)
    monkeypatch.chdir(tmp_path)
    if variable is not None:
        monkeypatch.setenv(NO_PLUGINS, variable)
    assert _status([command, *options]) == 2
    err = capsys.readouterr().err.splitlines()
    keys = []
    if kinds["plugin"]:
        script = tmp_path / "marker_plugin.py"
        keys.append(f"tool.taxogen.plugins.marks: {sys.executable} {script} {marker}")
    if kinds["templates"]:
        keys.append("tool.taxogen.templates: my-templates")
    assert err == [
        f"taxogen: error: pyproject.toml configures {what} ({'; '.join(keys)}), "
        f"which {named} refuses; nothing was run or written"
    ]
    assert not marker.exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        ["marker_plugin.py", "pyproject.toml", "taxonomy.yaml"]
        + (["my-templates"] if kinds["templates"] else [])
    )


def test_no_plugins_refuses_even_where_the_memo_would_answer(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setattr(sys, "pycache_prefix", str(tmp_path / "pycache"))
    monkeypatch.setattr(sys, "dont_write_bytecode", False)
    project = tmp_path / "project"
    project.mkdir()
    _configured(project, plugin=False, templates=True)
    monkeypatch.chdir(project)
    assert main(["generate", "-q"], use_memo=True) == 0
    assert main(["check"], use_memo=True) == 0
    capsys.readouterr()
    assert _status(["check", "--no-plugins"], use_memo=True) == 2
    assert capsys.readouterr().err.splitlines() == [
        "taxogen: error: pyproject.toml configures user templates "
        "(tool.taxogen.templates: my-templates), which --no-plugins refuses; "
        "nothing was run or written"
    ]


@pytest.mark.parametrize("value", ["", "0"])
def test_an_empty_or_zero_variable_is_unset(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, value: str
) -> None:
    marker = _configured(tmp_path, plugin=True, templates=False)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv(NO_PLUGINS, value)
    assert main(["generate", "-q"]) == 0
    assert marker.exists()


@pytest.mark.parametrize("variable", [None, "1"])
def test_no_plugins_changes_nothing_for_a_tree_that_needs_none(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, variable: str | None
) -> None:
    shutil.copy(MINIMAL, tmp_path / "taxonomy.yaml")
    (tmp_path / "pyproject.toml").write_text('[tool.taxogen]\nout = "o"\n', "utf-8")
    monkeypatch.chdir(tmp_path)
    options = ["--no-plugins"] if variable is None else []
    if variable is not None:
        monkeypatch.setenv(NO_PLUGINS, variable)
    assert _status(["generate", "-q", *options]) == 0
    assert (tmp_path / "o" / "docs" / "errors.md").is_file()
    assert _status(["check", *options]) == 0


def test_a_plugin_option_with_no_plugins_is_a_usage_error(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    shutil.copy(MINIMAL, tmp_path / "taxonomy.yaml")
    command, marker = _plugin(tmp_path)
    monkeypatch.chdir(tmp_path)
    script = tmp_path / "marker_plugin.py"
    option = f"marks={sys.executable} {script} {marker}:gen"
    assert _status(["check", "--plugin", option, "--no-plugins"]) == 2
    assert "argument --no-plugins: not allowed with argument --plugin" in (
        capsys.readouterr().err
    )
    monkeypatch.setenv(NO_PLUGINS, "1")
    assert _status(["generate", "--plugin", option]) == 2
    assert capsys.readouterr().err.splitlines() == [
        "taxogen: error: --plugin names a plugin (marks), which TAXOGEN_NO_PLUGINS "
        "refuses; nothing was run or written"
    ]
    assert not marker.exists()
    assert not (tmp_path / "generated").exists()


@pytest.mark.parametrize("variable", [None, "1"])
def test_lint_diff_and_model_never_run_plugins_or_templates(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    variable: str | None,
) -> None:
    """Whatever the configuration names, these three read the taxonomy and
    nothing else: no plugin runs, no template renders (a broken one would be an
    error), nothing is said about either, and TAXOGEN_NO_PLUGINS refuses nothing."""
    marker = _configured(tmp_path, plugin=True, templates=True)
    (tmp_path / "my-templates" / "docs" / "errors.md.j2").write_text("{{ broken")
    monkeypatch.chdir(tmp_path)
    if variable is not None:
        monkeypatch.setenv(NO_PLUGINS, variable)
    assert main(["lint"]) == 0
    assert main(["model"]) == 0
    assert main(["diff", "taxonomy.yaml", "taxonomy.yaml"]) == 0
    assert main(["model", "--schema"]) == 0
    assert not marker.exists()
    assert "configured in" not in capsys.readouterr().err
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        ["marker_plugin.py", "pyproject.toml", "taxonomy.yaml", "my-templates"]
    )
