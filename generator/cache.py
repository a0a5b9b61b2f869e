"""Cache: the one folder taxogen keeps files in between runs, its own and no one else's.

Two things are kept: the memo that answers a no-op ``check`` (:mod:`taxogen.memo`)
and Jinja's compiled templates (:mod:`taxogen.targets.environment`).  Both are
*trusted* by the next run (a memo says a folder is up to date; a compiled
template is code that runs), so they live where only the user who runs taxogen
can write: ``$TAXOGEN_CACHE_DIR`` if set, else the user's cache folder
(``$XDG_CACHE_HOME/taxogen`` or ``~/.cache/taxogen``; ``~/Library/Caches/taxogen``
on macOS; ``%LOCALAPPDATA%\\taxogen\\Cache`` on Windows, as ``platformdirs`` says),
never a repository (which anyone can fill: a memo committed to a cloned
repository would make ``check`` answer for a tree it never saw) and never the
installed package.  ``TAXOGEN_NO_CACHE`` set to anything but ``""`` or ``0``
turns it off.

A cache folder is used only when it is a real folder (not a link) owned by the
user and writable by no one else; each file in it only when it is a regular
file (opened with ``O_NOFOLLOW | O_NONBLOCK``: never a link, and a FIFO or a
device is not waited on) owned by the user and within a size limit.  Files are
written to an ``O_EXCL`` temporary name and renamed into place, so no reader
ever sees half a file; each subfolder keeps at most a fixed number of files,
the least recently written swept first.  Anything wrong (no home, a read-only
disk, a damaged file) only means no cache: every caller works without one.
"""

from __future__ import annotations

import os
import re
import secrets
import stat
import sys
from pathlib import Path

from taxogen.folder import read_bounded

__all__ = ["DISABLE", "ENVIRONMENT", "Shelf", "folder", "shelf"]

#: The environment variable that names the cache folder.
ENVIRONMENT = "TAXOGEN_CACHE_DIR"
#: The environment variable that turns the cache off.
DISABLE = "TAXOGEN_NO_CACHE"

_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_DIRECTORY = getattr(os, "O_DIRECTORY", 0)
_NONBLOCK = getattr(os, "O_NONBLOCK", 0)
_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
#: The temporary names :meth:`Shelf.write` makes: a run killed between its write
#: and its rename leaves one, which a later sweep may remove.
_PARTIAL = re.compile(r"\..+\.[0-9a-f]{16}\.tmp")


def folder() -> Path | None:
    """The cache folder taxogen uses now, or None when the cache is off or there is
    no place for one (no home folder)."""
    if os.environ.get(DISABLE, "") not in ("", "0"):
        return None
    chosen = os.environ.get(ENVIRONMENT, "")
    if chosen:
        # As the XDG rule says of its own variables: a relative path is invalid
        # (it would put the cache wherever a command happens to run, a checkout).
        return Path(chosen) if os.path.isabs(chosen) else None
    if sys.platform == "win32":
        base = os.environ.get("LOCALAPPDATA", "")
        return Path(base, "taxogen", "Cache") if base else None
    try:
        home = Path.home()
    except RuntimeError:  # no HOME and no password entry
        return None
    if sys.platform == "darwin":
        return home / "Library" / "Caches" / "taxogen"
    xdg = os.environ.get("XDG_CACHE_HOME", "")
    # The XDG rule: a relative value is invalid and is ignored.
    base = Path(xdg) if xdg and os.path.isabs(xdg) else home / ".cache"
    return base / "taxogen"


def _owned(info: os.stat_result, *, alone: bool = True) -> bool:
    """Whether a folder or file is the user's own and no one else may change it;
    ``alone``: nor even read it, no permission for the group or others at all.
    That is what taxogen makes of its shelves and files (0700, 0600) and what a
    git checkout never makes (0755, 0644), so a shelf committed to a repository
    and pointed at is never trusted; the cache folder itself may be one the
    user made with the usual 0755."""
    getuid = getattr(os, "geteuid", None)
    if getuid is None:  # Windows: the per-user folder is protected by its ACL
        return True
    shut = 0o077 if alone else stat.S_IWGRP | stat.S_IWOTH
    return info.st_uid == getuid() and not info.st_mode & shut


