"""Lint rules of typed details and message templates (issue 10), for ``taxogen lint``.

``template-uses-field``: a ``message:`` template that names no field reads the
same for every error of its code, so it says nothing the meaning cannot.
``field-described``: a details field with no ``description`` that no template
uses is documented nowhere (a domain's field counts as used when any of its
codes' templates uses it).  :mod:`taxogen.lint` lists them with the others.
"""

from __future__ import annotations

from collections.abc import Iterator

from taxogen.diagnostics import Position
from taxogen.model import Taxonomy

__all__ = ["field_described", "template_uses_field"]


def template_uses_field(
    t: Taxonomy,
) -> Iterator[tuple[str | None, str, Position | None]]:
    for code in t.codes:
        if code.message is not None and not code.message.fields:
            yield (
                code.code,
                (
                    f"the message template of {code.code!r} uses no field, so every"
                    " error of it reads the same (say it in its meaning instead)"
                ),
                code.message.position,
            )


def field_described(
    t: Taxonomy,
) -> Iterator[tuple[str | None, str, Position | None]]:
    for domain in t.domains:
        # A domain's field is described by any of its codes' templates.
        used = {n for c in domain.codes if c.message for n in c.message.fields}
        for field in domain.fields:
            if not field.description and field.name not in used:
                yield (
                    None,
                    (
                        f"domain {domain.key!r}: details field {field.name!r} has no"
                        " description and no message template uses it"
                    ),
                    field.position,
                )
        for code in domain.codes:
            own = code.message.fields if code.message else ()
            for field in code.fields:
                if field.domain is None and not field.description:
                    if field.name not in own:
                        yield (
                            code.code,
                            (
                                f"{code.code!r}: details field {field.name!r} has no"
                                " description and no message template uses it"
                            ),
                            field.position,
                        )
