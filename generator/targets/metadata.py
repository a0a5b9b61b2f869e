"""A package's metadata: the options ``[tool.taxogen.python]`` and
``[tool.taxogen.typescript]`` share (issue 33 §7), each value checked.

``name`` is the package's name in its registry (each target checks it by its
registry's rules: :data:`PEP508_NAME`, :data:`NPM_NAME`); ``description`` one
line; ``license`` an SPDX license expression (:func:`spdx_problem` checks its
shape, not the SPDX list: ``LicenseRef-`` ids are the user's own); ``authors``
a list of ``{name, email}`` tables (``email`` optional); ``homepage`` and
``repository`` http(s) URLs.  A target given none of them writes what it
wrote before they existed.  The targets' ``options.py`` import it for the
checks (it imports nothing of any target, so the settings stay cheap), their
views for :class:`Package`, what each template reads as ``meta``.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Iterable, Mapping
from typing import Any
from urllib.parse import urlsplit

from taxogen.diagnostics import describe_value

__all__ = [
    "NPM_NAME",
    "PEP508_NAME",
    "Package",
    "author_problem",
    "licensed",
    "metadata_checks",
    "npm_problem",
    "pep508_problem",
    "spdx_problem",
]

Check = Callable[[object], str | None]

#: A distribution name as PEP 508 (and the core metadata's ``Name``) allows:
#: ASCII letters and digits, with ``.``, ``_`` and ``-`` inside.
PEP508_NAME = re.compile(r"[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?")
#: An npm package name (npm's validate-npm-package-name, for new packages):
#: lower case, URL-safe, not starting with ``.`` or ``_``, at most 214
#: characters, optionally in a scope, ``@scope/name``.
NPM_NAME = re.compile(r"(?:@[a-z0-9~-][a-z0-9._~-]*/)?[a-z0-9~-][a-z0-9._~-]*")
_NPM_TAKEN = frozenset({"node_modules", "favicon.ico"})
#: An SPDX license or exception id (idstring), a LicenseRef-/DocumentRef- one
#: included; the operators and parentheses of a license expression.
_SPDX_TOKEN = re.compile(r"\s*(\(|\)|[A-Za-z0-9.:+-]+)")
_SPDX_ID = re.compile(r"(?:DocumentRef-[A-Za-z0-9.-]+:)?[A-Za-z0-9.-]+\+?")
_EMAIL = re.compile(r"[^@\s<>,\"]+@[^@\s<>,\"]+\.[^@\s<>,\".]+")


def _got(value: object) -> str:
    return repr(value) if isinstance(value, str) else describe_value(value)


def npm_problem(value: object) -> str | None:
    """Why ``value`` is no npm package name (None when it is one)."""
    if (
        isinstance(value, str)
        and len(value) <= 214
        and NPM_NAME.fullmatch(value)
        and value not in _NPM_TAKEN
    ):
        return None
    return (
        "expected an npm package name (lower case letters, digits and -._~, "
        "not starting with . or _, at most 214 characters, optionally scoped "
        f"as @acme/errors), got {_got(value)}"
    )


def pep508_problem(value: object) -> str | None:
    """Why ``value`` is no PEP 508 distribution name (None when it is one)."""
    if isinstance(value, str) and len(value) <= 200 and PEP508_NAME.fullmatch(value):
        return None
    return (
        "expected a distribution name (PEP 508: letters, digits and ._- inside, "
        f"as acme-errors), got {_got(value)}"
    )


def _description(value: object) -> str | None:
    if (
        isinstance(value, str)
        and value.strip()
        and len(value) <= 512
        and value.isprintable()
    ):
        return None
    return f"expected a description of one line, got {_got(value)}"


def spdx_problem(value: object) -> str | None:
    """Why ``value`` is no SPDX license expression (None when it is one): ids
    (``MIT``, ``GPL-2.0+``, ``LicenseRef-Acme``) joined by ``AND``, ``OR``,
    ``WITH`` an exception, in parentheses; the shape, not the SPDX list."""
    expected = "expected an SPDX license expression (as MIT or Apache-2.0 OR MIT)"
    if not isinstance(value, str) or not value.strip() or len(value) > 512:
        return f"{expected}, got {_got(value)}"
    tokens: list[str] = []
    at = 0
    while at < len(value.rstrip()):
        found = _SPDX_TOKEN.match(value, at)
        if found is None:
            return (
                f"{expected}, got {value!r}: {value[at:].strip()[:1]!r} is not in one"
            )
        tokens.append(found.group(1))
        at = found.end()
    rest = _expression(tokens, 0)
    if rest is None or rest != len(tokens):
        return f"{expected}, got {value!r}"
    return None


def _expression(tokens: list[str], at: int) -> int | None:
    """Where the expression starting at ``tokens[at]`` ends (None: no expression).

    expression := term (("AND" | "OR") term)*; term := "(" expression ")" |
    id ["WITH" id]: the grammar of SPDX's Annex D, operators in upper case.
    """
    at_ = _term(tokens, at)
    while at_ is not None and at_ < len(tokens) and tokens[at_] in ("AND", "OR"):
        at_ = _term(tokens, at_ + 1)
    return at_


def _term(tokens: list[str], at: int) -> int | None:
    if at >= len(tokens):
        return None
    if tokens[at] == "(":
        end = _expression(tokens, at + 1)
        if end is None or end >= len(tokens) or tokens[end] != ")":
            return None
        return end + 1
    if not _license_id(tokens[at]):
        return None
    if at + 1 < len(tokens) and tokens[at + 1] == "WITH":
        exception = tokens[at + 2] if at + 2 < len(tokens) else ""
        return at + 3 if _license_id(exception) and "+" not in exception else None
    return at + 1


def _license_id(token: str) -> bool:
    return token not in ("AND", "OR", "WITH", "(", ")") and bool(
        _SPDX_ID.fullmatch(token)
    )


def author_problem(value: object) -> str | None:
    """Why ``value`` is no list of authors (None when it is one): each a table
    with ``name`` (one line, no ``<>,"``, which an address list could not
    hold) and optionally ``email`` (an address)."""
    expected = 'expected a list of authors, each {name = "...", email = "..."}'
    if not isinstance(value, list) or not value:
        return f"{expected}, got {_got(value)}"
    for index, author in enumerate(value, 1):
        if not isinstance(author, dict):
            return f"{expected}, got {describe_value(author)} as item {index}"
        unknown = sorted(set(author) - {"name", "email"})
        if unknown:
            return f"item {index}: unknown key {unknown[0]!r} (expected name, email)"
        name = author.get("name")
        if (
            not isinstance(name, str)
            or not name.strip()
            or not name.isprintable()
            or any(c in name for c in '<>,"')
        ):
            return (
                f"item {index}: name: expected a name of one line without "
                f'<>," in it, got {_got(name)}'
            )
        email = author.get("email")
        if email is not None and not (
            isinstance(email, str) and _EMAIL.fullmatch(email)
        ):
            return (
                f"item {index}: email: expected an address (as ada@example.com), "
                f"got {_got(email)}"
            )
    return None


def _url(value: object) -> str | None:
    if isinstance(value, str) and value.isprintable() and " " not in value:
        try:
            parts = urlsplit(value)
        except ValueError:
            parts = None
        if parts and parts.scheme in ("http", "https") and parts.hostname:
            return None
    return f"expected an http or https URL, got {_got(value)}"


def metadata_checks(name: Check) -> Mapping[str, Check]:
    """The metadata options of a package target, its registry's ``name`` check
    first: the keys a ``[tool.taxogen.<target>]`` table may give."""
    return {
        "name": name,
        "description": _description,
        "license": spdx_problem,
        "authors": author_problem,
        "homepage": _url,
        "repository": _url,
    }


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class Package:
    """A package's metadata as its view gives it: each option as checked, else
    the target's own default (``name``, ``description``) or nothing."""

    name: str
    description: str
    license: str | None = None
    authors: tuple[tuple[str, str | None], ...] = ()  # (name, email or None)
    homepage: str | None = None
    repository: str | None = None

    @classmethod
    def of(
        cls, options: Mapping[str, object], *, name: str, description: str
    ) -> Package:
        """The metadata ``options`` give (checked by the settings), over the
        target's ``name`` and ``description``."""

        def text(key: str) -> str | None:
            value = options.get(key)
            return value if isinstance(value, str) else None

        authors = options.get("authors")
        return cls(
            name=text("name") or name,
            description=text("description") or description,
            license=text("license"),
            authors=tuple(
                (str(author["name"]), author.get("email"))
                for author in (authors if isinstance(authors, list) else [])
            ),
            homepage=text("homepage"),
            repository=text("repository"),
        )

    @property
    def license_lines(self) -> tuple[str, ...]:
        """The text of the package's LICENSE file, by line: the SPDX expression
        and, with authors, who holds the copyright; no license text is invented
        (docs "Package metadata")."""
        lines = [f"SPDX-License-Identifier: {self.license}"]
        if self.authors:
            held = ", ".join(
                name if email is None else f"{name} <{email}>"
                for name, email in self.authors
            )
            lines += ["", f"Copyright (c) {held}"]
        return tuple(lines)


def licensed(view: Any) -> Iterable[tuple[Mapping[str, str], Mapping[str, Any]]]:
    """A template's ``each`` for the LICENSE file: once if the view's package
    states a license, else not at all."""
    if view.meta.license is not None:
        yield {}, {}