class Shelf:
    """One subfolder of the cache (``memo``, ``templates``), held open by its
    descriptor, so every name below is reached without following a link."""

    def __init__(self, fd: int, keep: int, names: re.Pattern[str]) -> None:
        self._fd = fd
        self._keep = keep
        self._names = names

    def close(self) -> None:
        os.close(self._fd)

    def __enter__(self) -> Shelf:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def read(self, name: str, limit: int) -> bytes | None:
        """The bytes of the file ``name``, or None if it is absent, not a regular
        file of the user's own, or larger than ``limit``."""
        try:
            fd = os.open(
                name, os.O_RDONLY | _NOFOLLOW | _NONBLOCK | _CLOEXEC, dir_fd=self._fd
            )
        except OSError:
            return None
        try:
            info = os.fstat(fd)
            if not stat.S_ISREG(info.st_mode) or not _owned(info):
                return None
            if info.st_size > limit:
                return None
            return read_bounded(fd, limit)
        except OSError:
            return None
        finally:
            os.close(fd)

    def write(self, name: str, data: bytes) -> None:
        """Put ``data`` under ``name`` whole, or not at all; then sweep the oldest
        files past the shelf's limit.  Failures are silent: a cache is optional."""
        partial = f".{name}.{secrets.token_hex(8)}.tmp"
        try:
            fd = os.open(
                partial,
                os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW | _CLOEXEC,
                0o600,
                dir_fd=self._fd,
            )
        except OSError:
            return
        try:
            with os.fdopen(fd, "wb") as handle:
                handle.write(data)
            os.replace(partial, name, src_dir_fd=self._fd, dst_dir_fd=self._fd)
        except OSError:
            try:
                os.unlink(partial, dir_fd=self._fd)
            except OSError:
                pass
            return
        self._sweep()

    def _sweep(self) -> None:
        """Remove the least recently written files past the shelf's limit (and
        temporary files left by a run that was killed, once they are old)."""
        try:
            names = os.listdir(self._fd)
        except OSError:
            return
        if len(names) <= self._keep:
            return  # (a cheap first look: the count below is of own names only)
        dated = []
        for name in names:
            if not (self._names.fullmatch(name) or _PARTIAL.fullmatch(name)):
                continue  # not the cache's own: never removed
            try:
                info = os.stat(name, dir_fd=self._fd, follow_symlinks=False)
            except OSError:
                continue
            dated.append((info.st_mtime_ns, name))
        dated.sort(reverse=True)
        for _, name in dated[self._keep :]:
            try:
                os.unlink(name, dir_fd=self._fd)
            except OSError:
                pass


def shelf(
    name: str, *, keep: int, create: bool, names: re.Pattern[str]
) -> Shelf | None:
    """The cache's subfolder ``name``, opened, or None if there is no usable one:
    the cache is off, a folder on the way cannot be made, or the cache folder or
    the subfolder is a link, not the user's own, or open to others.  Its files
    are named by ``names``: the sweep removes no other."""
    root = folder()
    if root is None:
        return None
    where = root / name
    if create:
        try:
            # Folders above the cache as the system makes them; the cache's own
            # (each made only if absent) for the user alone.
            os.makedirs(root.parent, exist_ok=True)
            for made in (root, where):
                if not os.path.lexists(made):
                    os.mkdir(made, 0o700)
        except OSError:
            return None
    opened: list[int] = []
    try:
        # The cache folder itself, then the subfolder through its descriptor:
        # both must be the user's own, neither a link.
        for step, at in ((str(root), None), (name, 0)):
            fd = os.open(
                step,
                os.O_RDONLY | _DIRECTORY | _NOFOLLOW | _CLOEXEC,
                dir_fd=opened[at] if at is not None else None,
            )
            opened.append(fd)
            if not _owned(os.fstat(fd), alone=at is not None):
                raise PermissionError
    except OSError:
        for fd in opened:
            os.close(fd)
        return None
    os.close(opened[0])
    return Shelf(opened[1], keep, names)
