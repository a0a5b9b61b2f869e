"""A plugin's folder is as safe as the output folder (issue 29, section 4).

The oracle is the issue's words and the README ("Plugins", "What taxogen
touches"): a plugin's answer is read through a pipe capped at its limit, the
plugin killed there; no path of a plugin's may have the manifest's name (or a
taxogen temporary file's) in any part.
"""

from __future__ import annotations

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
