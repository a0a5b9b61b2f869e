"""One run at a time: the output folder's lock (issue 12, section 4).

Two runs on one folder must not interleave.  The tests line runs up at the lock
deliberately: the test process holds the folder's lock itself while it starts
the runs, waits until each has said it is waiting (so each has built its plan
and stands at the lock), and only then lets go, so the runs really do contend.
Expected results come from the issue's words: every run exits 0, the folder
then equals one clean run's output byte for byte, and the next ``check`` passes.
"""

from __future__ import annotations

import os
import selectors
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from taxogen.folder import Folder
from taxogen.lock import LockTimeout
from tests.support import REPO

PAIRS = 20
AWAIT = 120.0  # seconds: generous, a loaded 2-core CI machine is slow to start Python
OLD, NEW = "Task exceeded its deadline", "Task ran past its deadline"


def _env(**extra: str) -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(
        filter(None, [str(REPO), env.get("PYTHONPATH")])
    )
    env.update(extra)
    return env


def _start(project: Path, *args: str, **env: str) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-m", "taxogen", *args],
        cwd=project,
        env=_env(**env),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )


class _Stderr:
    """What a running process has written to stderr so far, read without blocking."""

    def __init__(self, process: subprocess.Popen[bytes]) -> None:
        assert process.stderr is not None
        self.process = process
        self.text = b""
        self._selector = selectors.DefaultSelector()
        self._selector.register(process.stderr, selectors.EVENT_READ)

    def wait_for(self, needle: str, timeout: float = AWAIT) -> None:
        deadline = time.monotonic() + timeout
        while needle.encode() not in self.text:
            left = deadline - time.monotonic()
            if left <= 0:
                pytest.fail(f"no {needle!r} on stderr after {timeout} s: {self.text!r}")
            if not self._selector.select(left):
                continue
            fd = self.process.stderr.fileno()  # type: ignore[union-attr]
            chunk = os.read(fd, 65536)
            if not chunk:
                pytest.fail(f"exited before saying {needle!r}: {self.text!r}")
            self.text += chunk

    def finish(self) -> tuple[int, str, str]:
        out, err = self.process.communicate(timeout=AWAIT)
        self._selector.close()
        return self.process.returncode, out.decode(), (self.text + err).decode()


def _tree(root: Path) -> dict[str, bytes]:
    return {
        path.relative_to(root).as_posix(): path.read_bytes()
        for path in sorted(root.rglob("*"))
        if path.is_file()
    }


