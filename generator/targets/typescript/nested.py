"""Nested details (issue 30 §7) in TypeScript: a typed nested object's interface.

A details field ``type: object`` with ``fields:`` (or an array whose ``items:``
are such an object) is typed by an exported interface: its members
``readonly``, optional ones ``?:``, typed as fields are.  The interface is named
from its owner's details type and the path to it, each member in PascalCase,
``Item`` for an array's items: a code's own ``resource`` is
``NotFoundDetailsResource``, its ``owner`` member
``NotFoundDetailsResourceOwner``; a field declared by a domain takes the
domain's class (``ResourceError`` → ``ResourceDetailsResource``), one declared
at the top level the base class (``ApiError`` → ``ApiDetailsCausesItem``), so
a shared field is one interface whatever code holds it.

A member keeps its wire name as the property's (an interface may name a
property ``class`` or ``delete``: only bindings may not); two members spelling
one interface name (``owner_id`` and ``ownerId``, both objects), or an
interface name any other name of the module takes, are refused by :func:`check`,
which validation runs on every taxonomy.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator, Mapping, Sequence

from taxogen.diagnostics import Diagnostic, Position
from taxogen.model import Field, Shape
from taxogen.naming import NamedCode, NamedDomain, details_type

__all__ = [
    "Declared",
    "base_of",
    "check",
    "declared",
    "member_pascal",
    "owner_prefix",
]


def member_pascal(name: str) -> str:
    """A member's name in PascalCase: ``kind_hint`` → ``KindHint``."""
    return "".join(word[:1].upper() + word[1:] for word in name.split("_") if word)


def owner_prefix(
    field: Field, code: NamedCode, base: str, domain_classes: dict[str, str]
) -> str:
    """The details type whose name starts the names of ``field``'s interfaces:
    the base's (a top-level field), its domain's, or the code's own."""
    if field.top:
        return details_type(base)
    if field.domain is not None:
        return details_type(domain_classes[field.domain])
    return code.details_type or details_type(code.class_name)


@dataclasses.dataclass(frozen=True, slots=True)
class Declared:
    """One nested interface: its name, what it types, and its members.

    ``key`` is the key path of the object in the taxonomy (for messages),
    ``position`` where it is declared: two uses of one declaration (a shared
    field seen from each of its codes) are one interface.
    """

    name: str
    key: str
    position: Position
    #: Where in the details it stands, as the docs tables write it:
    #: ``causes[]``, ``resource.owner``.
    path: str
    members: tuple[Field, ...]


def _walk(
    name: str, shape: Shape, key: str, position: Position, path: str
) -> Iterator[Declared]:
    if shape.type == "array" and shape.items is not None:
        items = f"{key}.items"
        yield from _walk(f"{name}Item", shape.items, items, position, f"{path}[]")
        return
    if shape.type != "object" or shape.fields is None:
        return
    yield Declared(name, key, position, path, shape.fields)
    for member in shape.fields:
        yield from _walk(
            name + member_pascal(member.name),
            member.shape,
            f"{key}.fields.{member.name}",
            member.position,
            f"{path}.{member.name}",
        )


def _field_key(field: Field, code: NamedCode) -> str:
    if field.top:
        return f"details.{field.name}"
    if field.domain is not None:
        return f"domains.{field.domain}.details.{field.name}"
    return f"domains.{code.code.domain}.codes.{code.code.code}.details.{field.name}"


def base_of(domains: Sequence[NamedDomain]) -> str | None:
    """The base class, which a domain without a parent extends (None: no domain)."""
    return next((d.parent_class for d in domains if d.domain.parent is None), None)


def declared(domains: Sequence[NamedDomain]) -> list[Declared]:
    """Every nested interface the module declares, in the order the codes and
    their fields come, each declaration once (a clash is :func:`check`'s)."""
    base = base_of(domains)
    if base is None:
        return []
    classes = {d.domain.key: d.class_name for d in domains}
    found: list[Declared] = []
    seen: set[tuple[str, Position]] = set()
    for domain in domains:
        for code in domain.codes:
            for field in code.code.fields:
                if field.shape.type not in ("object", "array"):
                    continue  # most fields: _walk finds no object in it
                prefix = owner_prefix(field, code, base, classes)
                for item in _walk(
                    prefix + member_pascal(field.name),
                    field.shape,
                    _field_key(field, code),
                    field.position,
                    field.name,
                ):
                    if (item.name, item.position) not in seen:
                        seen.add((item.name, item.position))
                        found.append(item)
    return found


def check(
    domains: Sequence[NamedDomain],
    taken: Mapping[str, str],
    path: str,
) -> list[Diagnostic]:
    """Each nested interface whose name another interface, or a name in
    ``taken`` (the module's classes, details types and own names, each with
    what it is), has."""
    problems = []
    names: dict[str, Declared] = {}
    for item in declared(domains):
        first = names.setdefault(item.name, item)
        if first is not item:
            clash = f"the interface of {first.key}"
        elif item.name in taken:
            clash = taken[item.name]
        else:
            continue
        message = (
            f"its TypeScript interface would be named {item.name!r}, as is "
            f"{clash}; rename a member or the field"
        )
        problems.append(
            Diagnostic(path=path, position=item.position, key=item.key, message=message)
        )
    return problems
