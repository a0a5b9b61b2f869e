"""The typed details of the Python target: what the package says of each field.

A code with declared fields gets a ``TypedDict`` of them (``TaskTimeoutDetails``,
in the functional form, so that no field name can shadow a type it uses), its
class a keyword-only constructor, and the data the runtime checks and renders
with: ``fields`` (``_runtime.Field`` literals) and ``message_template``.  Here
each is computed as ready-to-print Python text, so the templates only loop over
it; the checks themselves are real code in ``runtime/_runtime.py``.  A class
states only what differs from its parent's, and its ``details`` annotation only
when every class below it has a details type (the union of theirs).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

from taxogen.targets.python import pysyntax
from taxogen.model import Field, JSONObject, JSONValue, Shape, Template, constant_text
from taxogen.naming import NamedCode, Names
from taxogen.targets.python import escape, nested

__all__ = [
    "PyDetails",
    "PyEntry",
    "PyParam",
    "PyTyping",
    "py_json",
    "py_type",
    "typing_names",
    "typing_of",
]


def py_type(shape: Shape, stem: str = "") -> str:
    """The Python type of a value of ``shape``, as a stored ``details`` holds it,
    its typed objects named from ``stem`` (:func:`nested.field_stem`)."""
    return nested.py_type(shape, stem)


def _param_type(shape: Shape, stem: str) -> str:
    """The type a constructor takes for ``shape``: an array may be a tuple too."""
    if shape.type == "array":
        item = py_type(shape.items, stem + "Item") if shape.items else "Any"
        return f"list[{item}] | tuple[{item}, ...]"
    return py_type(shape, stem)


def py_json(value: JSONValue) -> str:
    """``value`` as a Python literal (arrays as tuples: a class's data is frozen)."""
    if value is None or isinstance(value, (bool, int, float)):
        return repr(value)
    if isinstance(value, str):
        return escape.python_str(value)
    if isinstance(value, tuple):
        inner = ", ".join(map(py_json, value))
        return f"({inner},)" if len(value) == 1 else f"({inner})"
    items = value.items if isinstance(value, JSONObject) else ()
    return (
        "{" + ", ".join(f"{escape.python_str(k)}: {py_json(v)}" for k, v in items) + "}"
    )


def _shape_args(shape: Shape) -> list[str]:
    args = []
    if shape.enum:
        args.append(f"enum={py_json(shape.enum)}")
    if shape.minimum is not None:
        args.append(f"minimum={shape.minimum!r}")
    if shape.maximum is not None:
        args.append(f"maximum={shape.maximum!r}")
    if shape.items is not None:
        item = [escape.python_str(shape.items.type), *_shape_args(shape.items)]
        args.append(f"items=_runtime.Shape({', '.join(item)})")
    if shape.fields is not None:
        members = ", ".join(map(_field_spec, shape.fields))
        args.append(f"fields=({members}{',' if len(shape.fields) == 1 else ''})")
    return args


def _field_spec(field: Field) -> str:
    args = [escape.python_str(field.name), escape.python_str(field.shape.type)]
    if not field.required:
        args.append("required=False")
    if field.has_default:
        args.append(f"default={py_json(field.default)}")
    args.extend(_shape_args(field.shape))
    if field.has_const:
        args.append(f"const={escape.python_str(constant_text(field.default))}")
    return f"_runtime.Field({', '.join(args)})"


def _template(template: Template | None) -> tuple[str, ...] | None:
    """The template as the runtime's tuple (literals and field names alternating),
    each a Python literal."""
    if template is None:
        return None
    parts: list[str] = []
    for piece in template.pieces:
        parts.append(escape.python_str(piece.text))
        if piece.field is not None:
            parts.append(escape.python_str(piece.field))
    return tuple(parts)


@dataclasses.dataclass(frozen=True, slots=True)
class PyEntry:
    """One key of a details ``TypedDict``: ``"name": type``, with its comment."""

    name: str  # a Python string literal
    type: str
    comment: str  # its description as one comment line ("" for none)


@dataclasses.dataclass(frozen=True, slots=True)
class PyDetails:
    """The ``TypedDict`` of a code with declared fields, and the class it types."""

    name: str
    class_name: str
    entries: tuple[PyEntry, ...]


@dataclasses.dataclass(frozen=True, slots=True)
class PyParam:
    """One keyword-only parameter of a typed constructor, and its details key."""

    name: str
    key: str  # the name as a Python string literal
    type: str
    required: bool
    #: The nested types (issue 30 §7) its type names.
    nested: tuple[str, ...] = ()


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class PyTyping:
    """What a class states about its details beyond its parent's (None: nothing)."""

    #: Its instances' ``details`` annotation: its details type or, with
    #: subclasses, the union of theirs; None when some class below has none.
    details: str | None
    #: Its ``fields = (...)`` statement, when they differ from its parent's; a
    #: class whose fields differ also has its own constructor, of ``params``.
    fields: str | None
    params: tuple[PyParam, ...]
    #: Its ``message_template = ...`` statement, when it differs from its parent's.
    template: str | None


#: The stem of a field's nested types, given the code holding it.
Stems = Callable[[NamedCode, Field], str]


def _entries(named: NamedCode, stems: Stems) -> tuple[PyEntry, ...]:
    entries = []
    for f in named.code.fields:
        kind = py_type(f.shape, stems(named, f))
        entries.append(
            PyEntry(
                name=escape.python_str(f.name),
                type=kind if f.required else f"NotRequired[{kind}]",
                comment=escape.python_comment(f.description) if f.description else "",
            )
        )
    return tuple(entries)


def _params(named: NamedCode, stems: Stems) -> tuple[PyParam, ...]:
    return tuple(
        PyParam(
            name=f.name,
            key=escape.python_str(f.name),
            type=_param_type(f.shape, stems(named, f)),
            required=f.required,
            nested=tuple(sorted(nested.object_names(f.shape, stems(named, f)))),
        )
        for f in named.code.fields
    )


def stems_of(names: Names) -> Stems:
    """Where the nested types of each field of ``names`` start (issue 30 §7)."""
    classes = {d.domain.key: d.class_name for d in names.domains}
    return lambda named, f: nested.field_stem(names.base, classes, named, f)


def typing_of(names: Names) -> tuple[dict[str, PyTyping], tuple[PyDetails, ...]]:
    """Each class's typing (by class name; classes with nothing to state are left
    out) and the details types, in code order."""
    children: dict[str, list[str]] = {}
    parent_of: dict[str, str] = {}
    for domain in names.domains:
        if domain.base_code is None:
            children.setdefault(domain.parent_class, []).append(domain.class_name)
            parent_of[domain.class_name] = domain.parent_class
        for code in domain.class_order:
            children.setdefault(code.parent, []).append(code.class_name)
            parent_of[code.class_name] = code.parent
    by_class = {c.class_name: c for c in names.codes}
    stems = stems_of(names)

    def subtree(name: str) -> list[str]:
        found, todo = [], [name]
        while todo:  # depth first, in order, without recursion
            found.append(todo.pop())
            todo.extend(reversed(children.get(found[-1], [])))
        return found

    # Each code class's own fields and template, made once: each is asked again
    # as its children's parent.  The root and a domain's own class have none.
    owned = {
        name: (tuple(map(_field_spec, c.code.fields)), _template(c.code.message))
        for name, c in by_class.items()
    }
    none: tuple[tuple[str, ...], tuple[str, ...] | None] = ((), None)

    typings: dict[str, PyTyping] = {}
    for name, parent in parent_of.items():
        if name in children:
            types = [
                None if c is None else c.details_type
                for c in map(by_class.get, subtree(name))
            ]
            details = None
            if all(types):
                details = " | ".join(dict.fromkeys(t for t in types if t is not None))
        else:  # a class with none below it: its own details type, if any
            named = by_class.get(name)
            details = (named.details_type or None) if named is not None else None
        fields, template = owned.get(name, none)
        parent_fields, parent_template = owned.get(parent, none)
        if not details and fields == parent_fields and template == parent_template:
            continue  # nothing to state: most classes, left out without a PyTyping
        typings[name] = PyTyping(
            details=details,
            fields=(
                None
                if fields == parent_fields
                else (
                    "    fields = ()"
                    if not fields
                    else pysyntax.assign_call(
                        4, "fields", "_runtime.declare_fields", fields
                    )
                )
            ),
            params=_params(by_class[name], stems) if name in by_class else (),
            template=(
                None
                if template == parent_template
                else (
                    "    message_template = None"
                    if template is None
                    else pysyntax.assign_call(
                        4, "message_template", "_runtime.declare_template", template
                    )
                )
            ),
        )
    details_types = tuple(
        PyDetails(c.details_type, c.class_name, _entries(c, stems))
        for c in names.codes
        if c.details_type is not None
    )
    return typings, details_types


def _shape_names(shape: Shape, deep: bool) -> set[str]:
    """The names of ``typing`` a value of ``shape`` is written with; ``deep``:
    and its nested types' members (issue 30 §7) with theirs."""
    if shape.type == "string":
        return {"Literal"} if shape.enum else set()
    if shape.type == "object" and shape.fields is not None:
        found: set[str] = {"TypedDict"} if deep else set()
        for member in shape.fields if deep else ():
            found |= _shape_names(member.shape, deep)
            if not member.required:
                found.add("NotRequired")
        return found
    if shape.type == "object" or (shape.type == "array" and shape.items is None):
        return {"Any"}
    return _shape_names(shape.items, deep) if shape.items is not None else set()


def typing_names(codes: tuple[NamedCode, ...], deep: bool = True) -> tuple[str, ...]:
    """The names of ``typing`` that the details types and constructors of
    ``codes`` use, sorted; ``deep``: and their nested types."""
    found: set[str] = set()
    for named in codes:
        fields = named.code.fields
        if fields:
            found.add("TypedDict")
        for field in fields:
            found |= _shape_names(field.shape, deep)
            if not field.required:
                found.add("NotRequired")
    return tuple(sorted(found))
