"""Folder: the output folder, opened once and walked without following any link.

Everything ``emit`` does on disk goes through :class:`Folder`, which holds a
file descriptor of the output folder and reaches every path below it one
component at a time with ``O_NOFOLLOW`` (the ``*at`` system calls), so a
symbolic link planted at a generated path, or at any folder between the output
folder and it, is reported instead of followed: nothing outside the folder is
ever opened for writing, replaced or removed.  Only regular files are read,
written or removed; a FIFO, socket, device or folder where a file belongs is an
error, not a hang, and reads are bounded in size.  The folder can be locked
(``taxogen.lock``: an OS lock on its descriptor, released by the kernel if the
process dies) so that two runs on the same folder never interleave.  The output
folder itself may be a link: it is the user's to place.
"""

from __future__ import annotations

import errno
import os
import secrets
import stat
import threading
from collections.abc import Callable
from pathlib import Path

from taxogen.lock import acquire

__all__ = ["FILE_LIMIT", "TMP_MARK", "Folder", "UnsafePath"]

#: The largest file taxogen reads back from the output folder (a generated file
#: or the manifest).  Its own outputs stay far below it: a taxonomy is at most
#: 4 MiB, and 10,000 codes generate about 25 MB in all.
FILE_LIMIT = 256 * 1024 * 1024

#: In the name of every temporary file taxogen writes: ``.NAME.taxogen-tmp-RANDOM``.
TMP_MARK = ".taxogen-tmp-"
_DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC


def read_bounded(fd: int, limit: int) -> bytes | None:
    """The bytes of the open file ``fd``, or None if it holds over ``limit``: never
    more than ``limit`` and one byte are read, whatever ``fstat`` said."""
    chunks = []
    left = limit + 1
    while left > 0:
        chunk = os.read(fd, min(left, 1 << 20))
        if not chunk:
            break
        chunks.append(chunk)
        left -= len(chunk)
    return None if left <= 0 else b"".join(chunks)


class UnsafePath(Exception):
    """A path below the output folder that taxogen will not read, write or remove."""

    def __init__(self, path: str, reason: str) -> None:
        super().__init__(f"{path}: {reason}")
        self.path = path
        self.reason = reason


def _kind(mode: int) -> str:
    if stat.S_ISLNK(mode):
        return "a symbolic link"
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a FIFO"
    if stat.S_ISSOCK(mode):
        return "a socket"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISREG(mode):
        return "a regular file"
    return "of an unknown kind"


