"""Pipeline: taxonomy file → plan, the whole generator read top to bottom.

load (YAML → nodes with positions) → validate (all errors at once → model) →
name (identifiers per language, clashes refused) → render (templates, Python
finished black-clean) → plan (plus the manifest).  Nothing here writes; the
plan is what ``generate`` writes and ``check`` compares.
"""

from __future__ import annotations

import re
from pathlib import Path

from generator import contract, emit
from generator.model import Taxonomy
from generator.naming import Names, name_taxonomy
from generator.parallel import forked
from generator.render import header_lines, output_shapes, render
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


def build_plan(path: Path, *, parallel: bool = True) -> emit.Plan:
    """Every output file for the taxonomy at ``path``, manifest included.

    With ``parallel``, the contract is computed in a forked child while this
    process renders (see :mod:`generator.parallel`: the same bytes and the same
    errors, in about a fifth less time for a large taxonomy).
    """
    names = load_names(path)
    with forked(lambda: _contract(names), enabled=parallel) as contract_files:
        plan = render(names)
        plan.update(contract_files.result())
    shapes = (*output_shapes(), *(re.escape(p) for p in contract.PATHS))
    return emit.Plan.of(names.taxonomy.name, plan, shapes)


def _contract(names: Names) -> dict[str, bytes]:
    """The contract's files: the share of ``build_plan`` a child may compute."""
    header = " ".join(header_lines(names.taxonomy.source))
    return {
        contract.SCHEMA_PATH: contract.dump_json(
            contract.payload_schema(names, header)
        ),
        # One vector a line: readable, diffable, and fast to write at 20,000 vectors.
        contract.VECTORS_PATH: contract.dump_json(
            contract.vectors(names, header), inline_below=2
        ),
    }
