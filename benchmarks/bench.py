"""taxogen's benchmark suite: ``make bench`` (``python -m benchmarks.bench``).

Synthesizes taxonomies of N = 100, 1,000 and 10,000 codes (50 per domain, see
``benchmarks/synth.py``) in a temporary folder, measures every figure of the
"fast at every scale" targets several times, and writes the medians, each next
to a baseline measured in the same run and the ratio between them, to
``benchmarks/RESULTS.md``.  It never writes to ``generated/`` or reads anything
of the repository but its code, the shipped ``taxonomy.yaml`` (copied) and the
installed tools.

    python -m benchmarks.bench                 # full run, writes benchmarks/RESULTS.md
    python -m benchmarks.bench --smoke         # N = 20 and 100, 1-2 repetitions
    python -m benchmarks.bench --out PATH --repeat K --keep

How things are measured (see benchmarks/README.md for why):

* anything start-up affects runs in fresh processes; taxogen's own runs go
  through a small wrapper that times the child from spawn to exit and reads its
  peak RSS (``RUSAGE_CHILDREN`` of the wrapper, which has no other child);
* taxogen runs with warm bytecode caches (``PYTHONPYCACHEPREFIX`` in the temp
  folder, filled by a warm-up run), as an installed tool would;
* imports of the generated package use ``.pyc`` files compiled beforehand;
* in-process timings (parsers, from_payload) calibrate a batch to about 50 ms
  and take the median per-call time over the repetitions, the contenders
  interleaved so drift hits both.

The families live in modules of their own (``generate``, ``formatter``,
``python_import``, ``pycompile``, ``payload``, ``typescript``, ``go``,
``java``, ``rust``, ``machinery``), each with a ``measure(run)`` and a
``figures(run)``; ``timing`` holds the run and its
helpers, ``figure`` the figures, ``synth`` the taxonomies, ``children`` the
scripts run in fresh processes, ``scaling`` and ``report`` the RESULTS.md writer.

Nothing here asserts a time: a missed target is reported as MISS, and the run
still exits 0 (it exits 1 only when a measurement could not be made).
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from benchmarks import (
    formatter,
    generate,
    go,
    java,
    machinery,
    payload,
    pycompile,
    python_import,
    rust,
    typescript,
)
from benchmarks.figure import Figure
from benchmarks.report import report
from benchmarks.timing import RESULTS, BenchError, Run, log

#: Every figure of the issue, in order: the smoke test checks that each is reported.
FIGURE_IDS = (
    "generate-cold-large",
    "generate-cold-medium",
    "generate-cold-shipped",
    "generate-growth",
    "generate-peak-rss",
    "generate-noop",
    "check-noop",
    "black-medium",
    "black-large",
    "py-import-per-code-medium",
    "py-import-per-code-large",
    "py-import-medium",
    "py-import-large",
    "py-compile-medium",
    "py-compile-large",
    "from-payload-dict",
    "from-payload-json",
    "from-payload-typed",
    "ts-compile-large",
    "ts-from-payload",
    "ts-construct-details",
    "ts-import-medium",
    "ts-from-payload-typed",
    "ts-bundle-medium",
    "go-compile-medium",
    "go-compile-large",
    "java-compile-medium",
    "java-compile-large",
    "rust-compile-medium",
    "rust-compile-large",
    "check-noop-shipped",
    "memo-shipped",
    "template-cache-shipped",
    "memo-medium",
    "template-cache-medium",
    "render-workers-small",
    "render-workers-medium",
    "render-workers-large",
)


def figures(run: Run) -> list[Figure]:
    """Every figure of the run, in the order of :data:`FIGURE_IDS`."""
    out = [
        *generate.figures(run),
        *formatter.figures(run),
        *python_import.figures(run),
        *pycompile.figures(run),
        *payload.figures(run),
        *typescript.figures(run),
        *go.figures(run),
        *java.figures(run),
        *rust.figures(run),
        *machinery.figures(run),
    ]
    if [f.id for f in out] != list(FIGURE_IDS):
        raise BenchError(f"figures out of order: {[f.id for f in out]}")
    return out


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.bench", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument(
        "--smoke",
        action="store_true",
        help=(
            "N = 20 and 100, one or two repetitions; "
            "writes a temp file unless --out is given"
        ),
    )
    parser.add_argument(
        "--out",
        type=Path,
        metavar="PATH",
        help=f"where to write the results (default {RESULTS})",
    )
    parser.add_argument(
        "--repeat",
        type=int,
        metavar="K",
        help="repetitions per measurement (default 5; smoke 2)",
    )
    parser.add_argument(
        "--keep",
        action="store_true",
        help="keep the temporary folder and say where it is",
    )
    args = parser.parse_args(argv)
    sizes: tuple[int, ...]
    if args.smoke:
        sizes, medium, large, repeat = (20, 100), 20, 100, args.repeat or 2
    else:
        sizes, medium, large, repeat = (
            (100, 1_000, 10_000),
            1_000,
            10_000,
            args.repeat or 5,
        )
    if repeat < 1:
        parser.error("--repeat must be at least 1")
    out = args.out
    if out is None:
        out = (
            Path(tempfile.gettempdir()) / "taxogen-bench-smoke.md"
            if args.smoke
            else RESULTS
        )
    work = Path(tempfile.mkdtemp(prefix="taxogen-bench-"))
    run = Run(
        work=work,
        sizes=sizes,
        medium=medium,
        large=large,
        repeat=repeat,
        smoke=args.smoke,
    )
    started = time.perf_counter()
    try:
        generate.prepare(run)
        generate.measure(run)
        generate.measure_phases(run)
        machinery.measure(run)
        formatter.measure(run)
        python_import.measure(run)
        pycompile.measure(run)
        payload.measure(run)
        typescript.measure(run)
        go.measure(run)
        java.measure(run)
        rust.measure(run)
        figs = figures(run)
        text = report(run, figs, time.perf_counter() - started)
    except (BenchError, subprocess.CalledProcessError, ImportError) as exc:
        print(f"bench: error: {exc}", file=sys.stderr)
        if isinstance(exc, ImportError):
            print(
                "bench: install the bench extra: pip install -c constraints.txt -e "
                "'.[bench]'",
                file=sys.stderr,
            )
        return 1
    finally:
        if args.keep:
            log(f"kept {work}")
        else:
            shutil.rmtree(work, ignore_errors=True)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(text, encoding="utf-8")
    width = max(len(f.id) for f in figs)
    print(
        f"{'figure':<{width}}  {'N':>16}  {'median':>10}  {'baseline':>10}  "
        f"{'ratio':>8}  verdict"
    )
    for f in figs:
        print(
            f"{f.id:<{width}}  {f.n:>16}  {f.show(f.value):>10}  "
            f"{f.show(f.baseline):>10}  "
            f"{f.ratio:>7.2f}x  {f.verdict(run.smoke)}"
        )
    print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
