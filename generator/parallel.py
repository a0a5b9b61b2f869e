"""Parallel: one part of the work computed in a forked child, on a second core.

Rendering and the contract are independent once the taxonomy is named, and
each takes a good part of a large run, so ``build_plan`` can compute one
share in a child process while it computes the rest itself.  The child is
only an optimisation: it starts where forking is safe and pays (Linux, at
least two usable cores, no other thread in this process), sends its result
back pickled through a pipe, and whenever it fails to (an exception, a signal,
anything) the work is simply done again in this process, so a bug raises here
with its own traceback, exactly as without a child.
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
    if threading.active_count() > 1:  # a lock another thread holds would stay held in the child
        return False
    return len(os.sched_getaffinity(0)) > 1


class Pending(Generic[T]):
    """The result of work started by :func:`forked`."""

    def __init__(self, work: Callable[[], T], pid: int | None, pipe: int | None) -> None:
        self._work = work
        self._pid = pid
        self._pipe = pipe

    def result(self) -> T:
        """The child's result, or the work's own when there is no child or it failed."""
        if self._pipe is not None:
            with os.fdopen(self._pipe, "rb") as pipe:
                self._pipe = None
                data = pipe.read()
            if self._reap() == 0 and data:
                try:
                    result: T = pickle.loads(data)
                    return result
                except Exception:  # cannot happen unless the child died mid-write: recompute
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
        if self._pipe is not None:
            os.close(self._pipe)
            self._pipe = None
        if self._pid is not None:
            try:
                os.kill(self._pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            self._reap()


def _child(work: Callable[[], object], pipe: int) -> NoReturn:
    """In the forked child: send the work's result, then leave without running any cleanup of the parent's."""
    status = 1
    try:
        data = pickle.dumps(work(), protocol=pickle.HIGHEST_PROTOCOL)
        with os.fdopen(pipe, "wb") as out:
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
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read_end)
        _child(work, write_end)
    os.close(write_end)
    pending = Pending(work, pid, read_end)
    try:
        yield pending
    finally:
        pending._abandon()
