"""Lint rules of typed details and message templates (issue 10), for ``taxogen lint``.

``template-uses-field``: a ``message:`` template that names no field reads the
same for every error of its code, so it says nothing the meaning cannot.
``field-described``: a details field with no ``description`` that no template
uses is documented nowhere (a domain's field counts as used when any of its
codes' templates uses it).  :mod:`taxogen.lint` lists them with the others;
what every rule's finding is about (:class:`About`) is here, where the first
rules that need a field in it are.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator

from taxogen.diagnostics import Position
from taxogen.model import Taxonomy

__all__ = ["About", "Found", "field_described", "template_uses_field"]


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class About:
    """What a finding is about: a code, a domain, a details field of either."""

    code: str | None = None
    domain: str | None = None
    field: str | None = None

    def subjects(self) -> tuple[str, ...]:
        """The names ``ignore`` matches it by: its code, its domain (a code's
        findings are its domain's too), ``CODE.FIELD`` or ``DOMAIN.FIELD``."""
        names = [n for n in (self.code, self.domain) if n is not None]
        if self.field is not None:
            owner = self.code if self.code is not None else self.domain
            if owner is not None:
                names.append(f"{owner}.{self.field}")
        return tuple(names)


#: A rule's check finds, for each place it fires: what it is about, the
#: message, where.
Found = tuple[About, str, Position | None]


def template_uses_field(
    t: Taxonomy,
) -> Iterator[Found]:
    for code in t.codes:
        if code.message is not None and not code.message.fields:
            yield (
                About(code=code.code, domain=code.domain),
                (
                    f"the message template of {code.code!r} uses no field, so every"
                    " error of it reads the same (say it in its meaning instead)"
                ),
                code.message.position,
            )


def field_described(
    t: Taxonomy,
) -> Iterator[Found]:
    for domain in t.domains:
        # A domain's field is described by any of its codes' templates.
        used = {n for c in domain.codes if c.message for n in c.message.fields}
        for field in domain.fields:
            if not field.description and field.name not in used:
                yield (
                    About(domain=domain.key, field=field.name),
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
                            About(code=code.code, domain=code.domain, field=field.name),
                            (
                                f"{code.code!r}: details field {field.name!r} has no"
                                " description and no message template uses it"
                            ),
                            field.position,
                        )
