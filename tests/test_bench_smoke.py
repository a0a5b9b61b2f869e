"""The benchmark suite runs: a smoke run at tiny sizes, so ``make bench`` never rots.

Only that it runs and reports every figure, each with a baseline and a ratio, is
checked here: timings are never asserted in tests (they depend on the machine
and on whatever else it is doing).  The figures themselves come from
``make bench`` and are kept in ``benchmarks/RESULTS.md``.
"""

from __future__ import annotations

import importlib.util
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support import REPO, require_tool, require_typescript_tools

# Every figure of the "fast at every scale" issue, by the id the report gives it.
FIGURES = (
    # generate, cold, N=10,000 vs the C YAML loader (≤ 2.5x, < 3 s)
    "generate-cold-large",
    "generate-cold-medium",  # generate, cold, N=1,000 (< 0.6 s)
    # generate, cold, the shipped taxonomy, with interpreter start (< 0.4 s)
    "generate-cold-shipped",
    "generate-growth",  # N=10,000 / N=1,000 (≤ 12)
    "generate-peak-rss",  # peak RSS at N=10,000 (< 400 MB)
    "generate-noop",  # no-op generate at N=10,000 (< 1.5 s)
    "check-noop",  # check at N=10,000 (< 1.5 s)
    "black-medium",  # black alone on the N=1,000 module vs the whole generate
    "black-large",  # the same at N=10,000
    # per-code import cost vs psycopg.errors' per-class cost
    "py-import-per-code-medium",
    "py-import-per-code-large",
    "py-import-medium",  # import at N=1,000 (< 20 ms)
    "py-import-large",  # import at N=10,000 (< 200 ms)
    # each language's compile time at N=1,000 and 10,000 (issue 32 §3)
    "py-compile-medium",  # python -m compileall on the generated package
    "py-compile-large",
    "from-payload-dict",  # from_payload vs pydantic validate_python (≤ 0.6x)
    "from-payload-json",  # json.loads + from_payload vs pydantic validate_json (≤ 1x)
    # from_payload of a code with declared fields vs one without (issue 10, ≤ 1.5x)
    "from-payload-typed",
    "ts-compile-large",  # tsc at N=10,000 under the strict settings
    "ts-from-payload",  # fromPayload vs zod in Node (≤ 0.9x, issue 34)
    # an error constructed with details vs a bare new Error() (≤ 2.5x, issue 34)
    "ts-construct-details",
    "ts-import-medium",  # import of the compiled module at N=1,000 (< 30 ms)
    "ts-from-payload-typed",  # the same in Node
    # an esbuild bundle importing one class vs one importing fromPayload (issue 15)
    "ts-bundle-medium",
    "go-compile-medium",  # go build of the generated module, go vet clean
    "go-compile-large",
    # javac -Werror on the generated Java sources at N=1,000 and 10,000 (issue 32 §3)
    "java-compile-medium",
    "java-compile-large",
    # cargo build of the generated Rust crate at N=1,000 and 10,000 (issue 32 §3)
    "rust-compile-medium",
    "rust-compile-large",
    # Machinery that pays its way (issue 13): each optimisation on and off.
    "check-noop-shipped",  # no-op check, shipped taxonomy, vs python -c pass (≤ 3x)
    "memo-shipped",  # the no-op check with its memo vs without
    "template-cache-shipped",  # cold generate with compiled templates cached vs not
    "memo-medium",
    "template-cache-medium",
    # two rendering processes vs one at each N (issue 34: parallelism by size)
    "render-workers-small",
    "render-workers-medium",
    "render-workers-large",
)
TIMEOUT = 900


def _missing_tools() -> list[str]:
    missing = [
        name
        for name in ("pydantic", "psycopg")
        if importlib.util.find_spec(name) is None
    ]
    return missing


