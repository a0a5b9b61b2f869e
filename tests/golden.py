"""Rewrite the golden files of every case from the current generator: ``make golden``.

Each ``tests/cases/<case>/expected/`` becomes exactly what ``taxogen generate``
writes for ``tests/cases/<case>/taxonomy.yaml`` (stale files are removed) but
its runtime copies, the files a target declares as copied verbatim from its
``runtime/`` folder (:func:`tests.support.runtime_copies`): the same in every
case, they are checked against their source rather than stored.  The shipped
taxonomy's files are ``generated/``, whole, rewritten by ``make generate``.
Every case's model document, what ``taxogen model`` prints, is
``tests/models/<case>.json`` (the shipped taxonomy's too), and its OpenAPI
document (the ``openapi`` target, off by default) ``tests/openapi/<case>.json``.  Each
``tests/template_cases/<case>/`` (a project with user templates) gets the
``expected/`` folder its own ``taxogen generate`` writes there, its runtime
copies removed the same way.
README's table of targets is made anew from each target's ``target.toml``
(:mod:`tests.readme_targets`).
Review the diff before committing it: the golden files are the specification.
"""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

from taxogen import document
from taxogen.targets import openapi
from taxogen.cli import main as taxogen
from taxogen.pipeline import build_plan, load_names
from tests import readme_targets
from tests.support import REPO, cases, runtime_copies

MODELS = REPO / "tests" / "models"
OPENAPI = REPO / "tests" / "openapi"
TEMPLATE_CASES = REPO / "tests" / "template_cases"


def template_cases() -> list[Path]:
    """Every project of ``tests/template_cases/``, in name order."""
    return sorted(
        p for p in TEMPLATE_CASES.iterdir() if (p / "pyproject.toml").is_file()
    )


def _prune(folder: Path) -> None:
    """Remove the folders under ``folder`` left empty (git keeps no empty folder,
    so a clone would not have them either)."""
    for path in sorted(folder.rglob("*"), reverse=True):
        if path.is_dir() and not any(path.iterdir()):
            path.rmdir()


def main() -> int:
    for folder in (MODELS, OPENAPI):
        folder.mkdir(exist_ok=True)
        for stale in folder.glob("*.json"):
            stale.unlink()
    for case in cases():
        model = document.document(load_names(case.taxonomy))
        (MODELS / f"{case.name}.json").write_bytes(document.encode(model))
        (OPENAPI / f"{case.name}.json").write_bytes(
            build_plan(case.taxonomy, ["openapi"])[openapi.PATH]
        )
        if case.name == "shipped":
            continue
        plan = build_plan(case.taxonomy)
        copies = runtime_copies(case.taxonomy)
        stored = {p: d for p, d in plan.items() if p not in copies}
        if case.expected.exists():
            shutil.rmtree(case.expected)
        for path, data in stored.items():
            target = case.expected / path
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)
        print(
            f"{case.expected.relative_to(case.taxonomy.parent.parent.parent.parent)}:"
            f" {len(stored)} files (and {len(plan) - len(stored)} runtime copies)"
        )
    here = Path.cwd()
    for project in template_cases():
        shutil.rmtree(project / "expected", ignore_errors=True)
        os.chdir(project)
        try:
            if taxogen(["generate", "-q"]) != 0:
                return 1
        finally:
            os.chdir(here)
        for path in runtime_copies(project / "taxonomy.yaml"):
            (project / "expected" / path).unlink(missing_ok=True)
        _prune(project / "expected")
        print(f"{project.relative_to(REPO)}/expected")
    readme = REPO / "README.md"
    readme.write_text(readme_targets.rewrite(readme.read_text("utf-8")), "utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
