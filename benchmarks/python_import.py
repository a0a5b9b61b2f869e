"""Python import: what importing the generated package costs, per code and whole.

Per code against psycopg.errors per exception class (the module bodies alone,
from their ``.pyc``), and in a fresh process against the interpreter's start-up.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path
from typing import Any, Final

from benchmarks import children
from benchmarks.figure import Figure, fmt_n, fmt_seconds
from benchmarks.timing import (
    PACKAGE,
    BenchError,
    Run,
    log,
    median,
    paired_net,
    run_json,
    wrapped,
)

__all__ = ["PER_CODE_RATIO", "figures", "measure"]

#: The most the generated package's import may cost per code, as a multiple of
#: psycopg.errors' per exception class (issue 34 §3: "≤ 0.6x ... at 1,000 and
#: 10,000 codes").
PER_CODE_RATIO: Final = 0.6


def _module_imports(path: Path) -> list[str]:
    """The modules a generated file imports at top level (its preload): absolute
    ones by name, the package's own (``from . import _runtime``) as ``.name``.

    The package's own modules are preloaded too, as psycopg.errors' are
    (``.pq``, ``._compat``...: ``import psycopg`` loads them before its body is
    timed), so both bodies are timed without their helpers; what the runtime's
    import costs is in ``py-import-*``, the whole import in a fresh process.
    """
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: list[str] = []
    for node in tree.body:
        if isinstance(node, ast.Import):
            found.extend(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module != "__future__":
            if node.level == 0:
                found.append(node.module or "")
            elif node.level == 1 and node.module is not None:
                found.append("." + node.module)
            elif node.level == 1:  # from . import a, b: each a module of the package
                found.extend("." + alias.name for alias in node.names)
    return list(dict.fromkeys(found))


def _pyc_fresh(source: Path) -> bool:
    import importlib.util

    cached = Path(importlib.util.cache_from_source(str(source)))
    if not cached.is_file():
        return False
    header = cached.read_bytes()[:16]
    stat = source.stat()
    flags = int.from_bytes(header[4:8], "little")
    if flags != 0:  # hash-based pyc: trust it
        return True
    mtime = int.from_bytes(header[8:12], "little")
    size = int.from_bytes(header[12:16], "little")
    return mtime == (int(stat.st_mtime) & 0xFFFFFFFF) and size == (
        stat.st_size & 0xFFFFFFFF
    )


# The child both ways: the baseline "imports" sys (already loaded: as good as `pass`),
# the subject the generated package; each prints how long its import statement took.
_TIMED_IMPORT = (
    "import time as _t; _s = _t.perf_counter(); import {module}; "
    "print(_t.perf_counter() - _s)"
)


def measure(run: Run) -> None:
    import psycopg.errors  # noqa: F401  (installed with the bench extra)

    psycopg_errors = Path(sys.modules["psycopg.errors"].__file__ or "")
    if not _pyc_fresh(psycopg_errors):
        raise BenchError(f"{psycopg_errors} has no up-to-date .pyc: reinstall psycopg")
    for n in run.sizes:
        src = run.work / f"out{n}" / "python" / "src"
        subprocess.run(
            [run.python, "-m", "compileall", "-q", str(src)],
            check=True,
            env=run.plain_env(),
        )
        if not _pyc_fresh(src / PACKAGE / "__init__.py"):
            raise BenchError(f"compileall left no fresh .pyc for N={n}")
    exec_script = run.script("bench_exec_module.py", children.EXEC_MODULE)

    def exec_once(
        name: str, path: Path, preload: list[str], pythonpath: Path | None = None
    ) -> dict[str, Any]:
        result: dict[str, Any] = run_json(
            [run.python, str(exec_script), name, str(path), ",".join(preload)],
            env=run.plain_env(pythonpath),
        )
        if not result["pyc"]:
            raise BenchError(f"{path}: loaded without a .pyc")
        return result

    log(f"Python import, {run.many} fresh processes per figure")
    # Interleaved, so drift in the machine's speed hits baseline and subjects alike.
    psycopg_runs: list[dict[str, Any]] = []
    execs: dict[int, list[dict[str, Any]]] = {n: [] for n in run.sizes}
    walls: dict[int, list[float]] = {n: [] for n in run.sizes}
    inside: dict[int, list[float]] = {n: [] for n in run.sizes}
    passes: list[float] = []
    for _ in range(run.many):
        psycopg_runs.append(
            exec_once("psycopg._bench_errors", psycopg_errors, ["psycopg"])
        )
        passes.append(
            wrapped(
                run,
                [run.python, "-c", _TIMED_IMPORT.format(module="sys")],
                env=run.plain_env(),
            )["wall"]
        )
        for n in run.sizes:
            src = run.work / f"out{n}" / "python" / "src"
            module = src / PACKAGE / "__init__.py"
            execs[n].append(exec_once(PACKAGE, module, _module_imports(module)))
            result = wrapped(
                run,
                [run.python, "-c", _TIMED_IMPORT.format(module=PACKAGE)],
                env=run.plain_env(src),
            )
            walls[n].append(result["wall"])
            inside[n].append(float(result["stdout"].split()[-1]))
    run.samples["psycopg exec"] = psycopg_runs
    run.samples["python -c pass (plain)"] = passes
    run.scaling["py exec"] = execs
    run.scaling["py import wall"] = walls
    run.scaling["py import inside"] = inside
    import psycopg

    run.facts["psycopg"] = psycopg.__version__


def figures(run: Run) -> list[Figure]:
    """The generated Python package's import cost, per code and in a fresh process."""
    L, M = run.large, run.medium
    out: list[Figure] = []
    psy = run.samples["psycopg exec"]
    psy_per = median([r["ns"] for r in psy]) / psy[0]["classes"] * 1e-9
    for key, n in (("py-import-per-code-medium", M), ("py-import-per-code-large", L)):
        ex = run.scaling["py exec"][n]
        per = median([r["ns"] for r in ex]) / n * 1e-9
        out.append(
            Figure(
                key,
                "Python import per code (module body from .pyc, its imports preloaded) "
                "/ N",
                fmt_n(n),
                per,
                f"psycopg.errors per exception class, same method ({psy[0]['classes']} "
                "classes)",
                psy_per,
                # Issue 34 §3: at most 0.6x psycopg's per class (aim: 0.5x).
                f"ratio ≤ {PER_CODE_RATIO}",
                [("ratio", per <= PER_CODE_RATIO * psy_per)],
                note=(
                    f"{'lazy' if ex[0]['lazy'] else 'module'} layout, its `_runtime` "
                    "preloaded as psycopg's own modules are: module body "
                    f"{fmt_seconds(median([r['ns'] for r in ex]) * 1e-9)} for "
                    f"{fmt_n(n)} codes, then the first use "
                    "of every name "
                    f"{fmt_seconds(median([r['first_use_ns'] for r in ex]) * 1e-9)} "
                    f"({ex[0]['classes']:,} exception classes in all); psycopg.errors "
                    "body "
                    f"{fmt_seconds(median([r['ns'] for r in psy]) * 1e-9)}"
                ),
            )
        )
    passes = median(run.samples["python -c pass (plain)"])
    for key, n, limit in (
        ("py-import-medium", M, 0.020),
        ("py-import-large", L, 0.200),
    ):
        net = paired_net(
            run.scaling["py import wall"][n], run.samples["python -c pass (plain)"]
        )
        out.append(
            Figure(
                key,
                "`import` of the generated package, fresh process, minus start-up",
                fmt_n(n),
                net,
                "interpreter start-up (the same one-liner importing `sys`)",
                passes,
                f"< {limit * 1e3:.0f} ms",
                [("wall", net < limit)],
                note=(
                    f"the import statement alone, timed inside the process: "
                    f"{fmt_seconds(median(run.scaling['py import inside'][n]))}; the "
                    "fresh-process figure also pays "
                    "for the interpreter tearing the classes down at exit"
                ),
            )
        )
    return out
