"""Template folder: a user's templates folder read once, whole, within bounds.

:func:`read` returns every file the template loader can reach (by relative
POSIX name, sorted) with its bytes, and is the only read of the folder: the
templates render from these bytes (:class:`taxogen.user_templates.FolderLoader`)
and the no-op ``check`` digests the same ones, so what is rendered is what was
digested.  Links are followed, to files and to folders (a linked folder of
templates is as much the folder's as a real one), with loops refused; files in
any folder count, ``__pycache__`` included, since Jinja loads from any of them.
Only regular files are read: a FIFO, socket or device is refused in bounded time
(a ``stat`` first, then an ``O_NONBLOCK`` open confirmed by ``fstat``, in case
the file was swapped between the two).  Every name is held to the rules of an
output path (an extra template's name becomes one), and sizes are bounded
(:data:`FILE_LIMIT`, :data:`TOTAL_LIMIT`, :data:`ENTRY_LIMIT`,
:data:`DEPTH_LIMIT`), each read bounded as it goes, never read whole first.

Neither Jinja nor PyYAML is imported here, nor :mod:`taxogen.emit` (some 8 ms,
a fifth of a no-op ``check``): the memo reads the folder on that fast path.
The name rules are therefore spelt here; a test holds them to refuse every name
``emit.path_problem`` refuses.
"""

from __future__ import annotations

import dataclasses
import os
import stat
import types
from collections.abc import Mapping
from pathlib import Path

from taxogen.diagnostics import MAX_DIAGNOSTICS, Diagnostic, Position, TaxonomyError
from taxogen.folder import read_bounded

__all__ = [
    "DEPTH_LIMIT",
    "ENTRY_LIMIT",
    "FILE_LIMIT",
    "TOTAL_LIMIT",
    "TemplateFolder",
    "TemplateProblem",
    "diagnostic",
    "name_problem",
    "read",
]

#: The largest file a templates folder may hold (a taxonomy is at most 4 MiB).
FILE_LIMIT = 4 * 1024 * 1024
#: The most bytes all of its files may hold together.
TOTAL_LIMIT = 32 * 1024 * 1024
#: The most files and folders it may hold, counted through links.
ENTRY_LIMIT = 10_000
#: How deep its folders may nest, counted through links.
DEPTH_LIMIT = 64

_MANIFEST = ".taxogen-manifest.json"  # emit.MANIFEST, without importing emit
_TMP_MARK = ".taxogen-tmp-"  # the mark of taxogen's temporary files (folder.py)
_MAX_PATH = 1024  # characters in an output path (emit)
_MAX_NAME = 255  # bytes in one path component (emit)
_DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NONBLOCK | os.O_CLOEXEC
_FILE_FLAGS = os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC


class TemplateProblem(TaxonomyError):
    """A user template could not be read or rendered; its diagnostic names the file
    (and the line, when it has one)."""


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class TemplateFolder:
    """A templates folder as read once: ``files`` maps the relative POSIX name of
    every file in it to its bytes, sorted by name."""

    folder: Path
    files: Mapping[str, bytes]


def diagnostic(path: str, line: int | None, message: str) -> Diagnostic:
    """A problem of the file ``path`` (at ``line``, if known)."""
    position = None if line is None else Position(line=line, col=1)
    return Diagnostic(path=path, position=position, key="", message=message)


def name_problem(name: str) -> str | None:
    """Why ``name``, one file or folder name in a templates folder, could not be
    part of an output path (None when it can): the rules of ``emit.path_problem``,
    with taxogen's reserved names."""
    try:
        size = len(name.encode("utf-8"))
    except UnicodeEncodeError:  # a byte that is not UTF-8, as os.listdir decodes it
        return "a name that is not valid UTF-8"
    if not name.isprintable():  # line breaks, escapes, bidi and other format chars
        return "a name with control characters"
    if "\\" in name:
        return "a name with a backslash"
    if size > _MAX_NAME:
        return f"a name over {_MAX_NAME} bytes"
    if name in (_MANIFEST, _MANIFEST + ".j2"):
        return "the name of taxogen's manifest"
    if _TMP_MARK in name:
        return "a name of taxogen's temporary files"
    return None


def read(folder: Path, within: Path | None = None) -> TemplateFolder:
    """Every file under ``folder`` and its bytes; TemplateProblem naming each file
    that cannot be one of a templates folder, or the bound the folder exceeds.
    With ``within`` (the project's folder), an entry whose real path, after
    links, lies outside it is refused: a link must not read ``/proc/self/environ``
    into the output and into ``check``'s diff."""
    walk = _Walk(folder, within)
    if walk.outside(""):
        raise TemplateProblem(walk.problems)
    try:
        fd = os.open(folder, _DIR_FLAGS)
    except (FileNotFoundError, NotADirectoryError):
        message = "the templates folder is not a folder"
        raise TemplateProblem([diagnostic(str(folder), None, message)]) from None
    except OSError as exc:
        message = f"the templates folder cannot be read ({exc.strerror})"
        raise TemplateProblem([diagnostic(str(folder), None, message)]) from None
    try:
        walk.folder(fd, "", ())
    except _Stop:
        pass  # the problem that stopped it is recorded
    finally:
        os.close(fd)
    if walk.problems:
        raise TemplateProblem(walk.problems, truncated=walk.truncated)
    files = dict(sorted(walk.files.items()))
    return TemplateFolder(folder=folder, files=types.MappingProxyType(files))


class _Stop(Exception):
    """Reading stops at once: a bound is exceeded, or too many problems found."""


