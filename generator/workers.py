"""Workers: a large taxonomy's targets rendered by two processes at once.

Rendering is most of a large run (about two thirds of a cold ``generate`` of
10,000 codes) and the targets do not depend on one another, so above
:data:`THRESHOLD` codes ``render`` forks once: this process and the child each
take the next job from a shared queue (a pipe holding one byte per job) until
none is left, and the child leaves its results pickled in an in-memory file.
The child is only an optimisation.  Every job the child did not hand back,
because it failed in any way (an exception, a signal, anything), is done again
here, and the jobs are collected in their order, so the results, their order
and the first error raised are exactly those of one process doing every job.

It runs only where forking is safe and pays: Linux (fork without exec is unsafe
on macOS), two usable cores, no other thread in this process (a lock another
thread held would stay held in the child), and not with ``TAXOGEN_SERIAL`` set.
Below the threshold the fork costs more than it buys; the figure that sets it is
``render-workers`` in ``benchmarks/RESULTS.md``.

An in-memory file rather than a pipe for the results: megabytes through a pipe's
64 KiB take hundreds of hand-overs between the two processes, each a wake-up a
busy machine can delay by a time slice.
"""

from __future__ import annotations

import os
import pickle
import signal
import sys
import threading
from collections.abc import Callable, Sequence
from typing import NoReturn, TypeVar

__all__ = ["THRESHOLD", "can_fork", "run_jobs"]

T = TypeVar("T")

#: Codes from which two processes render: see ``render-workers`` in
#: benchmarks/RESULTS.md for the figures at 100, 1,000 and 10,000 codes.
THRESHOLD = 500


def can_fork() -> bool:
    """Whether a forked child would be safe and would run beside this process."""
    if os.environ.get("TAXOGEN_SERIAL"):
        return False
    if not sys.platform.startswith("linux"):
        return False
    if threading.active_count() > 1:
        return False
    return hasattr(os, "memfd_create") and len(os.sched_getaffinity(0)) > 1


def run_jobs(
    jobs: Sequence[Callable[[], T]],
    *,
    parallel: bool,
    taken: Sequence[int] | None = None,
) -> list[T]:
    """Each job's result, in order: shared with a forked child when ``parallel``
    (and :func:`can_fork`), else done here one by one.  ``taken``: the order in
    which the two processes take the jobs (their indexes; default: in order),
    so that a short job can fill the time one process would wait for the
    other; the results, and the first error, keep the jobs' own order."""
    if not (parallel and len(jobs) > 1 and can_fork()):
        return [job() for job in jobs]
    try:
        queue, feed = os.pipe()
        file = os.memfd_create("taxogen-render", os.MFD_CLOEXEC)
    except OSError:  # out of descriptors or memory: no child
        return [job() for job in jobs]
    try:
        # One byte per job, then the writing end closed: a read past the last
        # job is the end of the file, in both processes.
        os.write(feed, bytes(range(len(jobs)) if taken is None else taken))
        os.close(feed)
        pid = os.fork()
    except (OSError, ValueError):  # too many jobs for a byte, or no process
        os.close(queue)
        os.close(file)
        return [job() for job in jobs]
    if pid == 0:
        _child(jobs, queue, file)
    done: dict[int, T] = {}
    try:
        done.update(_take(jobs, queue, keep_going=True))
        done.update(_collect(pid, file))
        pid = 0
    finally:
        os.close(queue)
        if pid:  # this share failed before the child was collected: stop it
            _stop(pid)
            os.close(file)
    # In order, and what no process handed back done here: the first job that
    # fails raises here, as it would have without a child.
    return [done[index] if index in done else job() for index, job in enumerate(jobs)]


def _take(
    jobs: Sequence[Callable[[], T]], queue: int, *, keep_going: bool
) -> dict[int, T]:
    """The results of the jobs this process takes from the queue until it is
    empty; a job that fails is left out (``keep_going``) or raises."""
    results: dict[int, T] = {}
    while token := os.read(queue, 1):
        index = token[0]
        try:
            results[index] = jobs[index]()
        except Exception:
            if not keep_going:
                raise
    return results


def _child(jobs: Sequence[Callable[[], object]], queue: int, file: int) -> NoReturn:
    """In the forked child: leave the results of the jobs it took in ``file``,
    then exit without any of the parent's cleanup."""
    status = 1
    try:
        data = pickle.dumps(
            _take(jobs, queue, keep_going=False), protocol=pickle.HIGHEST_PROTOCOL
        )
        with os.fdopen(file, "wb") as out:
            out.write(data)
        status = 0
    finally:
        os._exit(status)  # never return into the parent's code, nor flush its buffers


def _collect(pid: int, file: int) -> dict[int, T]:
    """The results the child left in ``file`` (none if it failed), once it exits."""
    _, status = os.waitpid(pid, 0)
    with os.fdopen(file, "rb") as out:
        out.seek(0)  # the child wrote through the same file offset
        data = out.read()
    if os.waitstatus_to_exitcode(status) != 0 or not data:
        return {}
    try:
        results: dict[int, T] = pickle.loads(data)
    except Exception:  # cannot happen unless the file was damaged: redo its share
        return {}
    return results


def _stop(pid: int) -> None:
    """Stop and reap a child whose results will not be collected."""
    try:
        os.kill(pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    os.waitpid(pid, 0)
