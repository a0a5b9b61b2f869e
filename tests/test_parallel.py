"""generator.parallel: a forked child's result, or the same work done here when it fails."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from generator import parallel, pipeline
from tests.support import REPO

PARENT = os.getpid()
needs_fork = pytest.mark.skipif(
    not parallel._can_fork(),
    reason="no safe fork here (not Linux, one core or threads)",
)


def _where() -> dict[str, int]:
    return {"pid": os.getpid()}


@needs_fork
def test_the_child_computes_the_result() -> None:
    with parallel.forked(_where) as pending:
        assert pending.result()["pid"] != PARENT


def test_disabled_runs_here() -> None:
    with parallel.forked(_where, enabled=False) as pending:
        assert pending.result()["pid"] == PARENT


@needs_fork
def test_a_failing_child_means_the_work_is_done_here() -> None:
    def only_here() -> dict[str, int]:
        if os.getpid() != PARENT:
            raise RuntimeError("the child fails")
        return _where()

    with parallel.forked(only_here) as pending:
        assert pending.result()["pid"] == PARENT


@needs_fork
def test_an_error_surfaces_here_with_its_own_type() -> None:
    def broken() -> None:
        raise ValueError("a bug")

    with pytest.raises(ValueError, match="a bug"):
        with parallel.forked(broken) as pending:
            pending.result()


@needs_fork
def test_an_uncollected_child_is_stopped_and_reaped() -> None:
    def forever() -> None:
        while True:
            pass

    with pytest.raises(KeyError):
        with parallel.forked(forever) as pending:
            child = pending._pid
            raise KeyError("the caller's own share failed")
    assert child is not None
    with pytest.raises(ChildProcessError):
        os.waitpid(child, os.WNOHANG)  # already reaped: no zombie left behind


def test_build_plan_is_the_same_with_and_without_a_child() -> None:
    taxonomy = REPO / "taxonomy.yaml"
    together = pipeline.build_plan(Path(taxonomy), parallel=True)
    alone = pipeline.build_plan(Path(taxonomy), parallel=False)
    assert together == alone
    assert list(together) == list(alone)  # the same order: generate reports files in it


def test_no_child_when_fork_fails(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse() -> int:
        raise BlockingIOError(11, "Resource temporarily unavailable")

    monkeypatch.setattr(os, "fork", refuse)
    with parallel.forked(_where) as pending:
        assert pending.result()["pid"] == PARENT
