"""Shared details (issue 30 §7): the top level's ``details:`` and each domain's, as
its codes inherit them.

The top-level ``details:`` declares fields every code carries (S3's
``RequestId``, ``HostId``); a domain's are carried by its codes and by every
domain below it (``parent:``), to any depth.  A code's fields are, in order, the
top level's, its domain's parents' (outermost first), its domain's, then its own.
A lower level may declare an inherited field again with the same shape (to
describe it there, or make it optional), never with another: that is refused
where the lower declaration stands, naming where the field was declared first.

Each domain's ``details:`` is read here once, before the domains themselves, as
a parent may come after its children in the file; a ``parent:`` that names no
domain, or a cycle, is reported by :mod:`.hierarchy` and inherits nothing here.
"""

from __future__ import annotations

from typing import NamedTuple

from taxogen.nodes import MapNode, ScalarNode
from taxogen.validate.fields import NONE_DECLARED, Declared, merge_fields, read_fields
from taxogen.validate.reader import Reader, join

__all__ = ["DomainFields", "shared_fields"]


class DomainFields(NamedTuple):
    """A domain's own declared fields, and every field its codes inherit."""

    own: Declared = NONE_DECLARED
    inherited: Declared = NONE_DECLARED


def shared_fields(
    r: Reader, domains: MapNode, top: Declared
) -> dict[str, DomainFields]:
    """Every domain's fields by key (see the module); ``top``: the top level's."""
    own: dict[str, tuple[Declared, str]] = {}
    parents: dict[str, str] = {}
    for key_node, value in domains.items:
        if not isinstance(value, MapNode) or value.refused:
            continue
        entries = {name.value: (name, node) for name, node in value.items}
        dkey = join("domains", key_node.value)
        if "details" in entries:
            declared = read_fields(
                r, join(dkey, "details"), entries["details"], key_node.value
            )
            own[key_node.value] = (declared, dkey)
        named = entries["parent"][1] if "parent" in entries else None
        if isinstance(named, ScalarNode) and not named.refused:
            parents[key_node.value] = named.value
    known = {key_node.value for key_node, _ in domains.items}
    result: dict[str, DomainFields] = {}
    for key_node, _ in domains.items:
        # Itself, then its ancestors not yet resolved, nearest first (a loop, not
        # recursion: a chain of parents may be thousands deep; a cycle stops
        # where it closes); resolved outermost first.
        chain = [key_node.value]
        while (
            chain[-1] in parents
            and parents[chain[-1]] in known
            and parents[chain[-1]] not in result
            and parents[chain[-1]] not in chain
        ):
            chain.append(parents[chain[-1]])
        for key in reversed(chain):
            if key in result:
                continue
            up = parents.get(key)
            above = result[up].inherited if up is not None and up in result else top
            declared, dkey = own.get(key, (NONE_DECLARED, ""))
            merged = (
                merge_fields(r, join(dkey, "details"), above, declared, "a domain")
                if declared is not NONE_DECLARED
                else above
            )
            result[key] = DomainFields(own=declared, inherited=merged)
    return result
