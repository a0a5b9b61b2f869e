"""Machinery: what each of taxogen's own optimisations buys, and the pre-commit cost.

The issue keeps an optimisation only with a figure showing what it buys at the
shipped size and at 1,000 codes (less than 10% and it goes), and asks that a
no-op ``taxogen check`` of the shipped taxonomy, what a pre-commit hook pays per
commit, cost at most 3x a bare ``python -c pass``.  Measured here, each pair
interleaved in fresh processes with warm bytecode caches:

* the no-op check: the installed console script (``taxogen check``) run from a
  project's root, as a hook runs it, against ``python -c pass``;
* the check memo (:mod:`taxogen.memo`): that check with its memo, against the
  same check with none (the cache's memos deleted: it renders and compares,
  with compiled templates still cached);
* the compiled-template cache (``taxogen.targets.environment``): a cold
  ``generate`` loading compiled templates, against one compiling them (the
  cache's loading disabled in the child, by the same driver both ways);
* the two rendering processes (:mod:`taxogen.workers`): a cold ``generate``
  forking at any size, against one rendering in one process, at each N (by the
  same driver both ways, which moves ``workers.THRESHOLD``): where the fork
  pays and where not is what sets the threshold.
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

from benchmarks.figure import Figure, fmt_n
from benchmarks.timing import Run, log, median, wrapped
from taxogen import workers

__all__ = ["figures", "measure"]

#: Runs taxogen's command line in a child, with the template cache's loading
#: disabled when its first argument is "compile".
_DRIVER = """\
import sys
import taxogen.targets.environment as environment
from taxogen import workers
mode = sys.argv.pop(1)
if mode == "compile":
    environment._TemplateCache.load_bytecode = lambda self, bucket: None
if mode in ("fork", "serial"):
    workers.THRESHOLD = 0 if mode == "fork" else 1 << 62
