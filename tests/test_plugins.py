"""Plugins: programs of the user's fed the model document, their files owned by taxogen.

Issue 15, section 2.  A Python plugin and a Node one (``tests/plugins/``) write
files that ``generate`` writes and ``check`` tracks like built-in outputs; a
plugin that fails in any of the ways the issue lists is an error naming it
(exit 2), and then nothing at all is written, in the output folder or any
plugin's.  What the plugins write is checked against each taxonomy's YAML.
"""

from __future__ import annotations

import hashlib
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from taxogen.cli import main
from tests import spec_oracle as oracle
from tests.support import REPO, require_tool

PLUGINS = REPO / "tests" / "plugins"
PY_PLUGIN = f"{sys.executable} {PLUGINS / 'codes_plugin.py'}"
MANIFEST = ".taxogen-manifest.json"


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    shutil.copy(REPO / "taxonomy.yaml", tmp_path / "taxonomy.yaml")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _pyproject(project: Path, mode: str = "ok", extra: str = "") -> None:
    command = f'["{sys.executable}", "{PLUGINS / "codes_plugin.py"}", "{mode}"]'
    (project / "pyproject.toml").write_text(
        "[tool.taxogen.plugins]\n"
        f'codes = {{command = {command}, out = "gen/codes"{extra}}}\n',
        encoding="utf-8",
    )


def _tree(root: Path) -> dict[str, tuple[bytes, int]]:
    """Every file under ``root``, with its bytes and modification time."""
    return {
        str(path.relative_to(root)): (path.read_bytes(), path.stat().st_mtime_ns)
        for path in sorted(root.rglob("*"))
        if path.is_file()
    }


