"""Shared fixtures: each case's TypeScript package compiled once per test session.

Also taxogen's cache folder for the session, and the property tests'
profile: under CI (``CI`` set) hypothesis draws the
same examples on every run (derandomised, no example database), so a failure
there is the code's, never the draw's, and ``CI=1`` repeats it locally; a local
run draws fresh examples each time and keeps the failing ones in
``.hypothesis/``.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import pytest
from hypothesis import settings

# taxogen's cache (the memo of a no-op check, compiled templates) is kept for the
# whole session in a folder of its own, never the user's: shared by every test,
# as it is by every run of a real user, since a memo is sound only if it is
# sound whatever ran before.  Tests of the cache itself point it elsewhere.
os.environ["TAXOGEN_CACHE_DIR"] = tempfile.mkdtemp(prefix="taxogen-test-cache-")
os.environ.pop("TAXOGEN_NO_CACHE", None)

settings.register_profile("ci", derandomize=True, database=None)
if os.environ.get("CI"):
    settings.load_profile("ci")

from tests.support import TSC, Case, compile_typescript, package, require_tool

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
            done = compile_typescript(package(case) / "typescript", out)
            assert (
                done.returncode == 0
            ), f"tsc failed for {case.name}:\n{done.stdout}{done.stderr}"
            _compiled[case.name] = out / "pkg" / "dist" / "index.js"
        return _compiled[case.name]

    return compile_case


@pytest.fixture(scope="session")
def compiled_java(  # type: ignore[no-untyped-def]
    tmp_path_factory: pytest.TempPathFactory,
):
    """Every case's Java package and the conformance runner, compiled once
    (tests/targets/java/support.py)."""
    from tests.targets.java.support import compile_every_case

    compiled = compile_every_case(tmp_path_factory.mktemp("java"))
    print(f"javac: {compiled.files} files in {compiled.seconds:.1f} s")
    return compiled


def pytest_collection_modifyitems(
    config: pytest.Config, items: list[pytest.Item]
) -> None:
    """Deselect (never skip) the Node API suite of a case whose every code
    declares details fields: tests/targets/typescript/ts/api.test.mjs builds
    errors of the codes without fields, and such a case (tests/cases/
    nested_details: a top-level field) has none; its typed suite and vectors
    test it.  Which cases those are is read from their YAML."""
    from tests.spec_oracle import read_spec
    from tests.support import cases

    typed = {
        case.name
        for case in cases()
        if all(code.fields for code in read_spec(case.taxonomy).codes.values())
    }
    kept, dropped = [], []
    for item in items:
        name = item.name
        if name.startswith("test_runtime_api[") and name[17:-1] in typed:
            dropped.append(item)
        else:
            kept.append(item)
    if dropped:
        config.hook.pytest_deselected(items=dropped)
        items[:] = kept
