"""Nothing is lost: atomic replacement, crash recovery, and SIGKILL at random points.

A run that dies part-way must leave every file wholly old or wholly new, and
the next ordinary ``generate`` must finish the job without ``--force`` (the
manifest records what was in flight, so half-done work is not mistaken for hand
edits).  Crashes are simulated after every single write in-process, then real
processes are killed at random moments.
"""

from __future__ import annotations

import json
import os
import random
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from taxogen import emit
from taxogen.folder import TMP_MARK, Folder
from taxogen.pipeline import build_plan
from tests.support import REPO


def _snapshot(root: Path) -> dict[str, bytes]:
    return {
        p.relative_to(root).as_posix(): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file() and TMP_MARK not in p.name
    }


def _taxonomy(
    name: str, codes: int, meaning: str, domains: tuple[int, ...] | None = None
) -> str:
    """A taxonomy of ``codes`` codes, 50 a domain, in the lazy layout (a module per
    domain).
    """
    lines = [
        "format: 1",
        f"name: {name}",
        "title: Kill Test",
        "version: 1.0.0",
        "base: KillError",
        "fallback: d0_c0",
        "wrap: d0_c0",
        "python_layout: lazy",
        "domains:",
    ]
    for d in domains if domains is not None else range(max(1, codes // 50)):
        lines += [f"  d{d}:", f"    title: Domain {d}", "    codes:"]
        for c in range(min(50, codes)):
            lines.append(
                f"      d{d}_c{c}: {{retryable: {'true' if c % 3 else 'false'}, "
                f"meaning: {meaning} {d} {c}}}"
            )
    return "\n".join(lines) + "\n"


@pytest.fixture
def two_plans(tmp_path: Path) -> tuple[emit.Plan, emit.Plan]:
    """An old and a new plan of one taxonomy that differ in every file and in the
    set of files.
    """
    old, new = tmp_path / "old.yaml", tmp_path / "new.yaml"
    old.write_text(_taxonomy("alpha", 100, "Old meaning", (0, 1)), encoding="utf-8")
    new.write_text(_taxonomy("alpha", 100, "New meaning", (0, 2)), encoding="utf-8")
    plans = build_plan(old), build_plan(new)
    assert set(plans[0]) - set(plans[1]) and set(plans[1]) - set(plans[0])
    return plans


def _assert_each_file_old_or_new(out: Path, old: emit.Plan, new: emit.Plan) -> None:
    for path, data in _snapshot(out).items():
        if path == emit.MANIFEST:
            continue
        assert data in (
            old.get(path),
            new.get(path),
        ), f"{path} is neither wholly old nor wholly new"


def test_crash_after_any_write_leaves_whole_files_and_recovers(
    tmp_path: Path,
    two_plans: tuple[emit.Plan, emit.Plan],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    old, new = two_plans
    real_write = Folder.write_atomic
    real_unlink = Folder.unlink
    steps = len(new) + len(old) + 4  # every write and removal, with room to spare
    for crash_at in range(steps):
        out = tmp_path / f"out{crash_at}"
        emit.write(out, old)
        done = 0

        def step() -> None:
            nonlocal done
            if done == crash_at:
                raise KeyboardInterrupt("simulated crash")
            done += 1

        def counting(self: Folder, path: str, data: bytes) -> None:
            step()
            real_write(self, path, data)

        def counting_unlink(self: Folder, path: str) -> None:
            step()
            real_unlink(self, path)

        monkeypatch.setattr(Folder, "write_atomic", counting)
        monkeypatch.setattr(Folder, "unlink", counting_unlink)
        try:
            emit.write(out, new)
            crashed = False
        except KeyboardInterrupt:
            crashed = True
        monkeypatch.setattr(Folder, "write_atomic", real_write)
        monkeypatch.setattr(Folder, "unlink", real_unlink)

        _assert_each_file_old_or_new(out, old, new)
        emit.write(out, new)  # no --force needed to finish the job
        assert _snapshot(out) == dict(
            new
        ), f"not recovered after a crash at step {crash_at}"
        assert emit.compare(out, new).clean
        if not crashed:
            break
    else:
        pytest.fail("the crash points never ran out: the step count is wrong")


def test_atomic_write_failure_keeps_the_old_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "f.txt"
    target.write_bytes(b"old")

    def broken_replace(*args: object, **kwargs: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", broken_replace)
    with Folder(tmp_path, create=False) as folder, pytest.raises(OSError):
        folder.write_atomic("f.txt", b"new")
    assert target.read_bytes() == b"old"
    assert [p.name for p in tmp_path.iterdir()] == ["f.txt"]  # no temporary left behind


def test_a_failed_run_removes_its_own_temporaries_and_nothing_that_looks_like_one(
    tmp_path: Path,
    two_plans: tuple[emit.Plan, emit.Plan],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    old, new = two_plans
    out = tmp_path / "out"
    emit.write(out, old)
    # Another run's leftover (or a user's file of that shape), and a link of that shape.
    stray = out / "docs" / f".errors.md{TMP_MARK}0123456789abcdef"
    stray.write_bytes(b"not this run's")
    outside = tmp_path / "outside.txt"
    outside.write_bytes(b"outside the folder")
    (out / "docs" / f".other{TMP_MARK}link").symlink_to(outside)
    real_fsync = os.fsync
    calls = 0

    def failing_fsync(fd: int) -> None:
        nonlocal calls
        calls += 1
        if calls == 4:  # after the manifest and a few files are on their way
            raise OSError(5, "Input/output error")
        real_fsync(fd)

    monkeypatch.setattr(os, "fsync", failing_fsync)
    with pytest.raises(OSError, match="Input/output"):
        emit.write(out, new)
    monkeypatch.setattr(os, "fsync", real_fsync)
    leftovers = sorted(p.name for p in out.rglob(f"*{TMP_MARK}*"))
    assert leftovers == sorted(
        [stray.name, f".other{TMP_MARK}link"]
    )  # only this run's went
    assert stray.read_bytes() == b"not this run's"
    assert outside.read_bytes() == b"outside the folder"
    emit.write(out, new)
    assert stray.read_bytes() == b"not this run's"  # a later run leaves it alone too


def _mid_write_evidence(out: Path) -> list[str]:
    """What a killed run left that proves it died inside its write phase (empty: no
    proof).

    The manifest is replaced first by one listing as ``pending`` the hashes about
    to be written, and last by the final one, so a manifest with ``pending`` after
    the kill means the run was between the two; a temporary file
    (``.NAME.taxogen-tmp-RANDOM``) means it died while writing that file.
    """
    evidence = []
    temporaries = [p for p in out.rglob("*") if TMP_MARK in p.name]
    if temporaries:
        evidence.append(f"{len(temporaries)} temporary file(s) left")
    manifest = json.loads((out / emit.MANIFEST).read_text(encoding="utf-8"))
    if manifest.get("pending"):
        evidence.append(f"a manifest with {len(manifest['pending'])} pending entries")
    return evidence


def test_generate_killed_at_random_points(tmp_path: Path) -> None:
    """Real SIGKILLs of `python -m taxogen generate`, then a normal run finishes
    the job.
    """
    old_yaml, new_yaml = tmp_path / "old.yaml", tmp_path / "new.yaml"
    # Large enough that writing takes a noticeable part of the run.
    old_yaml.write_text(_taxonomy("alpha", 1000, "Old meaning"), encoding="utf-8")
    new_yaml.write_text(
        _taxonomy("alpha", 1000, "New meaning", (0, *range(2, 21))), encoding="utf-8"
    )
    old, new = build_plan(old_yaml), build_plan(new_yaml)

    def run(out: Path) -> subprocess.Popen[bytes]:
        return subprocess.Popen(
            [
                sys.executable,
                "-m",
                "taxogen",
                "generate",
                "-q",
                "--taxonomy",
                str(new_yaml),
                "--out",
                str(out),
            ],
            cwd=REPO,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )

    rng = random.Random(20261202)
    landed = 0
    attempts = 0
    # Up to 12 runs; once 5 have run and 2 kills landed mid-write, the point is made
    # (each run is a whole generate, so this keeps the test near 10 s).
    for attempt in range(12):
        if attempt >= 5 and landed >= 2:
            break
        attempts += 1
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
        evidence = _mid_write_evidence(out)
        if evidence:
            landed += 1
            print(f"attempt {attempt}: killed mid-write: {', '.join(evidence)}")
        _assert_each_file_old_or_new(out, old, new)
        finish = run(out)
        assert (
            finish.wait() == 0
        ), f"attempt {attempt}: the next generate did not finish the job"
        assert _snapshot(out) == dict(new)
    print(f"{landed} of {attempts} kills landed mid-write")
    # A kill before or after the write phase proves nothing about atomicity; what
    # the killed run left behind says where it died, not the clock.
    assert landed >= 1, "no kill landed mid-write: the test measured nothing"


def test_writing_many_files_uses_a_few_threads_and_raises_the_first_failure(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every file is attempted, at most _WRITERS at once, and the first failure in
    plan order surfaces.
    """
    real_write = Folder.write_atomic
    files = {
        f"pkg/_domain_{i:03}.py": f"# {i}\n".encode()
        for i in range(3 * emit._WRITERS + 5)
    }
    failing = {"pkg/_domain_007.py", "pkg/_domain_002.py"}
    running = peak = 0
    lock = threading.Lock()

    def write(self: Folder, path: str, data: bytes) -> None:
        nonlocal running, peak
        with lock:
            running += 1
            peak = max(peak, running)
        try:
            time.sleep(0.002)  # long enough for the writers to overlap
            if path in failing:
                raise OSError(28, f"No space left on device: {path}")
            real_write(self, path, data)
        finally:
            with lock:
                running -= 1

    monkeypatch.setattr(Folder, "write_atomic", write)
    (tmp_path / "pkg").mkdir()
    with (
        Folder(tmp_path, create=False) as folder,
        pytest.raises(OSError, match="_domain_002.py"),
    ):
        emit._write_all(folder, files)
    written = {p.relative_to(tmp_path).as_posix() for p in (tmp_path / "pkg").iterdir()}
    assert written == set(files) - failing
    assert 1 < peak <= emit._WRITERS


# docs "Plugins": a path a plugin names is refused when it is absolute, has
# `.`/`..` or empty parts, a backslash, control characters, or has the manifest's
# name or a taxogen temporary file's as any part (issue 29: "a plugin may answer a
# nested `sub/.taxogen-manifest.json`"); the words are those `taxogen: plugin
# NAME: error:` prints after the path.
@pytest.mark.parametrize(
    ("path", "problem"),
    [
        ("", "an empty path"),
        ("/tmp/absolute.txt", "not a normalised relative path inside the folder"),
        ("../outside.txt", "not a normalised relative path inside the folder"),
        ("a/./b.txt", "not a normalised relative path inside the folder"),
        ("a//b.txt", "not a normalised relative path inside the folder"),
        ("a\\b.txt", "not a normalised relative path inside the folder"),
        ("a\nb.txt", "a path with control characters"),
        (".taxogen-manifest.json", "the name of taxogen's manifest"),
        ("events/.taxogen-manifest.json", "the name of taxogen's manifest"),
        (".taxogen-manifest.json/x.ts", "the name of taxogen's manifest"),
        ("a/.x.ts.taxogen-tmp-0123abcd", "the name of a taxogen temporary file"),
        (".taxogen-tmp-", "the name of a taxogen temporary file"),
        ("events/.taxogen-manifest.json.bak", None),
        ("events/x.taxogen-tmp-1", None),
        ("events/ts/events.ts", None),
    ],
)
def test_a_plugin_path_is_held_to_the_manifests_rules(
    path: str, problem: str | None
) -> None:
    assert emit.path_problem(path) == problem


def test_a_target_s_path_shape_matches_as_its_regular_expression() -> None:
    # Compiled at its first match (emit._Pattern), it answers as re does.
    shape = emit._Pattern(r"python/src/[a-z][a-z0-9_]*/_runtime\.py")
    for path in (
        "python/src/acme_errors/_runtime.py",
        "python/src/Acme/_runtime.py",
        "python/src/acme_errors/_runtime.pyc",
        "python/src/a/_runtimexpy",
    ):
        assert bool(shape.fullmatch(path)) == bool(re.fullmatch(shape.pattern, path))
