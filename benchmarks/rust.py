"""Rust: compiling the generated crate (issue 32 §3).

Each size's crate (``--target rust``) is built with ``cargo build --offline``
in one target folder whose dependencies (serde, serde_json, from Debian's
packaged crates through a directory source, as the tests read them) a build of
the shipped taxonomy's crate compiled first: the figure is the crate's own
compile, from ``cargo clean -p`` to a built library, next to the shipped
crate's.  Debian's toolchain (rustc 1.63) when installed, else the one on PATH.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import time
from pathlib import Path
from typing import Any

from benchmarks.figure import Figure, fmt_n
from benchmarks.timing import BenchError, Run, generated, log, median

__all__ = ["figures", "measure"]

REGISTRY = Path("/usr/share/cargo/registry")


def _tool(name: str) -> str | None:
    debian = Path("/usr/bin") / name
    return str(debian) if debian.is_file() else shutil.which(name)


def _env(run: Run) -> dict[str, str]:
    cargo, rustc = _tool("cargo"), _tool("rustc")
    if cargo is None or rustc is None or not any(REGISTRY.glob("serde_json-*")):
        raise BenchError("Rust and Debian's serde crates are needed: run `make rust`")
    home = run.work / "cargo"
    home.mkdir(exist_ok=True)
    (home / "config.toml").write_text(
        '[source.crates-io]\nreplace-with = "debian"\n\n'
        f'[source.debian]\ndirectory = "{REGISTRY}"\n'
    )
    return {
        **os.environ,
        "CARGO": cargo,
        "RUSTC": rustc,
        "CARGO_HOME": str(home),
        "CARGO_TARGET_DIR": str(run.work / "rust-target"),
        "CARGO_NET_OFFLINE": "true",
        "RUSTFLAGS": "-D warnings",
    }


def _build(crate: Path, env: dict[str, str]) -> dict[str, Any]:
    toml = (crate / "Cargo.toml").read_text()
    found = re.search(r'^name = "(.*)"$', toml, re.M)
    assert found is not None
    cargo = env["CARGO"]
    manifest = ["--manifest-path", str(crate / "Cargo.toml"), "--offline"]
    subprocess.run(
        [cargo, "clean", "-p", found.group(1), *manifest],
        env=env,
        capture_output=True,
        check=False,
    )
    started = time.perf_counter()
    done = subprocess.run(
        [cargo, "build", *manifest], env=env, capture_output=True, text=True
    )
    wall = time.perf_counter() - started
    errors = [line for line in done.stderr.splitlines() if line.startswith("error")]
    return {"wall": wall, "rc": done.returncode, "errors": errors[:3]}


def measure(run: Run) -> None:
    env = _env(run)
    version = subprocess.run(
        [env["RUSTC"], "--version"], capture_output=True, text=True
    ).stdout.strip()
    run.facts["rustc"] = version
    every: tuple[int | str, ...] = ("shipped", run.medium, run.large)
    for n in every:
        crate = generated(run, n, "rust")
        log(f"cargo build, N={n}")
        if n == "shipped":  # compiles serde and serde_json once, for every size
            _build(crate, env)
        results = [_build(crate, env)]
        for _ in range(1, run.reps_after(results[0]["wall"])):
            results.append(_build(crate, env))
        run.scaling.setdefault("cargo", {})[n] = results
        if results[-1]["rc"] != 0:
            log(f"cargo build failed for N={n}: {results[-1]['errors']}")


def figures(run: Run) -> list[Figure]:
    """The crate's compile at the medium and the large size."""
    cargo = run.scaling["cargo"]
    shipped = median([r["wall"] for r in cargo["shipped"]])
    out = []
    for name, n in (("medium", run.medium), ("large", run.large)):
        results = cargo[n]
        last = results[-1]
        out.append(
            Figure(
                f"rust-compile-{name}",
                "`cargo build` (rustc, `-D warnings`) of the generated crate",
                fmt_n(n),
                median([r["wall"] for r in results]),
                "`cargo build` of the shipped taxonomy's crate",
                shipped,
                "compiles, no warning",
                [("compiles", last["rc"] == 0)],
                note=(
                    run.facts.get("rustc", "")
                    if last["rc"] == 0
                    else "fails: " + " | ".join(last["errors"])
                ),
            )
        )
    return out
