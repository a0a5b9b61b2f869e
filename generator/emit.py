"""Emit: the only step that touches the output folder.

``generate`` and ``check`` take the same :class:`Plan` (output path → bytes,
the manifest included, and the name of the taxonomy it comes from).
``compare`` (``check``) reads the folder and writes nothing; ``write``
(``generate``) replaces files atomically (a temporary file in the same folder,
then a rename), so an interrupted run leaves every file wholly old or wholly
new.  Both lock the folder first, so two runs never interleave, and reach every
path through :class:`taxogen.folder.Folder`, which follows no link and
touches only regular files inside the folder.

What taxogen owns is recorded in the folder's manifest
(``.taxogen-manifest.json``): the taxonomy that owns the folder, and each file
it wrote with its SHA-256.  An entry is trusted only if it is a normalised
relative path of a shape one of taxogen's targets writes (in a plugin's folder:
a path the plugin answers in this run, or of a shape it declares), and no part
of it is the manifest's name or a temporary file's; a file is taxogen's only
if it is listed by a trusted entry.  ``write`` never overwrites or removes
anything else, even when forced; it removes its own files that are no longer
generated, and refuses, naming the file, to overwrite or remove one that was
edited by hand, unless forced.  Before it replaces anything it records the
hashes it is about to write as ``pending``, so a run killed half-way is not
mistaken for hand edits by the next one.  ``write_folders`` does this for the
output folder and every plugin's at once: all locked, all checked, then all
written, so that a conflict in any means nothing is written in any.

It is longer than 300 lines because the manifest's rules (what is trusted,
what is owned, what is pending) are what both ``compare`` and ``write`` decide
by: apart, a reader of either would have to hold the other module in mind; and
the checks ``write_folders`` makes of every folder before writing any are
those same rules.
"""

from __future__ import annotations

import contextlib
import dataclasses
import difflib
import hashlib
import json
import os
import re
import threading
from collections.abc import Callable, Iterable, Iterator, Mapping
from pathlib import Path
from typing import Protocol

import taxogen
from taxogen.diagnostics import visible
from taxogen.folder import TMP_MARK, Folder, UnsafePath
from taxogen.lock import LockTimeout

__all__ = [
    "LOCK_TIMEOUT",
    "MANIFEST",
    "MANIFEST_LIMIT",
    "Conflict",
    "Difference",
    "EmitError",
    "FolderError",
    "LockTimeout",
    "Plan",
    "Refused",
    "Report",
    "Shape",
    "UnsafePath",
    "compare",
    "manifest_bytes",
    "overlaps",
    "path_problem",
    "write",
    "write_folders",
]

#: The file, inside the output folder, that lists what taxogen generated there.
MANIFEST = ".taxogen-manifest.json"
#: The largest manifest taxogen reads (one of 10,000 codes is about 2 KB).
MANIFEST_LIMIT = 16 * 1024 * 1024
#: Seconds a run waits for another run on the same folder before giving up.
LOCK_TIMEOUT = 60.0
_MAX_PATH = 1024  # characters in a manifest path; taxogen's own are far shorter
_MAX_NAME = 255  # bytes in one path component, as on every common file system
_DIGEST = re.compile(r"[0-9a-f]{64}")
_COMMENT = "Written by taxogen: the files it generated in this folder. Do not edit."


class EmitError(Exception):
    """Files are in the way: taxogen will not overwrite or remove them (exit 1)."""

    def __init__(self, message: str, conflicts: tuple[Conflict, ...] = ()) -> None:
        super().__init__(message)
        self.conflicts = conflicts


class FolderError(Exception):
    """The folder cannot be used at all: a damaged manifest, another owner (exit 2)."""


