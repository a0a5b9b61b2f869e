"""taxogen's cache folder: its own, in the user's cache, and never trusted blindly.

Issue 29 §6: the memo and the compiled templates live in a cache folder of the
tool's own (``TAXOGEN_CACHE_DIR``, else the user's cache folder as the XDG Base
Directory specification places it), never beside taxogen's bytecode or in a
repository; files are written whole (an ``O_EXCL`` temporary file renamed into
place), read with size limits and never through links; a damaged or hostile
cache file is ignored and replaced.
"""

from __future__ import annotations

import hashlib
import marshal
import os
import pickle
import shutil
import stat
import threading
from pathlib import Path

import jinja2.bccache
import pytest

import taxogen
from taxogen import cache, memo, render
from taxogen.cli import main
from tests.support import CASES_DIR, REPO, cases

MINIMAL = CASES_DIR / "minimal" / "taxonomy.yaml"


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    where = tmp_path / "cache"
    monkeypatch.setenv("TAXOGEN_CACHE_DIR", str(where))
    return where


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, folder: Path) -> Path:
    work = tmp_path / "project"
    work.mkdir()
    shutil.copy(MINIMAL, work / "taxonomy.yaml")
    monkeypatch.chdir(work)
    assert main(["generate", "-q"]) == 0
    return work


