"""The contract's typed details: their JSON Schema and their conformance vectors.

A code's declared fields (``Code.fields``) become an ``if``/``then`` of the
payload schema on its ``code``, and three families of vectors: ``from_payload``
with valid details (the required fields only, every field, an extra key kept,
each bound itself) and invalid ones (each required field missing, each field of
a wrong type, each enum, bound and item broken, details absent), each naming
``details.<field>``, and a number no double holds, naming ``details``;
and ``construct``, the fields as a constructor is given them, expecting the
message its template renders (``model.placeholder_text``) and the details with
the defaults filled in.  Sample values come from each field's shape alone.
"""

from __future__ import annotations

from typing import Any

from taxogen.model import Shape, json_data, placeholder_text
from taxogen.naming import NamedCode, Names
from taxogen.targets.contract.numbers import FIRST_INFINITE, RAW, RawJSON
from taxogen.targets.contract.payload_vectors import VectorList, accepted
from taxogen.targets.contract.samples import (
    every,
    other_than_const,
    required_only,
    sample,
    wrong_at,
)

__all__ = ["add_construct", "add_details_vectors", "construct_expect"]


def add_details_vectors(out: VectorList, names: Names) -> None:
    """The ``from_payload`` vectors of the codes' declared details."""
    for named in names.codes:
        fields = named.code.fields
        if not fields:
            continue
        code = named.code.code
        base = {
            "code": named.code.wire_code,
            "message": "m",
            "retryable": named.code.retryable,
        }
        valid = [
            ("required_only", "the required fields alone", required_only(named)),
            ("every_field", "every declared field", every(named)),
            (
                "extra_key",
                "an undeclared extra key is kept",
                {**required_only(named), "zz_extra": [1, "x"]},
            ),
        ]
        for field in fields:  # a nested object keeps what it does not declare
            kept = _with_extra(field.shape, sample(field.shape))
            if kept is not None:
                valid.append(
                    (
                        f"{field.name}/extra_member",
                        f"{field.name} with an undeclared member, kept",
                        {**every(named), field.name: kept},
                    )
                )
        for field in fields:  # each bound is taken (issue 29: 2**53 - 1 too)
            if field.has_const:
                continue  # its one value is its constant's (issue 30 §7)
            for bound in ("minimum", "maximum"):
                value = getattr(field.shape, bound)
                if value is not None:
                    valid.append(
                        (
                            f"{field.name}/at_{bound}",
                            f"{field.name} at its {bound}, {value!r}",
                            {**every(named), field.name: value},
                        )
                    )
        integer = next((f for f in fields if f.shape.type == "integer"), None)
        if integer is not None:
            value = every(named)[integer.name]  # a constant's own, if one
            whole = {**every(named), integer.name: float(value)}
            valid.append(
                ("integer_as_float", f"{integer.name} written 3.0 is an integer", whole)
            )
        for vid, description, details in valid:
            payload = {**base, "details": details}
            out.add(
                "from_payload",
                f"details/{code}/{vid}",
                f"{code}: {description}",
                payload,
                accepted(named, payload),
            )
        invalid: list[tuple[str, str, Any, str]] = []
        required = [f for f in fields if f.required]
        if required:
            first = required[0].name
            invalid += [
                ("absent", "details absent", _ABSENT, first),
                ("null", "details null", None, first),
            ]
        for field in required:
            details = every(named)
            del details[field.name]
            invalid.append(
                (f"{field.name}/missing", f"{field.name} missing", details, field.name)
            )
        for field in fields:
            other = other_than_const(field) if field.has_const else None
            if other is not None:  # issue 30 §7: absent or equal, nothing else
                invalid.append(
                    (
                        f"{field.name}/not_the_constant",
                        f"{field.name} {other!r}, not its constant",
                        {**every(named), field.name: other},
                        field.name,
                    )
                )
            for why, value, below in wrong_at(field.shape):
                details = {**every(named), field.name: value}
                invalid.append(
                    (
                        f"{field.name}/{why}",
                        f"{field.name} {why.replace('_', ' ')}",
                        details,
                        field.name + below,
                    )
                )
        for vid, description, details, name in invalid:
            payload = dict(base) if details is _ABSENT else {**base, "details": details}
            out.add(
                "from_payload",
                f"details/{code}/{vid}",
                f"rejected: {code} with {description}",
                payload,
                {"ok": False, "field": f"details.{name}"},
            )
        _not_finite(out, named, base)


_ABSENT = object()


def _with_extra(shape: Shape, value: Any) -> Any:
    """``value`` (a sample of ``shape``) with an undeclared member added to its
    first nested object, or None where it has none (issue 30 §7)."""
    if shape.fields is not None:
        return {**value, "zz_extra": [1, "x"]}
    if shape.items is not None and shape.items.fields is not None:
        return [_with_extra(shape.items, value[0])]
    return None


def _not_finite(out: VectorList, named: NamedCode, base: dict[str, Any]) -> None:
    """A vector per number field without a maximum: 2**1024 - 2**970, an integer
    a double cannot hold, as its value is refused as details JSON cannot carry
    alike (``details``, before any field is checked: Go read it as +Inf, a
    number), which the schema cannot say (its bounds can: a field with a
    maximum has none)."""
    for field in named.code.fields:
        if field.has_const:
            continue  # its one value is its constant (issue 30 §7)
        if field.shape.type in ("integer", "number") and field.shape.maximum is None:
            out.add(
                "from_payload",
                f"details/{named.code.code}/{field.name}/not_finite",
                f"rejected: {named.code.code} with {field.name} past a double's "
                "range, no finite number",
                {
                    **base,
                    "details": {
                        **every(named),
                        field.name: RawJSON(str(FIRST_INFINITE)),
                    },
                },
                {"ok": False, "field": "details"},
                schema_valid=True,
            )
            out.vectors[-1][RAW] = True


def construct_expect(named: NamedCode, details: dict[str, Any]) -> dict[str, Any]:
    filled = dict(details)
    for field in named.code.fields:
        if field.name not in filled and field.has_default:
            filled[field.name] = json_data(field.default)
    template = named.code.message
    if template is None:
        message = named.code.meaning
    else:
        message = "".join(
            piece.text
            + ("" if piece.field is None else placeholder_text(filled[piece.field]))
            for piece in template.pieces
        )
    return {
        "class": named.class_name,
        "code": named.code.wire_code,
        "message": message,
        "details": filled,
    }


def add_construct(out: VectorList, names: Names) -> None:
    """The ``construct`` vectors: each code with fields built from them."""
    for named in names.codes:
        fields = named.code.fields
        if not fields:
            continue
        code = named.code.code
        cases = [
            (
                "required_only",
                "the required fields, defaults filled in",
                required_only(named),
            ),
            ("every_field", "every field given", every(named)),
        ]
        number = next(
            (f for f in fields if f.shape.type == "number" and f.required), None
        )
        if number is not None and named.code.message is not None:
            whole = {**required_only(named), number.name: 3.0}
            if number.shape.accepts(3.0):
                cases.append(
                    ("whole_number", f"{number.name} 3.0 is shown as 3", whole)
                )
        for vid, description, details in cases:
            out.add(
                "construct",
                f"{code}/{vid}",
                f"{code}: {description}",
                {"code": named.code.wire_code, "details": details},
                construct_expect(named, details),
            )