class Shape(Protocol):
    """What a path may look like: a compiled regular expression (a target's) or a
    :class:`taxogen.shapes.Glob` (a plugin's)."""

    def fullmatch(self, path: str, /) -> object: ...


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True, eq=False)
class Plan(Mapping[str, bytes]):
    """Every file a run generates (path → bytes, manifest included), and whose they are.

    ``owner`` is the taxonomy's ``name``: it owns the output folder.  ``shapes``
    match every path any of taxogen's targets can write (or that a plugin
    declares), so that a manifest entry of another shape is never trusted, while
    the stale files of a removed code or domain still are.
    """

    owner: str
    files: Mapping[str, bytes]
    shapes: tuple[Shape, ...]
    #: Each planned file's SHA-256 (the manifest's), so staging the write hashes
    #: none of them again; a path missing here is hashed where it is needed.
    digests: Mapping[str, str] = dataclasses.field(default_factory=dict)

    def digest(self, path: str) -> str:
        """The SHA-256 of the planned file ``path``."""
        found = self.digests.get(path)
        return _sha256(self.files[path]) if found is None else found

    def __getitem__(self, path: str) -> bytes:
        return self.files[path]

    def __iter__(self) -> Iterator[str]:
        return iter(self.files)

    def __len__(self) -> int:
        return len(self.files)

    @classmethod
    def of(
        cls, owner: str, files: Mapping[str, bytes], shapes: Iterable[str | Shape]
    ) -> Plan:
        """The plan of ``files`` (without manifest) plus the manifest that describes
        them; each of ``shapes`` a regular expression or a :class:`Shape`.
        """
        with_manifest = dict(files)
        digests = {path: _sha256(data) for path, data in files.items()}
        with_manifest[MANIFEST] = manifest_bytes(owner, files, digests=digests)
        return cls(
            owner=owner,
            files=with_manifest,
            digests=digests,
            shapes=tuple(
                _Pattern(shape) if isinstance(shape, str) else shape for shape in shapes
            ),
        )

    def may_write(self, path: str) -> bool:
        """Whether ``path`` is one this plan writes, or has a shape its writer
        (one of taxogen's targets, or a plugin) may write."""
        return path in self.files or any(shape.fullmatch(path) for shape in self.shapes)


class _Pattern:
    """A target's path shape (a regular expression), compiled the first time a
    path is matched against it: most runs match none (only a manifest entry
    the plan does not hold is), and compiling every target's took some 3 ms of
    each run that plans."""

    __slots__ = ("pattern", "_compiled")

    def __init__(self, pattern: str) -> None:
        self.pattern = pattern
        self._compiled: re.Pattern[str] | None = None

    def fullmatch(self, path: str, /) -> object:
        if self._compiled is None:
            self._compiled = re.compile(self.pattern)
        return self._compiled.fullmatch(path)


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class Conflict:
    """A file taxogen will not overwrite or remove (``forceable``: unless forced)."""

    path: str
    reason: str
    forceable: bool = True


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class Difference:
    """How the output folder differs from a plan."""

    missing: tuple[str, ...]
    stale: tuple[str, ...]
    extra: tuple[
        str, ...
    ]  # generated earlier, no longer planned: generate removes them
    untrusted: tuple[tuple[str, str], ...]  # manifest entries never acted on, and why
    diffs: tuple[str, ...]  # unified diffs of the stale text files
    #: Who wrote the folder's manifest ("taxogen VERSION"), if it says: said
    #: beside a difference, and no difference itself (the manifest's bytes are).
    writer: str | None = dataclasses.field(default=None, compare=False)

    @property
    def clean(self) -> bool:
        return not (self.missing or self.stale or self.extra or self.untrusted)


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class Report:
    """What ``write`` did, and the manifest entries it dropped without acting on
    them.
    """

    written: tuple[str, ...]
    unchanged: tuple[str, ...]
    removed: tuple[str, ...]
    untrusted: tuple[tuple[str, str], ...] = ()


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def manifest_bytes(
    owner: str,
    files: Mapping[str, bytes],
    pending: Mapping[str, str] | None = None,
    *,
    digests: Mapping[str, str] | None = None,
) -> bytes:
    """The manifest listing ``files`` (path → content), deterministic byte for byte;
    ``digests`` the files' SHA-256 where the caller has them already."""
    known = digests or {}
    document: dict[str, object] = {
        "//": _COMMENT,
        "generator": writer(),
        "taxonomy": owner,
        "files": {
            path: known.get(path) or _sha256(files[path]) for path in sorted(files)
        },
    }
    if pending:
        document["pending"] = dict(sorted(pending.items()))
    return _encode(document)


