"""Pipeline: taxonomy file → plan, the whole generator read top to bottom.

load (YAML → nodes with positions) → validate (all errors at once → model) →
name (identifiers per language, clashes refused) → render (templates, Python
finished black-clean) → plan (plus the manifest).  Nothing here writes; the
plan is what ``generate`` writes and ``check`` compares.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from generator import emit
from generator.model import Taxonomy
from generator.naming import Names, name_taxonomy
from generator.render import TARGETS, output_shapes, render
from generator.targets import select
from generator.source import load_file
from generator.validate import validate

__all__ = ["build_plan", "load_names", "load_taxonomy"]


def load_taxonomy(path: Path) -> Taxonomy:
    """The taxonomy at ``path``, validated; TaxonomyError with every problem if not."""
    display = str(path)
    root, problems = load_file(path, display)
    return validate(root, display, path.name, problems)


def load_names(path: Path) -> Names:
    """The taxonomy at ``path`` with its identifiers."""
    return name_taxonomy(load_taxonomy(path), str(path))


def build_plan(path: Path, targets: Iterable[str] | None = None) -> emit.Plan:
    """Every output file of the ``targets`` named (None: every target) for the
    taxonomy at ``path``, manifest included.

    The manifest trusts the paths of every target, selected or not, so that the
    files of a target no longer selected are removed as any obsolete file is.
    """
    names = load_names(path)
    return emit.Plan.of(
        names.taxonomy.name, render(names, select(targets)), output_shapes(TARGETS)
    )
