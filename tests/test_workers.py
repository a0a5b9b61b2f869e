"""taxogen.workers: jobs shared with a forked child give what one process gives.

The oracle is the jobs run one by one in this process: the same results, in
the same order, and the same first error, whatever the child does.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from typing import Any
from pathlib import Path

import pytest

from taxogen import pipeline, workers
from tests.support import REPO

PARENT = os.getpid()

needs_fork = pytest.mark.skipif(
    not workers.can_fork(),
    reason="no safe fork here (not Linux, one core, threads or TAXOGEN_SERIAL)",
)


def _pid(value: int) -> Callable[[], tuple[int, int]]:
    def job() -> tuple[int, int]:
        time.sleep(0.02)  # long enough for both processes to take jobs
        return value, os.getpid()

    return job


@needs_fork
def test_both_processes_take_jobs_and_the_results_keep_their_order() -> None:
    results = workers.run_jobs([_pid(index) for index in range(8)], parallel=True)
    assert [value for value, _ in results] == list(range(8))
    pids = {pid for _, pid in results}
    assert PARENT in pids and len(pids) == 2


def test_not_parallel_runs_every_job_here() -> None:
    results = workers.run_jobs([_pid(index) for index in range(4)], parallel=False)
    assert results == [(index, PARENT) for index in range(4)]


def test_taxogen_serial_runs_every_job_here(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TAXOGEN_SERIAL", "1")
    results = workers.run_jobs([_pid(index) for index in range(4)], parallel=True)
    assert results == [(index, PARENT) for index in range(4)]


@needs_fork
def test_what_the_child_fails_is_done_here() -> None:
    def only_here(value: int) -> Callable[[], int]:
        def job() -> int:
            time.sleep(0.02)
            if os.getpid() != PARENT:
                raise RuntimeError("the child fails")
            return value

        return job

    assert workers.run_jobs([only_here(i) for i in range(6)], parallel=True) == list(
        range(6)
    )


@needs_fork
def test_a_child_killed_by_a_signal_is_redone_here() -> None:
    def dies_there(value: int) -> Callable[[], int]:
        def job() -> int:
            time.sleep(0.02)
            if os.getpid() != PARENT:
                os.kill(os.getpid(), 9)
            return value

        return job

    assert workers.run_jobs([dies_there(i) for i in range(6)], parallel=True) == list(
        range(6)
    )


@needs_fork
@pytest.mark.parametrize("parallel", [False, True])
def test_the_first_failing_job_in_order_raises(parallel: bool) -> None:
    # The later job fails at once, the earlier one after a while: one process
    # meets the earlier first, and so must two.
    def slow_failure() -> None:
        time.sleep(0.05)
        raise ValueError("the first job")

    def fast_failure() -> None:
        raise KeyError("the second job")

    with pytest.raises(ValueError, match="the first job"):
        workers.run_jobs([slow_failure, fast_failure], parallel=parallel)


@needs_fork
def test_a_child_left_behind_is_stopped_and_reaped(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # This process's share is interrupted (Ctrl-C) while the child is still
    # busy: no result is collected, and the child must not outlive it.
    children: list[int] = []
    real_fork = os.fork

    def fork() -> int:
        pid = real_fork()
        if pid:
            children.append(pid)
        return pid

    def job() -> None:
        if os.getpid() == PARENT:
            time.sleep(0.05)  # the child has taken its job by now
            raise KeyboardInterrupt
        while True:
            time.sleep(0.01)

    monkeypatch.setattr(os, "fork", fork)
    with pytest.raises(KeyboardInterrupt):
        workers.run_jobs([job, job], parallel=True)
    assert children, "no child was forked"
    with pytest.raises(ChildProcessError):
        os.waitpid(children[0], os.WNOHANG)  # reaped: no zombie left behind


def test_no_child_when_fork_fails(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse() -> int:
        raise BlockingIOError(11, "Resource temporarily unavailable")

    monkeypatch.setattr(os, "fork", refuse)
    results = workers.run_jobs([_pid(index) for index in range(3)], parallel=True)
    assert results == [(index, PARENT) for index in range(3)]


@needs_fork
def test_a_plan_rendered_by_two_processes_is_the_plan_of_one(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    taxonomy = Path(REPO / "taxonomy.yaml")
    targets = ["python", "typescript", "docs", "schema", "conformance", "go"]
    monkeypatch.setattr(workers, "THRESHOLD", 0)  # the shipped 15 codes fork
    forked: list[int] = []
    real_fork = os.fork

    def fork() -> int:
        pid = real_fork()
        forked.append(pid)
        return pid

    monkeypatch.setattr(os, "fork", fork)
    together = pipeline.build_plan(taxonomy, targets)
    assert forked, "the render did not fork"
    monkeypatch.setenv("TAXOGEN_SERIAL", "1")
    alone = pipeline.build_plan(taxonomy, targets)
    assert together == alone
    assert list(together) == list(alone)  # the order generate reports files in


@pytest.mark.parametrize("parallel", [False, True])
def test_the_order_jobs_are_taken_in_changes_no_result(parallel: bool) -> None:
    jobs = [_pid(index) for index in range(5)]
    results = workers.run_jobs(jobs, parallel=parallel, taken=[4, 3, 2, 1, 0])
    assert [value for value, _ in results] == [0, 1, 2, 3, 4]


@needs_fork
def test_the_first_error_in_order_raises_whatever_order_jobs_are_taken_in() -> None:
    def slow_failure() -> None:
        time.sleep(0.05)
        raise ValueError("the first job")

    def fast_failure() -> None:
        raise KeyError("the second job")

    with pytest.raises(ValueError, match="the first job"):
        workers.run_jobs([slow_failure, fast_failure], parallel=True, taken=[1, 0])


def test_user_templates_render_in_one_process(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Their bounds (10 s a template...) are stated for the run, so a run with
    # user templates never shares its render with a child.
    folder = tmp_path / "templates"
    (folder / "docs").mkdir(parents=True)
    (folder / "docs" / "extra.md.j2").write_text("{{ model.name }}\n", encoding="utf-8")
    monkeypatch.setattr(workers, "THRESHOLD", 0)
    asked: list[bool] = []
    real = workers.run_jobs

    def run_jobs(jobs: Any, *, parallel: bool, taken: Any = None) -> Any:
        asked.append(parallel)
        return real(jobs, parallel=parallel, taken=taken)

    monkeypatch.setattr(workers, "run_jobs", run_jobs)
    taxonomy = Path(REPO / "taxonomy.yaml")
    plan, _ = pipeline.build(taxonomy, ["docs", "python"], [], folder)
    assert "docs/extra.md" in plan.files
    pipeline.build_plan(taxonomy, ["docs", "python"])
    assert asked == [False, True]
