"""Scaling: the report's table of how each cost grows with N."""

from __future__ import annotations

from collections.abc import Callable

from benchmarks.figure import fmt_bytes, fmt_seconds
from benchmarks.timing import PACKAGE, Run, median, paired_net

__all__ = ["rows"]


def rows(run: Run) -> list[tuple[str, dict[int, str]]]:
    rows: list[tuple[str, dict[int, str]]] = []

    def add(
        label: str, values: dict[int, float], show: Callable[[float], str] = fmt_seconds
    ) -> None:
        rows.append((label, {n: show(v) for n, v in values.items()}))

    sizes = run.sizes
    add("C YAML loader, parse only", {n: median(run.scaling["yaml"][n]) for n in sizes})
    add("`generate`, cold", {n: median(run.scaling["generate"][n]) for n in sizes})
    add(
        "`generate`, cold: CPU time (user + sys)",
        {n: median(run.scaling["generate cpu"][n]) for n in sizes},
    )
    add("`generate`, no-op", {n: median(run.scaling["noop"][n]) for n in sizes})
    add("`check`", {n: median(run.scaling["check"][n]) for n in sizes})
    add(
        "peak RSS of `generate`",
        {n: median(run.scaling["rss"][n]) for n in sizes},
        fmt_bytes,
    )
    phases = run.scaling.get("phases", {})
    if all(phases.get(n) for n in sizes):
        # The first run in a fresh process is what the command line pays (lazy imports,
        # Jinja's lexer, regex caches); later runs in the same process are cheaper.
        add(
            "in-process, first run: importing the generator",
            {n: phases[n]["imports"] for n in sizes},
        )
        for label in phases[sizes[0]]["phases"][0]:
            add(
                f"in-process, first run: {label}",
                {n: phases[n]["phases"][0][label] for n in sizes},
            )
        add(
            "in-process, first run: all of the above",
            {
                n: sum(
                    v
                    for k, v in phases[n]["phases"][0].items()
                    if not k.startswith(" ")
                )
                for n in sizes
            },
        )
        add(
            "in-process, later runs (median): all of the above",
            {
                n: median(
                    [
                        sum(v for k, v in row.items() if not k.startswith(" "))
                        for row in phases[n]["phases"][1:]
                    ]
                    or [float("nan")]
                )
                for n in sizes
            },
        )
        rows.append(
            (
                "black imported by `generate` (e.g. `pysyntax.width` on non-ASCII "
                "text)",
                {n: "yes" if phases[n]["black_imported"] else "no" for n in sizes},
            )
        )
        rows.append(
            (
                "black's safety net ran",
                {
                    n: (
                        "yes"
                        if any(f["black_ran"] for f in phases[n]["finish"])
                        else "no"
                    )
                    for n in sizes
                },
            )
        )
    add(
        "black alone on the Python module",
        {n: median(run.scaling["black"][n]["samples"]) for n in sizes},
    )
    add(
        "Python module body from .pyc (exec)",
        {n: median([r["ns"] for r in run.scaling["py exec"][n]]) * 1e-9 for n in sizes},
    )
    add(
        "`import` in a fresh process, minus start-up",
        {
            n: paired_net(
                run.scaling["py import wall"][n], run.samples["python -c pass (plain)"]
            )
            for n in sizes
        },
    )
    add(
        "`import` statement alone, timed inside the process",
        {n: median(run.scaling["py import inside"][n]) for n in sizes},
    )
    add(
        "`tsc -p`",
        {n: median([r["wall"] for r in run.scaling["tsc"][n]]) for n in sizes},
    )
    base = [r["wall"] for r in run.samples["node empty import"]]
    add(
        "Node import, fresh process, minus start-up",
        {
            n: paired_net([r["wall"] for r in run.scaling["node import"][n]], base)
            for n in sizes
        },
    )
    if all(phases.get(n) for n in sizes):
        module = f"python/src/{PACKAGE}/__init__.py"
        rows.append(
            (
                "generated Python / TypeScript module",
                {
                    n: f"{phases[n]['sizes'].get(module, 0) / 1e6:.2f} / "
                    f"{phases[n]['sizes'].get('typescript/src/index.ts', 0) / 1e6:.2f} "
                    "MB"
                    for n in sizes
                },
            )
        )
    return rows
