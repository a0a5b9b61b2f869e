"""Hierarchies (issue 14 §3, docs "Hierarchies"): parents to any depth the
README allows, in any file order.

The golden cases (sqlstate, jsonrpc) and the conformance suites cover what
parents and matches do; here, the limits: a chain of parents as deep as allowed
(64, written child first) generates a Python package whose classes nest in that
order, and one level more is refused with a message that points.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from taxogen.diagnostics import TaxonomyError
from taxogen import emit
from taxogen.pipeline import build_plan, load_taxonomy

#: docs "Hierarchies": domains nest at most this deep through parent:.
MOST = 64


def _chain(depth: int) -> str:
    """A taxonomy whose domains d0 <- d1 <- ... nest ``depth`` deep, the deepest
    written first (a child before its parent in the file)."""
    lines = [
        "format: 1",
        "name: deep",
        "title: Deep",
        "version: 1.0.0",
        "base: DeepError",
        "fallback: d0_error",
        "wrap: d0_error",
        "domains:",
    ]
    for n in reversed(range(depth)):
        lines += [f"  d{n}:", f"    title: D{n}"]
        if n:
            lines.append(f"    parent: d{n - 1}")
        lines += [
            "    codes:",
            f"      d{n}_error: {{retryable: false, meaning: m{n}}}",
        ]
    return "\n".join(lines) + "\n"


def test_parents_nest_as_deep_as_allowed_in_any_file_order(tmp_path: Path) -> None:
    path = tmp_path / "taxonomy.yaml"
    path.write_text(_chain(MOST), encoding="utf-8")
    emit.write(tmp_path / "out", build_plan(path, ["python"]))
    probe = (
        "import deep_errors as d\n"
        f"e = d.from_payload({{'code': 'd{MOST - 1}_error', 'message': 'm', "
        "'retryable': False})\n"
        "print(' '.join(c.__name__ for c in type(e).__mro__))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe],
        cwd=tmp_path / "out" / "python" / "src",
        capture_output=True,
        text=True,
        check=True,
    )
    chain = done.stdout.split()
    # Each domain's class is its <domain>_error code's (docs "Names"), under
    # its parent's: D63Error, D62Error ... D0Error, then the base.
    assert chain[: MOST + 1] == [f"D{n}Error" for n in reversed(range(MOST))] + [
        "DeepError"
    ]


def test_one_level_more_is_refused_where_it_happens(tmp_path: Path) -> None:
    path = tmp_path / "taxonomy.yaml"
    path.write_text(_chain(MOST + 2), encoding="utf-8")
    try:
        load_taxonomy(path)
    except TaxonomyError as exc:
        problems = exc.diagnostics
    else:
        raise AssertionError("a chain past the limit was accepted")
    # Once, at the first domain past the limit (d64: 65 deep), not at d65 too.
    assert [(p.key, p.message) for p in problems] == [
        (
            f"domains.d{MOST}.parent",
            f"domain 'd{MOST}' is nested {MOST + 1} deep; domains nest at most "
            f"{MOST} deep through parent:",
        )
    ]
    line = _chain(MOST + 2).splitlines().index(f"  d{MOST}:") + 3  # its parent:
    assert problems[0].position is not None and problems[0].position.line == line
