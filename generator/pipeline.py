"""Pipeline: taxonomy file → plan, the whole generator read top to bottom.

load (YAML → nodes with positions) → validate (all errors at once → model) →
name (identifiers per language, clashes refused) → render (templates, Python
finished black-clean) → plan (plus the manifest).  Nothing here writes; the
plan is what ``generate`` writes and ``check`` compares.
"""

from __future__ import annotations

from pathlib import Path

from generator import emit
from generator.model import Taxonomy
from generator.naming import Names, name_taxonomy
from generator.parallel import forked
from generator.render import TARGETS, output_shapes, render
from generator.targets import contract
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
    rest = [target for target in TARGETS if target is not contract.TARGET]
    with forked(lambda: contract.files(names), enabled=parallel) as contract_files:
        plan = render(names, rest)
        plan.update(contract_files.result())
    return emit.Plan.of(names.taxonomy.name, plan, output_shapes())
