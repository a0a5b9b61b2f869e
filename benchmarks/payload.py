"""Payload: decoding a wire payload with `from_payload`, against pydantic.

The same validation and the same construction on both sides (see README.md).
"""

from __future__ import annotations

from benchmarks import children
from benchmarks.figure import Figure, fmt_seconds
from benchmarks.timing import CODE_PATTERN, PACKAGE, Run, log, median, run_json

__all__ = ["figures", "measure", "sample_code"]


def measure(run: Run) -> None:
    log("from_payload against pydantic")
    script = run.script("pydantic_bench.py", children.PYDANTIC)
    src = run.work / f"out{run.medium}" / "python" / "src"
    reps = 3 if run.smoke else max(9, 2 * run.repeat + 1)
    run.samples["pydantic"] = run_json(
        [
            run.python,
            str(script),
            str(src),
            PACKAGE,
            CODE_PATTERN,
            str(reps),
            sample_code(run),
        ],
        env=run.plain_env(),
    )


def sample_code(run: Run) -> str:
    """A code from the middle of the medium taxonomy (its lookup is no special case)."""
    text = run.taxonomy(run.medium).read_text(encoding="utf-8")
    codes = [
        line.split(":")[0].strip()
        for line in text.splitlines()
        if "{retryable:" in line
    ]
    return codes[len(codes) // 2]


def figures(run: Run) -> list[Figure]:
    """`from_payload` against pydantic, from a dict and from JSON text."""
    out: list[Figure] = []
    pyd = run.samples["pydantic"]["samples_ns"]
    agreement = run.samples["pydantic"]
    agree_note = (
        "parts: construction alone "
        f"{fmt_seconds(median(pyd['construct_only']) * 1e-9)}, pydantic "
        f"validation alone "
        f"{fmt_seconds(median(pyd['pydantic_validate_only']) * 1e-9)}, "
        "`json.loads` alone "
        f"{fmt_seconds(median(pyd['json_loads_only']) * 1e-9)}; without details: "
        "from_payload "
        f"{fmt_seconds(median(pyd['ours_dict_bare']) * 1e-9)} vs pydantic "
        f"{fmt_seconds(median(pyd['pydantic_dict_bare']) * 1e-9)}; "
        f"agree on {agreement['agree']}/{agreement['cases']} payloads"
    )
    if agreement["differ"]:
        agree_note += "; differ: " + "; ".join(agreement["differ"])
    out.append(
        Figure(
            "from-payload-dict",
            "`from_payload(dict)`",
            "any",
            median(pyd["ours_dict"]) * 1e-9,
            "pydantic strict `TypeAdapter.validate_python` + same construction",
            median(pyd["pydantic_dict"]) * 1e-9,
            "ratio ≤ 0.6",
            [("ratio", median(pyd["ours_dict"]) <= 0.6 * median(pyd["pydantic_dict"]))],
            note=agree_note,
        )
    )
    out.append(
        Figure(
            "from-payload-json",
            "`from_payload(json.loads(text))`",
            "any",
            median(pyd["ours_json"]) * 1e-9,
            "pydantic strict `TypeAdapter.validate_json` + same construction",
            median(pyd["pydantic_json"]) * 1e-9,
            "ratio ≤ 1",
            [("ratio", median(pyd["ours_json"]) <= median(pyd["pydantic_json"]))],
        )
    )
    return out
