"""Report: RESULTS.md written from a run's figures, samples and facts."""

from __future__ import annotations

import datetime
import json
import os
import platform
import sys
from typing import Any

from benchmarks import scaling
from benchmarks.figure import Figure, fmt_n, fmt_seconds
from benchmarks.synth import CODES_PER_DOMAIN
from benchmarks.timing import LOADS, LONG_RUN, Run, median

__all__ = ["report"]


def _versions(run: Run) -> list[str]:
    import black
    import yaml

    return [
        f"Python {platform.python_version()} ({sys.executable}), "
        f"PyYAML {yaml.__version__} (C loader: "
        f"{'yes' if hasattr(yaml, 'CSafeLoader') else 'NO'}), "
        f"black {getattr(black, '__version__', '?')}, pydantic "
        f"{run.samples['pydantic']['pydantic']}, psycopg {run.facts['psycopg']}",
        f"Node {run.facts['node']}, {run.facts['tsc']}, zod "
        f"{run.samples['zod']['zod']}",
        f"taxogen at {run.facts.get('git', '?')}",
        f"{platform.system()} {platform.machine()}, {os.cpu_count()} cores; 1-minute "
        "load average during the "
        f"run: min {min(LOADS):.2f}, median {median(LOADS):.2f}, max {max(LOADS):.2f} "
        "(other work on the machine adds noise to every figure)",
    ]


def _why_missed(run: Run, fig: Figure) -> str:
    """Why ``fig`` missed its target, from this run's own parts where they tell."""
    yml = median(run.scaling["yaml"][run.large])
    if fig.id == "generate-cold-large":
        phases = run.scaling.get("phases", {}).get(run.large)
        if phases:
            first = phases["phases"][0]
            serial = phases["imports"] + sum(
                first.get(label, 0.0)
                for label in (
                    "source: YAML events -> nodes",
                    "validate",
                    "naming",
                )
            )
            writes = first.get("emit.write (atomic writes)", 0.0)
            return (
                f"importing the generator, reading the YAML into nodes, "
                f"validating and naming take {fmt_seconds(serial)} in one process "
                f"({serial / yml:.2f}x the "
                "baseline by themselves), and the writes with their fsyncs "
                f"{fmt_seconds(writes)}; rendering "
                f"and the contract (shared by two processes) must fit in what is "
                f"left of 3.5 x {fmt_seconds(yml)}"
            )
    if fig.id == "from-payload-json":
        pyd = run.samples["pydantic"]["samples_ns"]
        loads, ours = median(pyd["json_loads_only"]), median(pyd["ours_dict"])
        return (
            f"`json.loads` alone takes {fmt_seconds(loads * 1e-9)}, "
            f"{loads * 1e-9 / fig.baseline:.2f}x the "
            "whole baseline; with `from_payload` on the dict "
            f"({fmt_seconds(ours * 1e-9)}) the standard "
            f"library's floor is {(loads + ours) * 1e-9 / fig.baseline:.2f}x (the "
            "package has no dependencies, "
            "so no faster parser)"
        )
    if fig.id == "ts-from-payload":
        zod = run.samples["zod"]["samples_ns"]
        construct, parse = median(zod["construct_only"]), median(zod["zod_parse_only"])
        ours = median(zod["ours"])
        return (
            "the baseline includes the same construction "
            f"({fmt_seconds(construct * 1e-9)}, of which V8 "
            "capturing the `Error`'s stack is "
            f"{fmt_seconds(median(zod['bare_error']) * 1e-9)}) beside zod's "
            f"parse ({fmt_seconds(parse * 1e-9)}), so even a validation costing "
            "nothing would give "
            f"{construct / (construct + parse):.2f}x; fromPayload's own reading, "
            f"checks and copy take {fmt_seconds((ours - construct) * 1e-9)}"
        )
    if fig.id == "ts-construct-details":
        zod = run.samples["zod"]["samples_ns"]
        bare = median(zod["bare_error"])
        extra = median(zod["construct_only"]) - bare
        return (
            "V8 capturing a bare `Error`'s stack is most of its "
            f"{fmt_seconds(bare * 1e-9)}; the error's own work (the capture walking "
            "past each constructor of its class's chain, checking the options, "
            f"copying and freezing the details) adds {fmt_seconds(extra * 1e-9)}"
        )
    if fig.id in ("py-import-per-code-medium", "py-import-per-code-large"):
        n = run.medium if fig.id == "py-import-per-code-medium" else run.large
        execs = run.scaling["py exec"][n]
        made = median([r.get("enum_ns", 0) for r in execs]) * 1e-9 / n
        return (
            f"its `ErrorCode` enum alone, made again the same way in the same "
            f"process, takes {fmt_seconds(made)} a member, {made / fig.baseline:.2f}x "
            "psycopg's per class by itself: Python's `EnumType` runs its own "
            "Python code for every member, which no public `enum` API avoids; the "
            "rest of the module body (the runtime, unmarshalling, the tables; the "
            "classes too in the module layout) takes the other "
            f"{fmt_seconds(max(fig.value - made, 0.0))} a code"
        )
    if fig.id in ("py-import-medium", "py-import-large"):
        n = run.medium if fig.id == "py-import-medium" else run.large
        body = median([r["ns"] for r in run.scaling["py exec"][n]]) * 1e-9
        return (
            f"the package's own module body takes {fmt_seconds(body)}, most of it the "
            "`ErrorCode` enum "
            "(Python 3.11's EnumType costs about 11 µs a member); the rest of the "
            "fresh-process figure is "
            "its imports (`typing`) and the interpreter's teardown, and moves with the "
            "machine's load"
        )
    if fig.id == "ts-import-medium":
        inside = (
            median([r["ms"] for r in run.scaling["node import"][run.medium]]) * 1e-3
        )
        return (
            f"`await import()` alone takes {fmt_seconds(inside)} inside the process: "
            "V8 compiling the module's "
            "source and running its class definitions, about 25 µs a code; the figure "
            "moves with the "
            "machine's load from run to run"
        )
    return 'see README.md, "How cost grows with N"'


