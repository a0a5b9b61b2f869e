"""Formatter: the whole of `taxogen generate` against black alone on its module.

The Python templates print black's layout themselves so that black never has
to run; this family measures what it would cost if it did, and checks that
black would change nothing.
"""

from __future__ import annotations

from benchmarks import children
from benchmarks.figure import Figure, fmt_n
from benchmarks.timing import PACKAGE, Run, log, median, run_json

__all__ = ["figures", "measure"]


def measure(run: Run) -> None:
    script = run.script("bench_black.py", children.BLACK)
    for n in run.sizes:
        log(f"black over the generated module, N={n}")
        module = run.work / f"out{n}" / "python" / "src" / PACKAGE / "__init__.py"
        reps = run.reps_after(median(run.scaling["generate"][n]))
        run.scaling.setdefault("black", {})[n] = run_json(
            [run.python, str(script), str(module), str(reps)], env=run.taxogen_env()
        )


def figures(run: Run) -> list[Figure]:
    """whole `generate` against black alone on its Python module."""
    L, M = run.large, run.medium
    gen: dict[int | str, float] = {
        n: median(v) for n, v in run.scaling["generate"].items()
    }
    out: list[Figure] = []
    for key, n in (("black-medium", M), ("black-large", L)):
        black = run.scaling["black"][n]
        phases = run.scaling.get("phases", {}).get(n)
        ran: bool | None = (
            any(item["black_ran"] for item in phases["finish"]) if phases else None
        )
        net_text = {
            True: "RAN (black.format_str was called inside generate)",
            False: "did not run",
            None: "unknown (step-by-step breakdown unavailable)",
        }[ran]
        out.append(
            Figure(
                key,
                "whole `taxogen generate` (cold) vs black alone on its Python module",
                fmt_n(n),
                gen[n],
                "`black.format_str` on the generated module",
                median(black["samples"]),
                "output black-clean (black changes nothing)",
                [("black-clean", not black["changed"])],
                note=(
                    f"safety net {net_text}; {black['wide_lines']} lines wider than 88 "
                    "columns; black "
                    f"{'would change' if black['changed'] else 'leaves unchanged'} the "
                    "module"
                ),
            )
        )
    return out
