"""Timing: the run's settings and the helpers every benchmark family measures with.

:class:`Run` holds the temporary folder, the sizes, the repetitions and every
sample taken; the helpers run children in fresh processes (through the small
wrapper of :mod:`benchmarks.children`, which times spawn to exit and reads the
peak RSS), repeat a measurement, and take medians and paired differences.
"""

from __future__ import annotations

import dataclasses
import json
import os
import shutil
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from benchmarks import children

__all__ = [
    "CODE_PATTERN",
    "LOADS",
    "LONG_RUN",
    "PACKAGE",
    "REPO",
    "RESULTS",
    "TSC",
    "BenchError",
    "Run",
    "generated",
    "log",
    "median",
    "paired_net",
    "repeated",
    "run_json",
    "taxogen",
    "wrapped",
]

REPO = Path(__file__).resolve().parent.parent

RESULTS = REPO / "benchmarks" / "RESULTS.md"

TSC = REPO / "node_modules" / ".bin" / "tsc"

PACKAGE = "synth_errors"  # the synthesized taxonomies are all named "synth"

CODE_PATTERN = r"^[a-z][a-z0-9]*(_[a-z0-9]+)*$"

#: Seconds: a measurement whose first run takes longer is repeated at most 3 times.
LONG_RUN = 8.0


class BenchError(Exception):
    """A measurement could not be made (a tool failed, a file is missing)."""


LOADS: list[float] = (
    []
)  # the 1-minute load average at each step: other work on the machine


def log(message: str) -> None:
    LOADS.append(os.getloadavg()[0])
    print(f"[bench {time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)


def median(values: Sequence[float]) -> float:
    return float(statistics.median(values))


def paired_net(subject: Sequence[float], baseline: Sequence[float]) -> float:
    """The median of paired differences: each subject run minus the baseline beside it.

    The runs were interleaved (baseline, subject, baseline, subject...), so pairing
    them cancels slow drift in the machine's speed better than a difference of medians.
    """
    if not subject or len(subject) != len(baseline):
        return float("nan")
    return median([s - b for s, b in zip(subject, baseline)])


@dataclasses.dataclass
class Run:
    """Everything a benchmark run needs: sizes, repetitions, tools, the temp folder."""

    work: Path
    sizes: tuple[int, ...]
    medium: int
    large: int
    repeat: int
    smoke: bool
    python: str = sys.executable
    node: str | None = shutil.which("node")
    samples: dict[str, Any] = dataclasses.field(default_factory=dict)
    scaling: dict[str, dict[Any, Any]] = dataclasses.field(default_factory=dict)
    facts: dict[str, Any] = dataclasses.field(default_factory=dict)

    @property
    def many(self) -> int:
        """Repetitions for cheap fresh-process measurements (imports): jitter is ms."""
        return 3 if self.smoke else max(21, 4 * self.repeat + 1)

    def reps_after(self, first: float) -> int:
        """How often to repeat a measurement whose first run took ``first`` seconds."""
        return min(self.repeat, 3) if first > LONG_RUN else self.repeat

    def script(self, name: str, text: str) -> Path:
        path = self.work / name
        if not path.exists():
            path.write_text(text, encoding="utf-8")
        return path

    def taxogen_env(self) -> dict[str, str]:
        env = dict(os.environ)
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env.pop("PYTHONPATH", None)
        env["PYTHONPYCACHEPREFIX"] = str(self.work / "pycache")
        # taxogen's own cache (memos, compiled templates): the run's, warm.
        env["TAXOGEN_CACHE_DIR"] = str(self.work / "taxogen-cache")
        env.pop("TAXOGEN_NO_CACHE", None)
        return env

    def plain_env(self, pythonpath: Path | None = None) -> dict[str, str]:
        env = dict(os.environ)
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env.pop("PYTHONPYCACHEPREFIX", None)
        env.pop("PYTHONPATH", None)
        if pythonpath is not None:
            env["PYTHONPATH"] = str(pythonpath)
        return env

    def taxonomy(self, n: int | str) -> Path:
        return self.work / f"t{n}" / "taxonomy.yaml"


def run_json(
    args: Sequence[str],
    *,
    env: dict[str, str] | None = None,
    cwd: Path | None = None,
    timeout: float = 1800,
) -> Any:
    """Run a child that prints JSON on its last line; fail loudly if it fails."""
    done = subprocess.run(
        list(args), capture_output=True, text=True, env=env, cwd=cwd, timeout=timeout
    )
    if done.returncode != 0:
        raise BenchError(
            f"{' '.join(map(str, args))} exited "
            f"{done.returncode}:\n{done.stderr[-3000:]}"
        )
    lines = done.stdout.strip().splitlines()
    if not lines:
        raise BenchError(
            f"{' '.join(map(str, args))} printed nothing:\n{done.stderr[-3000:]}"
        )
    return json.loads(lines[-1])


def wrapped(
    run: Run, args: Sequence[str], *, env: dict[str, str], cwd: Path | None = None
) -> dict[str, Any]:
    """Run ``args`` under the wrapper: its wall time (spawn to exit) and peak RSS."""
    wrapper = run.script("bench_wrap.py", children.WRAP)
    result: dict[str, Any] = run_json(
        [run.python, str(wrapper), *args], env=env, cwd=cwd or run.work
    )
    if result["rc"] != 0:
        raise BenchError(f"{' '.join(args)} exited {result['rc']}:\n{result['stderr']}")
    return result


def taxogen(run: Run, command: str, n: int | str, out: Path) -> dict[str, Any]:
    args = [
        run.python,
        "-m",
        "taxogen",
        command,
        "--taxonomy",
        str(run.taxonomy(n)),
        "--out",
        str(out),
    ]
    if command == "generate":
        args.append("-q")
    return wrapped(run, args, env=run.taxogen_env())


def generated(run: Run, n: int | str, target: str) -> Path:
    """The folder of ``target``'s output for the taxonomy of size ``n``, freshly
    generated (``taxogen generate --target <target>``) under the run's folder."""
    out = run.work / f"{target}{n}"
    subprocess.run(
        [
            sys.executable,
            "-m",
            "taxogen",
            "generate",
            "-q",
            "--taxonomy",
            str(run.taxonomy(n)),
            "--target",
            target,
            "--out",
            str(out),
        ],
        check=True,
        capture_output=True,
    )
    return out / target


def repeated(run: Run, measure: Callable[[int], float]) -> list[float]:
    """Call ``measure(i)`` ``repeat`` times (3 if the first is slow); the samples."""
    first = measure(0)
    samples = [first]
    for index in range(1, run.reps_after(first)):
        samples.append(measure(index))
    return samples
