"""Payload: decoding a wire payload with `from_payload`, against pydantic.

The same validation and the same construction on both sides (see README.md).
And what typed details cost: decoding a payload of a code that declares details
fields (each checked) against the same payload of a code that declares none.
"""

from __future__ import annotations

import json
import math
from typing import Any

import yaml

from benchmarks import children
from benchmarks.figure import Figure, fmt_seconds
from benchmarks.timing import (
    CODE_PATTERN,
    PACKAGE,
    BenchError,
    Run,
    log,
    median,
    run_json,
)

__all__ = ["figures", "measure", "sample_code", "typed_figure", "typed_pair"]

#: The shipped taxonomy's Python package (taxogen's `name` + "_errors").
SHIPPED_PACKAGE = "harmovela_errors"


def _sample(shape: Any) -> Any:
    """A value of a declared field's shape (a type name or a mapping)."""
    shape = {"type": shape} if isinstance(shape, str) else shape
    kind, low = shape["type"], shape.get("minimum")
    if kind == "string":
        return shape["enum"][0] if "enum" in shape else "task_01"
    if kind in ("integer", "number"):
        return 300_000 if low is None else max(math.ceil(low), 300_000)
    if kind == "boolean":
        return True
    if kind == "array":
        items = shape.get("items")
        return [_sample(items) if items is not None else 1] * 3
    return {"k": 1}


def typed_pair(run: Run) -> tuple[str, str, dict[str, Any]]:
    """The shipped taxonomy's first code declaring details fields, its first code
    declaring none (nor its domain), and details that fill every declared field."""
    raw = yaml.safe_load(run.taxonomy("shipped").read_text(encoding="utf-8"))
    typed: tuple[str, dict[str, Any]] | None = None
    untyped: str | None = None
    for domain in raw["domains"].values():
        shared = domain.get("details") or {}
        for code, entry in (domain.get("codes") or {}).items():
            if "removed" in entry:
                continue
            fields = {**shared, **(entry.get("details") or {})}
            if fields and typed is None:
                typed = (code, fields)
            elif not fields and untyped is None:
                untyped = code
    if typed is None or untyped is None:
        raise BenchError("the shipped taxonomy needs a typed and an untyped code")
    details = {name: _sample(shape) for name, shape in typed[1].items()}
    return typed[0], untyped, details


def typed_figure(run: Run, key: str, fig_id: str, title: str) -> Figure:
    """Decoding a typed code's payload against the untyped one's (ratio ≤ 1.5)."""
    samples = run.samples[key]["samples_ns"]
    typed, untyped = median(samples["typed"]), median(samples["untyped"])
    code, other, details = run.samples[key]["pair"]
    return Figure(
        fig_id,
        title,
        "shipped",
        typed * 1e-9,
        f"the same payload with an untyped code (`{other}`)",
        untyped * 1e-9,
        "ratio ≤ 1.5",
        [("ratio", typed <= 1.5 * untyped)],
        note=f"`{code}` with {len(details)} declared fields, all present",
    )


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

    log("from_payload with typed details")
    pair = typed_pair(run)
    shipped = run.work / "outshipped" / "python" / "src"
    run.samples["typed decode"] = run_json(
        [
            run.python,
            str(run.script("typed_decode.py", children.TYPED_DECODE)),
            str(shipped),
            SHIPPED_PACKAGE,
            pair[0],
            pair[1],
            json.dumps(pair[2]),
            str(reps),
        ],
        env=run.plain_env(),
    )
    run.samples["typed decode"]["pair"] = pair


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
    out.append(
        typed_figure(
            run,
            "typed decode",
            "from-payload-typed",
            "`from_payload(dict)` of a code with declared details fields",
        )
    )
    return out
