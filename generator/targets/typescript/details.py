"""The typed details of the TypeScript target: what ``index.ts`` says of each field.

A code with declared fields gets a details type (``TaskTimeoutDetails``), its
class a typed constructor, and the data the runtime checks and renders with: its
fields (``FieldSpec`` literals) and its message template.  Here each of those is
computed as ready-to-print TypeScript text, so the template only loops over it;
the checks themselves are real code in ``runtime/runtime.ts``.  Strings reach the
module through :func:`escape.ts_str`.
"""

from __future__ import annotations

import dataclasses

from taxogen.model import JSONObject, JSONValue, Field, Shape, Template, constant_text
from taxogen.naming import NamedCode, Names
from taxogen.targets.typescript import escape, nested

__all__ = [
    "RECORD",
    "Tree",
    "TsCtor",
    "TsDetails",
    "TsField",
    "TsKnown",
    "TsNested",
    "TsTyping",
    "details_fields",
    "field_specs",
    "interfaces",
    "template_pieces",
    "ts_fields",
    "ts_json",
    "tree",
    "ts_type",
]

#: The type of details nobody declared: any JSON object.
RECORD = "Readonly<Record<string, unknown>>"


@dataclasses.dataclass(frozen=True, slots=True)
class TsField:
    """One property of a details type: ``readonly name?: type``, with its doc."""

    name: str
    type: str
    optional: bool
    doc: str  # its description, escaped for JSDoc ("" for none)


def ts_type(shape: Shape, name: str = "") -> str:
    """The TypeScript type of a value of ``shape``; ``name`` is the interface of
    a typed nested object (issue 30 §7), its array's items' being ``<name>Item``
    (:mod:`nested`)."""
    if shape.type == "string":
        if shape.enum:
            return " | ".join(escape.ts_str(item) for item in shape.enum)
        return "string"
    if shape.type in ("integer", "number"):
        return "number"
    if shape.type == "boolean":
        return "boolean"
    if shape.type == "array":
        if shape.items is None:
            return "readonly unknown[]"
        item = ts_type(shape.items, f"{name}Item" if name else "")
        return f"readonly ({item})[]" if " | " in item else f"readonly {item}[]"
    if shape.fields is not None and name:
        return name
    return RECORD


def ts_fields(fields: tuple[Field, ...], prefix: str = "") -> tuple[TsField, ...]:
    """The properties of a details type (or a nested interface) of ``fields``, in
    declaration order; ``prefix`` starts the name of a nested interface, to
    which each field's name is added (``nested.member_pascal``)."""
    return tuple(
        TsField(
            name=f.name,
            type=ts_type(f.shape, prefix + nested.member_pascal(f.name)),
            # Optional with a default: always there once constructed, but a decoded
            # payload keeps what it received, which may lack it.
            optional=not f.required,
            doc=escape.ts_doc(f.description) if f.description else "",
        )
        for f in fields
    )


def ts_json(value: JSONValue) -> str:
    """``value`` as a TypeScript literal."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, str):
        return escape.ts_str(value)
    if isinstance(value, tuple):
        return "[" + ", ".join(ts_json(item) for item in value) + "]"
    items = value.items if isinstance(value, JSONObject) else ()
    pairs = (f"{escape.ts_str(k)}: {ts_json(v)}" for k, v in items)
    return "{ " + ", ".join(pairs) + " }"


def _shape_entries(shape: Shape) -> list[str]:
    entries = [f"type: {escape.ts_str(shape.type)}"]
    if shape.enum:
        entries.append("enum: " + ts_json(shape.enum))
    if shape.minimum is not None:
        entries.append(f"minimum: {ts_json(shape.minimum)}")
    if shape.maximum is not None:
        entries.append(f"maximum: {ts_json(shape.maximum)}")
    if shape.items is not None:
        entries.append("items: { " + ", ".join(_shape_entries(shape.items)) + " }")
    if shape.fields is not None:
        entries.append("fields: [" + ", ".join(field_specs(shape.fields)) + "]")
    return entries


def field_specs(fields: tuple[Field, ...]) -> tuple[str, ...]:
    """Each field as the runtime's ``FieldSpec`` literal, in declaration order (a
    nested object's members in its ``fields``, read the same way)."""
    specs = []
    for f in fields:
        entries = [f"name: {escape.ts_str(f.name)}", *_shape_entries(f.shape)]
        entries.append(f"required: {'true' if f.required else 'false'}")
        if f.has_default:
            entries.append(f"default: {ts_json(f.default)}")
        if f.has_const:
            entries.append(f"const: {escape.ts_str(constant_text(f.default))}")
        specs.append("{ " + ", ".join(entries) + " }")
    return tuple(specs)


def template_pieces(template: Template | None) -> str:
    """The template as the runtime's array (literals and field names alternating)."""
    if template is None:
        return "undefined"
    parts: list[str] = []
    for piece in template.pieces:
        parts.append(escape.ts_str(piece.text))
        if piece.field is not None:
            parts.append(escape.ts_str(piece.field))
    return "[" + ", ".join(parts) + "]"


