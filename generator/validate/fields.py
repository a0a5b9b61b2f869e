"""Fields: the typed ``details`` fields of a code or of every code of a domain.

A ``details`` mapping names each field and gives its shape (``{type: integer,
minimum: 0}``, or just ``string``), whether it is ``required`` (the default) and
an optional ``description`` and ``default`` (optional fields only), or a
``const`` (issue 30 §7: a scalar's value fixed for the code, which takes
neither ``default`` nor ``required``: modelled as an optional field defaulting
to it, ``has_const`` set).  A domain's fields are shared by all its codes (and
by its child domains', :mod:`.shared`), which may add their own but never
redefine one with another shape.  It runs past 300 lines because a shape's keys
(``enum``, ``items``, bounds, ``default``) are each checked against its type
here, where every message can name the key and the line.
"""

from __future__ import annotations

import dataclasses
import json
from typing import NamedTuple

from taxogen.model import (
    FIELD_NAME,
    MAX_WIRE_INTEGER,
    FIELD_TYPES,
    SCALAR_TYPES,
    Field,
    JSONValue,
    Shape,
    json_data,
)
from taxogen.naming import field_problem
from taxogen.nodes import MapNode, Node, ScalarNode, SeqNode
from taxogen.validate.reader import Reader, get, join
from taxogen.validate.text import SHOWN, describe, show
from taxogen.validate.values import ROUNDED, json_value, out_of_range

__all__ = ["NONE_DECLARED", "Declared", "describe_shape", "merge_fields", "read_fields"]

_FIELD_KEYS = (
    "type",
    "description",
    "required",
    "default",
    "enum",
    "items",
    "minimum",
    "maximum",
    "const",
    "fields",
)
#: A nested object's member (issue 30 §7) takes the keys of a field but a value
#: of its own: a default or a constant belongs to a code's details.
_MEMBER_KEYS = tuple(k for k in _FIELD_KEYS if k not in ("default", "const"))
_ITEM_KEYS = ("type", "enum", "minimum", "maximum", "fields")
#: What an array's items may be: a scalar, or an object (typed by ``fields:``).
_ITEM_TYPES = (*SCALAR_TYPES, "object")


class Declared(NamedTuple):
    """The fields a ``details`` mapping declares: the valid ones, and what is known
    of the others (so a template naming a broken field is not reported twice).
    """

    fields: tuple[Field, ...]
    written: frozenset[str] = frozenset()  # every field name written, valid or not
    complete: bool = True  # every field written is valid
    opaque: bool = False  # the mapping itself could not be read


#: What a code or domain without ``details`` declares.
NONE_DECLARED = Declared(fields=())


def read_fields(
    r: Reader,
    key: str,
    item: tuple[ScalarNode, Node],
    domain: str | None,
    *,
    top: bool = False,
) -> Declared:
    """The fields of a ``details`` mapping (``domain``: a domain declares them;
    ``top``: the top level does, for every code)."""
    key_node, node = item
    if node.refused:
        return Declared(fields=(), complete=False, opaque=True)
    if not isinstance(node, MapNode):
        r.error(
            node.position,
            key,
            f"expected a mapping of field names to types, got {describe(node)}",
        )
        return Declared(fields=(), complete=False, opaque=True)
    fields: list[Field] = []
    for name_node, value in node.items:
        field = _read_field(r, join(key, name_node.value), name_node, value, domain)
        if field is not None:
            fields.append(dataclasses.replace(field, top=True) if top else field)
    return Declared(
        fields=tuple(fields),
        written=frozenset(name_node.value for name_node, _ in node.items),
        complete=len(fields) == len(node.items),
    )


