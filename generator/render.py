"""Render: the named taxonomy through every target into a plan of files.

A plan maps each output path (relative to the output folder, with ``/``) to the
exact bytes that belong there.  Nothing here touches the output folder:
``generate`` writes a plan and ``check`` compares one, so both see the same
bytes.  What each target writes, and how, is the target's own business
(:mod:`generator.targets`); this step only runs them all through one Jinja
environment (:mod:`generator.targets.environment`) and says which paths any of
them can ever write (:func:`output_shapes`, which the manifest trusts).
"""

from __future__ import annotations

from collections.abc import Iterable

from generator.naming import Names
from generator.targets import TARGETS, Target
from generator.targets.base import header_lines, render_target
from generator.targets.base import output_shapes as _shapes
from generator.targets.environment import TEMPLATES, environment

__all__ = ["TARGETS", "TEMPLATES", "header_lines", "output_shapes", "render"]


def render(names: Names, targets: Iterable[Target] = TARGETS) -> dict[str, bytes]:
    """Render every file of every target, in a fixed order, as bytes."""
    env = environment()
    plan: dict[str, bytes] = {}
    for target in targets:
        plan.update(render_target(target, names, env))
    return plan


def output_shapes(targets: Iterable[Target] = TARGETS) -> tuple[str, ...]:
    """A regular expression for every path ``targets`` can write, for any taxonomy."""
    return _shapes(targets)