def _holders(folder: Path) -> set[str]:
    """Process ids holding an flock on ``folder``, from /proc/locks (Linux)."""
    info = os.stat(folder)
    wanted = f"{os.major(info.st_dev):02x}:{os.minor(info.st_dev):02x}:{info.st_ino}"
    found = set()
    for line in Path("/proc/locks").read_text().splitlines():
        fields = line.split()
        if len(fields) >= 6 and fields[1] == "FLOCK" and fields[5] == wanted:
            found.add(fields[4])
    return found


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A project with the shipped taxonomy, generated once."""
    root = tmp_path / "project"
    root.mkdir()
    shutil.copy(REPO / "taxonomy.yaml", root / "taxonomy.yaml")
    assert OLD in (root / "taxonomy.yaml").read_text()
    first = _start(root, "generate")
    assert first.wait(timeout=AWAIT) == 0
    return root


def _clean_output(project: Path, text: str, where: Path) -> dict[str, bytes]:
    """What one clean run writes for taxonomy ``text``, in a project of its own."""
    where.mkdir()
    (where / "taxonomy.yaml").write_text(text)
    process = _start(where, "generate")
    assert process.wait(timeout=AWAIT) == 0
    return _tree(where / "generated")


def test_the_second_run_waits_and_says_who_holds_the_lock(project: Path) -> None:
    out = project / "generated"
    with Folder(out, create=False) as held:
        held.lock(timeout=0, waiting=lambda holder: pytest.fail(holder))
        run = _Stderr(_start(project, "generate"))
        run.wait_for("waiting for")
        assert f"process {os.getpid()}" in run.text.decode()
        assert run.process.poll() is None  # still waiting while the lock is held
    code, _, err = run.finish()
    assert code == 0, err


@pytest.mark.parametrize("command", [["generate"], ["generate", "--force"], ["check"]])
def test_a_lock_held_past_the_time_out_is_exit_2_naming_the_holder(
    project: Path, command: list[str]
) -> None:
    out = project / "generated"
    taxonomy = project / "taxonomy.yaml"
    taxonomy.write_text(taxonomy.read_text().replace(OLD, NEW))  # a run would write
    before = _tree(out)
    with Folder(out, create=False) as held:
        held.lock(timeout=0, waiting=lambda holder: pytest.fail(holder))
        run = _Stderr(_start(project, *command, TAXOGEN_LOCK_TIMEOUT="0.5"))
        code, _, err = run.finish()
    assert code == 2, err
    assert f"process {os.getpid()}" in err
    assert "still locked" in err and "Traceback" not in err
    assert _tree(out) == before  # nothing written, nothing removed


def test_a_crashed_holder_does_not_keep_the_lock(project: Path) -> None:
    out = project / "generated"
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sys, time\n"
            "from pathlib import Path\n"
            "from taxogen.folder import Folder\n"
            "f = Folder(Path(sys.argv[1]), create=False)\n"
            "f.lock(timeout=0, waiting=print)\n"
            "print('held', flush=True)\n"
            "time.sleep(600)\n",
            str(out),
        ],
        env=_env(),
        stdout=subprocess.PIPE,
    )
    try:
        assert holder.stdout is not None
        assert holder.stdout.readline() == b"held\n"
        assert str(holder.pid) in _holders(out)
    finally:
        holder.send_signal(signal.SIGKILL)
        holder.wait()
    run = _Stderr(_start(project, "check", TAXOGEN_LOCK_TIMEOUT="5"))
    code, _, err = run.finish()
    assert code == 0, err
    assert "waiting" not in err  # the kernel let go when the holder died


def test_two_folders_in_one_process_exclude_each_other(project: Path) -> None:
    out = project / "generated"
    with Folder(out, create=False) as first:
        first.lock(timeout=0, waiting=lambda holder: pytest.fail(holder))
        with Folder(out, create=False) as second:
            seen: list[str] = []
            with pytest.raises(LockTimeout):
                second.lock(timeout=0.2, waiting=seen.append)
            assert seen and str(os.getpid()) in seen[0]
    with Folder(out, create=False) as third:
        third.lock(timeout=0, waiting=lambda holder: pytest.fail(holder))


def test_twenty_concurrent_pairs_never_interleave(
    project: Path, tmp_path: Path
) -> None:
    out = project / "generated"
    taxonomy = project / "taxonomy.yaml"
    versions = [taxonomy.read_text()]
    versions.append(versions[0].replace(OLD, NEW))
    clean = [
        _clean_output(project, text, tmp_path / f"clean{index}")
        for index, text in enumerate(versions)
    ]
    assert clean[0] != clean[1]
    assert _tree(out) == clean[0]

    for pair in range(PAIRS):
        version = (pair + 1) % 2  # every pair starts from a folder that is out of date
        taxonomy.write_text(versions[version])
        second = ["generate"] if pair % 2 == 0 else ["check"]
        with Folder(out, create=False) as held:
            held.lock(timeout=0, waiting=lambda holder: pytest.fail(holder))
            first_run = _Stderr(_start(project, "generate"))
            first_run.wait_for("waiting for")
            if second == ["generate"]:
                # Both stand at the lock with their plans built; they race for it.
                second_run = _Stderr(_start(project, *second))
                second_run.wait_for("waiting for")
        if second == ["check"]:
            # A check that came first would rightly find the folder out of date,
            # so it starts only once the generate has the lock (or is done).
            while str(first_run.process.pid) not in _holders(out):
                if first_run.process.poll() is not None:
                    break
                time.sleep(0.001)
            second_run = _Stderr(_start(project, *second))
        for run, name in ((first_run, "generate"), (second_run, " ".join(second))):
            code, _, err = run.finish()
            assert code == 0, f"pair {pair}: {name} exited {code}: {err}"
            assert "Traceback" not in err
        assert _tree(out) == clean[version], f"pair {pair}"
        leftovers = [p.name for p in out.rglob("*") if ".taxogen-tmp-" in p.name]
        assert leftovers == [], f"pair {pair}"

    after = _Stderr(_start(project, "check"))
    code, _, err = after.finish()
    assert code == 0, err