def _read_field(
    r: Reader,
    key: str,
    name_node: ScalarNode,
    node: Node,
    domain: str | None,
    *,
    member: bool = False,
) -> Field | None:
    """One field; with ``member``, a nested object's member, which is no argument
    of a constructor (so any name its language can spell) and has no value of
    its own (no ``default``, no ``const``)."""
    name = name_node.value
    ok = r.name_key(
        name_node, key, FIELD_NAME, "a field name (letters, digits and underscores)"
    )
    problem = field_problem(name) if ok and not member else None
    if problem is not None:
        r.error(name_node.position, key, f"field name {show(name)} {problem}")
        ok = False
    if isinstance(node, ScalarNode) and not node.refused:
        # The short form: `task_id: string`.
        kind = r.one_of(node, join(key, "type"), FIELD_TYPES)
        if kind is None or not ok:
            return None
        return Field(
            name=name,
            shape=Shape(type=kind),
            domain=domain,
            position=name_node.position,
        )
    if member and isinstance(node, MapNode):
        for name_key, _value in node.items:
            if name_key.value in ("default", "const"):
                r.error(
                    name_key.position,
                    join(key, name_key.value),
                    f"a member of a nested object takes no {name_key.value!r}: "
                    "only a field of the details does",
                )
                ok = False
    keys = _MEMBER_KEYS if member else _FIELD_KEYS
    found = r.mapping(
        node,
        key,
        keys if not member else keys + ("default", "const"),
        ("type",),
        owner=name_node.position,
    )
    if found is None:
        return None
    if member:  # said above
        found = {k: v for k, v in found.items() if k not in ("default", "const")}
    shape = _read_shape(r, key, found, FIELD_TYPES)
    required = get(found, "required", lambda n: r.boolean(n, join(key, "required")))
    description = (
        get(found, "description", lambda n: r.text(n, join(key, "description"))) or ""
    )
    default: JSONValue = None
    if "default" in found and "const" not in found:
        dnode = found["default"][1]
        reported = len(r.diagnostics)
        default = json_value(r, dnode, join(key, "default"))
        if len(r.diagnostics) > reported:  # a value JSON cannot hold: said once
            ok = False
        elif required is False:
            if shape is not None and _past_safe(shape, default):
                shown = _shown(default)
                out_of_range(
                    r, dnode, join(key, "default"), shown, "an integer", ROUNDED
                )
                ok = False
            elif shape is not None and not shape.accepts(default):
                r.error(
                    dnode.position,
                    join(key, "default"),
                    f"the default {_shown(default)} is not {describe_shape(shape)}",
                )
                ok = False
        elif "required" not in found or required is True:
            r.error(
                found["default"][0].position,
                join(key, "default"),
                "a required field takes no default; add `required: false`",
            )
            ok = False
    if "const" in found:
        const = _read_const(r, key, found, shape)
        if const is _BROKEN:
            ok = False
        elif shape is not None and ok:
            return Field(
                name=name,
                shape=shape,
                required=False,
                description=description,
                default=const,  # type: ignore[arg-type]  # not _BROKEN: checked
                has_default=True,
                has_const=True,
                domain=domain,
                position=name_node.position,
            )
    if shape is None or ("required" in found and required is None) or not ok:
        return None
    return Field(
        name=name,
        shape=shape,
        required=required is not False,
        description=description,
        default=default,
        has_default="default" in found,
        domain=domain,
        position=name_node.position,
    )


#: What :func:`_read_const` gives for a constant it refused (None is no constant
#: any shape admits, but is a JSON value the reader may return).
_BROKEN = object()


def _read_const(
    r: Reader,
    key: str,
    found: dict[str, tuple[ScalarNode, Node]],
    shape: Shape | None,
) -> object:
    """A field's ``const:`` (issue 30 §7): a string, number or boolean of the
    field's shape, on a field that gives no ``default`` nor ``required`` (it is
    optional on the wire, and filled in); else ``_BROKEN``, reported."""
    const_key, node = found["const"]
    where = join(key, "const")
    for other, why in (
        ("default", "its value is its `const:`"),
        ("required", "it may be absent on the wire, and is always written"),
    ):
        if other in found:
            r.error(
                found[other][0].position,
                join(key, other),
                f"a constant field takes no {other!r}: {why}",
            )
            return _BROKEN
    if shape is not None and shape.type not in SCALAR_TYPES:
        r.error(
            const_key.position,
            where,
            f"a field of type {shape.type} takes no 'const' (only "
            f"{', '.join(SCALAR_TYPES[:-1])} or {SCALAR_TYPES[-1]} does)",
        )
        return _BROKEN
    reported = len(r.diagnostics)
    value = json_value(r, node, where)
    if len(r.diagnostics) > reported:
        return _BROKEN
    if shape is not None and _past_safe(shape, value):
        out_of_range(r, node, where, _shown(value), "an integer", ROUNDED)
        return _BROKEN
    if value is None or (shape is not None and not shape.accepts(value)):
        wanted = "a value" if shape is None else describe_shape(shape)
        r.error(node.position, where, f"the constant {_shown(value)} is not {wanted}")
        return _BROKEN
    return value


