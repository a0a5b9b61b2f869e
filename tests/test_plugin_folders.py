"""A plugin's folder is as safe as the output folder (issue 29, section 4).

The oracle is the issue's words and the README ("Plugins", "What taxogen
touches"): a manifest entry in a plugin's folder is trusted only for a path the
plugin writes (one it answers in this run, or of a shape it declares), so a
forged entry cannot get a hand-written file removed; a plugin's answer is read
through a pipe capped at its limit, the plugin killed there; no path of a
plugin's may have the manifest's name (or a taxogen temporary file's) in any
part.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import sys
import time
from pathlib import Path

import pytest

from generator import plugins
from generator.cli import main
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
