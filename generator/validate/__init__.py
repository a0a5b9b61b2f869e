"""Validate: turn the node tree of a taxonomy file into the frozen model.

Every check is made here, against the source positions the loader kept, and
every problem is collected before anything is raised, so a user fixing a file
sees all of its mistakes at once.  Scalars are interpreted by the key they sit
under, strictly: a boolean is exactly ``true`` or ``false`` (never YAML 1.1's
``yes``/``on``/``"no"``), a key is always text, and an unknown key gets a
did-you-mean from the keys that are allowed there.  Checks that need the
per-language identifiers (collisions, reserved words) live in ``naming``; when
a taxonomy has other problems, they are run here over its valid parts, so the
name clashes are reported in the same run.  Parts of the file the loader refused
(an alias, a tagged value) were reported there and are skipped here in silence.

One module per part of the format: :mod:`.top` (the top-level keys and
settings), :mod:`.domains`, :mod:`.hierarchy` (a domain's ``parent`` and
``match``, and their checks across domains), :mod:`.codes` (live, deprecated and
removed codes), :mod:`.wire`, :mod:`.status`, :mod:`.fields`, :mod:`.events`,
:mod:`.docs`; beneath them :mod:`.reader` (typed, reporting
accessors over nodes), :mod:`.text` (which characters text may hold) and
:mod:`.hints` (did-you-mean).  The rules of names and versions themselves live
in :mod:`taxogen.model`; ``CASE_PATTERNS``, ``CASE_RULES`` and
``MAX_NAME_LENGTH`` are re-exported here for older importers only.
"""

from __future__ import annotations

from collections.abc import Iterable

from taxogen.diagnostics import Diagnostic, TaxonomyError
from taxogen.model import CASE_PATTERNS, CASE_RULES, MAX_NAME_LENGTH, Taxonomy
from taxogen.nodes import Node
from taxogen.validate.reader import Reader, TooMany
from taxogen.validate.top import FORMAT, read_taxonomy

__all__ = ["CASE_PATTERNS", "CASE_RULES", "FORMAT", "MAX_NAME_LENGTH", "validate"]


def validate(
    root: Node, path: str, source: str, earlier: Iterable[Diagnostic] = ()
) -> Taxonomy:
    """Check ``root`` (parsed from ``path``) and build the model, or raise all problems.

    ``source`` is the file name generated files will say they were made from;
    ``earlier`` holds problems the loader found, reported along with these.
    Collecting stops after :data:`~taxogen.diagnostics.MAX_DIAGNOSTICS`.
    """
    r = Reader(path)
    r.diagnostics.extend(earlier)
    try:
        taxonomy = read_taxonomy(r, root, source)
    except TooMany:
        raise TaxonomyError(r.diagnostics, truncated=True) from None
    if taxonomy is None or r.diagnostics:
        raise TaxonomyError(r.diagnostics)
    return taxonomy