@dataclasses.dataclass(frozen=True, slots=True)
class TsNested:
    """A typed nested object's interface (issue 30 §7, :mod:`nested`)."""

    name: str
    path: str  # where in the details, for its doc (escaped): ``causes[]``
    fields: tuple[TsField, ...]


def interfaces(names: Names) -> tuple[TsNested, ...]:
    """Every nested interface of the module, each shared declaration once."""
    return tuple(
        TsNested(
            item.name, escape.ts_doc(item.path), ts_fields(item.members, item.name)
        )
        for item in nested.declared(names.domains)
    )


def details_fields(
    names: Names, named: NamedCode, classes: dict[str, str]
) -> tuple[TsField, ...]:
    """The properties of ``named``'s details type, a nested object's typed by the
    interface its declaration names (``classes``: each domain's, by its key)."""
    return tuple(
        field
        for f in named.code.fields
        for field in ts_fields((f,), nested.owner_prefix(f, named, names.base, classes))
    )


@dataclasses.dataclass(frozen=True, slots=True)
class TsDetails:
    """The details type of a code with declared fields, and the class it types."""

    name: str
    class_name: str
    fields: tuple[TsField, ...]


@dataclasses.dataclass(frozen=True, slots=True)
class TsCtor:
    """The constructor of a class whose details differ from its parent's.

    ``details`` is its details type (None: untyped, ``(message?, options?)``);
    ``required`` whether any field is, so the options must be given.
    """

    details: str | None
    required: bool


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class TsTyping:
    """How a class types its instances and what runtime data it overrides."""

    #: Its instances' ``code``: its own code's literal or, when it has subclasses,
    #: the union of theirs too.
    code_type: str
    #: Its instances' ``details`` when any class of its subtree declares fields.
    details_type: str | None
    ctor: TsCtor | None
    #: The runtime's ``fields`` and ``template`` statics, when they differ from
    #: the parent's (``FieldSpec`` literals; the template array or "undefined").
    fields: tuple[str, ...] | None
    template: str | None


@dataclasses.dataclass(frozen=True, slots=True)
class TsKnown:
    """A member of ``KnownError``: the class, its code literal, its details type."""

    class_name: str
    code: str  # a TypeScript literal
    details: str


#: What a class that is no code's declares (the root's, a domain's own class's).
_UNDECLARED: tuple[tuple[Field, ...], str] = ((), "undefined")


@dataclasses.dataclass(frozen=True, slots=True)
class Tree:
    """The class hierarchy, for what a class's subtree shares (code, details),
    and what each code's class declares, made once (each child reads it too)."""

    children: dict[str, list[str]]
    codes: dict[str, NamedCode]  # by class name
    #: Each code's class: its code as a TypeScript literal.
    literals: dict[str, str]
    #: Each code's class: its fields and its template (as TypeScript).
    owns: dict[str, tuple[tuple[Field, ...], str]]

    def subtree(self, name: str) -> list[str]:
        found, todo = [], [name]  # depth first, in order, without recursion
        while todo:
            found.append(todo.pop())
            todo.extend(reversed(self.children.get(found[-1], [])))
        return found

    def typing(self, name: str, parent: str) -> TsTyping:
        """The typing attributes of TsClass for class ``name``."""
        mine = self.codes.get(name)
        if name in self.children:  # its code and those of its subtree
            below = [self.codes[c] for c in self.subtree(name) if c in self.codes]
            codes = dict.fromkeys(self.literals[c.class_name] for c in below)
            types = dict.fromkeys(c.details_type or RECORD for c in below)
            code_type = " | ".join(codes)
            details_type = " | ".join(types) if types.keys() - {RECORD} else None
        elif mine is None:  # a domain's own class without codes
            code_type, details_type = "", None
        else:  # most classes: a code's, with no class below it
            code_type = self.literals[name]
            own_details = mine.details_type
            details_type = (
                own_details if own_details and own_details != RECORD else None
            )
        fields, template = self.owns.get(name, _UNDECLARED)
        parent_fields, parent_template = self.owns.get(parent, _UNDECLARED)
        theirs = self.codes.get(parent)
        own_type = mine.details_type if mine else None
        ctor = None
        if own_type != (theirs.details_type if theirs else None):
            ctor = TsCtor(own_type, any(f.required for f in fields))
        return TsTyping(
            code_type=code_type,
            details_type=details_type,
            ctor=ctor,
            fields=None if fields == parent_fields else field_specs(fields),
            template=None if template == parent_template else template,
        )


def tree(names: Names) -> Tree:
    """The class hierarchy of a named taxonomy."""
    children: dict[str, list[str]] = {}
    for domain in names.domains:
        for code in domain.class_order:
            children.setdefault(code.parent, []).append(code.class_name)
        if domain.base_code is None:
            children.setdefault(domain.parent_class, []).append(domain.class_name)
    codes = {c.class_name: c for c in names.codes}
    return Tree(
        children,
        codes,
        {name: escape.ts_literal(c.code.wire_code) for name, c in codes.items()},
        {
            name: (c.code.fields, template_pieces(c.code.message))
            for name, c in codes.items()
        },
    )
