"""TypeScript's options: what ``[tool.taxogen.typescript]`` may say, each value
checked.

The package's metadata (:mod:`taxogen.targets.metadata`): ``name`` is the npm
package name (``@acme/errors`` in a scope), ``description``, ``license``,
``authors``, ``homepage`` and ``repository``, written to its ``package.json``
(and ``LICENSE``).  The settings read this module only when a pyproject.toml
gives one of them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from taxogen.targets.metadata import metadata_checks, npm_problem

__all__ = ["OPTIONS"]

#: Each target's options, by name: what is wrong with a value (None: nothing).
OPTIONS: Mapping[str, Mapping[str, Callable[[object], str | None]]] = {
    "typescript": metadata_checks(npm_problem)
}