def writer() -> str:
    """Who writes a manifest now: ``taxogen VERSION``, recorded in every one, so that
    a folder written by another version is told apart (and ``check`` says so)."""
    return f"taxogen {taxogen.__version__}"


def _encode(document: Mapping[str, object]) -> bytes:
    """A manifest's bytes: one format for the final and the in-flight manifest."""
    return (json.dumps(document, indent=2, ensure_ascii=True) + "\n").encode("ascii")


# -------------------------------------------------------------------- manifest
@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class _Manifest:
    owner: str | None  # None: a manifest older than ownership, or none at all
    writer: str | None  # "taxogen VERSION" that wrote it; None: unsaid, or none
    owned: dict[str, set[str]]  # trusted path → the digests taxogen may have left there
    untrusted: tuple[tuple[str, str], ...]
    raw: bytes | None = (
        None  # the bytes read, so an up-to-date run need not read them again
    )


_NO_MANIFEST = _Manifest(owner=None, writer=None, owned={}, untrusted=())


def _damaged(folder: Folder, why: str) -> FolderError:
    return FolderError(
        f"{folder.root / MANIFEST}: damaged manifest: {why}; "
        "rerun `taxogen generate --force` to rebuild it (it then treats as its own "
        "only the files whose bytes it would write)"
    )


def _read_manifest(folder: Folder, plan: Plan) -> _Manifest:
    """The manifest in ``folder``, its entries sorted into trusted and untrusted."""
    data = folder.read(MANIFEST, MANIFEST_LIMIT)
    if data is None:
        return _NO_MANIFEST
    try:
        document = json.loads(data.decode("utf-8"))
    except UnicodeDecodeError:
        raise _damaged(folder, "not UTF-8") from None
    except RecursionError:
        raise _damaged(folder, "nested too deeply") from None
    except ValueError as exc:
        raise _damaged(folder, f"not JSON ({exc})") from None
    if not isinstance(document, dict):
        raise _damaged(folder, "not a JSON object")
    owner = document.get("taxonomy")
    if owner is not None and not (isinstance(owner, str) and owner.isprintable()):
        raise _damaged(folder, '"taxonomy" is not a name')
    writer = document.get("generator")
    if writer is not None and not (isinstance(writer, str) and writer.isprintable()):
        raise _damaged(folder, '"generator" is not a name')
    owned: dict[str, set[str]] = {}
    untrusted: list[tuple[str, str]] = []
    for section in ("files", "pending"):
        entries = document.get(section, {})
        if not isinstance(entries, dict):
            raise _damaged(folder, f'"{section}" is not an object')
        for path, digest in entries.items():
            problem = _entry_problem(path, digest)
            if problem is not None:
                raise _damaged(folder, f'"{section}" entry {_shown(path)}: {problem}')
            if _unnormalised(path):
                untrusted.append(
                    (path, "not a normalised relative path inside the folder")
                )
            elif _reserved(path) is not None or not plan.may_write(path):
                untrusted.append((path, "not a file taxogen generates"))
            else:
                owned.setdefault(path, set()).add(digest)
    return _Manifest(
        owner=owner,
        writer=writer,
        owned=owned,
        untrusted=tuple(sorted(set(untrusted))),
        raw=data,
    )


def _entry_problem(path: str, digest: object) -> str | None:
    if not isinstance(digest, str) or not _DIGEST.fullmatch(digest):
        return "the digest is not a SHA-256"
    return _path_damage(path)


