"""Targets: one package per output, each with its view model, templates and runtime.

A target is a folder here (``python/``, ``typescript/``, ``docs/``,
``contract/``) whose ``target.py`` defines ``TARGET``, a
:class:`generator.targets.base.Target`: the typed, frozen view model its
templates see, the templates (under the top-level ``templates/<target>/``,
shipped as package data), the runtime files copied verbatim into every
generated package (``runtime/``, real source, linted, typed and tested), and
its escaping filters.  Adding an output language is adding a folder and listing
its ``TARGET`` in :data:`TARGETS`; nothing else changes but the naming rules
for that language (:mod:`generator.naming`).
"""

from __future__ import annotations

from collections.abc import Iterable

from generator.settings import DEFAULT_TARGETS
from generator.targets import contract, docs, go, openapi, python, typescript
from generator.targets.base import Target

__all__ = ["TARGETS", "Target", "select"]

#: Every target, in the order their files are planned.  Their names are also
#: ``settings.TARGET_NAMES``, which the command line knows without importing any
#: target; those of ``settings.DEFAULT_TARGETS`` are generated unless a
#: selection says otherwise.
TARGETS: tuple[Target, ...] = (
    python.TARGET,
    typescript.TARGET,
    docs.TARGET,
    contract.SCHEMA,
    contract.CONFORMANCE,
    openapi.TARGET,
    go.TARGET,
)


def select(names: Iterable[str] | None) -> tuple[Target, ...]:
    """The targets named (None: the default ones), in planning order.

    A name no target has is a KeyError; the command line and the settings check
    names first, so this is a bug of the caller's.
    """
    wanted = set(DEFAULT_TARGETS if names is None else names)
    unknown = wanted - {target.name for target in TARGETS}
    if unknown:
        raise KeyError(f"no such target: {', '.join(sorted(unknown))}")
    return tuple(target for target in TARGETS if target.name in wanted)
