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

from generator.targets import contract, docs, python, typescript
from generator.targets.base import Target

__all__ = ["TARGETS", "Target"]

#: Every target, in the order their files are planned.
TARGETS: tuple[Target, ...] = (
    python.TARGET,
    typescript.TARGET,
    docs.TARGET,
    contract.TARGET,
)
