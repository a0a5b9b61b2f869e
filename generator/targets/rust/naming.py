"""Rust's names: the identifiers the rust target gives a taxonomy, and their checks.

A code's Rust names come from its class name with Rust's conventions (the API
guidelines: an acronym is one word, ``HttpError`` not ``HTTPError``): its
``Code`` variant (the class name's words without ``Error``), its constructor
``new_<variant in snake case>_error`` and its method ``is_<variant in snake
case>_error`` (never one of ``Error``'s own methods), its
details struct; a domain's ``Domain`` variant and ``in_domain_<key>`` method
come from its key; a details field is its name in snake case (serde renames it
back), a keyword spelt as a raw identifier.  None may be a name the crate
declares itself (``reserved.py``), nor another code's or domain's Rust name.
``LANGUAGES`` is what the core reads (:class:`taxogen.language.Language`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Collection, Sequence
from typing import Annotated, TypedDict

from taxogen.diagnostics import Diagnostic, Position
from taxogen.language import Language
from taxogen.naming import NamedCode, NamedDomain, Names, split_words
from taxogen.targets.rust.reserved import (
    RUST_KEYWORDS,
    RUST_NOT_RAW,
    RUST_WEAK,
    rust_reserved_reason,
)
from taxogen.typeschema import Doc

__all__ = [
    "LANGUAGES",
    "RustCodeNames",
    "RustDomainNames",
    "RustNames",
    "RustIdentifiers",
    "code_names",
    "crate_name",
    "domain_helper",
    "domain_variant",
    "field_name",
    "rust_camel",
    "rust_snake",
]


def rust_camel(text: str) -> str:
    """UpperCamelCase of ``text``'s words, an acronym as one word (``IOError`` →
    ``IoError``)."""
    return "".join(w[:1].upper() + w[1:].lower() for w in split_words(text))


def rust_snake(text: str) -> str:
    """snake_case of ``text``'s words (``IOError`` → ``io_error``)."""
    return "_".join(word.lower() for word in split_words(text))


def field_name(name: str) -> str:
    """A details field's struct field: its snake case, a keyword raw."""
    snake = rust_snake(name)
    if snake in RUST_NOT_RAW:
        return snake + "_"
    if snake in RUST_KEYWORDS or snake in RUST_WEAK:
        return "r#" + snake
    return snake


def crate_name(taxonomy_name: str) -> str:
    """The default crate name: the taxonomy's name with dashes, ``-errors``."""
    return taxonomy_name.replace("_", "-") + "-errors"


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class RustIdentifiers:
    """A code's Rust names."""

    variant: str
    new: str
    is_: str
    details: str | None
    fields: tuple[tuple[str, str], ...]  # (details key, struct field)


def code_names(named: NamedCode) -> RustIdentifiers:
    """The Rust names of a code, from its class name."""
    camel = rust_camel(named.class_name)
    variant = camel.removesuffix("Error") or camel
    snake = rust_snake(variant) + "_error"  # never one of Error's own methods
    return RustIdentifiers(
        variant=variant,
        new="new_" + snake,
        is_="is_" + snake,
        details=None if named.details_type is None else rust_camel(named.details_type),
        fields=tuple((f.name, field_name(f.name)) for f in named.code.fields),
    )


def domain_variant(named: NamedDomain) -> str:
    """The Domain variant of a domain: its key's words."""
    return rust_camel(named.domain.key)


def domain_helper(named: NamedDomain) -> str:
    """The method asking whether an error is of a domain or one below it."""
    return "in_domain_" + rust_snake(named.domain.key)


