"""Sample details values for the conformance vectors, from each field's shape alone.

A valid value of every shape (3 and 0.5 where the bounds allow, so rendered
placeholders show a whole number and a fraction), each way a value can miss a
shape (wrong type, fraction, boolean, just past a bound as every runtime reads
it, outside the enum, a bad item), and the valid details of a code: its
required fields, or every field.
"""

from __future__ import annotations

import math
from typing import Any

from taxogen.model import Field, Shape, json_data
from taxogen.naming import NamedCode

__all__ = [
    "every",
    "known_details",
    "past",
    "required_only",
    "sample",
    "wrong",
    "wrong_at",
]


def sample(shape: Shape) -> Any:
    """A value of ``shape``: 3 and 0.5 where the bounds allow (placeholders then show
    a whole number and a fraction), else a bound."""
    if shape.type == "string":
        return shape.enum[0] if shape.enum else "s-1"
    if shape.type == "boolean":
        return True
    if shape.type in ("integer", "number"):
        value = 3 if shape.type == "integer" else 0.5
        if shape.minimum is not None and value < shape.minimum:
            return shape.minimum
        if shape.maximum is not None and value > shape.maximum:
            return shape.maximum
        return value
    if shape.type == "array":
        return [sample(shape.items)] if shape.items is not None else ["x"]
    if shape.fields is not None:  # every member, so each is seen decoded
        return {member.name: sample(member.shape) for member in shape.fields}
    return {"k": "v"}


def wrong_at(shape: Shape) -> list[tuple[str, Any, str]]:
    """(what is wrong, a value, where) for each way a value can miss ``shape``:
    ``where`` is the path below the field a runtime names (issue 30 §7): the
    deepest member of a nested object that is missing or misfits
    (``.reason``, ``[1].reason``); empty where the field itself is named, as a
    bad item of scalars is."""
    out = [(why, value, "") for why, value in wrong(shape)]
    if shape.fields is not None:
        whole = sample(shape)
        for member in shape.fields:
            if member.required:
                rest = {k: v for k, v in whole.items() if k != member.name}
                out.append((f"{member.name}_missing", rest, f".{member.name}"))
            for why, bad, below in wrong_at(member.shape):
                out.append(
                    (
                        f"{member.name}_{why}",
                        {**whole, member.name: bad},
                        f".{member.name}{below}",
                    )
                )
    if shape.items is not None and shape.items.fields is not None:
        good = sample(shape.items)
        out += [
            (f"item_{why}", [good, bad], f"[1]{below}")
            for why, bad, below in wrong_at(shape.items)
            if below
        ]
    return out


def wrong(shape: Shape) -> list[tuple[str, Any]]:
    """(what is wrong, a value) for each way a value can miss ``shape``."""
    kinds = {
        "string": 7,
        "integer": "3",
        "number": "0.5",
        "boolean": "true",
        "array": "x",
        "object": ["x"],
    }
    out: list[tuple[str, Any]] = [("type", kinds[shape.type])]
    if shape.type == "integer":
        out.append(("fraction", 2.5))
    if shape.type in ("integer", "number"):
        out.append(("boolean", True))
        if shape.minimum is not None:
            out.append(("below_minimum", past(shape, shape.minimum, -1)))
        if shape.maximum is not None:
            out.append(("above_maximum", past(shape, shape.maximum, 1)))
    if shape.enum:
        out.append(("not_in_enum", "zz_not_listed"))
    if shape.items is not None:
        good = sample(shape.items)
        out += [(f"item_{why}", [good, bad]) for why, bad in wrong(shape.items)]
    return out


def past(shape: Shape, bound: float, sign: int) -> float:
    """A value just past ``bound`` (``sign`` -1: below, 1: above) that every
    runtime reads as past it: an integer's bound ±1 (bounds are safe integers,
    so 2**53 at most, exact), a number's ±0.5, else the next double beyond where
    0.5 is lost in rounding (past 2**53: 1e20 + 0.5 is 1e20)."""
    if shape.type == "integer":
        return bound + sign
    value = bound + sign * 0.5
    if float(value) == float(bound):
        value = math.nextafter(float(bound), sign * math.inf)
    return value


def required_only(code: NamedCode) -> dict[str, Any]:
    return {f.name: sample(f.shape) for f in code.code.fields if f.required}


def every(code: NamedCode) -> dict[str, Any]:
    """A value for every field: a constant field's own (issue 30 §7)."""
    return {
        f.name: json_data(f.default) if f.has_const else sample(f.shape)
        for f in code.code.fields
    }


def other_than_const(field: Field) -> Any:
    """A value of a constant field's shape that is not its constant, or None
    where the shape holds no other (a one-string enum)."""
    const = json_data(field.default)
    shape = field.shape
    candidates: list[Any] = [
        *shape.enum,
        not const if isinstance(const, bool) else None,
        "zz_other" if shape.type == "string" and not shape.enum else None,
        *(
            (const + 1, const - 1)
            if shape.type in ("integer", "number") and not isinstance(const, bool)
            else ()
        ),
    ]
    return next(
        (c for c in candidates if c is not None and c != const and shape.accepts(c)),
        None,
    )


def known_details(code: NamedCode) -> dict[str, Any]:
    """Valid details of ``code`` for the vector that accepts it as itself."""
    fields = code.code.fields
    if not fields:  # most codes: what the test below says, without walking
        return {"example": True}
    if not any(f.required for f in fields) and code.code.field("example") is None:
        return {"example": True}  # what every code carried before typed details
    return required_only(code)
