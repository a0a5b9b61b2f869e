"""Python: compiling the generated package (issue 32 §3: each language's compile time).

Python's compile is the byte-compiler: ``python -m compileall -f -q`` over
each size's package (``src/``, every module of the lazy layout), in a fresh
process each time, next to the shipped taxonomy's package.  What importing it
then costs is measured apart (``python_import``).
"""

from __future__ import annotations


from benchmarks.figure import Figure, fmt_n
from benchmarks.timing import Run, generated, log, median, wrapped

__all__ = ["figures", "measure"]


def measure(run: Run) -> None:
    for n in ("shipped", run.medium, run.large):
        src = generated(run, n, "python") / "src"
        log(f"python -m compileall, N={n}")
        command = [run.python, "-m", "compileall", "-f", "-q", str(src)]
        results = []
        for _ in range(run.repeat):
            done = wrapped(run, command, env=run.plain_env())
            results.append({"wall": done["wall"], "rc": done["rc"]})
        run.scaling.setdefault("compileall", {})[n] = results


def figures(run: Run) -> list[Figure]:
    """The package's byte-compile at the medium and the large size."""
    runs = run.scaling["compileall"]
    shipped = median([r["wall"] for r in runs["shipped"]])
    out = []
    for name, n in (("medium", run.medium), ("large", run.large)):
        results = runs[n]
        out.append(
            Figure(
                f"py-compile-{name}",
                "`python -m compileall -f` on the generated package",
                fmt_n(n),
                median([r["wall"] for r in results]),
                "the same on the shipped taxonomy's package",
                shipped,
                "compiles",
                [("compiles", all(r["rc"] == 0 for r in results))],
            )
        )
    return out
