"""Go: compiling the generated module (issue 32 §3: each language's compile time).

Each size's module (``--target go``) is built with ``go build ./...`` in a
fresh build cache each time (Go 1.19 ships its standard library compiled, so
the figure is the module's own compile), next to the shipped taxonomy's
module; ``go vet ./...`` runs once at each size, the strict setting the tests
hold it to.  Debian's toolchain when installed, else the one on PATH.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import time
from pathlib import Path
from typing import Any

from benchmarks.figure import Figure, fmt_n
from benchmarks.timing import BenchError, Run, generated, log, median

__all__ = ["figures", "measure"]


def _env(run: Run) -> dict[str, str]:
    go = shutil.which("go")
    if go is None:
        raise BenchError("Go is needed: run `make go`")
    home = run.work / "gohome"
    home.mkdir(exist_ok=True)
    return {
        **os.environ,
        "GO": go,
        "GOPATH": str(home / "path"),
        "GOFLAGS": "-mod=mod",
        "GOPROXY": "off",
        "GOTOOLCHAIN": "local",
    }


def _go(args: list[str], module: Path, env: dict[str, str]) -> dict[str, Any]:
    started = time.perf_counter()
    done = subprocess.run(
        [env["GO"], *args], cwd=module, env=env, capture_output=True, text=True
    )
    wall = time.perf_counter() - started
    errors = [line for line in done.stderr.splitlines() if line.strip()]
    return {"wall": wall, "rc": done.returncode, "errors": errors[:3]}


def _build(run: Run, module: Path, env: dict[str, str], index: int) -> dict[str, Any]:
    cache = run.work / f"gocache-{index}"
    shutil.rmtree(cache, ignore_errors=True)
    result = _go(["build", "./..."], module, {**env, "GOCACHE": str(cache)})
    shutil.rmtree(cache, ignore_errors=True)
    return result


def measure(run: Run) -> None:
    env = _env(run)
    version = subprocess.run([env["GO"], "version"], capture_output=True, text=True)
    run.facts["go"] = version.stdout.strip()
    for n in ("shipped", run.medium, run.large):
        module = generated(run, n, "go")
        log(f"go build, N={n}")
        results = [_build(run, module, env, 0)]
        for index in range(1, run.reps_after(results[0]["wall"])):
            results.append(_build(run, module, env, index))
        vet = _go(["vet", "./..."], module, {**env, "GOCACHE": str(run.work / "gov")})
        run.scaling.setdefault("go build", {})[n] = results
        run.scaling.setdefault("go vet", {})[n] = vet
        if results[-1]["rc"] != 0 or vet["rc"] != 0:
            log(f"go build or vet failed for N={n}: {results[-1]['errors']}")


def figures(run: Run) -> list[Figure]:
    """The module's compile at the medium and the large size."""
    builds, vets = run.scaling["go build"], run.scaling["go vet"]
    shipped = median([r["wall"] for r in builds["shipped"]])
    out = []
    for name, n in (("medium", run.medium), ("large", run.large)):
        last, vet = builds[n][-1], vets[n]
        fine = last["rc"] == 0 and vet["rc"] == 0
        out.append(
            Figure(
                f"go-compile-{name}",
                "`go build ./...` of the generated module (a fresh build cache)",
                fmt_n(n),
                median([r["wall"] for r in builds[n]]),
                "`go build` of the shipped taxonomy's module",
                shipped,
                "compiles, `go vet` clean",
                [("compiles", last["rc"] == 0), ("vet", vet["rc"] == 0)],
                note=(
                    f"{run.facts.get('go', '')}; `go vet` {vet['wall']:.2f} s"
                    if fine
                    else "fails: " + " | ".join(last["errors"] + vet["errors"])
                ),
            )
        )
    return out
