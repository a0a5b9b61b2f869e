"""Python's nested details (issue 30 §7): a ``TypedDict`` per typed object.

A details field ``type: object`` with ``fields:``, and the typed object an
array's ``items:`` holds, become ``TypedDict`` types of their members, named
after where the field is declared, then each step of its path in PascalCase,
``Item`` for an array's items:

- a top-level field: the base class's details stem (``ApiError`` →
  ``ApiDetailsCausesItem``);
- a domain's field: its domain class's (``ResourceError`` →
  ``ResourceDetailsResource``, ``ResourceDetailsResourceOwner``);
- a code's own field: the code's details type (``NotFoundDetailsTarget``).

A field shared by codes (the top level's, a domain's) is one declaration, so
it gives one type.  Each is written in the functional form, as the details
types are: a member may be named ``class`` or ``from`` and keeps its wire name.
Two declarations spelling one type name, or a type name that is a class or a
name the package defines, are refused by :func:`check` (issue 30 §7 leaves the
choice to each language; docs/python.md says it).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Collection, Iterator, Sequence

from taxogen.diagnostics import Diagnostic, Position
from taxogen.model import Field, Shape
from taxogen.naming import NamedCode, NamedDomain, details_type, pascal
from taxogen.targets.python import escape
from taxogen.targets.python.reserved import PYTHON_BUILTINS, PYTHON_MODULE_NAMES

__all__ = ["Nested", "check", "field_stem", "nested_types", "object_names"]


@dataclasses.dataclass(frozen=True, slots=True)
class Nested:
    """One nested ``TypedDict``: its name, docstring and members (``members`` are
    ``(key literal, type, comment)``), and where it is declared."""

    name: str
    doc: str
    members: tuple[tuple[str, str, str], ...]
    key: str  # the taxonomy's key path of its field or member
    position: Position
    optional: bool  # whether a member is NotRequired


def field_stem(base: str, domains: dict[str, str], named: NamedCode, f: Field) -> str:
    """The type name a typed object of field ``f`` of ``named`` starts from,
    given the base class and each domain's class by key."""
    if f.top:
        owner = details_type(base)
    elif f.domain is not None:
        owner = details_type(domains[f.domain])
    else:
        owner = named.details_type or details_type(named.class_name)
    return owner + pascal(f.name)


def _where(
    domains: dict[str, str], domain: str, named: NamedCode, f: Field
) -> tuple[str, str]:
    """Whose details hold field ``f`` (for the docstring) and its key path."""
    if f.top:
        return "every error", f"details.{f.name}"
    if f.domain is not None:
        return f"``{domains[f.domain]}``", f"domains.{f.domain}.details.{f.name}"
    return f"a ``{named.class_name}``", (
        f"domains.{domain}.codes.{named.code.code}.details.{f.name}"
    )


def py_type(shape: Shape, stem: str) -> str:
    """The Python type of a value of ``shape``, its typed objects named from
    ``stem`` (as :func:`field_stem` gives a field's)."""
    if shape.type == "string":
        if shape.enum:
            return "Literal[" + ", ".join(map(escape.python_str, shape.enum)) + "]"
        return "str"
    if shape.type == "integer":
        return "int"
    if shape.type == "number":
        return "float"
    if shape.type == "boolean":
        return "bool"
    if shape.type == "array":
        items = shape.items
        return f"list[{py_type(items, stem + 'Item') if items else 'Any'}]"
    return stem if shape.fields is not None else "dict[str, Any]"


def _walk(
    shape: Shape, stem: str, path: str, key: str, position: Position
) -> Iterator[tuple[Shape, str, str, str, Position]]:
    """Each typed object below ``shape`` (itself included), members before the
    object holding them: (its shape, type name, path, key, position)."""
    if shape.type == "array" and shape.items is not None:
        yield from _walk(
            shape.items, stem + "Item", path + "[]", key + ".items", position
        )
    if shape.type == "object" and shape.fields is not None:
        for member in shape.fields:
            yield from _walk(
                member.shape,
                stem + pascal(member.name),
                f"{path}.{member.name}",
                f"{key}.fields.{member.name}",
                member.position,
            )
        yield shape, stem, path, key, position


def _declared(base: str, domains: Sequence[NamedDomain]) -> Iterator[Nested]:
    """Every typed object's ``TypedDict`` (its ``key`` is what makes it one
    declaration: a field shared by codes comes once per code)."""
    classes = {d.domain.key: d.class_name for d in domains}
    for domain in domains:
        for named in domain.codes:
            yield from _of_code(base, classes, domain.domain.key, named)


def _of_code(
    base: str, domains: dict[str, str], domain: str, named: NamedCode
) -> Iterator[Nested]:
    for f in named.code.fields:
        stem = field_stem(base, domains, named, f)
        owner, key = _where(domains, domain, named, f)
        for shape, name, path, at, position in _walk(
            f.shape, stem, f.name, key, f.position
        ):
            members = shape.fields or ()
            doc = f"The nested object ``{path}`` of the details of {owner}."
            optional = any(not m.required for m in members)
            entries = tuple(_entry(m, name + pascal(m.name)) for m in members)
            yield Nested(name, doc, entries, at, position, optional)


def _entry(member: Field, stem: str) -> tuple[str, str, str]:
    kind = py_type(member.shape, stem)
    return (
        escape.python_str(member.name),
        kind if member.required else f"NotRequired[{kind}]",
        escape.python_comment(member.description) if member.description else "",
    )


def nested_types(base: str, domains: Sequence[NamedDomain]) -> tuple[Nested, ...]:
    """Every nested ``TypedDict`` of the package, each once, members first."""
    found: dict[str, Nested] = {}
    for nested in _declared(base, domains):
        found.setdefault(nested.name, nested)
    return tuple(found.values())


def object_names(shape: Shape, stem: str) -> set[str]:
    """The nested type names a value of ``shape`` is written with (its own, or
    its items')."""
    if shape.type == "array" and shape.items is not None:
        return object_names(shape.items, stem + "Item")
    return {stem} if shape.type == "object" and shape.fields is not None else set()


def check(
    domains: Sequence[NamedDomain], refused: Collection[str], path: str
) -> list[Diagnostic]:
    """Two declarations spelling one nested type, or a nested type spelling a
    class, a details type or a name the package defines itself."""
    roots = [d.parent_class for d in domains if d.domain.parent is None]
    if not roots:
        return []
    base = roots[0]
    taken = {base: f"the base class {base!r}"}
    for d in domains:
        taken.setdefault(d.class_name, f"the class {d.class_name!r}")
        for c in d.codes:
            taken.setdefault(c.class_name, f"the class {c.class_name!r}")
            for a in c.aliases:
                taken.setdefault(a.class_name, f"the class {a.class_name!r}")
            if c.details_type:
                what = f"the details type of code {c.code.code!r}"
                taken.setdefault(c.details_type, what)
    for name in PYTHON_MODULE_NAMES | PYTHON_BUILTINS:
        taken.setdefault(name, "a name the generated module uses")
    problems = []
    declared: dict[str, str] = {}
    reported: set[str] = set()
    for nested in _declared(base, domains):
        key = nested.key
        first = declared.setdefault(nested.name, key)
        if first != key:
            clash = f"the nested type of {first}"
        elif nested.name in taken:
            clash = taken[nested.name]
        else:
            continue
        if key in reported:
            continue
        reported.add(key)
        message = (
            f"its nested object makes the Python type {nested.name!r}, which is "
            f"also {clash}; rename the field or member"
        )
        problems.append(
            Diagnostic(path=path, position=nested.position, key=key, message=message)
        )
    return problems