def check(
    domains: Sequence[NamedDomain], refused: Collection[str], path: str
) -> list[Diagnostic]:
    """Every problem of the Rust names of these domains and their codes (a
    code whose class name the core refused is not checked again)."""
    problems: list[Diagnostic] = []
    owners: dict[tuple[str, str], tuple[str, Position]] = {}

    def claim(
        space: str, name: str, what: str, position: Position, key: str, fix: str
    ) -> bool:
        reason = rust_reserved_reason(
            name,
            (
                "method"
                if space == "method"
                else "variant" if space in ("code", "domain") else "item"
            ),
        )
        earlier = owners.get((space, name))
        if reason is not None:
            message = f"Rust name {name!r} of {what} {reason}; {fix}"
        elif earlier is not None:
            message = (
                f"Rust name {name!r} of {what} is already the Rust name of "
                f"{earlier[0]} (line {earlier[1].line}); {fix}"
            )
        else:
            owners[(space, name)] = (what, position)
            return True
        problems.append(
            Diagnostic(path=path, position=position, key=key, message=message)
        )
        return False

    for domain in domains:
        dkey = f"domains.{domain.domain.key}"
        what = f"the Rust variant of domain {domain.domain.key!r}"
        if claim(
            "domain",
            domain_variant(domain),
            what,
            domain.domain.position,
            dkey,
            "rename the domain",
        ):
            helper = f"the Rust helper of domain {domain.domain.key!r}"
            claim(
                "method",
                domain_helper(domain),
                helper,
                domain.domain.position,
                dkey,
                "rename the domain",
            )
        for named in domain.codes:
            code = named.code
            if code.code in refused:
                continue
            ckey = f"{dkey}.codes.{code.code}"
            names = code_names(named)
            what = f"code {code.code!r}" + (
                " (set by `class:`)" if code.class_name else ""
            )
            fix = "set `class:` on the code to choose another"
            for space, rust, kind in (
                ("code", names.variant, "variant"),
                ("item", names.new, "constructor"),
                ("method", names.is_, "helper"),
                ("item", names.details, "details struct"),
            ):
                if rust is not None and not claim(
                    space, rust, f"the Rust {kind} of {what}", code.position, ckey, fix
                ):
                    break
            spelt: dict[str, str] = {}
            for field, rust in names.fields:
                if rust in spelt:
                    message = (
                        f"details fields {spelt[rust]!r} and {field!r} of code "
                        f"{code.code!r} are both the Rust field {rust!r}; rename one"
                    )
                    problems.append(
                        Diagnostic(
                            path=path, position=code.position, key=ckey, message=message
                        )
                    )
                spelt.setdefault(rust, field)
    return problems


class RustDomainNames(TypedDict):
    variant: Annotated[str, Doc("its Domain variant")]
    helper: Annotated[
        str, Doc("the Error method in_domain_xxx(&self) -> bool: it or a child domain")
    ]


class RustCodeNames(TypedDict):
    variant: Annotated[str, Doc("its Code variant")]
    constructor: Annotated[str, Doc("the function that builds its error")]
    helper: Annotated[str, Doc("the Error method is_xxx_error(&self) -> bool")]
    details_type: Annotated[str | None, Doc("the struct of its declared details")]
    fields: Annotated[dict[str, str], Doc("each details field → its struct field")]


class RustNames(TypedDict):
    crate: Annotated[str, Doc("the default crate name (Cargo.toml's package)")]


def _package(names: Names) -> RustNames:
    return {"crate": crate_name(names.taxonomy.name)}


def _domain(named: NamedDomain) -> RustDomainNames:
    return {"variant": domain_variant(named), "helper": domain_helper(named)}


def _code(named: NamedCode) -> RustCodeNames:
    names = code_names(named)
    return {
        "variant": names.variant,
        "constructor": names.new,
        "helper": names.is_,
        "details_type": names.details,
        "fields": dict(names.fields),
    }


#: The rust target's names, as the core reads them.
LANGUAGES = {
    "rust": Language(
        package_type=RustNames,
        domain_type=RustDomainNames,
        code_type=RustCodeNames,
        package=_package,
        domain=_domain,
        code=_code,
        check=check,
    )
}