@pytest.fixture
def rendered_count(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """One item per plan ``check`` built (it renders through ``pipeline.build``)."""
    import taxogen.pipeline

    calls: list[int] = []
    real = taxogen.pipeline.build

    def counting(*args: object, **kwargs: object) -> object:
        calls.append(1)
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(taxogen.pipeline, "build", counting)
    return calls


# ------------------------------------------------------------------ where it is
def test_the_cache_folder_follows_the_xdg_rules(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # XDG Base Directory: $XDG_CACHE_HOME if absolute, else $HOME/.cache.
    monkeypatch.delenv("TAXOGEN_CACHE_DIR", raising=False)
    monkeypatch.delenv("TAXOGEN_NO_CACHE", raising=False)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    assert cache.folder() == tmp_path / "home" / ".cache" / "taxogen"
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert cache.folder() == tmp_path / "xdg" / "taxogen"
    monkeypatch.setenv("XDG_CACHE_HOME", "relative/path")  # invalid: ignored
    assert cache.folder() == tmp_path / "home" / ".cache" / "taxogen"
    monkeypatch.setenv("TAXOGEN_CACHE_DIR", str(tmp_path / "mine"))
    assert cache.folder() == tmp_path / "mine"
    for off in ("1", "yes"):
        monkeypatch.setenv("TAXOGEN_NO_CACHE", off)
        assert cache.folder() is None
    monkeypatch.setenv("TAXOGEN_NO_CACHE", "0")
    assert cache.folder() == tmp_path / "mine"
    # A relative folder is refused, as XDG refuses relative values: it would
    # put the cache wherever a command runs, a checkout among them.
    monkeypatch.setenv("TAXOGEN_CACHE_DIR", ".taxogen_cache")
    assert cache.folder() is None


def test_a_run_writes_nothing_beside_taxogen_or_in_the_project(
    project: Path, folder: Path
) -> None:
    """The memo and the compiled templates are in the cache folder, and nowhere
    in taxogen's package, its templates or the project (but generated/)."""
    assert main(["check"]) == 0
    assert len(list((folder / "memo").iterdir())) == 1
    assert list((folder / "templates").glob("*.jinja"))
    package = Path(taxogen.__file__).parent
    assert not list(package.rglob("taxogen-check.memo"))
    assert not list(package.rglob("*.jinja"))
    assert not list((REPO / "templates").rglob("*.jinja"))
    assert sorted(p.name for p in project.iterdir()) == ["generated", "taxonomy.yaml"]
    # Only the user may enter the folders, or read the files.
    for where in (folder, folder / "memo", folder / "templates"):
        assert stat.S_IMODE(where.stat().st_mode) == 0o700
    for entry in folder.rglob("*"):
        if entry.is_file():
            assert stat.S_IMODE(entry.stat().st_mode) == 0o600


# ------------------------------------------------------------- never trusted blindly
def _memo_file(folder: Path) -> Path:
    (entry,) = (folder / "memo").iterdir()
    return entry


def _answers(project: Path) -> tuple[int, int]:
    """``check`` with the shortcut, and with a full render."""
    return main(["check"]), main(["check"], use_memo=False)


def _forge(project: Path, folder: Path) -> bytes:
    """Edit an output so the folder is stale, and return a memo that claims it
    is not: the memo's listed hash of that file rewritten (the manifest it holds
    still equals the folder's) and its seal recomputed, as a forger would (the
    seal tells damage apart, not forgery)."""
    out = project / "generated" / "docs" / "errors.md"
    body = _memo_file(folder).read_bytes()[:-64]
    old = hashlib.sha256(out.read_bytes()).hexdigest().encode()
    out.write_bytes(out.read_bytes() + b"edited\n")
    new = hashlib.sha256(out.read_bytes()).hexdigest().encode()
    assert old in body
    return memo._seal(body.replace(old, new, 1))  # the listing comes first


def test_a_memo_written_by_another_user_is_not_trusted(
    project: Path, folder: Path
) -> None:
    entry, forged = _memo_file(folder), _forge(project, folder)
    entry.write_bytes(forged)
    assert _answers(project) == (0, 1)  # the forgery works when it is ours...
    entry.write_bytes(forged)
    os.chown(entry, 4242, 4242)  # ...and not when another user owns it
    assert _answers(project) == (1, 1)


@pytest.mark.parametrize("mode", [0o777, 0o720, 0o702, 0o755, 0o750, 0o705])
def test_a_shelf_open_to_others_is_not_used(
    project: Path, folder: Path, mode: int
) -> None:
    entry, forged = _memo_file(folder), _forge(project, folder)
    entry.write_bytes(forged)
    (folder / "memo").chmod(mode)
    assert _answers(project) == (1, 1)


@pytest.mark.parametrize("mode", [0o777, 0o720, 0o702])
def test_a_cache_folder_others_can_write_is_not_used(
    project: Path, folder: Path, mode: int
) -> None:
    entry, forged = _memo_file(folder), _forge(project, folder)
    entry.write_bytes(forged)
    folder.chmod(mode)
    assert _answers(project) == (1, 1)


def test_a_cache_folder_of_the_usual_modes_is_used(
    project: Path, folder: Path, rendered_count: list[int]
) -> None:
    """A TAXOGEN_CACHE_DIR the user made (0755) holds the cache's own 0700
    shelves: used, so a no-op check does not render."""
    folder.chmod(0o755)
    assert main(["check"]) == 0
    assert rendered_count == []


def test_a_cache_committed_to_a_checkout_is_not_trusted(
    project: Path, folder: Path
) -> None:
    """git makes folders 0755 and files 0644, whatever a repository commits: a
    memo (or a compiled template) with those modes is never trusted, even the
    user's own."""
    entry, forged = _memo_file(folder), _forge(project, folder)
    entry.write_bytes(forged)
    assert _answers(project) == (0, 1)  # the forgery works as the cache's...
    entry.write_bytes(forged)
    entry.chmod(0o644)  # ...and not as a checkout's file
    assert _answers(project) == (1, 1)
    entry.write_bytes(forged)
    entry.chmod(0o600)
    (folder / "memo").chmod(0o755)  # a shelf as a checkout makes it
    assert _answers(project) == (1, 1)


def test_the_sweep_removes_only_the_cache_s_own_files(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, folder: Path
) -> None:
    """A cache folder pointed at a folder of the user's: past the limit the
    oldest memos go, never a file the cache did not name."""
    (folder / "memo").mkdir(parents=True, mode=0o700)
    folder.chmod(0o700)
    mine = [folder / "memo" / f"note{index}.txt" for index in range(memo._KEEP + 10)]
    for note in mine:
        note.write_text("mine\n")
        note.chmod(0o600)
    monkeypatch.chdir(tmp_path)
    text = MINIMAL.read_text(encoding="utf-8")
    for index in range(memo._KEEP + 3):
        variant = tmp_path / f"t{index}.yaml"
        variant.write_text(
            text.replace("Something went wrong", f"Wrong {index}"), encoding="utf-8"
        )
        assert main(["generate", "-q", "--taxonomy", str(variant), "--out", "g"]) == 0
    assert all(note.read_text() == "mine\n" for note in mine)
    memos = [p for p in (folder / "memo").iterdir() if not p.name.startswith("note")]
    assert len(memos) == memo._KEEP


def test_a_cache_folder_owned_by_another_user_is_not_used(
    project: Path, folder: Path
) -> None:
    entry, forged = _memo_file(folder), _forge(project, folder)
    entry.write_bytes(forged)
    os.chown(folder / "memo", 4242, 4242)
    assert _answers(project) == (1, 1)


def test_a_cache_reached_through_a_link_is_not_used(
    project: Path, folder: Path, tmp_path: Path
) -> None:
    entry, forged = _memo_file(folder), _forge(project, folder)
    entry.write_bytes(forged)
    moved = tmp_path / "elsewhere"
    (folder / "memo").rename(moved)
    (folder / "memo").symlink_to(moved, target_is_directory=True)
    assert _answers(project) == (1, 1)


def test_a_memo_that_is_a_link_is_not_followed(
    project: Path, folder: Path, tmp_path: Path
) -> None:
    entry, forged = _memo_file(folder), _forge(project, folder)
    planted = tmp_path / "planted"
    planted.write_bytes(forged)
    entry.unlink()
    entry.symlink_to(planted)
    assert _answers(project) == (1, 1)


@pytest.mark.parametrize("kind", ["fifo", "zero", "huge"])
def test_a_memo_that_cannot_be_read_in_bounded_time_is_skipped(
    project: Path, folder: Path, kind: str
) -> None:
    entry = _memo_file(folder)
    entry.unlink()
    if kind == "fifo":
        os.mkfifo(entry)
    elif kind == "zero":
        entry.symlink_to("/dev/zero")
    else:  # sparse: 64 MiB of nothing, more than any memo may be
        with open(entry, "wb") as handle:
            handle.truncate(64 * 1024 * 1024)
    answer: list[int] = []
    runner = threading.Thread(target=lambda: answer.append(main(["check"])))
    runner.start()
    runner.join(timeout=60)
    assert not runner.is_alive(), "check hung on the memo"
    assert answer == [0]  # rendered instead, and found the folder up to date


@pytest.mark.parametrize("damage", ["truncated", "flipped", "empty", "garbage"])
def test_a_damaged_memo_is_ignored_and_replaced(
    project: Path, folder: Path, damage: str
) -> None:
    entry = _memo_file(folder)
    good = entry.read_bytes()
    if damage == "truncated":
        bad = good[: len(good) // 2]
    elif damage == "flipped":  # one bit of the recorded manifest
        index = good.index(b'"files"')
        bad = good[:index] + bytes([good[index] ^ 1]) + good[index + 1 :]
    elif damage == "empty":
        bad = b""
    else:
        bad = b"\xff" * 100
    entry.write_bytes(bad)
    out = project / "generated" / "docs" / "errors.md"
    out.write_bytes(out.read_bytes() + b"edited\n")
    assert main(["check"]) == 1
    out.write_bytes(out.read_bytes()[: -len(b"edited\n")])
    assert main(["check"]) == 0  # rendered, and the memo written anew
    assert entry.read_bytes() == good


def test_the_cache_keeps_a_bounded_number_of_memos(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, folder: Path
) -> None:
    monkeypatch.chdir(tmp_path)
    text = MINIMAL.read_text(encoding="utf-8")
    for index in range(memo._KEEP + 5):
        variant = tmp_path / f"t{index}.yaml"
        variant.write_text(
            text.replace("Something went wrong", f"Wrong {index}"), encoding="utf-8"
        )
        assert main(["generate", "-q", "--taxonomy", str(variant), "--out", "g"]) == 0
    assert len(list((folder / "memo").iterdir())) == memo._KEEP


# ------------------------------------------------------------ compiled templates
def _planted(entry: Path, marker: Path) -> bytes:
    """``entry`` (a compiled template) with its code replaced by code that makes
    ``marker``: Jinja's header (magic, the source's checksum) kept, so Jinja
    would run it."""
    data = entry.read_bytes()
    magic = len(jinja2.bccache.bc_magic)
    checksum = pickle.loads(data[magic:])  # pickle stops at its own end
    header = data[:magic] + pickle.dumps(checksum, 2)
    assert data.startswith(header)
    code = compile(f"open({str(marker)!r}, 'w').close()", "<planted>", "exec")
    return header + marshal.dumps(code)


def test_a_planted_compiled_template_runs_only_if_the_user_owns_it(
    folder: Path, tmp_path: Path
) -> None:
    """A compiled template is code: one the user does not own is never loaded
    (the control: the same entry owned by the user is run, as Jinja would)."""
    names = cases()[0].names
    first = render.render(names)
    entries = sorted((folder / "templates").glob("*.jinja"))
    assert entries
    marker = tmp_path / "pwned"
    for entry in entries:
        entry.write_bytes(_planted(entry, marker))
        os.chown(entry, 4242, 4242)
    assert render.render(names) == first
    assert not marker.exists()
    for entry in entries:  # replaced by the render: planted again, as the user's
        assert entry.stat().st_uid == os.geteuid()
        entry.write_bytes(_planted(entry, marker))
    with pytest.raises(Exception):
        render.render(names)  # the planted code is no template: it fails, after...
    assert marker.exists()  # ...it ran


def test_a_damaged_compiled_template_is_compiled_again(folder: Path) -> None:
    names = cases()[0].names
    first = render.render(names)
    for entry in (folder / "templates").glob("*.jinja"):
        entry.write_bytes(entry.read_bytes()[: len(entry.read_bytes()) // 2])
    assert render.render(names) == first
    for entry in (folder / "templates").glob("*.jinja"):
        entry.write_bytes(b"not a cache entry")
    assert render.render(names) == first
