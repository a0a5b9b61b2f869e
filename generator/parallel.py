"""Parallel: one part of the work computed in a forked child, on a second core.

Rendering and the contract are independent once the taxonomy is named, and
each takes a good part of a large run, so ``build_plan`` can compute one
share in a child process while it computes the rest itself.  The child is
only an optimisation: it starts where forking is safe and pays (Linux, at
least two usable cores, no other thread in this process), leaves its result
pickled in an in-memory file, and whenever it fails to (an exception, a
signal, anything) the work is simply done again in this process, so a bug
raises here with its own traceback, exactly as without a child.

An in-memory file rather than a pipe: megabytes through a pipe's 64 KiB take
hundreds of hand-overs between the two processes, each a wake-up that a busy
machine can delay by a time slice (measured: up to 150 ms at 10,000 codes).
"""

from __future__ import annotations

import os
import pickle
import signal
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Generic, NoReturn, TypeVar

__all__ = ["Pending", "forked"]

T = TypeVar("T")


def _can_fork() -> bool:
    """Whether a forked child would be safe and would run beside this process."""
    if not sys.platform.startswith("linux"):  # fork without exec is unsafe on macOS
        return False
    if (
        threading.active_count() > 1
    ):  # a lock another thread holds would stay held in the child
        return False
    return hasattr(os, "memfd_create") and len(os.sched_getaffinity(0)) > 1


class Pending(Generic[T]):
    """The result of work started by :func:`forked`."""

    def __init__(
        self, work: Callable[[], T], pid: int | None, file: int | None
    ) -> None:
        self._work = work
        self._pid = pid
        self._file = file  # the in-memory file the child leaves its result in

    def result(self) -> T:
        """The child's result, or the work's own when there is no child or it failed."""
        if self._file is not None:
            status = self._reap()
            with os.fdopen(self._file, "rb") as file:
                self._file = None
                file.seek(0)  # the child wrote through the same file offset
                data = file.read()
            if status == 0 and data:
                try:
                    result: T = pickle.loads(data)
                    return result
                except (
                    Exception
                ):  # cannot happen unless the file was damaged: recompute
                    pass
        return self._work()

    def _reap(self) -> int | None:
        """Wait for the child, once; its exit code (None if there is no child)."""
        if self._pid is None:
            return None
        _, status = os.waitpid(self._pid, 0)
        self._pid = None
        return os.waitstatus_to_exitcode(status)

    def _abandon(self) -> None:
        """Stop and reap a child whose result will not be collected."""
        if self._file is not None:
            os.close(self._file)
            self._file = None
        if self._pid is not None:
            try:
                os.kill(self._pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            self._reap()


def _child(work: Callable[[], object], file: int) -> NoReturn:
    """In the forked child: leave the work's result in ``file``, then exit without any of the parent's cleanup."""
    status = 1
    try:
        data = pickle.dumps(work(), protocol=pickle.HIGHEST_PROTOCOL)
        with os.fdopen(file, "wb") as out:
            out.write(data)
        status = 0
    finally:
        os._exit(status)  # never return into the parent's code, nor flush its buffers


@contextmanager
def forked(work: Callable[[], T], *, enabled: bool = True) -> Iterator[Pending[T]]:
    """Start ``work`` in a forked child now; collect it with ``result()`` inside the block.

    Without a child (disabled, or forking is unsafe or would not pay) ``result()``
    runs ``work`` itself.  Leaving the block stops a child whose result was not
    collected, so an error in the caller's own share leaves no process behind.
    """
    if not (enabled and _can_fork()):
        yield Pending(work, None, None)
        return
    try:
        file = os.memfd_create("taxogen-result", os.MFD_CLOEXEC)
    except OSError:  # no memory for it, or a sandbox refuses it: no child
        yield Pending(work, None, None)
        return
    try:
        pid = os.fork()
    except OSError:  # too many processes, or no memory for another
        os.close(file)
        yield Pending(work, None, None)
        return
    if pid == 0:
        _child(work, file)
    pending = Pending(work, pid, file)
    try:
        yield pending
    finally:
        pending._abandon()
