"""Lock: the output folder's lock, the kernel's ``flock`` on its descriptor.

Two runs of taxogen on one output folder must never interleave, so each takes
an exclusive ``flock`` on the folder's descriptor (held by
:class:`taxogen.folder.Folder`).  The lock needs no file in the folder and is
released by the kernel when the process ends, crash or not.  A run that has to
wait is told who holds the lock, as far as the system says (``/proc/locks`` on
Linux), and gives up with :class:`LockTimeout` after its time-out.  Nothing here
walks paths: this module knows only a descriptor, which is why it is apart from
the folder's link-safe walking.
"""

from __future__ import annotations

import fcntl
import os
import time
from collections.abc import Callable

__all__ = ["LockTimeout", "acquire", "lock_holder"]


class LockTimeout(Exception):
    """Another run held the folder's lock for longer than the time-out."""


def acquire(fd: int, *, timeout: float, waiting: Callable[[str], None]) -> None:
    """Take the ``flock`` of ``fd``, waiting up to ``timeout`` seconds for another run.

    ``waiting`` is called once, with who holds the lock, if this has to wait.
    """
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        return
    except BlockingIOError:
        pass
    waiting(lock_holder(fd))
    deadline = time.monotonic() + timeout
    pause = 0.005
    while True:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return
        except BlockingIOError:
            if time.monotonic() >= deadline:
                raise LockTimeout(lock_holder(fd)) from None
        time.sleep(pause)
        pause = min(pause * 2, 0.1)


def lock_holder(fd: int) -> str:
    """Who holds the ``flock`` of the file open at ``fd``, as far as the system says.

    Linux lists every lock with its owner's process id in ``/proc/locks``; on
    other systems, or if the holder cannot be seen, this says so.
    """
    info = os.fstat(fd)
    wanted = f"{os.major(info.st_dev):02x}:{os.minor(info.st_dev):02x}:{info.st_ino}"
    try:
        with open("/proc/locks", encoding="ascii", errors="replace") as locks:
            for line in locks:
                fields = line.split()
                # "1: FLOCK  ADVISORY  WRITE 1234 08:01:5678 0 EOF"; waiters have "->".
                if len(fields) >= 6 and fields[1] == "FLOCK" and fields[5] == wanted:
                    return _process(fields[4])
    except OSError:
        pass
    return "another process"


def _process(pid: str) -> str:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as handle:
            argv = handle.read(4096).split(b"\0")
    except OSError:
        return f"process {pid}"
    shown = " ".join(a.decode("utf-8", "replace") for a in argv if a)
    shown = "".join(c if c.isprintable() else "?" for c in shown)[:200]
    return f"process {pid} ({shown})" if shown else f"process {pid}"