def _read_shape(
    r: Reader,
    key: str,
    found: dict[str, tuple[ScalarNode, Node]],
    types: tuple[str, ...],
) -> Shape | None:
    kind = get(found, "type", lambda n: r.one_of(n, join(key, "type"), types))
    if kind is None:
        return None
    ok = True
    for option, allowed in (
        ("enum", ("string",)),
        ("items", ("array",)),
        ("fields", ("object",)),
        ("minimum", ("integer", "number")),
        ("maximum", ("integer", "number")),
    ):
        if option in found and kind not in allowed:
            r.error(
                found[option][0].position,
                join(key, option),
                f"a field of type {kind} takes no {option!r} (only "
                f"{' or '.join(allowed)} does)",
            )
            ok = False
    enum: tuple[str, ...] = ()
    if "enum" in found and kind == "string":
        read = _read_enum(r, join(key, "enum"), found["enum"][1])
        ok = ok and read is not None
        enum = read or ()
    bounds: dict[str, int | float] = {}
    for bound in ("minimum", "maximum"):
        if bound in found and kind in ("integer", "number"):
            value = _read_number(r, join(key, bound), found[bound][1], kind)
            if value is None:
                ok = False
            else:
                bounds[bound] = value
    if len(bounds) == 2 and bounds["minimum"] > bounds["maximum"]:
        r.error(
            found["maximum"][1].position,
            join(key, "maximum"),
            f"maximum {bounds['maximum']} is below minimum {bounds['minimum']}",
        )
        ok = False
    items: Shape | None = None
    if kind == "array":
        if "items" not in found:
            r.error(
                found["type"][0].position,
                join(key, "items"),
                "an array needs `items:`, the type of its items "
                f"({', '.join(_ITEM_TYPES)})",
            )
            return None
        items = _read_items(r, join(key, "items"), found["items"][1])
        ok = ok and items is not None
    members: tuple[Field, ...] | None = None
    if kind == "object" and "fields" in found:
        members = _read_members(r, join(key, "fields"), found["fields"][1])
        ok = ok and members is not None
    if not ok:
        return None
    return Shape(
        type=kind,
        enum=enum,
        minimum=bounds.get("minimum"),
        maximum=bounds.get("maximum"),
        items=items,
        fields=members,
    )


def _read_items(r: Reader, key: str, node: Node) -> Shape | None:
    if isinstance(node, ScalarNode) and not node.refused:
        kind = r.one_of(node, key, _ITEM_TYPES)
        return None if kind is None else Shape(type=kind)
    found = r.mapping(node, key, _ITEM_KEYS, ("type",))
    if found is None:
        return None
    return _read_shape(r, key, found, _ITEM_TYPES)


def _read_members(r: Reader, key: str, node: Node) -> tuple[Field, ...] | None:
    """A nested object's ``fields:`` (issue 30 §7): at least one member, each read
    as a field is (so its shape may nest again)."""
    if node.refused:
        return None
    if not isinstance(node, MapNode) or not node.items:
        got = "an empty mapping" if isinstance(node, MapNode) else describe(node)
        r.error(
            node.position,
            key,
            f"expected a mapping of member names to types, got {got}",
        )
        return None
    members = [
        _read_field(r, join(key, n.value), n, value, None, member=True)
        for n, value in node.items
    ]
    if any(m is None for m in members):
        return None
    return tuple(m for m in members if m is not None)