def report(run: Run, figs: list[Figure], elapsed: float) -> str:
    lines = [
        "# taxogen benchmark results",
        "",
        f"Written by `{_command(run)}` "
        f"on {datetime.date.today().isoformat()} in {elapsed / 60:.1f} min; do not "
        "edit by hand. "
        "How each figure is measured, and what the numbers mean, is in "
        "[README.md](README.md).",
        "",
    ]
    if run.smoke:
        lines += [
            "**Smoke run**: tiny sizes and one or two repetitions, to prove the suite "
            "runs. "
            f'"large" is N={fmt_n(run.large)} and "medium" N={fmt_n(run.medium)}; '
            "the targets are for 10,000 and 1,000, so no verdict is given.",
            "",
        ]
    lines += (
        ["Machine and tools:", ""] + [f"- {item}" for item in _versions(run)] + [""]
    )
    lines += [
        f"Every figure is the median of {run.repeat} runs (3 for a run over "
        f"{LONG_RUN:.0f} s; "
        f"{run.many} fresh processes for imports), its baseline measured in the same "
        "run. "
        "Ratio = figure / baseline.",
        "",
    ]
    lines += [
        "## Targets",
        "",
        "| id | figure | N | median | baseline (same run) | baseline median | ratio | "
        "target | verdict |",
        "| --- | --- | --- | ---: | --- | ---: | ---: | --- | --- |",
    ]
    for f in figs:
        lines.append(
            f"| `{f.id}` | {f.title} | {f.n} | {f.show(f.value)} | {f.baseline_label} "
            "| "
            f"{f.show(f.baseline)} | {f.ratio:.2f}x | {f.target} | "
            f"{f.verdict(run.smoke)} |"
        )
    lines.append("")
    noted = [f for f in figs if f.note]
    if noted:
        lines += ["Notes:", ""] + [f"- `{f.id}`: {f.note}" for f in noted] + [""]
    if not run.smoke:
        missed = [f.id for f in figs if f.verdict(False) == "MISS"]
        lines += [
            f"**{len(figs) - len(missed)} PASS, {len(missed)} MISS**"
            + (f" ({', '.join(missed)})." if missed else "."),
            "",
        ]
    # A smoke run lists them too (no verdict at its sizes), so the explanations
    # cannot rot unnoticed: the smoke test runs this code.
    short = [f for f in figs if f.verdict(False) == "MISS"]
    if short:
        lines += [
            (
                "Why each miss (from this run's figures; the analysis is in README.md):"
                if not run.smoke
                else "Why each figure falls short at these sizes "
                "(smoke: not a verdict):"
            ),
            "",
        ]
        lines += [f"- `{f.id}`: {_why_missed(run, f)}" for f in short] + [""]
    lines += [
        "## How cost grows with N",
        "",
        "| measurement | " + " | ".join(f"N={fmt_n(n)}" for n in run.sizes) + " |",
        "| --- | " + " | ".join("---:" for _ in run.sizes) + " |",
    ]
    for label, values in scaling.rows(run):
        lines.append(
            f"| {label} | " + " | ".join(values.get(n, "—") for n in run.sizes) + " |"
        )
    lines.append("")
    shipped = median(run.scaling["generate"]["shipped"])
    tsc_shipped = median([r["wall"] for r in run.scaling["tsc"]["shipped"]])
    lines += [
        f"Shipped taxonomy ({_count_codes(run)} codes): cold `generate` "
        f"{fmt_seconds(shipped)}, "
        f"`tsc -p` {fmt_seconds(tsc_shipped)}; "
        f"`python -c pass` {fmt_seconds(median(run.samples['python -c pass']))}.",
        "",
    ]
    lines += [
        "## The synthesized taxonomies",
        "",
        f"{CODES_PER_DOMAIN} codes per domain, `<domain>_error` first; meanings from a "
        "phrase "
        "bank with random tails (seeded by N), some quoted, a few with a non-ASCII "
        "dash.",
        "",
        "| N | domains | file | meaning length min / median / max | > 70 chars | > 78 "
        "chars |",
        "| ---: | ---: | ---: | --- | ---: | ---: |",
    ]
    for n, s in run.facts["taxonomies"].items():
        lines.append(
            f"| {fmt_n(n)} | {s['domains']} | {s['bytes'] / 1024:.0f} KiB | "
            f"{s['min']} / {s['median']} / {s['max']} | {s['over_70']:.0%} | "
            f"{s['over_78']:.0%} |"
        )
    lines += [
        "",
        "## Raw samples",
        "",
        "<details><summary>every sample, in seconds unless stated</summary>",
        "",
        "```json",
        json.dumps(_raw(run), indent=1, default=str)[:200_000],
        "```",
        "",
        "</details>",
        "",
    ]
    return "\n".join(lines)


def _command(run: Run) -> str:
    return "python -m benchmarks.bench --smoke" if run.smoke else "make bench"


def _count_codes(run: Run) -> int:
    return sum(
        1
        for line in run.taxonomy("shipped").read_text(encoding="utf-8").splitlines()
        if "{retryable:" in line
    )


def _raw(run: Run) -> dict[str, Any]:
    def rounded(value: Any) -> Any:
        if isinstance(value, float):
            return float(f"{value:.6g}")
        if isinstance(value, dict):
            return {
                str(k): rounded(v)
                for k, v in value.items()
                if k not in ("stdout", "stderr")
            }
        if isinstance(value, list):
            return [rounded(v) for v in value]
        return value

    raw: dict[str, Any] = rounded({"samples": run.samples, "scaling": run.scaling})
    return raw
