"""A plugin's folder is as safe as the output folder (issue 29, section 4).

The oracle is the issue's words and the README ("Plugins", "What taxogen
touches"): a manifest entry in a plugin's folder is trusted only for a path the
plugin writes (one it answers in this run, or of a shape it declares), so a
forged entry cannot get a hand-written file removed; a plugin's answer is read
through a pipe capped at its limit, the plugin killed there; no path of a
plugin's may have the manifest's name (or a taxogen temporary file's) in any
part; and every folder is checked, under its lock, before any is written, so
"nothing was written" is true of every folder.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import shutil
import sys
import time
from pathlib import Path

import pytest

from taxogen import emit, plugins
from taxogen.cli import main
from taxogen.folder import Folder
from tests.support import REPO

PLUGIN = REPO / "tests" / "plugins" / "codes_plugin.py"
MANIFEST = ".taxogen-manifest.json"
CODES = Path("gen") / "codes"


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    shutil.copy(REPO / "taxonomy.yaml", tmp_path / "taxonomy.yaml")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _pyproject(project: Path, mode: str = "ok", extra: str = "") -> None:
    command = f'["{sys.executable}", "{PLUGIN}", "{mode}"]'
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


def _forge(folder: Path, section: str, path: str, data: bytes) -> None:
    """Add to ``folder``'s manifest an entry for ``path`` with ``data``'s real
    SHA-256, as anyone who can edit the manifest can."""
    manifest = folder / MANIFEST
    document = json.loads(manifest.read_text(encoding="utf-8"))
    document.setdefault(section, {})[path] = hashlib.sha256(data).hexdigest()
    manifest.write_text(json.dumps(document), encoding="utf-8")


# ------------------------------------------------------------- forged entries
# The second is of a shape the plugin "shapes" declares ("input/**"), but the
# manifest's name is never a plugin's file: it may be another plugin's manifest.
@pytest.mark.parametrize("name", ["NOTES.md", "input/.taxogen-manifest.json"])
@pytest.mark.parametrize("section", ["files", "pending"])
@pytest.mark.parametrize("mode", ["ok", "shapes"])
def test_a_forged_entry_cannot_get_a_hand_written_file_removed(
    project: Path,
    capsys: pytest.CaptureFixture[str],
    name: str,
    section: str,
    mode: str,
) -> None:
    """Issue 29: "A forged manifest entry in a plugin's folder deletes a
    hand-written file"; a path the plugin neither answers nor declares is not a
    file of the plugin's, whatever the manifest says."""
    _pyproject(project, mode)
    assert main(["generate", "-q"]) == 0
    mine = b"my own notes\n"
    (project / CODES / name).write_bytes(mine)
    _forge(project / CODES, section, name, mine)
    capsys.readouterr()
    assert main(["check"]) == 1
    out = capsys.readouterr().out
    assert f"untrusted: {CODES / name} (a manifest entry taxogen" in out
    assert f"extra: {CODES / name}" not in out
    assert main(["generate", "-q"]) == 0
    err = capsys.readouterr().err
    assert f"{CODES / name}: warning: manifest entry dropped, file left" in err
    assert (project / CODES / name).read_bytes() == mine
    assert main(["check"]) == 0  # the entry is gone, the file is the user's


