"""Generate: `taxogen generate` and `check`, cold and no-op, whole and step by step.

Also the preparation every family starts from: the synthesized taxonomies
written, the bytecode cache warmed, every size generated once.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

from benchmarks import children
from benchmarks.figure import Figure, fmt_n
from benchmarks.synth import CODES_PER_DOMAIN, meaning_stats, synthesize
from benchmarks.timing import (
    PACKAGE,
    REPO,
    BenchError,
    Run,
    log,
    median,
    repeated,
    run_json,
    taxogen,
    wrapped,
)

__all__ = ["figures", "measure", "measure_phases", "prepare"]


def prepare(run: Run) -> None:
    """Write the taxonomies, warm the bytecode cache, generate every size once."""
    stats = {}
    for n in run.sizes:
        path = run.taxonomy(n)
        path.parent.mkdir(parents=True)
        text = synthesize(n)
        path.write_text(text, encoding="utf-8")
        stats[n] = dict(
            meaning_stats(text),
            bytes=len(text.encode("utf-8")),
            domains=-(-n // CODES_PER_DOMAIN),
        )
    shipped = run.taxonomy("shipped")
    shipped.parent.mkdir(parents=True)
    shutil.copyfile(REPO / "taxonomy.yaml", shipped)
    run.facts["taxonomies"] = stats
    head = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"],
        cwd=REPO,
        capture_output=True,
        text=True,
    )
    dirty = subprocess.run(
        ["git", "status", "--porcelain", "--", "generator", "templates"],
        cwd=REPO,
        capture_output=True,
        text=True,
    )
    run.facts["git"] = f"commit {head.stdout.strip() or '?'}" + (
        " with uncommitted changes to generator/ or templates/"
        if dirty.stdout.strip()
        else ""
    )
    (run.work / "node_modules").symlink_to(REPO / "node_modules")
    log("warm-up: filling the bytecode cache and generating each size once")
    taxogen(run, "generate", "shipped", run.work / "warmup")
    every: tuple[int | str, ...] = (*run.sizes, "shipped")
    for size in every:
        out = run.work / f"out{size}"
        taxogen(run, "generate", size, out)
        if (
            not (out / "python" / "src" / PACKAGE / "__init__.py").is_file()
            and size != "shipped"
        ):
            raise BenchError(f"generate wrote no Python package for N={size}")


def yaml_parse(run: Run, n: int | str) -> list[float]:
    script = run.script("bench_yaml_parse.py", children.YAML_PARSE)
    samples: list[float] = run_json(
        [run.python, str(script), str(run.taxonomy(n)), str(run.repeat)],
        env=run.plain_env(),
    )["samples"]
    return samples


def measure(run: Run) -> None:
    interpreter = []
    for _ in range(run.many):
        interpreter.append(
            wrapped(run, [run.python, "-c", "pass"], env=run.taxogen_env())["wall"]
        )
    run.samples["python -c pass"] = interpreter
    every: tuple[int | str, ...] = (*run.sizes, "shipped")
    for n in every:
        log(f"generate, cold, N={n}")
        run.scaling.setdefault("yaml", {})[n] = yaml_parse(run, n)
        rss: list[int] = []

        cpu: list[float] = []

        def cold(
            index: int, n: int | str = n, rss: list[int] = rss, cpu: list[float] = cpu
        ) -> float:
            out = run.work / f"cold{n}-{index}"
            result = taxogen(run, "generate", n, out)
            rss.append(result["maxrss_kib"])
            cpu.append(result["cpu"])
            shutil.rmtree(out)
            return float(result["wall"])

        run.scaling.setdefault("generate", {})[n] = repeated(run, cold)
        run.scaling.setdefault("rss", {})[n] = rss
        run.scaling.setdefault("generate cpu", {})[n] = cpu
        if n == "shipped":
            continue
        log(f"generate (no-op) and check, N={n}")
        out = run.work / f"out{n}"
        for command, key in (("generate", "noop"), ("check", "check")):

            def again(
                _index: int, n: int | str = n, out: Path = out, command: str = command
            ) -> float:
                return float(taxogen(run, command, n, out)["wall"])

            run.scaling.setdefault(key, {})[n] = repeated(run, again)
    # The baseline of peak memory: a process only loading the file with the C loader.
    code = (
        "import sys, yaml; yaml.load(open(sys.argv[1], encoding='utf-8').read(), "
        "Loader=yaml.CSafeLoader)"
    )
    run.samples["yaml rss"] = [
        wrapped(
            run,
            [run.python, "-c", code, str(run.taxonomy(run.large))],
            env=run.plain_env(),
        )["maxrss_kib"]
        for _ in range(min(run.repeat, 3))
    ]


def measure_phases(run: Run) -> None:
    script = run.script("bench_phases.py", children.PHASES)
    for n in run.sizes:
        log(f"generate step by step, N={n}")
        reps = run.reps_after(median(run.scaling["generate"][n]))
        out = run.work / f"phases{n}"
        try:
            result = run_json(
                [run.python, str(script), str(run.taxonomy(n)), str(out), str(reps)],
                env=run.taxogen_env(),
            )
        except (
            BenchError
        ) as exc:  # the pipeline's internals changed: report, don't stop
            log(f"step-by-step breakdown unavailable for N={n}: {exc}")
            run.scaling.setdefault("phases", {})[n] = None
            continue
        shutil.rmtree(out, ignore_errors=True)
        run.scaling.setdefault("phases", {})[n] = result


def figures(run: Run) -> list[Figure]:
    """The figures of cold, no-op and checking runs of `taxogen generate`."""
    L, M = run.large, run.medium
    gen: dict[int | str, float] = {
        n: median(v) for n, v in run.scaling["generate"].items()
    }
    yml: dict[int | str, float] = {n: median(v) for n, v in run.scaling["yaml"].items()}
    start = median(run.samples["python -c pass"])
    out: list[Figure] = []
    out.append(
        Figure(
            "generate-cold-large",
            "`taxogen generate`, cold (fresh process, empty folder)",
            fmt_n(L),
            gen[L],
            "C YAML loader parsing the same file",
            yml[L],
            "≤ 3.5x (the goal: 2.5x) and < 3 s",
            [("ratio", gen[L] / yml[L] <= 3.5), ("wall", gen[L] < 3.0)],
        )
    )
    out.append(
        Figure(
            "generate-cold-medium",
            "`taxogen generate`, cold",
            fmt_n(M),
            gen[M],
            "C YAML loader parsing the same file",
            yml[M],
            "< 0.6 s",
            [("wall", gen[M] < 0.6)],
        )
    )
    out.append(
        Figure(
            "generate-cold-shipped",
            "`taxogen generate`, cold, shipped taxonomy (incl. interpreter start)",
            "shipped",
            gen["shipped"],
            "`python -c pass`",
            start,
            "< 0.4 s",
            [("wall", gen["shipped"] < 0.4)],
        )
    )
    out.append(
        Figure(
            "generate-growth",
            "growth of cold `generate`: N=large vs N=medium",
            f"{fmt_n(L)} / {fmt_n(M)}",
            gen[L],
            f"cold `generate` at N={fmt_n(M)}",
            gen[M],
            "ratio ≤ 12 (linear)",
            [("ratio", gen[L] / gen[M] <= 12)],
        )
    )
    rss = median(run.scaling["rss"][L])
    out.append(
        Figure(
            "generate-peak-rss",
            "peak RSS of cold `generate`",
            fmt_n(L),
            rss,
            "peak RSS of a process that only `yaml.load`s the file (C loader)",
            median(run.samples["yaml rss"]),
            "< 400 MB",
            [("rss", rss / 1024 < 400)],
            unit="kib",
        )
    )
    noop = median(run.scaling["noop"][L])
    check = median(run.scaling["check"][L])
    out.append(
        Figure(
            "generate-noop",
            "`taxogen generate`, no-op (folder up to date)",
            fmt_n(L),
            noop,
            "C YAML loader parsing the same file",
            yml[L],
            "< 1.5 s",
            [("wall", noop < 1.5)],
        )
    )
    out.append(
        Figure(
            "check-noop",
            "`taxogen check` (folder up to date)",
            fmt_n(L),
            check,
            "C YAML loader parsing the same file",
            yml[L],
            "< 1.5 s",
            [("wall", check < 1.5)],
        )
    )
    return out
