"""Lint rules of typed details and message templates (issue 10), for ``taxogen lint``.

``template-uses-field``: a ``message:`` template that names no field reads the
same for every error of its code, so it says nothing the meaning cannot.
``field-described``: a details field with no ``description`` that no template
uses is documented nowhere (a shared field counts as used when any template of
a code carrying it uses it: a domain's, of its codes or its child domains';
the top level's, of any code).  :mod:`taxogen.lint` lists them with the others;
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
            # A top-level details field (issue 30 §7) is named by itself.
            names.append(self.field if owner is None else f"{owner}.{self.field}")
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
    # A shared field is described by any template of a code that carries it:
    # the top level's by every code's, a domain's by its codes' and by those of
    # the domains below it (issue 30 §7).
    used_in: dict[str, set[str]] = {}
    for code in t.codes:
        names = set(code.message.fields) if code.message else set()
        below = t.domain(code.domain)
        for owner in ("", below.key, *(d.key for d in t.ancestors(below))):
            used_in.setdefault(owner, set()).update(names)
    for field in t.fields:
        if not field.description and field.name not in used_in.get("", ()):
            yield (
                About(field=field.name),
                (
                    f"top-level details field {field.name!r} has no description"
                    " and no message template uses it"
                ),
                field.position,
            )
    for domain in t.domains:
        used = used_in.get(domain.key, set())
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
                if field.domain is None and not field.top and not field.description:
                    if field.name not in own:
                        yield (
                            About(code=code.code, domain=code.domain, field=field.name),
                            (
                                f"{code.code!r}: details field {field.name!r} has no"
                                " description and no message template uses it"
                            ),
                            field.position,
                        )
