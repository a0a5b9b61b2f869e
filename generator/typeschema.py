"""Type schema: the JSON Schema of a ``TypedDict``, read from its annotations.

The model document (:mod:`taxogen.document`) is typed by ``TypedDict``
classes, and its published schema is derived from them here, so the document
and its schema come from one source.  Supported: ``str``, ``bool``, ``int``,
``float``, ``None``, ``object`` (any JSON), ``Literal``, unions, ``list``,
``dict[str, T]``, nested ``TypedDict`` classes (as ``$ref`` to ``#/$defs/<name>``)
and ``NotRequired``; ``Annotated[T, Doc("...")]`` gives a description.
"""

from __future__ import annotations

import types
import typing
from typing import Annotated, Any, Literal, NotRequired, Union

__all__ = ["Doc", "object_schema", "type_schema"]


class Doc:
    """A key's description, carried into the schema (``Annotated[T, Doc(...)]``)."""

    def __init__(self, text: str) -> None:
        self.text = text


def type_schema(hint: Any) -> dict[str, Any]:
    """The JSON Schema of one annotation of a ``TypedDict``'s key."""
    extras: tuple[object, ...] = ()
    if typing.get_origin(hint) is Annotated:
        hint, *rest = typing.get_args(hint)
        extras = tuple(rest)
    described = [e.text for e in extras if isinstance(e, Doc)]
    out: dict[str, Any]
    origin = typing.get_origin(hint)
    if hint is object:
        out = {}
    elif hint is None or hint is type(None):
        out = {"type": "null"}
    elif hint in (str, bool, int, float):
        out = {
            "type": {str: "string", bool: "boolean", int: "integer"}.get(hint, "number")
        }
    elif origin is Literal:
        out = {"enum": list(typing.get_args(hint))}
    elif origin in (Union, types.UnionType):
        out = {"anyOf": [type_schema(arg) for arg in typing.get_args(hint)]}
    elif origin is list:
        out = {"type": "array", "items": type_schema(typing.get_args(hint)[0])}
    elif origin is dict:
        out = {"type": "object", "additionalProperties": type_schema(hint.__args__[1])}
    else:
        out = {"$ref": f"#/$defs/{hint.__name__}"}
    if described:
        out["description"] = described[0]
    return out


def object_schema(cls: Any) -> dict[str, Any]:
    hints = typing.get_type_hints(cls, include_extras=True)
    properties: dict[str, Any] = {}
    required: list[str] = []
    for name, hint in hints.items():
        optional = typing.get_origin(hint) is NotRequired
        if optional:
            hint = typing.get_args(hint)[0]
        properties[name] = type_schema(hint)
        if not optional:
            required.append(name)
    return {"type": "object", "properties": properties, "required": required}