def _read_enum(r: Reader, key: str, node: Node) -> tuple[str, ...] | None:
    if node.refused:
        return None
    if not isinstance(node, SeqNode):
        r.error(node.position, key, f"expected a list of strings, got {describe(node)}")
        return None
    if not node.items:
        r.error(node.position, key, "an enum lists at least one string")
        return None
    values: list[str] = []
    ok = True
    for index, item in enumerate(node.items):
        value = r.text(item, f"{key}[{index}]")
        if value is None:
            ok = False
        elif value in values:
            r.error(item.position, f"{key}[{index}]", f"{show(value)} is listed twice")
            ok = False
        else:
            values.append(value)
    return tuple(values) if ok else None


def _read_number(r: Reader, key: str, node: Node, kind: str) -> int | float | None:
    reported = len(r.diagnostics)
    value = json_value(r, node, key)
    if len(r.diagnostics) > reported:  # not a finite number: said once
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        r.error(node.position, key, f"expected a number, got {describe(node)}")
        return None
    if kind == "integer" and isinstance(value, float) and not value.is_integer():
        r.error(node.position, key, f"expected an integer, got {value}")
        return None
    if kind == "integer" and abs(value) > MAX_WIRE_INTEGER:  # 1e20: a float
        out_of_range(r, node, key, repr(value), "an integer", ROUNDED)
        return None
    return value


def _past_safe(shape: Shape, value: JSONValue) -> bool:
    """Whether ``value``, of an integer ``shape`` (or an array of them), holds a
    whole float past JavaScript's safe integers (``1e20``; an integer literal
    past them was refused as it was read)."""
    if shape.type == "array" and shape.items is not None and isinstance(value, tuple):
        return any(_past_safe(shape.items, item) for item in value)
    return (
        shape.type == "integer"
        and isinstance(value, float)
        and abs(value) > MAX_WIRE_INTEGER
    )


def merge_fields(
    r: Reader, key: str, shared: Declared, own: Declared, what: str = "a code"
) -> Declared:
    """A code's (or, ``what`` saying so, a domain's) fields: those it inherits,
    then its own; a changed shape is an error.

    A code may declare an inherited field again with the same shape (to describe
    it for that code, or make it optional); its declaration then wins.
    """
    merged = {field.name: field for field in shared.fields}
    ok = True
    for field in own.fields:
        inherited = merged.get(field.name)
        if inherited is not None and inherited.shape != field.shape:
            r.error(
                field.position,
                join(key, field.name),
                f"field {show(field.name)} is declared by {_owner(inherited)} as "
                f"{describe_shape(inherited.shape)} (line "
                f"{inherited.position.line}); {what} may add fields but not give one "
                "another type",
            )
            ok = False
            continue  # the inherited one stands, for the levels below
        merged[field.name] = field
    return Declared(
        fields=tuple(merged.values()),
        written=shared.written | own.written,
        complete=ok and shared.complete and own.complete,
        opaque=shared.opaque or own.opaque,
    )


def _owner(field: Field) -> str:
    """Who declares an inherited field, for messages."""
    return "the top level" if field.top else f"domain {field.domain!r}"


def describe_shape(shape: Shape, *, many: bool = False) -> str:
    """A shape for people: ``an integer from 0``, ``one of 'a', 'b'``, ``an array
    of strings``; with ``many``, of several values (``integers up to 9``)."""
    if shape.enum:
        return ("any" if many else "one") + " of " + ", ".join(map(show, shape.enum))
    if many:
        text = f"{shape.type}s"
    else:
        text = f"{'an' if shape.type[0] in 'aeiou' else 'a'} {shape.type}"
    if shape.type == "array" and shape.items is not None:
        text += f" of {describe_shape(shape.items, many=True)}"
    if shape.fields is not None:
        text += " with " + ", ".join(show(field.name) for field in shape.fields)
    if shape.minimum is not None:
        text += f" from {shape.minimum}"
    if shape.maximum is not None:
        text += f" up to {shape.maximum}"
    return text


def _shown(value: JSONValue) -> str:
    """A default as it would be written in JSON, cut like any shown text."""
    if isinstance(value, str):
        return show(value)
    text = json.dumps(json_data(value), ensure_ascii=False)
    return text if len(text) <= SHOWN else text[: SHOWN - 3] + "..."