class Folder:
    """The output folder at ``root``; use as a context manager (closes every
    descriptor).
    """

    def __init__(self, root: Path, *, create: bool) -> None:
        self.root = root
        if create:
            os.makedirs(root, exist_ok=True)
        self._fd = os.open(root, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
        self._dirs: dict[str, int] = {"": self._fd}
        self._guard = threading.Lock()  # writer threads share the descriptor cache
        #: This run's temporary names (folder, name): the only ones it ever removes.
        self._temporaries: set[tuple[str, str]] = set()
        self._token = secrets.token_hex(8)

    def __enter__(self) -> Folder:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        for fd in self._dirs.values():
            os.close(fd)
        self._dirs.clear()

    # ------------------------------------------------------------- walking
    def _parent(self, path: str, *, create: bool) -> tuple[int | None, str]:
        """The descriptor of ``path``'s folder (None if it does not exist) and its
        last name.
        """
        folder, _, name = path.rpartition("/")
        with self._guard:
            return self._open_dir(folder, create=create), name

    def _open_dir(self, folder: str, *, create: bool) -> int | None:
        cached = self._dirs.get(folder)
        if cached is not None:
            return cached
        above, _, name = folder.rpartition("/")
        parent = self._open_dir(above, create=create)
        if parent is None:
            return None
        try:
            fd = os.open(name, _DIR_FLAGS, dir_fd=parent)
        except FileNotFoundError:
            if not create:
                return None
            try:
                os.mkdir(name, 0o777, dir_fd=parent)
            except FileExistsError:
                pass  # made in the meantime, or something else: the open says which
            return self._open_dir(folder, create=create)
        except OSError as exc:
            if exc.errno in (errno.ELOOP, errno.ENOTDIR):
                mode = os.stat(name, dir_fd=parent, follow_symlinks=False).st_mode
                raise UnsafePath(folder, f"is {_kind(mode)}, not a folder") from None
            raise
        self._dirs[folder] = fd
        return fd

    def kind(self, path: str) -> str | None:
        """None if nothing is at ``path``, "file" for a regular file; anything else
        raises.
        """
        parent, name = self._parent(path, create=False)
        if parent is None:
            return None
        try:
            mode = os.stat(name, dir_fd=parent, follow_symlinks=False).st_mode
        except FileNotFoundError:
            return None
        if not stat.S_ISREG(mode):
            raise UnsafePath(path, f"is {_kind(mode)}, not a regular file")
        return "file"

    # ------------------------------------------------------------- reading
    def read(self, path: str, limit: int = FILE_LIMIT) -> bytes | None:
        """The bytes of the regular file at ``path``, or None if there is none."""
        parent, name = self._parent(path, create=False)
        if parent is None:
            return None
        try:
            fd = os.open(
                name,
                os.O_RDONLY
                | os.O_NOFOLLOW
                | os.O_NONBLOCK
                | os.O_CLOEXEC
                | os.O_NOCTTY,
                dir_fd=parent,
            )
        except FileNotFoundError:
            return None
        except OSError as exc:
            if exc.errno in (errno.ELOOP, errno.EISDIR, errno.ENXIO, errno.EOPNOTSUPP):
                mode = os.stat(name, dir_fd=parent, follow_symlinks=False).st_mode
                raise UnsafePath(
                    path, f"is {_kind(mode)}, not a regular file"
                ) from None
            raise
        try:
            info = os.fstat(fd)
            if not stat.S_ISREG(info.st_mode):
                # Opened without blocking (a FIFO with no writer does not hang)
                # and never read: only regular files are.
                raise UnsafePath(path, f"is {_kind(info.st_mode)}, not a regular file")
            if info.st_size > limit:
                raise UnsafePath(
                    path, f"is {info.st_size} bytes, over taxogen's limit of {limit}"
                )
            data = read_bounded(fd, limit)
            if data is None:  # grew while being read
                raise UnsafePath(path, f"is over taxogen's limit of {limit} bytes")
            return data
        finally:
            os.close(fd)

    # ------------------------------------------------------------- writing
    def write_atomic(self, path: str, data: bytes) -> None:
        """Replace ``path`` with ``data``: a temporary file beside it, flushed, then
        renamed.

        The rename replaces whatever name is there without following it, so even
        a link planted after the plan was checked is replaced, never written through.
        """
        parent, name = self._parent(path, create=True)
        assert parent is not None  # create=True makes every folder or raises
        folder = path.rpartition("/")[0]
        tmp = f".{name}{TMP_MARK}{self._token}"[:255]
        flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
        fd = os.open(tmp, flags, 0o644, dir_fd=parent)
        with self._guard:
            self._temporaries.add((folder, tmp))
        try:
            try:
                os.fchmod(fd, 0o644)  # whatever the umask: the files are for everyone
                view = memoryview(data)
                while view:
                    view = view[os.write(fd, view) :]
                os.fsync(fd)
            finally:
                os.close(fd)
            os.replace(tmp, name, src_dir_fd=parent, dst_dir_fd=parent)
        except BaseException:
            self._remove_temporary(folder, tmp)
            raise
        with self._guard:
            self._temporaries.discard((folder, tmp))

    def _remove_temporary(self, folder: str, tmp: str) -> None:
        with self._guard:
            self._temporaries.discard((folder, tmp))
            parent = self._dirs.get(folder)
        if parent is None:
            return
        try:
            mode = os.stat(tmp, dir_fd=parent, follow_symlinks=False).st_mode
            if stat.S_ISREG(mode):
                os.unlink(tmp, dir_fd=parent)
        except OSError:
            pass

    def sweep(self) -> None:
        """Remove the temporary files of this run that are still there (after a
        failure).
        """
        for folder, tmp in sorted(self._temporaries):
            self._remove_temporary(folder, tmp)

    def unlink(self, path: str) -> None:
        """Remove the regular file at ``path`` (checked again just before)."""
        parent, name = self._parent(path, create=False)
        if parent is None:
            return
        if self.kind(path) is None:
            return
        os.unlink(name, dir_fd=parent)

    def prune(self, path: str) -> None:
        """Remove the folders above ``path`` that are empty now, up to the output
        folder.
        """
        folder = path.rpartition("/")[0]
        while folder:
            above, _, name = folder.rpartition("/")
            with self._guard:
                parent = self._dirs.get(above)
                fd = self._dirs.pop(folder, None)
            if fd is not None:
                os.close(fd)
            if parent is None:
                return
            try:
                os.rmdir(
                    name, dir_fd=parent
                )  # never follows a link; fails unless empty
            except OSError:
                return
            folder = above

    # ------------------------------------------------------------- locking
    def identity(self) -> tuple[int, int]:
        """The folder's device and inode: which folder it is, however it was named."""
        info = os.fstat(self._fd)
        return info.st_dev, info.st_ino

    def lock(self, *, timeout: float, waiting: Callable[[str], None]) -> None:
        """Take the folder's lock (:func:`taxogen.lock.acquire` on its descriptor),
        waiting up to ``timeout`` seconds for another run; raises
        :class:`~taxogen.lock.LockTimeout` after that.

        ``waiting`` is called once, with who holds the lock, if this has to wait.
        """
        acquire(self._fd, timeout=timeout, waiting=waiting)
