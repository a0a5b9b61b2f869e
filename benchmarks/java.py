"""Java: compiling the generated sources at 1,000 and 10,000 codes.

``javac -Xlint:all -Werror`` on every source of the package (its runtime
included), against Debian's Jackson jars, as the tests compile it.  An enum of
10,000 constants does not compile (the JVM's 64 KB limit on a method, here its
static initializer, and its constant pool): the target writes String constants
and builds its tables in parts, and this figure shows the large package
compiles, next to the shipped taxonomy's as the baseline.
"""

from __future__ import annotations

import shutil
import subprocess
import time
from pathlib import Path
from typing import Any

from benchmarks.figure import Figure, fmt_n
from benchmarks.timing import BenchError, Run, log, median
from taxogen.pipeline import build_plan

__all__ = ["compile_java", "figures", "measure"]

JARS = ":".join(
    f"/usr/share/java/jackson-{name}.jar"
    for name in ("databind", "core", "annotations")
)


def compile_java(taxonomy: Path, folder: Path) -> dict[str, Any]:
    """The taxonomy's Java sources written under ``folder`` and compiled: the
    wall time of javac, its exit code, its first errors and the files' count."""
    if folder.exists():
        shutil.rmtree(folder)
    sources = []
    for path, data in build_plan(taxonomy, ["java"]).items():
        if path.endswith(".java"):
            target = folder / "src" / path
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)
            sources.append(str(target))
    argfile = folder / "sources.txt"
    argfile.write_text("\n".join(sources) + "\n", encoding="utf-8")
    args = ["javac", "--release", "17", "-encoding", "UTF-8", "-Xlint:all", "-Werror"]
    args += ["-cp", JARS]
    args += ["-d", str(folder / "classes"), f"@{argfile}"]
    started = time.perf_counter()
    done = subprocess.run(args, capture_output=True, text=True)
    wall = time.perf_counter() - started
    errors = [line for line in done.stderr.splitlines() if "error:" in line]
    return {
        "wall": wall,
        "rc": done.returncode,
        "errors": errors[:5],
        "files": len(sources),
    }


def measure(run: Run) -> None:
    if shutil.which("javac") is None:
        raise BenchError("javac is needed: run `make java`")
    version = subprocess.run(["javac", "-version"], capture_output=True, text=True)
    run.facts["javac"] = (version.stdout + version.stderr).strip()
    for n in ("shipped", run.medium, run.large):
        log(f"javac, N={n}")
        folder = run.work / f"java{n}"
        results = [compile_java(run.taxonomy(n), folder)]
        for _ in range(1, min(run.reps_after(results[0]["wall"]), 2)):
            results.append(compile_java(run.taxonomy(n), folder))
        run.scaling.setdefault("javac", {})[n] = results
        if results[-1]["rc"] != 0:
            log(f"javac failed for N={n}: {results[-1]['errors'][:2]}")


def figures(run: Run) -> list[Figure]:
    """javac at the medium and the large size, the shipped taxonomy's beside."""
    javac = run.scaling["javac"]
    baseline = median([r["wall"] for r in javac["shipped"]])
    out = []
    for label, n in (("medium", run.medium), ("large", run.large)):
        last = javac[n][-1]
        out.append(
            Figure(
                f"java-compile-{label}",
                "`javac -Xlint:all -Werror` on the generated sources",
                fmt_n(n),
                median([r["wall"] for r in javac[n]]),
                "`javac` on the shipped taxonomy's sources",
                baseline,
                "compiles, no warning (the JVM's 64 KB limits)",
                [("compiles", last["rc"] == 0)],
                note=(
                    f"{last['files']} files"
                    if last["rc"] == 0
                    else "errors: " + " | ".join(last["errors"][:2])
                ),
            )
        )
    return out