def _unnormalised(path: str) -> bool:
    """Whether ``path`` could name something outside the folder, or one file by
    two spellings: absolute, a backslash, an empty, ``.`` or ``..`` part."""
    return (
        path.startswith("/")
        or "\\" in path
        or any(p in ("", ".", "..") for p in path.split("/"))
    )


def path_problem(path: str) -> str | None:
    """Why ``path`` cannot be a file taxogen writes in an output folder (None when
    it can): the rules a manifest entry is held to, for paths that come from
    elsewhere (a plugin's answer)."""
    damage = _path_damage(path)
    if damage is not None:
        return damage
    if _unnormalised(path):
        return "not a normalised relative path inside the folder"
    return _reserved(path)


def _reserved(path: str) -> str | None:
    """Whether any part of ``path`` is a name taxogen keeps for itself: its
    manifest's (in a folder below, it would be another folder's manifest, a
    plugin's whose folder lies inside this one), or its temporary files'."""
    for part in path.split("/"):
        if part == MANIFEST:
            return "the name of taxogen's manifest"
        if part.startswith(".") and TMP_MARK in part:
            return "the name of a taxogen temporary file"
    return None


def _path_damage(path: str) -> str | None:
    if not path:
        return "an empty path"
    if len(path) > _MAX_PATH:
        return f"a path over {_MAX_PATH} characters"
    # Before the control-character test: a lone surrogate is not printable
    # either, and "not valid Unicode" is what is wrong with it.
    try:
        parts = [part.encode("utf-8") for part in path.split("/")]
    except UnicodeEncodeError:
        return "a path that is not valid Unicode"
    if not path.isprintable():
        return "a path with control characters"
    if any(len(part) > _MAX_NAME for part in parts):
        return f"a path component over {_MAX_NAME} bytes"
    return None


def _shown(path: object) -> str:
    return json.dumps(path, ensure_ascii=True)[:80]


def _check_owner(folder: Folder, manifest: _Manifest, plan: Plan) -> None:
    if manifest.owner is not None and manifest.owner != plan.owner:
        raise FolderError(
            f"{folder.root} holds the outputs of taxonomy {manifest.owner!r}, "
            f"not of {plan.owner!r}; pass --out to generate {plan.owner!r} into "
            "a folder of its own (nothing was written)"
        )


def _open(out: Path, *, create: bool, waiting: Callable[[str], None]) -> Folder:
    folder = _unlocked(out, create=create)
    _lock(folder, out, waiting)
    return folder


def _unlocked(out: Path, *, create: bool) -> Folder:
    if out.is_symlink() and not out.exists():
        raise FolderError(f"{out}: is a broken symbolic link")
    if out.exists() and not out.is_dir():
        raise FolderError(f"{out}: is not a folder")
    try:
        return Folder(out, create=create)
    except OSError as exc:  # a file where a folder above it belongs, no permission
        raise FolderError(
            f"{out}: cannot make or open the folder: {exc.strerror or exc}"
        ) from None


def _lock(folder: Folder, out: Path, waiting: Callable[[str], None]) -> None:
    """Lock ``folder`` (closing it if that fails), and make sure it is still the
    folder at ``out``: one a refused run made and removed while this one waited is
    not."""
    try:
        folder.lock(timeout=_lock_timeout(), waiting=waiting)
        try:
            info = os.stat(out)
            still = (info.st_dev, info.st_ino) == folder.identity()
        except OSError:
            still = False
        if not still:
            raise FolderError(
                f"{out}: was removed or replaced while this run waited for its "
                "lock; run again (nothing was written)"
            )
    except LockTimeout as exc:
        folder.close()
        raise FolderError(
            f"{out}: still locked after {_lock_timeout():g} s by {exc}; "
            "another taxogen run is using this folder (nothing was written)"
        ) from None
    except BaseException:
        folder.close()
        raise


def _lock_timeout() -> float:
    """:data:`LOCK_TIMEOUT`, or ``TAXOGEN_LOCK_TIMEOUT`` seconds where it is a
    number.
    """
    text = os.environ.get("TAXOGEN_LOCK_TIMEOUT", "")
    try:
        value = float(text)
    except ValueError:
        return LOCK_TIMEOUT
    return value if 0 <= value < 1e6 else LOCK_TIMEOUT


