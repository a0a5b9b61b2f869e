"""Nothing is lost: atomic replacement, crash recovery, and SIGKILL at random points.

A run that dies part-way must leave every file wholly old or wholly new, and
the next ordinary ``generate`` must finish the job without ``--force`` (the
manifest records what was in flight, so half-done work is not mistaken for hand
edits).  Crashes are simulated after every single write in-process, then real
processes are killed at random moments.
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from generator import emit
from generator.pipeline import build_plan
from tests.support import REPO


def _snapshot(root: Path) -> dict[str, bytes]:
    return {
        p.relative_to(root).as_posix(): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file() and emit._TMP_MARK not in p.name
    }


def _taxonomy(name: str, codes: int, meaning: str) -> str:
    lines = [
        "format: 1", f"name: {name}", "title: Kill Test", "version: 1.0.0", "base: KillError",
        "fallback: d0_c0", "wrap: d0_c0", "domains:",
    ]
    for d in range(max(1, codes // 50)):
        lines += [f"  d{d}:", f"    title: Domain {d}", "    codes:"]
        for c in range(min(50, codes)):
            lines.append(f"      d{d}_c{c}: {{retryable: {'true' if c % 3 else 'false'}, meaning: {meaning} {d} {c}}}")
    return "\n".join(lines) + "\n"


@pytest.fixture
def two_plans(tmp_path: Path) -> tuple[dict[str, bytes], dict[str, bytes]]:
    """An old and a new plan that differ in every file and in the set of files."""
    old, new = tmp_path / "old.yaml", tmp_path / "new.yaml"
    old.write_text(_taxonomy("alpha", 100, "Old meaning"), encoding="utf-8")
    new.write_text(_taxonomy("beta", 100, "New meaning"), encoding="utf-8")
    return build_plan(old), build_plan(new)


def _assert_each_file_old_or_new(out: Path, old: dict[str, bytes], new: dict[str, bytes]) -> None:
    for path, data in _snapshot(out).items():
        if path == emit.MANIFEST:
            continue
        assert data in (old.get(path), new.get(path)), f"{path} is neither wholly old nor wholly new"


def test_crash_after_any_write_leaves_whole_files_and_recovers(
    tmp_path: Path, two_plans: tuple[dict[str, bytes], dict[str, bytes]], monkeypatch: pytest.MonkeyPatch
) -> None:
    old, new = two_plans
    real_write = emit._atomic_write
    real_unlink = Path.unlink
    steps = len(new) + len(old) + 4  # every write and removal, with room to spare
    for crash_at in range(steps):
        out = tmp_path / f"out{crash_at}"
        emit.write(out, old)
        done = 0

        def counting(target: Path, data: bytes) -> None:
            nonlocal done
            if done == crash_at:
                raise KeyboardInterrupt("simulated crash")
            done += 1
            real_write(target, data)

        def counting_unlink(self: Path, missing_ok: bool = False) -> None:
            nonlocal done
            if out in self.parents and emit._TMP_MARK not in self.name:
                if done == crash_at:
                    raise KeyboardInterrupt("simulated crash")
                done += 1
            real_unlink(self, missing_ok=missing_ok)

        monkeypatch.setattr(emit, "_atomic_write", counting)
        monkeypatch.setattr(Path, "unlink", counting_unlink)
        try:
            emit.write(out, new)
            crashed = False
        except KeyboardInterrupt:
            crashed = True
        monkeypatch.setattr(emit, "_atomic_write", real_write)
        monkeypatch.setattr(Path, "unlink", real_unlink)

        _assert_each_file_old_or_new(out, old, new)
        emit.write(out, new)  # no --force needed to finish the job
        assert _snapshot(out) == new, f"not recovered after a crash at step {crash_at}"
        assert emit.compare(out, new).clean
        if not crashed:
            break
    else:
        pytest.fail("the crash points never ran out: the step count is wrong")


def test_atomic_write_failure_keeps_the_old_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "f.txt"
    target.write_bytes(b"old")

    def broken_replace(src: str, dst: str) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", broken_replace)
    with pytest.raises(OSError):
        emit._atomic_write(target, b"new")
    assert target.read_bytes() == b"old"
    assert [p.name for p in tmp_path.iterdir()] == ["f.txt"]  # no temporary left behind


def test_leftover_temporaries_are_swept(tmp_path: Path, two_plans: tuple[dict[str, bytes], dict[str, bytes]]) -> None:
    old, new = two_plans
    out = tmp_path / "out"
    emit.write(out, old)
    stray = out / "docs" / f".errors.md{emit._TMP_MARK}abc"
    stray.write_bytes(b"half")
    emit.write(out, new)
    assert not stray.exists()


def test_generate_killed_at_random_points(tmp_path: Path) -> None:
    """Real SIGKILLs of `python -m generator generate`, then a normal run finishes the job."""
    old_yaml, new_yaml = tmp_path / "old.yaml", tmp_path / "new.yaml"
    # Large enough that writing takes a noticeable part of the run.
    old_yaml.write_text(_taxonomy("alpha", 1000, "Old meaning"), encoding="utf-8")
    new_yaml.write_text(_taxonomy("beta", 1000, "New meaning"), encoding="utf-8")
    old, new = build_plan(old_yaml), build_plan(new_yaml)

    def run(out: Path) -> subprocess.Popen[bytes]:
        return subprocess.Popen(
            [sys.executable, "-m", "generator", "generate", "-q", "--taxonomy", str(new_yaml), "--out", str(out)],
            cwd=REPO, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )

    rng = random.Random(20261202)
    landed = 0
    for attempt in range(12):
        out = tmp_path / f"out{attempt}"
        emit.write(out, old)
        manifest = out / emit.MANIFEST
        before = manifest.stat().st_ino
        process = run(out)
        # Wait for the write phase to begin (the manifest is replaced first), then
        # kill somewhere inside it: before that point a kill proves nothing.
        deadline = time.monotonic() + 60
        while process.poll() is None and time.monotonic() < deadline:
            try:
                if manifest.stat().st_ino != before:
                    break
            except FileNotFoundError:
                pass  # between unlink and rename of a replace: the phase has begun
            time.sleep(0.0005)
        time.sleep(rng.uniform(0, 0.03))
        process.send_signal(signal.SIGKILL)
        process.wait()
        snapshot = _snapshot(out)
        if snapshot != old and snapshot != new:
            landed += 1
        _assert_each_file_old_or_new(out, old, new)
        finish = run(out)
        assert finish.wait() == 0, f"attempt {attempt}: the next generate did not finish the job"
        assert _snapshot(out) == new
    print(f"{landed} of 12 kills landed mid-write")


def test_writing_many_files_uses_a_few_threads_and_raises_the_first_failure(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every file is attempted, at most _WRITERS at once, and the first failure in plan order surfaces."""
    real_write = emit._atomic_write
    files = {f"pkg/_domain_{i:03}.py": f"# {i}\n".encode() for i in range(3 * emit._WRITERS + 5)}
    failing = {"pkg/_domain_007.py", "pkg/_domain_002.py"}
    running = peak = 0
    lock = threading.Lock()

    def write(target: Path, data: bytes) -> None:
        nonlocal running, peak
        with lock:
            running += 1
            peak = max(peak, running)
        try:
            time.sleep(0.002)  # long enough for the writers to overlap
            if target.relative_to(tmp_path).as_posix() in failing:
                raise OSError(28, f"No space left on device: {target.name}")
            real_write(target, data)
        finally:
            with lock:
                running -= 1

    monkeypatch.setattr(emit, "_atomic_write", write)
    (tmp_path / "pkg").mkdir()
    with pytest.raises(OSError, match="_domain_002.py"):
        emit._atomic_write_all(tmp_path, files)
    written = {p.relative_to(tmp_path).as_posix() for p in (tmp_path / "pkg").iterdir()}
    assert written == set(files) - failing
    assert 1 < peak <= emit._WRITERS
