"""Rewrite the golden files of every case from the current generator: ``make golden``.

Each ``tests/cases/<case>/expected/`` becomes exactly what ``taxogen generate``
writes for ``tests/cases/<case>/taxonomy.yaml`` (stale files are removed); the
shipped taxonomy's golden files are ``generated/``, rewritten by ``make generate``.
Every case's model document, what ``taxogen model`` prints, is
``tests/models/<case>.json`` (the shipped taxonomy's too).
Review the diff before committing it: the golden files are the specification.
"""

from __future__ import annotations

import shutil
import sys

from generator import document
from generator.pipeline import build_plan, load_names
from tests.support import REPO, cases

MODELS = REPO / "tests" / "models"


def main() -> int:
    MODELS.mkdir(exist_ok=True)
    for stale in MODELS.glob("*.json"):
        stale.unlink()
    for case in cases():
        model = document.document(load_names(case.taxonomy))
        (MODELS / f"{case.name}.json").write_bytes(document.encode(model))
        if case.name == "shipped":
            continue
        plan = build_plan(case.taxonomy)
        if case.expected.exists():
            shutil.rmtree(case.expected)
        for path, data in plan.items():
            target = case.expected / path
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)
        print(
            f"{case.expected.relative_to(case.taxonomy.parent.parent.parent.parent)}:"
            f" {len(plan)} files"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