def _quiet(holder: str) -> None:
    pass


# --------------------------------------------------------------------- compare
def compare(
    out: Path, plan: Plan, *, waiting: Callable[[str], None] = _quiet
) -> Difference:
    """How ``out`` differs from ``plan``; reads only, after taking the folder's lock."""
    if not out.exists() and not out.is_symlink():
        return Difference(
            missing=tuple(plan), stale=(), extra=(), untrusted=(), diffs=()
        )
    with _open(out, create=False, waiting=waiting) as folder:
        manifest = _read_manifest(folder, plan)
        _check_owner(folder, manifest, plan)
        missing: list[str] = []
        stale: list[str] = []
        diffs: list[str] = []
        for path, data in plan.items():
            current = folder.read(path)
            if current is None:
                missing.append(path)
            elif current != data:
                stale.append(path)
                diffs.append(_diff(path, current, data))
        extra: list[str] = []
        untrusted = list(manifest.untrusted)
        for path in sorted(manifest.owned):
            if path in plan:
                continue
            try:
                if folder.kind(path) == "file":
                    extra.append(path)
            except UnsafePath as exc:
                untrusted.append((path, exc.reason))
    return Difference(
        missing=tuple(missing),
        stale=tuple(stale),
        extra=tuple(extra),
        untrusted=tuple(untrusted),
        diffs=tuple(diffs),
        writer=manifest.writer,
    )


def _diff(path: str, old: bytes, new: bytes, limit: int = 40) -> str:
    try:
        old_lines = old.decode("utf-8").splitlines(keepends=True)
        new_lines = new.decode("utf-8").splitlines(keepends=True)
    except UnicodeDecodeError:
        return f"Binary files a/{path} and b/{path} differ\n"
    lines = list(difflib.unified_diff(old_lines, new_lines, f"a/{path}", f"b/{path}"))
    if len(lines) > limit:
        lines = lines[:limit] + [f"... ({len(lines) - limit} more diff lines)\n"]
    return "".join(line if line.endswith("\n") else line + "\n" for line in lines)


# ----------------------------------------------------------------------- write
#: Threads that write at once: enough for the disk to flush several files
#: together, few enough that a plan of hundreds of files (the lazy Python
#: layout writes one module per domain) does not start a thread per file.
_WRITERS = 8


