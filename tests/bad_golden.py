"""Rewrite the expected stderr of every bad taxonomy: ``python -m tests.bad_golden``.

``tests/bad/`` holds the corpus of bad inputs: one ``<case>.yaml`` per mistake
(a few combine many, to prove every problem is reported in one run), each with
``<case>.stderr``, the exact bytes ``taxogen generate`` must print for it when
run from the repository root as::

    python -m taxogen generate --taxonomy tests/bad/<case>.yaml --out <folder>

This script runs exactly that for every case (through :func:`run_cli`, which
``tests/test_bad_inputs.py`` uses too) and writes what it prints.  It refuses to
write the stderr of a case that does not exit with status 2 or that prints a
traceback, since such a file would enshrine a bug.  Review the diff before
committing it: the expected stderr files are the specification of the messages.

``python -m tests.bad_golden CASE...`` rewrites only the named cases.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
BAD_DIR = REPO / "tests" / "bad"


def bad_cases() -> list[Path]:
    """Every bad taxonomy of the corpus, in name order."""
    return sorted(BAD_DIR.glob("*.yaml"))


def relative(path: Path) -> str:
    """``path`` as the tests pass it to the command line: relative to the repository,
    with ``/``.
    """
    return path.relative_to(REPO).as_posix()


def run_cli(*args: str) -> subprocess.CompletedProcess[bytes]:
    """``python -m taxogen ARGS`` from the repository root, output kept as bytes."""
    env = {**os.environ, "PYTHONIOENCODING": "utf-8", "PYTHONUTF8": "1"}
    env.pop("PYTHONWARNINGS", None)
    return subprocess.run(
        [sys.executable, "-m", "taxogen", *args],
        cwd=REPO,
        env=env,
        capture_output=True,
        check=False,
        timeout=120,
    )


def main(argv: list[str]) -> int:
    wanted = set(argv)
    status = 0
    with tempfile.TemporaryDirectory() as scratch:
        out = str(Path(scratch) / "out")
        for case in bad_cases():
            if wanted and case.stem not in wanted:
                continue
            done = run_cli("generate", "--taxonomy", relative(case), "--out", out)
            if done.returncode != 2 or b"Traceback" in done.stderr:
                sys.stderr.write(
                    f"{relative(case)}: exit {done.returncode}, not written:\n"
                )
                sys.stderr.write(done.stderr.decode("utf-8", "replace"))
                status = 1
                continue
            target = case.with_suffix(".stderr")
            if not target.exists() or target.read_bytes() != done.stderr:
                target.write_bytes(done.stderr)
                print(f"wrote {relative(target)}")
    if not wanted:
        for orphan in sorted(BAD_DIR.glob("*.stderr")):
            if not orphan.with_suffix(".yaml").exists():
                orphan.unlink()
                print(f"removed {relative(orphan)} (its case is gone)")
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
