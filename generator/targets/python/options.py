"""Python's options: what ``[tool.taxogen.python]`` may say, each value checked.

The package's metadata (:mod:`taxogen.targets.metadata`): ``name`` is the
distribution name (PEP 508; the import package keeps its own name),
``description``, ``license``, ``authors``, ``homepage`` and ``repository``,
written to the project's ``pyproject.toml`` (and ``LICENSE``).  The settings
read this module only when a pyproject.toml gives one of them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from taxogen.targets.metadata import metadata_checks, pep508_problem

__all__ = ["OPTIONS"]

#: Each target's options, by name: what is wrong with a value (None: nothing).
OPTIONS: Mapping[str, Mapping[str, Callable[[object], str | None]]] = {
    "python": metadata_checks(pep508_problem)
}