def test_smoke_run_reports_every_figure(tmp_path: Path) -> None:
    missing = _missing_tools()
    if missing:
        pytest.fail(
            f"the bench extra is not installed ({', '.join(missing)}): run `make test`,"
            " which installs it (pip install -c constraints.txt -e '.[test,bench]')"
        )
    require_typescript_tools()
    require_tool(
        (REPO / "node_modules" / "zod" / "package.json").is_file(),
        "node_modules/zod (`npm ci` installs it: a devDependency, the bench's"
        " baseline)",
    )
    require_tool(
        shutil.which("cargo") is not None
        and any(Path("/usr/share/cargo/registry").glob("serde_json-*")),
        "Rust and Debian's serde crates (`make rust` installs them)",
    )
    require_tool(shutil.which("go") is not None, "Go (`make go` installs it)")
    require_tool(
        shutil.which("javac") is not None
        and Path("/usr/share/java/jackson-databind.jar").is_file(),
        "Java and Debian's Jackson jars (`make java` installs them)",
    )
    out = tmp_path / "results.md"
    done = subprocess.run(
        [sys.executable, "-m", "benchmarks.bench", "--smoke", "--out", str(out)],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        check=False,
    )
    assert (
        done.returncode == 0
    ), f"the smoke run failed\n--- stdout\n{done.stdout}\n--- stderr\n{done.stderr}"
    text = out.read_text(encoding="utf-8")

    rows: dict[str, list[str]] = {}
    for line in text.splitlines():
        match = re.match(r"\| `([a-z0-9-]+)` \|", line)
        if match:
            rows[match.group(1)] = [
                cell.strip() for cell in line.strip().strip("|").split("|")
            ]
    missing_rows = [figure for figure in FIGURES if figure not in rows]
    assert (
        not missing_rows
    ), f"figures missing from the report: {missing_rows}\n{text[:3000]}"
    for figure in FIGURES:
        # id | figure | N | median | baseline label | baseline median | ratio |
        # target | verdict
        cells = rows[figure]
        assert len(cells) == 9, f"{figure}: malformed row {cells}"
        _, title, n, value, baseline_label, baseline, ratio, target, _verdict = cells
        assert (
            title and n and target
        ), f"{figure}: row lacks its title, N or target: {cells}"
        assert re.search(r"\d", value), f"{figure}: no median: {cells}"
        assert baseline_label, f"{figure}: no baseline named: {cells}"
        assert re.search(r"\d", baseline), f"{figure}: no baseline measured: {cells}"
        assert re.fullmatch(r"-?\d+(\.\d+)?x", ratio), f"{figure}: no ratio: {cells}"
    assert "## How cost grows with N" in text
    # The smoke run must not pretend to judge targets set for other sizes.
    assert (
        "PASS" not in text.split("## How cost grows with N")[0].split("## Targets")[1]
    )
    # Every figure that falls short is explained, from the run's own parts. At
    # smoke sizes cold generate always is (interpreter and imports against a
    # parse of a few milliseconds), so that explanation is always exercised.
    reasons = dict(
        re.findall(
            r"^- `([a-z0-9-]+)`: (.+)$",
            text.split("Why each figure falls short")[-1],
            re.M,
        )
    )
    assert "generate-cold-large" in reasons and set(reasons) <= set(FIGURES), reasons
    assert re.search(
        r"\d+(\.\d+)? ms in one process", reasons["generate-cold-large"]
    ), reasons
    # Issue 34 §3: the Python import per code at most 0.6x psycopg's per class;
    # a miss names the enum's own cost, measured in the run.
    for figure in ("py-import-per-code-medium", "py-import-per-code-large"):
        assert rows[figure][7] == "ratio ≤ 0.6", rows[figure]
        if figure in reasons:
            assert re.search(
                r"`ErrorCode` enum alone.* \d+\.\d+x psycopg", reasons[figure]
            ), reasons[figure]
    for figure in ("from-payload-json", "ts-from-payload"):
        # Structural at every size: the standard library's JSON parser and V8's stack
        # capture.
        if figure in reasons:
            assert re.search(r"\d+\.\d+x", reasons[figure]), reasons[figure]