def test_without_declared_shapes_a_file_no_longer_answered_is_left_alone(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """taxogen cannot tell a file the plugin wrote from a forged entry, so what the
    plugin no longer answers is removed only where it declares the shape."""
    _pyproject(project, "extra")
    assert main(["generate", "-q"]) == 0
    _pyproject(project, "ok")
    capsys.readouterr()
    assert main(["generate", "-q"]) == 0
    assert "extra.txt: warning: manifest entry dropped" in capsys.readouterr().err
    assert (project / CODES / "extra.txt").read_text(encoding="utf-8") == "extra\n"
    assert main(["check"]) == 0


def test_a_file_of_a_declared_shape_no_longer_answered_is_removed(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _pyproject(project, "extra")
    assert main(["generate", "-q"]) == 0
    _pyproject(project, "shapes")
    capsys.readouterr()
    assert main(["check"]) == 1
    assert f"extra: {CODES / 'extra.txt'}" in capsys.readouterr().out
    assert main(["generate"]) == 0
    assert f"removed   {CODES / 'extra.txt'}" in capsys.readouterr().out
    assert not (project / CODES / "extra.txt").exists()
    # Edited by hand since, it is a conflict, as in the output folder.
    _pyproject(project, "extra")
    assert main(["generate", "-q"]) == 0
    (project / CODES / "extra.txt").write_text("edited\n", encoding="utf-8")
    _pyproject(project, "shapes")
    assert main(["generate", "-q"]) == 1
    assert "is no longer generated but was edited by hand" in capsys.readouterr().err
    assert (project / CODES / "extra.txt").read_text(encoding="utf-8") == "edited\n"


def test_a_file_outside_the_shapes_the_plugin_declares_is_refused(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _pyproject(project, "narrow")  # declares codes.txt, answers input/sha256.txt too
    assert main(["generate"]) == 2
    err = capsys.readouterr().err
    assert (
        'taxogen: plugin codes: error: file 2: "input/sha256.txt": not of a shape '
        'the plugin declares in "shapes"\n' in err
    )
    assert not (project / "generated").exists() and not (project / "gen").exists()


# --------------------------------------------------------------- capped answer
def test_an_endless_answer_is_cut_at_the_limit_and_the_plugin_killed(
    project: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 29: "a plugin's answer is spooled to disk without bound until its
    time-out"; the README's limit is enforced while reading, the child killed at
    the cap, long before its time-out."""
    limit = 2**20
    monkeypatch.setattr(plugins, "ANSWER_LIMIT", limit)
    _pyproject(project, "flood", extra=", timeout = 8")
    started = time.monotonic()
    assert main(["generate"]) == 2
    elapsed = time.monotonic() - started
    err = capsys.readouterr().err
    assert "taxogen: plugin codes: error: its answer is larger than 1 MiB\n" in err
    assert err.endswith("taxogen: nothing was written\n")
    assert elapsed < 6, elapsed  # well within the 8 s time-out
    # The plugin came near the cap, and could write no more than the cap and
    # what a pipe holds (its last writes may not be noted: it was killed).
    written = int((project / "flood.progress").read_text(encoding="ascii"))
    assert limit // 2 < written <= limit + 2**18, written
    pid = int((project / "flood.pid").read_text(encoding="ascii"))
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)  # killed and reaped
    assert not (project / "generated").exists()


def test_a_plugin_that_answers_before_reading_its_input_does_not_deadlock(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Far more than a pipe holds, written before the model is read: taxogen
    must drain stdout while it feeds stdin."""
    script = project / "big.py"
    script.write_text(
        "import json, sys\n"
        "json.dump({'files': [{'path': 'big.txt', 'content': 'y' * 3000000}]},"
        " sys.stdout)\n"
        "sys.stdout.flush()\n"
        "sys.stdin.buffer.read()\n",
        encoding="utf-8",
    )
    option = f"big={sys.executable} big.py:gen/big"
    assert main(["generate", "-q", "--plugin", option]) == 0
    assert (project / "gen" / "big" / "big.txt").read_bytes() == b"y" * 3000000


# ---------------------------------------------------------- reserved names
@pytest.mark.parametrize(
    ("mode", "message"),
    [
        ("nested", '"sub/.taxogen-manifest.json": the name of taxogen\'s manifest'),
        (
            "temporary",
            '"sub/.codes.txt.taxogen-tmp-0123": the name of a taxogen temporary file',
        ),
    ],
)
def test_a_reserved_name_in_any_part_of_a_plugin_path_is_refused(
    project: Path, capsys: pytest.CaptureFixture[str], mode: str, message: str
) -> None:
    _pyproject(project, mode)
    assert main(["generate"]) == 2
    err = capsys.readouterr().err
    assert f"taxogen: plugin codes: error: file 3: {message}\n" in err
    assert not (project / "generated").exists() and not (project / "gen").exists()


# ------------------------------------------------- every folder before any
def test_a_conflict_in_a_plugin_folder_leaves_the_output_folder_unwritten(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 29: "a conflict found in a plugin folder after `generated/` was
    written still says 'nothing was written'"."""
    _pyproject(project)
    (project / CODES).mkdir(parents=True)
    (project / CODES / "codes.txt").write_text("mine\n", encoding="utf-8")
    before = _tree(project / "gen")
    assert main(["generate"]) == 1
    err = capsys.readouterr().err
    assert (
        f"{CODES / 'codes.txt'}: error: exists and was not generated by taxogen\n"
        in err
    )
    assert "nothing was written" in err.splitlines()[-1]
    assert not (project / "generated").exists()
    assert _tree(project / "gen") == before


def test_a_refused_run_leaves_an_existing_output_folder_as_it_was(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _pyproject(project)
    assert main(["generate", "-q"]) == 0
    text = (project / "taxonomy.yaml").read_text(encoding="utf-8")
    edited = text.replace("Unspecified protocol violation", "Some other violation")
    assert edited != text
    (project / "taxonomy.yaml").write_text(edited, encoding="utf-8")
    (project / CODES / "codes.txt").write_text("edited by hand\n", encoding="utf-8")
    before = _tree(project / "generated"), _tree(project / "gen")
    capsys.readouterr()
    assert main(["generate"]) == 1
    err = capsys.readouterr().err
    assert f"{CODES / 'codes.txt'}: error: was edited by hand" in err
    assert err.splitlines()[-1].startswith("taxogen: refusing to overwrite")
    assert (_tree(project / "generated"), _tree(project / "gen")) == before


def test_a_locked_plugin_folder_leaves_the_output_folder_unwritten(
    project: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    _pyproject(project)
    (project / CODES).mkdir(parents=True)
    monkeypatch.setenv("TAXOGEN_LOCK_TIMEOUT", "0.2")
    holder = os.open(project / CODES, os.O_RDONLY | os.O_DIRECTORY)
    try:
        fcntl.flock(holder, fcntl.LOCK_EX | fcntl.LOCK_NB)  # as another run would
        assert main(["generate"]) == 2
    finally:
        os.close(holder)
    err = capsys.readouterr().err
    assert f"taxogen: error: {CODES}: still locked after 0.2 s by process" in err
    assert err.endswith("taxogen: nothing was written\n")
    assert not (project / "generated").exists()
    assert list((project / CODES).iterdir()) == []


def test_a_plugin_folder_that_cannot_be_made_leaves_the_output_folder_unwritten(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _pyproject(project)
    (project / "gen").write_text("a file where a folder belongs\n", encoding="utf-8")
    assert main(["generate"]) == 2
    err = capsys.readouterr().err
    assert f"taxogen: error: {CODES}: cannot make or open the folder: " in err
    assert err.endswith("taxogen: nothing was written\n")
    assert not (project / "generated").exists()


def test_a_bug_while_writing_never_says_nothing_was_written(
    project: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Only a refusal before any write may say "nothing was written"; a failure
    once writing has begun (here the in-flight manifest is written) may not."""

    def explode(folder: Folder, files: object) -> None:
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(emit, "_write_all", explode)
    assert main(["generate"]) == 70
    err = capsys.readouterr().err
    assert "taxogen: internal error: RuntimeError: disk on fire" in err
    assert "nothing was written" not in err
    assert (project / "generated" / MANIFEST).is_file()  # something was


def _plan(files: dict[str, bytes]) -> emit.Plan:
    return emit.Plan.of("alpha", files, ())


def test_the_folders_are_locked_in_one_order_whatever_the_order_given(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two runs that each held one folder's lock and waited for the other's would
    wait for ever: every run locks its folders in the same order."""
    locked: list[Path] = []

    def lock(self: Folder, *, timeout: float, waiting: object) -> None:
        locked.append(self.root)

    monkeypatch.setattr(Folder, "lock", lock)
    jobs = [(tmp_path / name, _plan({"a.txt": b"a\n"})) for name in ("x", "y", "z")]
    emit.write_folders(jobs)
    first = list(locked)
    for order in ([2, 0, 1], [1, 2, 0], [2, 1, 0]):
        locked.clear()
        emit.write_folders([jobs[i] for i in order])
        assert locked == first


def test_a_refused_run_removes_the_folders_it_made_and_nothing_else(
    tmp_path: Path,
) -> None:
    (tmp_path / "mine").mkdir()
    (tmp_path / "mine" / "a.txt").write_bytes(b"mine\n")  # in the way
    jobs = [
        (tmp_path / "new" / "deep", _plan({"a.txt": b"a\n"})),
        (tmp_path / "new" / "deep" / "inner", _plan({"b.txt": b"b\n"})),
        (tmp_path / "mine", _plan({"a.txt": b"a\n"})),
    ]
    with pytest.raises(emit.Refused) as caught:
        emit.write_folders(jobs)
    assert [(out, type(exc)) for out, exc in caught.value.problems] == [
        (tmp_path / "mine", emit.EmitError)
    ]
    assert sorted(p.relative_to(tmp_path).as_posix() for p in tmp_path.rglob("*")) == [
        "mine",
        "mine/a.txt",
    ]


OVERLAPPING = """\
import json, sys
sys.stdin.read()
print(json.dumps({"files": [{"path": "errors.md", "content": "PLUGIN\\n"}]}))
"""


@pytest.mark.parametrize("command", ["generate", "check"])
def test_a_plugin_folder_inside_the_output_folder_cannot_write_a_target_s_file(
    project: Path, command: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """A plugin's folder may lie inside the output folder, but no file may be in
    two plans: the docs target writes generated/docs/errors.md, and a plugin
    whose folder is generated/docs answering errors.md would write it twice."""
    (project / "plug.py").write_text(OVERLAPPING, encoding="utf-8")
    (project / "pyproject.toml").write_text(
        '[tool.taxogen]\ntargets = ["docs"]\n[tool.taxogen.plugins]\n'
        f'p = {{command = ["{sys.executable}", "plug.py"], out = "generated/docs"}}\n',
        encoding="utf-8",
    )
    capsys.readouterr()
    assert main([command]) == 2
    err = capsys.readouterr().err.splitlines()
    docs = Path("generated") / "docs"
    assert (
        f"taxogen: error: {docs / 'errors.md'}: written by the plans of both "
        f"generated and {docs}; give each plugin a folder no other plan writes in"
    ) in err
    assert err[-1] == "taxogen: nothing was written"
    assert not (project / "generated").exists()