def test_a_python_plugin_s_files_are_written_and_checked(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _pyproject(project)
    assert main(["generate", "-q"]) == 0
    out = project / "gen" / "codes"
    assert sorted(p.name for p in out.rglob("*") if p.is_file()) == [
        MANIFEST,
        "codes.txt",
        "sha256.txt",
    ]
    # What the plugin saw is the model document, byte for byte.
    capsys.readouterr()
    assert main(["model"]) == 0
    model = capsys.readouterr().out.encode("utf-8")
    assert (out / "input" / "sha256.txt").read_text() == hashlib.sha256(
        model
    ).hexdigest()
    # And the document says what the YAML says.
    spec = oracle.read_spec(project / "taxonomy.yaml")
    assert (out / "codes.txt").read_text(encoding="utf-8") == "".join(
        f"{code} {str(entry.retryable).lower()} {entry.class_name}\n"
        for code, entry in spec.codes.items()
    )
    assert main(["check"]) == 0
    (out / "codes.txt").write_text("edited\n", encoding="utf-8")
    capsys.readouterr()
    assert main(["check"]) == 1
    assert f"stale: {Path('gen') / 'codes' / 'codes.txt'}" in capsys.readouterr().out
    assert main(["generate", "-q"]) == 1  # edited by hand: not overwritten
    assert main(["generate", "-q", "--force"]) == 0
    assert main(["check"]) == 0


def test_a_node_plugin_given_on_the_command_line(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    node = shutil.which("node")
    require_tool(node is not None, "node")
    option = f"events=node {PLUGINS / 'events_plugin.mjs'}:gen/events"
    assert main(["generate", "-q", "--plugin", option]) == 0
    written = (project / "gen" / "events" / "ts" / "events.ts").read_text()
    spec = oracle.read_spec(project / "taxonomy.yaml")
    for kind, location in spec.events.items():
        assert f'  "{kind}": "{location}",\n' in written
    assert main(["check", "--plugin", option]) == 0
    # A check without the plugin does not look at its folder.
    (project / "gen" / "events" / "ts" / "events.ts").write_text("x")
    assert main(["check"]) == 0
    assert main(["check", "--plugin", option]) == 1


def test_warnings_are_shown_and_the_files_still_written(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _pyproject(project, "warn")
    capsys.readouterr()
    assert main(["generate", "-q"]) == 0
    assert "taxogen: plugin codes: warning: just saying" in capsys.readouterr().err
    assert (project / "gen" / "codes" / "codes.txt").is_file()


FAILURES = [
    ("exit", "exited with status 3"),
    ("error", "error: cannot do it"),
    ("garbage", "its answer is not one JSON object"),
    ("chatty", "its answer is not one JSON object"),
    ("escape", '"../outside.txt": not a normalised relative path inside the folder'),
    ("absolute", '"/tmp/absolute.txt": not a normalised relative path'),
    ("manifest", '".taxogen-manifest.json": the name of taxogen\'s manifest'),
    ("twice", '"codes.txt": listed twice'),
    ("surrogate", '"a.txt": content is not valid Unicode'),
    ("latin1", "its answer is not UTF-8"),
]


@pytest.mark.parametrize(("mode", "message"), FAILURES, ids=[m for m, _ in FAILURES])
def test_a_failing_plugin_leaves_every_folder_untouched(
    project: Path, capsys: pytest.CaptureFixture[str], mode: str, message: str
) -> None:
    _pyproject(project)
    assert main(["generate", "-q"]) == 0
    # Every output would change: the taxonomy's version and a meaning are new.
    text = (project / "taxonomy.yaml").read_text(encoding="utf-8")
    edited = text.replace("Unspecified protocol violation", "Some other violation")
    assert edited != text
    (project / "taxonomy.yaml").write_text(edited, encoding="utf-8")
    before = _tree(project / "generated"), _tree(project / "gen")
    _pyproject(project, mode)
    capsys.readouterr()
    assert main(["generate"]) == 2
    err = capsys.readouterr().err
    assert "taxogen: plugin codes: error: " in err and message in err, err
    assert err.endswith("taxogen: nothing was written\n")
    assert (_tree(project / "generated"), _tree(project / "gen")) == before
    assert not (project / "outside.txt").exists()


def test_a_plugin_that_outlives_its_timeout_is_stopped(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _pyproject(project, "sleep", extra=", timeout = 0.5")
    started = time.monotonic()
    assert main(["generate"]) == 2
    assert time.monotonic() - started < 10  # the plugin sleeps for 30 s
    err = capsys.readouterr().err
    assert "taxogen: plugin codes: error: no answer within 0.5 s" in err
    assert not (project / "generated").exists()


def test_a_plugin_that_cannot_start_is_named(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = project / "no-such-program"
    assert main(["generate", "--plugin", f"gone={missing}:gen/x"]) == 2
    err = capsys.readouterr().err
    assert f"taxogen: plugin gone: error: cannot run {missing}:" in err
    assert not (project / "generated").exists()


@pytest.mark.parametrize(
    ("option", "message"),
    [
        ("no-equals:out", "expected NAME=COMMAND:OUT, NAME a plugin name"),
        ("9lives=cmd:out", "expected NAME=COMMAND:OUT, NAME a plugin name"),
        ("x=cmd", "expected NAME=COMMAND:OUT, OUT a folder"),
        ("x=cmd:", "expected NAME=COMMAND:OUT, OUT a folder"),
        ("x=:out", "expected NAME=COMMAND:OUT, COMMAND a program"),
        ('x="unclosed:out', "COMMAND: No closing quotation"),
        ("x=cmd:generated", "plugin x: its folder generated is also the output"),
    ],
)
def test_a_malformed_plugin_option_is_refused(
    project: Path, capsys: pytest.CaptureFixture[str], option: str, message: str
) -> None:
    assert main(["generate", "--plugin", option]) == 2
    assert message in capsys.readouterr().err
    assert not (project / "generated").exists()


def test_two_plugins_cannot_share_a_folder(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _pyproject(project)
    assert main(["generate", "--plugin", f"other={PY_PLUGIN}:gen/codes"]) == 2
    assert "is also plugin codes's folder" in capsys.readouterr().err


def test_a_plugin_option_replaces_the_configured_one_of_its_name(
    project: Path,
) -> None:
    _pyproject(project, "exit")  # would fail
    option = f"codes={PY_PLUGIN}:gen/elsewhere"
    assert main(["generate", "-q", "--plugin", option]) == 0
    assert (project / "gen" / "elsewhere" / "codes.txt").is_file()
    assert not (project / "gen" / "codes").exists()


def test_wrong_plugin_tables_point_at_their_keys(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (project / "pyproject.toml").write_text(
        "[tool.taxogen.plugins]\n"
        "bad = {command = [], out = 3, timeout = -1, extra = 1}\n"
        '"9x" = {command = ["a"], out = "x"}\n'
        'other = "nope"\n',
        encoding="utf-8",
    )
    assert main(["generate"]) == 2
    assert capsys.readouterr().err.splitlines() == [
        "pyproject.toml:2:7: error: tool.taxogen.plugins.bad.command: expected a "
        "non-empty list of non-empty strings, got an empty list",
        "pyproject.toml:2:7: error: tool.taxogen.plugins.bad.extra: unknown key "
        "'extra' (expected command, out, timeout)",
        "pyproject.toml:2:7: error: tool.taxogen.plugins.bad.out: expected a "
        "folder's path, got integer 3",
        "pyproject.toml:2:7: error: tool.taxogen.plugins.bad.timeout: expected "
        "seconds, more than 0 and at most 3600, got integer -1",
        "pyproject.toml:3:8: error: tool.taxogen.plugins.9x: '9x' is not a plugin "
        "name (a letter, then letters, digits, _ or -, at most 64)",
        "pyproject.toml:4:9: error: tool.taxogen.plugins.other: expected a table, "
        "got string 'nope'",
        "taxogen: 6 errors in pyproject.toml; nothing was written",
    ]


def test_a_plugin_is_run_from_the_current_folder(project: Path) -> None:
    """A plugin given as a relative path is found from the current folder, as a
    command line would find it."""
    shutil.copy(PLUGINS / "codes_plugin.py", project / "mine.py")
    option = f"mine={sys.executable} mine.py:gen/mine"
    assert main(["generate", "-q", "--plugin", option]) == 0
    assert (project / "gen" / "mine" / "codes.txt").is_file()


def test_with_a_plugin_check_never_answers_from_the_memo(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The memo digests taxogen's inputs, not a plugin's program: a plugin that
    now writes other bytes must be caught by ``check``."""
    monkeypatch.setenv("TAXOGEN_CACHE_DIR", str(project / "cache"))
    _pyproject(project)
    assert main(["generate", "-q"], use_memo=True) == 0
    assert main(["check"], use_memo=True) == 0
    plugin = project / "mine.py"
    source = (PLUGINS / "codes_plugin.py").read_text(encoding="utf-8")
    changed = source.replace('"".join(lines)', '"".join(lines).upper()')
    assert changed != source
    plugin.write_text(changed, encoding="utf-8")
    (project / "pyproject.toml").write_text(
        "[tool.taxogen.plugins]\n"
        f'codes = {{command = ["{sys.executable}", "mine.py"], out = "gen/codes"}}\n',
        encoding="utf-8",
    )
    assert main(["check"], use_memo=True) == 1


def test_a_run_without_plugins_never_imports_them(tmp_path: Path) -> None:
    # The plugins' module brings subprocess, selectors and their kin (some
    # 4 ms of every run): a generate with no plugin configured leaves them out.
    script = (
        "import sys\n"
        "from taxogen.cli import main\n"
        f"code = main(['generate', '--taxonomy', {str(REPO / 'taxonomy.yaml')!r},"
        f" '--out', {str(tmp_path / 'out')!r}, '-q'], use_memo=False)\n"
        "print(code, 'taxogen.plugins' in sys.modules)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        check=True,
        cwd=tmp_path,
    )
    assert done.stdout.split() == ["0", "False"]