def _kind(mode: int) -> str:
    if stat.S_ISFIFO(mode):
        return "a FIFO"
    if stat.S_ISSOCK(mode):
        return "a socket"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    return "of an unknown kind"


#: A folder's identity (device, inode), to tell a loop through links.
_Identity = tuple[int, int]


class _Walk:
    """One reading of a templates folder: what it found so far.  (A plain class:
    a dataclass costs half a millisecond to define, on the no-op ``check``.)"""

    def __init__(self, root: Path, within: Path | None = None) -> None:
        self.root = root
        self.within = None if within is None else os.path.realpath(within)
        self.files: dict[str, bytes] = {}
        self.problems: list[Diagnostic] = []
        self.truncated = False
        self.entries = 0
        self.total = 0

    def refuse(self, relative: str, message: str, *, stop: bool = False) -> None:
        """Record a problem of ``relative`` ("": the folder itself); stop reading
        if ``stop``, or when there are as many problems as are ever reported."""
        shown = str(self.root / relative) if relative else str(self.root)
        # A byte that is not UTF-8 as the \xNN it is, not Python's stand-in.
        shown = shown.encode("utf-8", "surrogateescape").decode(
            "utf-8", "backslashreplace"
        )
        self.problems.append(diagnostic(shown, None, message))
        if len(self.problems) >= MAX_DIAGNOSTICS:
            self.truncated = True
            raise _Stop
        if stop:
            raise _Stop

    def outside(self, relative: str) -> bool:
        """Whether ``relative`` ("": the folder) leads, after links, outside the
        project's folder (and so is refused)."""
        if self.within is None:
            return False
        real = os.path.realpath(self.root / relative if relative else self.root)
        if os.path.commonpath([real, self.within]) == self.within:
            return False
        self.refuse(
            relative,
            "leads outside the project's folder (through a link); a "
            "templates folder reads only files of the project",
        )
        return True

    def folder(self, fd: int, prefix: str, path: tuple[_Identity, ...]) -> None:
        """Read the folder open as ``fd``: ``prefix`` is its relative name and a
        slash, ``path`` the identities of the folders it was reached through."""
        info = os.fstat(fd)
        identity = (info.st_dev, info.st_ino)
        if identity in path:
            self.refuse(prefix[:-1], "a link to a folder that holds it (a loop)")
            return
        if len(path) >= DEPTH_LIMIT:
            self.refuse(
                prefix[:-1], f"folders nested over {DEPTH_LIMIT} deep", stop=True
            )
        names = []
        with os.scandir(fd) as listing:
            for entry in listing:
                self.entries += 1
                if self.entries > ENTRY_LIMIT:
                    message = f"holds over {ENTRY_LIMIT:,} files and folders"
                    self.refuse("", message, stop=True)
                names.append(entry.name)
        for name in sorted(names):
            self.entry(fd, prefix, name, (*path, identity))

    def entry(
        self, parent: int, prefix: str, name: str, path: tuple[_Identity, ...]
    ) -> None:
        """Read ``name`` in the folder open as ``parent``, through a link."""
        relative = prefix + name
        why = name_problem(name)
        if why is None and len(relative) > _MAX_PATH:
            why = f"a path over {_MAX_PATH} characters"
        if why is not None:
            self.refuse(
                relative,
                f"{why}; a templates folder holds only names an "
                "output path can have",
            )
            return
        try:
            link = stat.S_ISLNK(
                os.stat(name, dir_fd=parent, follow_symlinks=False).st_mode
            )
            if link and self.outside(relative):
                return
            mode = os.stat(name, dir_fd=parent).st_mode  # through a link
        except FileNotFoundError:
            self.refuse(relative, "a link that leads nowhere")
            return
        except OSError as exc:
            self.refuse(relative, f"cannot be read ({exc.strerror})")
            return
        if stat.S_ISDIR(mode):
            try:
                fd = os.open(name, _DIR_FLAGS, dir_fd=parent)
            except OSError as exc:
                self.refuse(relative, f"cannot be read ({exc.strerror})")
                return
            try:
                self.folder(fd, relative + "/", path)
            finally:
                os.close(fd)
        elif stat.S_ISREG(mode):
            self.file(parent, relative, name)
        else:
            self.refuse(relative, f"is {_kind(mode)}, not a regular file or folder")

    def file(self, parent: int, relative: str, name: str) -> None:
        """Read the regular file ``name`` in the folder open as ``parent``."""
        try:
            fd = os.open(name, _FILE_FLAGS, dir_fd=parent)
        except OSError as exc:
            self.refuse(relative, f"cannot be read ({exc.strerror})")
            return
        try:
            mode = os.fstat(fd).st_mode
            # Swapped for something else since the stat: opened without
            # blocking (a FIFO with no writer does not hang), and never read.
            data = read_bounded(fd, FILE_LIMIT) if stat.S_ISREG(mode) else b""
        except OSError as exc:
            self.refuse(relative, f"cannot be read ({exc.strerror})")
            return
        finally:
            os.close(fd)
        if not stat.S_ISREG(mode):
            self.refuse(relative, f"is {_kind(mode)}, not a regular file or folder")
        elif data is None:
            self.refuse(relative, f"a file over {FILE_LIMIT:,} bytes", stop=True)
        else:
            self.total += len(data)
            if self.total > TOTAL_LIMIT:
                self.refuse("", f"holds over {TOTAL_LIMIT:,} bytes", stop=True)
            self.files[relative] = data
