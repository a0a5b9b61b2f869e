"""The ``retry_after`` vectors (issue 30 §8): each code's retry hint as read.

For every code whose taxonomy names a retry field (``retry_after:``), a payload
of that code with the field holding a number of seconds (within the field's
bounds) must give that number as the error's retry hint, and one without it no
hint; one code without a retry field gives none either.  The input is a payload
as the wire carries it; the expectation the class, its code and ``retry_after``
(seconds, or null: none).  Go reports a time.Duration, 0 for none.
"""

from __future__ import annotations

from typing import Any

from taxogen.model import Field
from taxogen.naming import NamedCode, Names
from taxogen.targets.contract.mapped_vectors import wire_input
from taxogen.targets.contract.payload_vectors import VectorList
from taxogen.targets.contract.samples import required_only

__all__ = ["KIND", "add_retry_vectors", "declares_retry"]

#: The kind, and what it means (the vectors document's ``kinds``).
KIND = (
    "retry_after",
    "input is a payload; expect the class, its code and retry_after, the "
    "error's retry hint in seconds (the details field its taxonomy names, "
    "retry_after:), or null where it has none (Go: RetryAfter() is 0)",
)


def declares_retry(names: Names) -> bool:
    """Whether any code names a retry field (else no retry_after vector)."""
    taxonomy = names.taxonomy
    if (
        taxonomy.retry_after is None
        and all(domain.retry_after is None for domain in taxonomy.domains)
        and all(code.retry_after is None for code in taxonomy.codes)
    ):
        return False  # no lineage can hold one (most taxonomies: none walked)
    return any(taxonomy.retry_field(c.code) is not None for c in names.codes)


def _seconds(field: Field) -> int | float:
    """A number of seconds the field accepts: 7 (2.5 for a number), within its
    bounds."""
    value: float = 7 if field.shape.type == "integer" else 2.5
    if field.shape.minimum is not None:
        value = max(value, field.shape.minimum)
    if field.shape.maximum is not None:
        value = min(value, field.shape.maximum)
    return int(value) if field.shape.type == "integer" else value


def _vector(
    out: VectorList,
    names: Names,
    named: NamedCode,
    vid: str,
    description: str,
    details: dict[str, Any],
    seconds: float | None,
) -> None:
    canonical = {
        "code": named.code.wire_code,
        "message": "m",
        "retryable": named.code.retryable,
        "details": details,
    }
    out.add(
        KIND[0],
        vid,
        description,
        wire_input(names, canonical),
        {
            "class": named.class_name,
            "code": named.code.wire_code,
            "retry_after": seconds,
        },
    )


def add_retry_vectors(out: VectorList, names: Names) -> None:
    """The retry_after vectors of a taxonomy that names a retry field."""
    if not declares_retry(names):
        return
    taxonomy = names.taxonomy
    without = None
    for named in names.codes:
        name = taxonomy.retry_field(named.code)
        if name is None:
            without = without or named
            continue
        field = named.code.field(name)
        assert field is not None, "validated: every code declares its retry field"
        code = named.code.code
        seconds = _seconds(field)
        _vector(
            out,
            names,
            named,
            f"{code}/given",
            f"{name} {seconds}: the retry hint of {code}",
            {**required_only(named), name: seconds},
            seconds,
        )
        _vector(
            out,
            names,
            named,
            f"{code}/absent",
            f"no {name}: {code} has no retry hint",
            required_only(named),
            None,
        )
    if without is not None:
        _vector(
            out,
            names,
            without,
            f"{without.code.code}/none_named",
            f"{without.code.code} names no retry field: no retry hint",
            required_only(without),
            None,
        )
