"""Go's names: the identifiers the go target gives a taxonomy, and their checks.

A code's Go names come from its class name with Go's conventions (docs "Go",
Names): the words each capitalised, Go's initialisms in capitals; a domain's
constant from its key.  Every one is exported, and none may be a Go keyword,
predeclared identifier or name the generated package declares itself
(``reserved.py``), nor another code's or domain's Go name; two details fields
of one code may not be one struct field.  A nested typed object (issue 30
§7) is a struct too (:func:`object_types`): its name is another Go name
checked so, and two of its members may not be one struct field.
``LANGUAGES`` is what the core reads (:class:`taxogen.language.Language`):
these checks, which validation runs for every taxonomy, and the Go names in
the model document.

It runs past 300 lines because the nested structs' names are made here, where
the check that refuses their clashes can see every other Go name.
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
from taxogen.targets.go.reserved import GO_INITIALISMS, go_reserved_reason
from taxogen.typeschema import Doc

__all__ = [
    "LANGUAGES",
    "CodeIdentifiers",
    "GoObject",
    "alias_names",
    "GoCodeNames",
    "GoDomainNames",
    "GoNames",
    "check",
    "code_names",
    "domain_const",
    "domain_helper",
    "go_name",
    "go_package",
    "object_types",
]


def go_name(text: str, *, lower: bool = False) -> str:
    """An exported Go identifier made of the words of ``text`` (a code, a class
    name or a field name), Go's initialisms in capitals: ``user_id`` → ``UserID``,
    ``InvalidUrlError`` → ``InvalidURLError``, ``utf8_text`` → ``UTF8Text``.

    ``lower``: the words are spelt in capitals (an upper_snake code), so each is
    lower-cased before it is capitalised; otherwise a word keeps its own capitals
    (a class name's ``IOError`` stays ``IOError``).
    """
    known = _SPELT_LOWER if lower else _SPELT
    spelt = []
    for word in split_words(text):
        done = known.get(word)
        if done is None:
            if word.upper() in GO_INITIALISMS:
                done = word.upper()
            else:
                done = word[:1].upper() + (word[1:].lower() if lower else word[1:])
            known[word] = done
        spelt.append(done)
    return "".join(spelt)


# Each word's Go spelling, once per process: a taxonomy's names share a few
# hundred words, and the go target and its check spell every code's (issue 34).
_SPELT: dict[str, str] = {}
_SPELT_LOWER: dict[str, str] = {}


def go_package(taxonomy_name: str) -> str:
    """The Go package name: the taxonomy's name without underscores, plus
    ``errors`` (``harmovela`` → ``harmovelaerrors``), lower case as Go wants."""
    return taxonomy_name.replace("_", "") + "errors"


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class CodeIdentifiers:
    """A code's Go names: the Code constant, the constructor, the IsXxx helper,
    the details struct (if it has fields) and each field's struct field."""

    const: str
    new: str
    is_: str
    details: str | None
    fields: tuple[tuple[str, str], ...]  # (details key, Go field)


def code_names(named: NamedCode) -> CodeIdentifiers:
    """The Go names of a code, from its class name."""
    go_class = go_name(named.class_name)
    return CodeIdentifiers(
        const="Code" + (go_class.removesuffix("Error") or go_class),
        new="New" + go_class,
        is_="Is" + go_class,
        details=None if named.details_type is None else go_name(named.details_type),
        fields=tuple((f.name, go_name(f.name)) for f in named.code.fields),
    )


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class GoObject:
    """A nested typed object's struct (issue 30 §7): its Go name, its members
    (each with its Go field), where it is declared and what declares it.

    A field the top level or a domain declares is one declaration shared by its
    codes, so ``origin`` (the declaring scope and the path of the object in
    it) is the same for every code: the struct is one, not a copy per code.
    """

    name: str
    path: str  # the wire path, as the docs tables write it: causes[], meta.region
    key: str  # the YAML key path of its declaration, for diagnostics
    origin: tuple[str, ...]
    members: tuple[tuple[Field, str], ...]  # (member, Go field)
    position: Position


def _objects(
    shape: Shape, name: str, path: str, key: str, origin: tuple[str, ...], at: Field
) -> list[GoObject]:
    """The structs of ``shape`` (a field's or a member's), named ``name`` (the
    parent's struct name and the member's Go name), ``Item`` added for an
    array's items; then those of its members, depth first."""
    if shape.type == "array" and shape.items is not None:
        return _objects(
            shape.items, name + "Item", path + "[]", key + ".items", origin, at
        )
    if shape.type != "object" or shape.fields is None:
        return []
    found = [
        GoObject(
            name=name,
            path=path,
            key=key,
            origin=origin + (path,),
            members=tuple((m, go_name(m.name)) for m in shape.fields),
            position=at.position,
        )
    ]
    for member in shape.fields:
        found += _objects(
            member.shape,
            name + go_name(member.name),
            f"{path}.{member.name}",
            f"{key}.fields.{member.name}",
            origin,
            member,
        )
    return found


def object_types(named: NamedCode, details: str | None = None) -> list[GoObject]:
    """The structs of a code's nested typed objects, in field order: a field
    the top level declares is ``Details`` and its Go name (``DetailsCauses``),
    one a domain declares the domain's Go name, ``Details`` and its own
    (``ResourceDetailsResource``), one the code declares its details struct's
    name and its own (``InvalidDetailsTags``); an array's items add ``Item``
    (``DetailsCausesItem``), a member its Go name (``...ResourceOwner``)."""
    code = named.code
    if details is None:
        details = code_names(named).details or ""
    found: list[GoObject] = []
    origin: tuple[str, ...]
    for field in code.fields:
        if field.top:
            stem, key, origin = "Details", "details", ("top",)
        elif field.domain is not None:
            stem = go_name(field.domain, lower=True) + "Details"
            key, origin = f"domains.{field.domain}.details", ("domain", field.domain)
        else:
            stem = details
            key = f"domains.{code.domain}.codes.{code.code}.details"
            origin = ("code", code.code)
        found += _objects(
            field.shape,
            stem + go_name(field.name),
            field.name,
            f"{key}.{field.name}",
            origin,
            field,
        )
    return found


def alias_names(alias: NamedAlias) -> CodeIdentifiers:
    """The Go names of a code's alias, from its class name: aliases of the
    code's constant, constructor and helper."""
    go_class = go_name(alias.class_name)
    return CodeIdentifiers(
        const="Code" + (go_class.removesuffix("Error") or go_class),
        new="New" + go_class,
        is_="Is" + go_class,
        details=None,
        fields=(),
    )


def domain_const(named: NamedDomain) -> str:
    """The Domain constant of a domain: ``Domain`` plus its key's words."""
    return "Domain" + go_name(named.domain.key, lower=True)


def domain_helper(named: NamedDomain) -> str:
    """The helper that asks whether an error is of a domain or of one of its
    child domains: ``In`` plus its Domain constant (``InDomainTask``)."""
    return "In" + domain_const(named)


def check(
    domains: Sequence[NamedDomain], refused: Collection[str], path: str
) -> list[Diagnostic]:
    """Every problem of the Go names of these domains and their codes.

    A code's Go names come from its class name, so ``class:`` resolves a clash;
    a domain's constant from its key.  A code whose class name the core refused
    is not checked again here, and a code's first Go clash stands for the rest
    (they share a stem)."""
    problems: list[Diagnostic] = []
    owners: dict[str, tuple[Owner, Position]] = {}
    declared: set[tuple[str, ...]] = set()  # the declarations claimed, once each

    def claim(
        name: str, what: Owner, position: Position, key: KeyPath, fix: str
    ) -> bool:
        reason = go_reserved_reason(name)
        earlier = owners.get(name)
        if reason is None and earlier is None:
            owners[name] = (what, position)
            return True
        if reason is not None:
            message = f"Go name {name!r} of {_said(what)} {reason}; {fix}"
        else:
            assert earlier is not None  # one of the two, by the test above
            message = (
                f"Go name {name!r} of {_said(what)} is already the Go name of "
                f"{_said(earlier[0])} (line {earlier[1].line}); {fix}"
            )
        problems.append(
            Diagnostic(path=path, position=position, key=key_path(key), message=message)
        )
        return False

    for domain in domains:
        dkey = f"domains.{domain.domain.key}"
        what = f"the Go constant of domain {domain.domain.key!r}"
        fix = "rename the domain"
        # The helper shares the constant's stem: its clash stands for both.
        if claim(domain_const(domain), what, domain.domain.position, dkey, fix):
            helper = f"the Go helper of domain {domain.domain.key!r}"
            claim(domain_helper(domain), helper, domain.domain.position, dkey, fix)
        for named in domain.codes:
            code = named.code
            # Said only with a problem: a clash is rare, a code's names many.
            ckey = (dkey, code.code)
            names = code_names(named)
            if code.code not in refused:
                fix = "set `class:` on the code to choose another"
                for go, kind in (
                    (names.const, "constant"),
                    (names.new, "constructor"),
                    (names.is_, "helper"),
                    (names.details, "details struct"),
                ):
                    if go is not None and not claim(
                        go, (kind, code), code.position, ckey, fix
                    ):
                        break
                for alias in named.aliases:
                    if alias.name in refused:
                        continue
                    other = alias_names(alias)
                    what = f"alias {alias.name!r} of code {code.code!r}"
                    for go, kind in (
                        (other.const, "constant"),
                        (other.new, "constructor"),
                        (other.is_, "helper"),
                    ):
                        if not claim(
                            go,
                            f"the Go {kind} of {what}",
                            code.position,
                            ckey,
                            "choose another alias",
                        ):
                            break
            spelt: dict[str, str] = {}
            for field, go in names.fields:
                if go in spelt:
                    message = (
                        f"details fields {spelt[go]!r} and {field!r} of code "
                        f"{code.code!r} are both the Go field {go!r}; rename one"
                    )
                    problems.append(
                        Diagnostic(
                            path=path,
                            position=code.position,
                            key=key_path(ckey),
                            message=message,
                        )
                    )
                spelt.setdefault(go, field)
            # "" (not None, which means "not given"): no names made again.
            for struct in object_types(named, names.details or ""):
                if struct.origin in declared:
                    continue  # a shared field's struct, claimed by an earlier code
                declared.add(struct.origin)
                what = f"the Go struct of details {struct.path!r}"
                fix = "rename the field or member"
                claim(struct.name, what, struct.position, struct.key, fix)
                spelt = {}
                for member, go in struct.members:
                    if go in spelt:
                        message = (
                            f"members {spelt[go]!r} and {member.name!r} of details "
                            f"{struct.path!r} are both the Go field {go!r}; rename one"
                        )
                        problems.append(
                            Diagnostic(
                                path=path,
                                position=member.position,
                                key=f"{struct.key}.fields.{member.name}",
                                message=message,
                            )
                        )
                    spelt.setdefault(go, member.name)
    return problems


def _said(what: Owner) -> str:
    """``what`` as messages say it: the text, or the Go name of one of a code's."""
    if isinstance(what, str):
        return what
    kind, code = what
    return f"the Go {kind} of {code_said(code)}"


class GoDomainNames(TypedDict):
    constant: Annotated[str, Doc("its Domain constant")]
    helper: Annotated[
        str, Doc("the InDomainXxx(err error) bool function: it or a child domain")
    ]


class GoCodeNames(TypedDict):
    constant: Annotated[str, Doc("its Code constant")]
    constructor: Annotated[str, Doc("the function that builds its error")]
    helper: Annotated[str, Doc("the IsXxxError(err error) bool function")]
    details_type: Annotated[str | None, Doc("the struct of its declared details")]
    fields: Annotated[dict[str, str], Doc("each details field → its struct field")]


class GoNames(TypedDict):
    package: Annotated[str, Doc("the Go package name")]


def _package(names: Names) -> GoNames:
    return {"package": go_package(names.taxonomy.name)}


def _domain(named: NamedDomain) -> GoDomainNames:
    return {"constant": domain_const(named), "helper": domain_helper(named)}


def _code(named: NamedCode) -> GoCodeNames:
    names = code_names(named)
    return {
        "constant": names.const,
        "constructor": names.new,
        "helper": names.is_,
        "details_type": names.details,
        "fields": dict(names.fields),
    }


#: The go target's names, as the core reads them.
LANGUAGES = {
    "go": Language(
        package_type=GoNames,
        domain_type=GoDomainNames,
        code_type=GoCodeNames,
        package=_package,
        domain=_domain,
        code=_code,
        check=check,
    )
}
