"""Rust's names: the identifiers the rust target gives a taxonomy, and their checks.

A code's Rust names come from its class name with Rust's conventions (the API
guidelines: an acronym is one word, ``HttpError`` not ``HTTPError``): its
``Code`` variant (the class name's words without ``Error``), its constructor
``new_<variant in snake case>_error`` and its method ``is_<variant in snake
case>_error`` (never one of ``Error``'s own methods), the same of each of its
``aliases:`` (:func:`alias_names`), its
details struct and the structs of its nested objects (issue 30 §7,
:func:`nested_structs`); a domain's ``Domain`` variant and ``in_domain_<key>`` method
come from its key; a details field is its name in snake case (serde renames it
back), a keyword spelt as a raw identifier.  None may be a name the crate
declares itself (``reserved.py``), nor another code's or domain's Rust name.
``LANGUAGES`` is what the core reads (:class:`taxogen.language.Language`).

It runs past 300 lines because the nested structs (their names, their types and
their checks) are named here, beside the names they may clash with.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Collection, Sequence
from typing import Annotated, TypedDict

from taxogen.diagnostics import Diagnostic, Position
from taxogen.language import Language
from taxogen.model import Field, Shape
from taxogen.naming import (
    KeyPath,
    NamedAlias,
    NamedCode,
    NamedDomain,
    Names,
    Owner,
    code_said,
    key_path,
    split_words,
)
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
    "alias_names",
    "code_names",
    "crate_name",
    "domain_helper",
    "domain_variant",
    "field_name",
    "field_stem",
    "NestedStruct",
    "nested_structs",
    "nested_type",
    "rust_camel",
    "rust_snake",
]


def rust_camel(text: str) -> str:
    """UpperCamelCase of ``text``'s words, an acronym as one word (``IOError`` →
    ``IoError``)."""
    camel = _CAMEL
    spelt = []
    for word in split_words(text):
        done = camel.get(word)
        if done is None:
            done = camel[word] = word[:1].upper() + word[1:].lower()
        spelt.append(done)
    return "".join(spelt)


# Each word's UpperCamelCase, once per process: a taxonomy's names share a few
# hundred words, and the rust target and its check spell every code's (issue 34).
_CAMEL: dict[str, str] = {}


def rust_snake(text: str) -> str:
    """snake_case of ``text``'s words (``IOError`` → ``io_error``)."""
    return "_".join(map(str.lower, split_words(text)))


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


def alias_names(alias: NamedAlias, of: RustIdentifiers) -> RustIdentifiers:
    """The Rust names of a code's alias (issue 30 §5), from its class name as a
    code's are: a ``Code`` constant spelt as a variant (``Code::Ewouldblock``,
    equal to its code's), a constructor, a helper and a details type alias."""
    camel = rust_camel(alias.class_name)
    variant = camel.removesuffix("Error") or camel
    snake = rust_snake(variant) + "_error"
    return RustIdentifiers(
        variant=variant,
        new="new_" + snake,
        is_="is_" + snake,
        details=None if of.details is None else variant + "Details",
        fields=of.fields,
    )


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class NestedStruct:
    """The struct of a nested typed object (issue 30 §7)."""

    name: str
    path: str  # where it stands in the details, by wire names: causes[].owner
    fields: tuple[Field, ...]  # its members
    position: Position  # where its object is declared
    origin: tuple[object, ...]  # who declares it: one struct per declaration


def nested_structs(named: NamedCode) -> list[NestedStruct]:
    """The structs of a code's nested objects, outermost first, named as Go
    names them: a field the top level declares gives ``Details<Field>``
    (``causes`` → ``DetailsCauses``), one a domain declares
    ``<Domain>Details<Field>``, a code's own ``<Details struct><Field>``: one
    struct for every code sharing the declaration.  A member's object appends its
    member's name, an array's items ``Item`` (``DetailsCausesItem``)."""
    found: list[NestedStruct] = []
    for field in named.code.fields:
        stem, origin = field_stem(named, field)
        _walk(stem, field.name, field.shape, field.position, origin, found)
    return found


def field_stem(named: NamedCode, field: Field) -> tuple[str, tuple[object, ...]]:
    """The name of a details field's nested struct (before ``Item``) and who
    declares the field."""
    if field.top:
        return "Details" + rust_camel(field.name), ("top",)
    if field.domain is not None:
        stem = rust_camel(field.domain) + "Details" + rust_camel(field.name)
        return stem, ("domain", field.domain)
    assert named.details_type is not None
    stem = rust_camel(named.details_type) + rust_camel(field.name)
    return stem, ("code", named.code.code)


