"""Shared fixtures: each case's TypeScript package compiled once per test session."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support import TSC, Case, compile_typescript, require_tool

_compiled: dict[str, Path] = {}


@pytest.fixture(scope="session")
def compiled_ts(  # type: ignore[no-untyped-def]
    tmp_path_factory: pytest.TempPathFactory,
):
    """A function: case → the compiled ``index.js`` of its generated TypeScript
    package.
    """

    def compile_case(case: Case) -> Path:
        if case.name not in _compiled:
            require_tool(TSC.exists(), f"{TSC} (`make test` installs it with `npm ci`)")
            out = tmp_path_factory.mktemp(f"ts-{case.name}")
            done = compile_typescript(case.expected / "typescript", out)
            assert (
                done.returncode == 0
            ), f"tsc failed for {case.name}:\n{done.stdout}{done.stderr}"
            _compiled[case.name] = out / "pkg" / "dist" / "index.js"
        return _compiled[case.name]

    return compile_case