from taxogen.cli import run
run()
"""

#: What an optimisation must buy to keep its place: 10% of the run.
_PAYS = 0.9


def _project(run: Run) -> Path:
    """A project as a user has one: pyproject.toml, taxonomy.yaml, generated/."""
    folder = run.work / "project"
    if not folder.exists():
        folder.mkdir()
        shutil.copyfile(run.taxonomy("shipped"), folder / "taxonomy.yaml")
        (folder / "pyproject.toml").write_text(
            '[tool.taxogen]\ntaxonomy = "taxonomy.yaml"\nout = "generated"\n',
            encoding="utf-8",
        )
    return folder


def _console_script() -> str:
    """The installed ``taxogen`` script beside this interpreter (what pip wrote)."""
    script = Path(sys.executable).parent / "taxogen"
    return str(script) if script.is_file() else "taxogen"


def measure(run: Run) -> None:
    project = _project(run)
    env = run.taxogen_env()
    script = _console_script()
    wrapped(run, [script, "generate", "-q"], env=env, cwd=project)
    log(f"no-op check of the shipped taxonomy, {run.many} fresh processes")
    passes: list[float] = []
    checks: list[float] = []
    for _ in range(run.many):
        passes.append(wrapped(run, [run.python, "-c", "pass"], env=env)["wall"])
        checks.append(wrapped(run, [script, "check"], env=env, cwd=project)["wall"])
    run.samples["machinery python -c pass"] = passes
    run.samples["machinery check-noop-shipped"] = checks

    memos = Path(env["TAXOGEN_CACHE_DIR"]) / "memo"
    driver = run.script("bench_machinery.py", _DRIVER)
    for n in ("shipped", run.medium):
        taxonomy, out = str(run.taxonomy(n)), run.work / f"machinery{n}"
        args = ["--taxonomy", taxonomy, "--out", str(out)]
        log(f"the check memo and the template cache, N={n}")
        with_memo: list[float] = []
        without_memo: list[float] = []
        cached: list[float] = []
        compiled: list[float] = []
        for index in range(run.many):
            for mode, samples in (("cache", cached), ("compile", compiled)):
                shutil.rmtree(out, ignore_errors=True)
                command = [run.python, str(driver), mode, "generate", "-q", *args]
                samples.append(wrapped(run, command, env=env)["wall"])
            # The last generate left the memo of this plan: check with it, then without.
            check = [run.python, "-m", "taxogen", "check", *args]
            with_memo.append(wrapped(run, check, env=env)["wall"])
            shutil.rmtree(memos, ignore_errors=True)
            without_memo.append(wrapped(run, check, env=env)["wall"])
        run.scaling.setdefault("machinery memo", {})[n] = with_memo
        run.scaling.setdefault("machinery no memo", {})[n] = without_memo
        run.scaling.setdefault("machinery cached", {})[n] = cached
        run.scaling.setdefault("machinery compiled", {})[n] = compiled
    for n in run.sizes:
        taxonomy, out = str(run.taxonomy(n)), run.work / f"workers{n}"
        args = ["--taxonomy", taxonomy, "--out", str(out)]
        reps = run.reps_after(median(run.scaling["generate"][n]))
        log(f"rendering in two processes and in one, N={n}, {2 * reps + 1} runs each")
        for index in range(2 * reps + 1):
            for mode in ("fork", "serial"):
                shutil.rmtree(out, ignore_errors=True)
                command = [run.python, str(driver), mode, "generate", "-q", *args]
                run.scaling.setdefault(f"machinery {mode}", {}).setdefault(
                    n, []
                ).append(wrapped(run, command, env=env)["wall"])


def figures(run: Run) -> list[Figure]:
    """The no-op check against ``python -c pass``; each optimisation on and off."""
    start = median(run.samples["machinery python -c pass"])
    check = median(run.samples["machinery check-noop-shipped"])
    out = [
        Figure(
            "check-noop-shipped",
            "`taxogen check`, no-op, shipped taxonomy: the console script from the "
            "project's root, as a pre-commit hook runs it (incl. interpreter start)",
            "shipped",
            check,
            "`python -c pass`",
            start,
            "ratio ≤ 3",
            [("ratio", check <= 3 * start)],
        )
    ]
    for key, n in (("shipped", "shipped"), ("medium", run.medium)):
        shown = n if isinstance(n, str) else fmt_n(n)
        with_memo = median(run.scaling["machinery memo"][n])
        without = median(run.scaling["machinery no memo"][n])
        out.append(
            Figure(
                f"memo-{key}",
                "no-op `taxogen check` answered from its memo (`generator/memo.py`)",
                shown,
                with_memo,
                "the same check without a memo (it renders and compares)",
                without,
                "ratio ≤ 0.9 (buys ≥ 10%)",
                [("ratio", with_memo <= _PAYS * without)],
            )
        )
        cached = median(run.scaling["machinery cached"][n])
        compiled = median(run.scaling["machinery compiled"][n])
        out.append(
            Figure(
                f"template-cache-{key}",
                "cold `taxogen generate` loading compiled templates from their cache",
                shown,
                cached,
                "the same generate compiling every template",
                compiled,
                "ratio ≤ 0.9 (buys ≥ 10%)",
                [("ratio", cached <= _PAYS * compiled)],
            )
        )
    out += _workers(run)
    return out


def _workers(run: Run) -> list[Figure]:
    """Two rendering processes against one, at each N: below the threshold the
    fork must not pay (or the threshold is too high), above it it must buy 10%."""
    out = []
    sizes = (("small", min(run.sizes)), ("medium", run.medium), ("large", run.large))
    for key, n in sizes:
        fork = median(run.scaling["machinery fork"][n])
        serial = median(run.scaling["machinery serial"][n])
        above = n >= workers.THRESHOLD
        out.append(
            Figure(
                f"render-workers-{key}",
                "cold `taxogen generate` rendering in two processes "
                "(`generator/workers.py`)",
                fmt_n(n),
                fork,
                "the same generate rendering in one",
                serial,
                (
                    f"ratio ≤ 0.9 (buys ≥ 10%: on from {workers.THRESHOLD:,} codes)"
                    if above
                    else f"ratio > 0.9 (off below {workers.THRESHOLD:,} codes)"
                ),
                [("ratio", (fork <= _PAYS * serial) == above)],
            )
        )
    return out