def _write_all(folder: Folder, files: Mapping[str, bytes]) -> None:
    """Atomically replace every file of ``files`` (path → content), a few at a time.

    Each file is still written to a temporary file, flushed to disk and renamed
    over the old one, so each is wholly old or wholly new at every moment.
    Doing it in a few threads lets the disk flush them together (``fsync``
    releases the GIL): at 10,000 codes (25 MB) the wait drops from about 100 to
    60 ms.  Every file is attempted; the first failure, in the order of
    ``files``, is raised once all are done.
    """
    if len(files) < 2:
        for path, data in files.items():
            folder.write_atomic(path, data)
        return
    # The largest first: a 10 MB file started last would be the run's tail.
    jobs = iter(sorted(enumerate(files.items()), key=lambda job: -len(job[1][1])))
    taking = threading.Lock()
    failures: dict[int, BaseException] = {}

    def writer() -> None:
        while True:
            with taking:
                job = next(jobs, None)
            if job is None:
                return
            index, (path, data) = job
            try:
                folder.write_atomic(path, data)
            except BaseException as exc:  # re-raised below, in the calling thread
                failures[index] = exc

    threads = [
        threading.Thread(target=writer, name=f"taxogen-write-{number}")
        for number in range(min(_WRITERS, len(files)))
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    if failures:
        raise failures[min(failures)]


def write(
    out: Path,
    plan: Plan,
    *,
    force: bool = False,
    waiting: Callable[[str], None] = _quiet,
) -> Report:
    """Make ``out`` match ``plan`` without losing anyone's work.

    Raises :class:`FolderError` or :class:`UnsafePath` when the folder cannot be
    used at all, and :class:`EmitError` when files are in the way; in every
    case before anything is written.
    """
    try:
        (report,) = write_folders([(out, plan)], force=force, waiting=lambda _: waiting)
    except Refused as exc:
        raise exc.problems[0][1] from None
    return report


class Refused(Exception):
    """:func:`write_folders` wrote nothing, in any folder: each problem is a folder
    and why (:class:`FolderError` or :class:`UnsafePath`: it cannot be used at
    all; :class:`EmitError`: files are in the way)."""

    def __init__(
        self, problems: list[tuple[Path, FolderError | UnsafePath | EmitError]]
    ) -> None:
        super().__init__("; ".join(f"{out}: {exc}" for out, exc in problems))
        self.problems = problems


def overlaps(jobs: Iterable[tuple[Path, Plan]]) -> list[str]:
    """Every file two plans would both write (``jobs``: folder and plan), as
    messages: a plugin's folder may lie inside the output folder, and then one
    of its paths may be a path a target writes, whose file would be written
    twice, the last plan winning and the next run calling it edited by hand."""
    owners: dict[str, Path] = {}
    found: list[str] = []
    for out, plan in jobs:
        base = os.path.realpath(out)
        for path in plan:
            where = os.path.join(base, *path.split("/"))
            first = owners.setdefault(where, out)
            if first is not out:
                found.append(
                    f"{visible(str(out / path))}: written by the plans of both"
                    f" {visible(str(first))} and {visible(str(out))}; give each"
                    " plugin a folder no other plan writes in"
                )
    return found


def write_folders(
    jobs: Iterable[tuple[Path, Plan]],
    *,
    force: bool = False,
    waiting: Callable[[Path], Callable[[str], None]] = lambda _: _quiet,
) -> list[Report]:
    """Make each folder match its plan (``jobs``: folder and plan), one report each.

    Every folder is opened and locked, and every one is checked for conflicts
    before any is written; the locks are held until all are written.  If any is
    refused, :class:`Refused` names every problem and nothing was written, in
    any folder: the folders made for this run are removed again.
    """
    jobs = list(jobs)
    made: list[Path] = []
    opened: list[Folder] = []
    problems: list[tuple[Path, FolderError | UnsafePath | EmitError]] = []
    staged: list[_Staged] = []
    try:
        _open_all(jobs, opened, made, waiting)
        for folder, (out, plan) in zip(opened, jobs):
            try:
                staged.append(_stage(folder, plan, force=force))
            except (FolderError, UnsafePath, EmitError) as exc:
                problems.append((out, exc))
        if problems:
            raise Refused(problems)
    except BaseException:
        _close_all(opened)
        for folder_made in reversed(made):  # rmdir fails on a folder not empty
            with contextlib.suppress(OSError):
                os.rmdir(folder_made)
        raise
    try:
        for folder, each in zip(opened, staged):
            try:
                _apply(folder, each)
            except BaseException:
                folder.sweep()
                raise
    finally:
        _close_all(opened)
    return [each.report for each in staged]


def _open_all(
    jobs: list[tuple[Path, Plan]],
    opened: list[Folder],
    made: list[Path],
    waiting: Callable[[Path], Callable[[str], None]],
) -> None:
    """Open every folder of ``jobs`` into ``opened`` (making those missing, each
    one made added to ``made`` in the order made), then lock them in the order
    of their identities on disk, whatever the order of ``jobs``: two runs on the
    same folders then never each hold a lock the other waits for.  Refused at
    the first that fails.
    """
    for out, _ in jobs:
        missing = []
        above = out
        while not os.path.lexists(above) and above != above.parent:
            missing.append(above)
            above = above.parent
        try:
            opened.append(_unlocked(out, create=True))
        except FolderError as exc:
            raise Refused([(out, exc)]) from None
        finally:  # made from the top down
            made.extend(path for path in reversed(missing) if os.path.isdir(path))
    for index in sorted(range(len(jobs)), key=lambda i: opened[i].identity()):
        out = jobs[index][0]
        try:
            _lock(opened[index], out, waiting(out))
        except FolderError as exc:
            raise Refused([(out, exc)]) from None


def _close_all(opened: list[Folder]) -> None:
    for folder in opened:
        folder.close()


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class _Staged:
    """What :func:`_stage` found a folder needs, for :func:`_apply` to do."""

    report: Report
    manifest: bytes | None  # None: the folder is up to date, manifest and all
    transition: bytes  # the in-flight manifest (see the module's docstring)
    files: dict[str, bytes]  # path → the bytes to write


def _stage(folder: Folder, plan: Plan, *, force: bool) -> _Staged:
    """What writing ``plan`` into ``folder`` takes; EmitError if files are in the way,
    FolderError or UnsafePath if the folder cannot be used.  Reads only."""
    try:
        manifest = _read_manifest(folder, plan)
    except FolderError:
        if not force:
            raise
        manifest = (
            _NO_MANIFEST  # --force: only files whose bytes it would write are its own
        )
    _check_owner(folder, manifest, plan)
    owned = manifest.owned
    planned = {path: data for path, data in plan.items() if path != MANIFEST}
    conflicts: list[Conflict] = []
    changed: list[str] = []
    unchanged: list[str] = []
    on_disk: dict[str, str] = (
        {}
    )  # path → hash of what is there now, for files we may touch
    for path, data in planned.items():
        current = folder.read(path)  # a link or FIFO on the way raises UnsafePath
        if current == data:
            unchanged.append(path)
            continue
        changed.append(path)
        if current is None:
            continue
        on_disk[path] = _sha256(current)
        if path not in owned:
            conflicts.append(
                Conflict(
                    path=path,
                    reason="exists and was not generated by taxogen",
                    forceable=False,
                )
            )
        elif on_disk[path] not in owned[path]:
            conflicts.append(
                Conflict(path=path, reason="was edited by hand since taxogen wrote it")
            )
    obsolete: list[str] = []
    untrusted = list(manifest.untrusted)
    for path in sorted(owned):
        if path in plan:
            continue
        try:
            current = folder.read(path)
        except UnsafePath as exc:
            untrusted.append((path, exc.reason))
            continue
        if current is None:
            continue
        obsolete.append(path)
        on_disk[path] = _sha256(current)
        if on_disk[path] not in owned[path]:
            conflicts.append(
                Conflict(
                    path=path, reason="is no longer generated but was edited by hand"
                )
            )
    if any(not c.forceable for c in conflicts) or (conflicts and not force):
        raise EmitError("refusing to overwrite or remove files", tuple(conflicts))

    final = plan[MANIFEST]
    report = Report(
        written=tuple(changed),
        unchanged=tuple(unchanged),
        removed=tuple(obsolete),
        untrusted=tuple(untrusted),
    )
    # Record what is on disk and what is about to be written before writing it, so
    # a run killed half-way leaves a manifest that owns both (see the docstring).
    transition = {
        "//": _COMMENT,
        "taxonomy": plan.owner,
        "files": dict(sorted(on_disk.items())),
        "pending": {path: plan.digest(path) for path in sorted(changed)},
    }
    return _Staged(
        report=report,
        manifest=(
            None if not changed and not obsolete and manifest.raw == final else final
        ),
        transition=_encode(transition),
        files={path: planned[path] for path in changed},
    )


def _apply(folder: Folder, staged: _Staged) -> None:
    """Do what :func:`_stage` found: the in-flight manifest, the files, the
    removals, the final manifest."""
    if staged.manifest is None:
        return
    folder.write_atomic(MANIFEST, staged.transition)
    _write_all(folder, staged.files)
    for path in staged.report.removed:
        folder.unlink(path)
        folder.prune(path)
    folder.write_atomic(MANIFEST, staged.manifest)