def _walk(
    name: str,
    path: str,
    shape: Shape,
    position: Position,
    origin: tuple[object, ...],
    found: list[NestedStruct],
) -> None:
    if shape.type == "array" and shape.items is not None:
        _walk(name + "Item", path + "[]", shape.items, position, origin, found)
    elif shape.type == "object" and shape.fields is not None:
        found.append(
            NestedStruct(
                name=name,
                path=path,
                fields=shape.fields,
                position=position,
                origin=(*origin, path),
            )
        )
        for member in shape.fields:
            _walk(
                name + rust_camel(member.name),
                f"{path}.{member.name}",
                member.shape,
                member.position,
                origin,
                found,
            )


def nested_type(shape: Shape, name: str) -> str:
    """The Rust type of a value of ``shape`` whose struct (if it is a typed
    object) is ``name`` (its items' ``name`` + ``Item``)."""
    if shape.type == "array":
        if shape.items is None:
            return "Vec<serde_json::Value>"
        return f"Vec<{nested_type(shape.items, name + 'Item')}>"
    if shape.type == "object":
        return "Object" if shape.fields is None else name
    return _SCALARS[shape.type]


_SCALARS = {"string": "String", "integer": "i64", "number": "f64", "boolean": "bool"}


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
    owners: dict[tuple[str, str], tuple[Owner, Position]] = {}
    nested_seen: set[tuple[object, ...]] = set()

    def claim(
        space: str, name: str, what: Owner, position: Position, key: KeyPath, fix: str
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
        if reason is None and earlier is None:
            owners[(space, name)] = (what, position)
            return True
        if reason is not None:
            message = f"Rust name {name!r} of {_said(what)} {reason}; {fix}"
        else:
            assert earlier is not None  # one of the two, by the test above
            message = (
                f"Rust name {name!r} of {_said(what)} is already the Rust name of "
                f"{_said(earlier[0])} (line {earlier[1].line}); {fix}"
            )
        problems.append(
            Diagnostic(path=path, position=position, key=key_path(key), message=message)
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
            # Said only with a problem: a clash is rare, a code's names many.
            ckey = (dkey, code.code)
            names = code_names(named)
            fix = "set `class:` on the code to choose another"
            for space, rust, kind in (
                ("code", names.variant, "variant"),
                ("item", names.new, "constructor"),
                ("method", names.is_, "helper"),
                ("item", names.details, "details struct"),
            ):
                if rust is not None and not claim(
                    space, rust, (kind, code), code.position, ckey, fix
                ):
                    break
            for alias in named.aliases:
                if alias.name in refused:
                    continue  # its class name is refused already
                other = alias_names(alias, names)
                what = f"alias {alias.name!r} of code {code.code!r}"
                for space, rust, kind in (
                    ("code", other.variant, "Code constant"),
                    ("item", other.new, "constructor"),
                    ("method", other.is_, "helper"),
                    ("item", other.details, "details type"),
                ):
                    if rust is not None and not claim(
                        space,
                        rust,
                        f"the Rust {kind} of {what}",
                        code.position,
                        ckey,
                        "choose another alias",
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
                            path=path,
                            position=code.position,
                            key=key_path(ckey),
                            message=message,
                        )
                    )
                spelt.setdefault(rust, field)
            for nested in nested_structs(named):
                if nested.origin in nested_seen:
                    continue  # a shared declaration: one struct, claimed once
                nested_seen.add(nested.origin)
                what = f"the Rust struct of details member {nested.path!r}"
                fix = "rename the field or member"
                nkey = {
                    "top": "",
                    "domain": f"domains.{nested.origin[1]}.",
                    "code": f"{key_path(ckey)}.",
                }[str(nested.origin[0])] + f"details.{_yaml_key(nested.path)}"
                if claim("item", nested.name, what, nested.position, nkey, fix):
                    problems += _members(nested, path, nkey)
    return problems


def _said(what: Owner) -> str:
    """``what`` as messages say it: the text, or the Rust name of one of a code's."""
    if isinstance(what, str):
        return what
    kind, code = what
    return f"the Rust {kind} of {code_said(code)}"


def _yaml_key(path: str) -> str:
    """A member's path (``causes[].owner``) as its key in the YAML
    (``causes.items.fields.owner``)."""
    head, *members = path.split(".")
    return "".join([head, *(".fields." + m for m in members)]).replace("[]", ".items")


def _members(nested: NestedStruct, path: str, key: str) -> list[Diagnostic]:
    """Two members of a nested object spelling one Rust field are refused."""
    problems = []
    spelt: dict[str, str] = {}
    for member in nested.fields:
        rust = field_name(member.name)
        if rust in spelt:
            message = (
                f"members {spelt[rust]!r} and {member.name!r} of details member "
                f"{nested.path!r} are both the Rust field {rust!r}; rename one"
            )
            mkey = f"{key}.fields.{member.name}"
            problems.append(
                Diagnostic(
                    path=path, position=member.position, key=mkey, message=message
                )
            )
        spelt.setdefault(rust, member.name)
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
