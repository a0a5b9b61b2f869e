"""Nodes: the tree a taxonomy file is read into, each node remembering where it was.

Scalars stay text, with whether they were written plain (unquoted); what one
*means* (a boolean, a number, a string) is decided later by whoever asks for
it, according to the key it sits under.  A part of the file the loader refused
stays in the tree as a node marked ``refused``, which validation skips.
"""

from __future__ import annotations

import dataclasses
from typing import Union

from taxogen.diagnostics import Position

__all__ = ["MapNode", "Node", "ScalarNode", "SeqNode"]


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class ScalarNode:
    """A scalar exactly as written; ``plain`` is true when it was not quoted.

    ``refused`` marks a part of the file the loader reported and threw away (an
    alias, a tagged value, a merge key...): validation skips it silently.
    """

    value: str
    plain: bool
    position: Position
    refused: bool = False


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class MapNode:
    """A mapping with scalar keys, in source order, without duplicate keys.

    ``incomplete`` is true when some of its keys were refused (a merge key, an
    alias or a list as a key): keys that seem missing may have been meant there.
    ``flow`` is true for a mapping written in braces, ``{a: b, c: d}``, where a
    comma ends an unquoted value.
    """

    items: tuple[tuple[ScalarNode, "Node"], ...]
    position: Position
    refused: bool = False
    incomplete: bool = False
    flow: bool = False


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class SeqNode:
    """A sequence, in source order."""

    items: tuple["Node", ...]
    position: Position
    refused: bool = False


Node = Union[ScalarNode, MapNode, SeqNode]
