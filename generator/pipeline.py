"""Pipeline: taxonomy file → plan, the whole generator read top to bottom.

load (YAML → nodes with positions) → validate (all errors at once → model) →
name (identifiers per language, clashes refused) → render (templates, Python
finished black-clean) → plan (plus the manifest).  Nothing here writes; the
plan is what ``generate`` writes and ``check`` compares.
"""

from __future__ import annotations

from pathlib import Path

from generator import contract, emit
from generator.model import Taxonomy
from generator.naming import Names, name_taxonomy
from generator.render import header_lines, render
from generator.source import load_file
from generator.validate import validate

__all__ = ["build_plan", "load_names", "load_taxonomy"]


def load_taxonomy(path: Path) -> Taxonomy:
    """Load and validate the taxonomy at ``path``; raise TaxonomyError with every problem."""
    display = str(path)
    root, problems = load_file(path, display)
    return validate(root, display, path.name, problems)


def load_names(path: Path) -> Names:
    """The taxonomy at ``path`` with its identifiers."""
    return name_taxonomy(load_taxonomy(path), str(path))


def build_plan(path: Path) -> dict[str, bytes]:
    """Every output file for the taxonomy at ``path``, manifest included."""
    names = load_names(path)
    plan = render(names)
    header = " ".join(header_lines(names.taxonomy.source))
    plan[contract.SCHEMA_PATH] = contract.dump_json(contract.payload_schema(names, header))
    # One vector a line: readable, diffable, and fast to write at 20,000 vectors.
    plan[contract.VECTORS_PATH] = contract.dump_json(contract.vectors(names, header), inline_below=2)
    return emit.with_manifest(plan)
