"""TypeScript: compiling the generated package, decoding in Node, importing it.

`tsc -p` under the package's own strict tsconfig, `fromPayload` against a zod
schema, the compiled module's import in a fresh `node`, and the size of a
minified esbuild bundle that imports one class against one that imports
`fromPayload` (and so every class).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import time
from pathlib import Path
from typing import Any

from benchmarks import node_children
from benchmarks.figure import Figure, fmt_n, fmt_seconds, fmt_size
from benchmarks.payload import sample_code, typed_figure, typed_pair
from benchmarks.timing import (
    CODE_PATTERN,
    REPO,
    TSC,
    BenchError,
    Run,
    log,
    median,
    paired_net,
    run_json,
    wrapped,
)
from taxogen.pipeline import load_names

__all__ = ["figures", "measure"]

ESBUILD = REPO / "node_modules" / ".bin" / "esbuild"

#: A bundle importing one class is at most this times one of the root class alone
#: (issue 15, section 5).
ONE_CLASS_MOST = 1.2

#: Issue 34 §2: `fromPayload` at most this times zod's `.parse` + the same
#: construction, and constructing an error with details at most this times a bare
#: `new Error()`.
FROM_PAYLOAD_MOST = 0.9
CONSTRUCT_MOST = 2.5


def _tsc(run: Run, n: int | str) -> dict[str, Any]:
    source = run.work / f"out{n}" / "typescript"
    pkg = run.work / f"ts{n}"
    if pkg.exists():
        shutil.rmtree(pkg)
    shutil.copytree(source, pkg)
    started = time.perf_counter()
    done = subprocess.run(
        [str(TSC), "-p", str(pkg / "tsconfig.json")], capture_output=True, text=True
    )
    wall = time.perf_counter() - started
    errors = [
        line for line in (done.stdout + done.stderr).splitlines() if "error TS" in line
    ]
    return {
        "wall": wall,
        "rc": done.returncode,
        "errors": errors[:5],
        "error_count": len(errors),
    }


def measure(run: Run) -> None:
    if run.node is None or not TSC.is_file():
        raise BenchError("node and node_modules/.bin/tsc are needed: run `npm ci`")
    version = subprocess.run(
        [str(TSC), "-v"], capture_output=True, text=True
    ).stdout.strip()
    run.facts["tsc"] = "tsc " + version.removeprefix("Version ")
    run.facts["node"] = subprocess.run(
        [run.node, "-v"], capture_output=True, text=True
    ).stdout.strip()
    every: tuple[int | str, ...] = ("shipped", *run.sizes)
    for n in every:
        log(f"tsc, N={n}")
        results = [_tsc(run, n)]
        for _ in range(1, run.reps_after(results[0]["wall"])):
            results.append(_tsc(run, n))
        run.scaling.setdefault("tsc", {})[n] = results
        if results[-1]["rc"] != 0:
            log(f"tsc failed for N={n}: {results[-1]['errors'][:2]}")

    import_script = run.script("node_import.mjs", node_children.NODE_IMPORT)
    empty = run.script("empty.mjs", "export {};\n")
    log(f"Node import, {run.many} fresh processes per figure")
    node_base: list[dict[str, Any]] = []
    node_runs: dict[int, list[dict[str, Any]]] = {n: [] for n in run.sizes}
    compiled = {n: run.work / f"ts{n}" / "dist" / "index.js" for n in run.sizes}
    for _ in range(run.many):
        node_base.append(_node_import(run, import_script, empty))
        for n in run.sizes:
            if compiled[n].is_file():
                node_runs[n].append(_node_import(run, import_script, compiled[n]))
    run.samples["node empty import"] = node_base
    run.scaling["node import"] = node_runs

    log("fromPayload against zod")
    medium = compiled[run.medium]
    if not medium.is_file():
        raise BenchError(f"no compiled module for N={run.medium}: tsc failed")
    script = run.script("zod_bench.mjs", node_children.NODE_FROM_PAYLOAD)
    reps = 3 if run.smoke else max(9, 2 * run.repeat + 1)
    run.samples["zod"] = run_json(
        [
            run.node,
            str(script),
            medium.as_uri(),
            CODE_PATTERN,
            str(reps),
            sample_code(run),
        ],
        cwd=run.work,
    )

    log("fromPayload with typed details")
    shipped = run.work / "tsshipped" / "dist" / "index.js"
    if not shipped.is_file():
        raise BenchError("no compiled module for the shipped taxonomy: tsc failed")
    pair = typed_pair(run)
    run.samples["ts typed decode"] = run_json(
        [
            run.node,
            str(run.script("typed_decode.mjs", node_children.NODE_TYPED_DECODE)),
            shipped.as_uri(),
            pair[0],
            pair[1],
            json.dumps(pair[2]),
            str(reps),
        ],
        cwd=run.work,
    )
    run.samples["ts typed decode"]["pair"] = pair

    log(f"esbuild bundles, N={run.medium}")
    run.samples["ts bundle"] = _bundles(run, medium)


def _bundle(run: Run, name: str, consumer: str) -> int:
    """The size in bytes of the minified ESM bundle of ``consumer`` (its source)."""
    entry = run.work / f"bundle-{name}.mjs"
    entry.write_text(consumer, encoding="utf-8")
    out = run.work / f"bundle-{name}.min.mjs"
    done = subprocess.run(
        [str(ESBUILD), str(entry), "--bundle", "--minify", "--format=esm"]
        + ["--platform=neutral", "--log-level=error", f"--outfile={out}"],
        capture_output=True,
        text=True,
    )
    if done.returncode != 0:
        raise BenchError(f"esbuild failed on {entry.name}: {done.stderr.strip()}")
    return out.stat().st_size


def _bundles(run: Run, module: Path) -> dict[str, Any]:
    """Bundles of the medium taxonomy's package re-exporting one code's class (the
    sample code's), the root class alone, and `fromPayload` (every class).
    """
    if not ESBUILD.is_file():
        raise BenchError("node_modules/.bin/esbuild is needed: run `npm ci`")
    names = load_names(run.taxonomy(run.medium))
    wanted = sample_code(run)
    cls = next(c.class_name for c in names.codes if c.code.code == wanted)
    source = json.dumps(module.as_posix())
    sizes = {
        name: _bundle(run, name, f"export {{ {symbol} }} from {source};\n")
        for name, symbol in (
            ("one", cls),
            ("root", names.base),
            ("all", "fromPayload"),
        )
    }
    return {**sizes, "class": cls}


def _node_import(run: Run, script: Path, module: Path) -> dict[str, Any]:
    result = wrapped(
        run, [run.node or "node", str(script), module.as_uri()], env=dict(os.environ)
    )
    return {
        "wall": result["wall"],
        "ms": json.loads(result["stdout"].strip().splitlines()[-1])["ms"],
    }


def figures(run: Run) -> list[Figure]:
    """`tsc`, `fromPayload` against zod, and importing the compiled module."""
    L, M = run.large, run.medium
    out: list[Figure] = []
    tsc = run.scaling["tsc"]
    tl = tsc[L]
    errs = tl[-1]["errors"]
    out.append(
        Figure(
            "ts-compile-large",
            "`tsc -p` (strict tsconfig) on the generated package",
            fmt_n(L),
            median([r["wall"] for r in tl]),
            "`tsc -p` on the shipped taxonomy's package",
            median([r["wall"] for r in tsc["shipped"]]),
            "compiles, no error (e.g. TS2590)",
            [("compiles", tl[-1]["rc"] == 0)],
            note=(
                "no errors"
                if not errs
                else f"{tl[-1]['error_count']} errors, first: " + " | ".join(errs[:2])
            ),
        )
    )
    zod = run.samples["zod"]["samples_ns"]
    zod_note = (
        "parts: construction alone "
        f"{fmt_seconds(median(zod['construct_only']) * 1e-9)} "
        f"(a bare `new Error()`: {fmt_seconds(median(zod['bare_error']) * 1e-9)}), zod "
        "`.parse` alone "
        f"{fmt_seconds(median(zod['zod_parse_only']) * 1e-9)}; without details: "
        "fromPayload "
        f"{fmt_seconds(median(zod['ours_bare']) * 1e-9)} vs zod "
        f"{fmt_seconds(median(zod['zod_bare']) * 1e-9)}; "
        f"agree on {run.samples['zod']['agree']}/{run.samples['zod']['cases']} payloads"
    )
    if run.samples["zod"]["differ"]:
        zod_note += "; differ: " + "; ".join(run.samples["zod"]["differ"])
    out.append(
        Figure(
            "ts-from-payload",
            "`fromPayload(object)` in Node",
            "any",
            median(zod["ours"]) * 1e-9,
            "zod schema `.parse` + same construction",
            median(zod["zod"]) * 1e-9,
            f"ratio ≤ {FROM_PAYLOAD_MOST}",
            [("ratio", median(zod["ours"]) <= FROM_PAYLOAD_MOST * median(zod["zod"]))],
            note=zod_note,
        )
    )
    out.append(
        Figure(
            "ts-construct-details",
            "construction of an error with details (`new Cls(message, {details})`)",
            "any",
            median(zod["construct_only"]) * 1e-9,
            "a bare `new Error(message)`",
            median(zod["bare_error"]) * 1e-9,
            f"ratio ≤ {CONSTRUCT_MOST}",
            [
                (
                    "ratio",
                    median(zod["construct_only"])
                    <= CONSTRUCT_MOST * median(zod["bare_error"]),
                )
            ],
            note=(
                "the details of `ts-from-payload`'s payload (3 scalars), timed in "
                "its Node process, batches interleaved with it"
            ),
        )
    )
    base = median([r["wall"] for r in run.samples["node empty import"]])
    node_m = run.scaling["node import"][M]
    net = paired_net(
        [r["wall"] for r in node_m],
        [r["wall"] for r in run.samples["node empty import"]],
    )
    inproc = median([r["ms"] for r in node_m]) * 1e-3 if node_m else float("nan")
    out.append(
        Figure(
            "ts-import-medium",
            "import of the compiled module, fresh `node`, minus start-up",
            fmt_n(M),
            net,
            "`node` importing an empty module",
            base,
            "< 30 ms",
            [("wall", net < 0.030)],
            note=f"in-process `await import()` alone: {fmt_seconds(inproc)}",
        )
    )
    out.append(
        typed_figure(
            run,
            "ts typed decode",
            "ts-from-payload-typed",
            "`fromPayload(object)` in Node of a code with declared details fields",
        )
    )
    sizes = run.samples["ts bundle"]
    one, root, every = sizes["one"], sizes["root"], sizes["all"]
    out.append(
        Figure(
            "ts-bundle-medium",
            "minified esbuild bundle importing one code's class",
            fmt_n(M),
            one,
            "the same importing `fromPayload` (every class)",
            every,
            f"≤ {ONE_CLASS_MOST}x a bundle of the root class alone",
            [("root", one <= ONE_CLASS_MOST * root)],
            unit="bytes",
            note=(
                f"`{sizes['class']}`; the root class alone: {fmt_size(root)} "
                f"(one class is {one / root:.2f}x it)"
            ),
        )
    )
    return out
