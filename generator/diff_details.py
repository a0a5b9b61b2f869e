"""What changed in a code's typed details and message template, for ``taxogen diff``.

A code's fields are compared by name (its domain's shared fields included, so a
change to one counts for each of its codes): an optional field added is
compatible; a required one added, a field removed, or its type, enum, bounds or
``required`` changed is breaking (a producer or a consumer built against the old
fields can fail), and so is a default changed, added or removed (a constructor
fills it in: a program that omits the field sends another payload); a
description or template changed is docs only (a template is the default
message, text a person reads).  A nested object's members (issue 30 §7) are
compared by the same rules, named by their path (``causes[].reason``); an
object that gains or loses ``fields:`` changes type, and a field holding one
that another level declares now renames its types (``identifier-changed``).
:mod:`taxogen.diff` turns each finding into a change classified by its
``RULES``.
"""

from __future__ import annotations

from collections.abc import Iterator

from taxogen.diagnostics import Position
from taxogen.model import Code, Field, Shape

__all__ = ["details_changes"]


def _shape_change(before: Shape, after: Shape) -> str | None:
    """The rule a shape change fires (the first that applies, items included)."""
    if before.type != after.type:
        return "field-type-changed"
    if (before.items is None) != (after.items is None):
        return "field-type-changed"
    if (before.fields is None) != (after.fields is None):
        return "field-type-changed"  # typed in every language, or free-form
    if before.items is not None and after.items is not None:
        inner = _shape_change(before.items, after.items)
        if inner is not None:
            return inner
    if before.enum != after.enum:
        return "field-enum-changed"
    if (before.minimum, before.maximum) != (after.minimum, after.maximum):
        return "field-bounds-changed"
    return None


_WHAT = {
    "field-type-changed": "type",
    "field-enum-changed": "enum",
    "field-bounds-changed": "bounds",
}


def details_changes(
    before: Code, after: Code
) -> Iterator[tuple[str, str, Position | None]]:
    """(rule, message, position) for each change of ``before``'s details fields
    and template in ``after``, in the new file's field order."""
    yield from _fields_changes(
        after.code, "", before.fields, after.fields, after.position
    )
    was_text = before.message.text if before.message is not None else None
    now_text = after.message.text if after.message is not None else None
    if was_text != now_text:
        position = after.message.position if after.message else after.position
        message = f"code {after.code!r}: message template changed (the default message)"
        yield "template-changed", message, position


def _fields_changes(
    code: str,
    path: str,
    before: tuple[Field, ...],
    after: tuple[Field, ...],
    owner: Position,
) -> Iterator[tuple[str, str, Position | None]]:
    """The changes of one level of fields: a code's details (``path`` empty) or a
    nested object's members (``path`` the object's, ``causes[].``)."""
    old = {f.name: f for f in before}
    new = {f.name: f for f in after}
    for name in old:
        if name not in new:
            message = f"code {code!r}: details field {path + name!r} was removed"
            yield "field-removed", message, owner
    for name, field in new.items():
        was = old.get(name)
        where = f"code {code!r}: details field {path + name!r}"
        if was is None:
            if field.required:
                yield "required-field-added", f"{where} was added, required", (
                    field.position
                )
            else:
                yield "field-added", f"{where} was added", field.position
            continue
        rule = _shape_change(was.shape, field.shape)
        if rule is not None:
            yield rule, f"{where}: its {_WHAT[rule]} changed", field.position
        elif _members(field.shape) and _owner(was) != _owner(field):
            # Each language names a nested object's type from where its field is
            # declared (ApiDetailsCausesItem, ServerDetailsCausesItem).
            message = (
                f"{where} is now declared by {_owner(field)} (was {_owner(was)}): "
                "the types of its nested objects are renamed in every package"
            )
            yield "identifier-changed", message, field.position
        if was.required != field.required:
            now = "required" if field.required else "optional"
            yield "field-required-changed", f"{where} is now {now}", field.position
        if was.description != field.description:
            message = f"{where}: description changed"
            yield "field-description-changed", message, field.position
        if (was.has_default, was.default) != (field.has_default, field.default):
            yield "field-default-changed", f"{where}: default changed", field.position
        if rule is None:  # the same type: its members are compared one by one
            inner = _members(was.shape), _members(field.shape)
            if inner[0] is not None and inner[1] is not None:
                below = path + name + ("[]." if field.shape.items else ".")
                yield from _fields_changes(
                    code, below, inner[0], inner[1], field.position
                )


def _members(shape: Shape) -> tuple[Field, ...] | None:
    """The members of a nested object, or of an array's items that are one."""
    return shape.items.fields if shape.items is not None else shape.fields


def _owner(field: Field) -> str:
    """Who declares a field, for messages: the top level, a domain or the code."""
    if field.top:
        return "the top level"
    return "the code" if field.domain is None else f"domain {field.domain!r}"
