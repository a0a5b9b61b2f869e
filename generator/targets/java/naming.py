"""Java's names: the identifiers the java target gives a taxonomy, and their checks.

Classes are the names every language with classes shares (the core's); a code
is also a ``Code`` constant and a domain a ``Domain`` constant, each its
member name (``TASK_NOT_FOUND``); a details field is a record component in
lowerCamelCase (``task_id`` → ``taskId``), a Java word or a method every record
has spelt with a trailing ``_`` (``default_``).  Two fields of one code may not
be one component.  A nested typed object (issue 30 §7) is a record named by
where it is declared (:func:`nested_name`, :func:`owner_prefix`:
``ApiDetailsCausesItem``, ``ResourceDetailsResourceOwner``), its members
components as fields are; a record name another class of the package has, or
two members of one component, are refused.  The package is ``package`` of
``[tool.taxogen.java]``, else ``<name>.errors``.  ``LANGUAGES`` is what the core
reads (:class:`taxogen.language.Language`).

It runs past 300 lines because the records of nested objects are named and
checked here, beside the components they hold, as the other names are.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Collection, Iterator, Mapping, Sequence
from typing import Annotated, TypedDict

from taxogen.diagnostics import Diagnostic, Position
from taxogen.language import Language
from taxogen.model import Field
from taxogen.naming import NamedCode, NamedDomain, Names, details_type, split_words
from taxogen.targets.java.reserved import (
    JAVA_LANG_USED,
    JAVA_PACKAGE_NAMES,
    JAVA_RECORD_METHODS,
    JAVA_WORDS,
)
from taxogen.typeschema import Doc

__all__ = [
    "LANGUAGES",
    "JavaCodeNames",
    "JavaDomainNames",
    "JavaNames",
    "NestedRecord",
    "check",
    "default_package",
    "field_name",
    "nested_name",
    "nested_records",
    "owner_prefix",
]


def default_package(taxonomy_name: str) -> str:
    """``<name>.errors``, the name without underscores (``payments_api`` →
    ``paymentsapi.errors``); a Java word gets a trailing ``_``."""
    head = taxonomy_name.replace("_", "").lower()
    return (head + "_" if head in JAVA_WORDS else head) + ".errors"


def field_name(name: str) -> str:
    """A details field's record component: its words in lowerCamelCase."""
    parts = split_words(name) or [name]
    text = parts[0].lower() + "".join(w[:1].upper() + w[1:] for w in parts[1:])
    if text in JAVA_WORDS or text in JAVA_RECORD_METHODS:
        return text + "_"
    return text


def _words(name: str) -> str:
    """A member's words in UpperCamelCase (``owner_ref`` → ``OwnerRef``)."""
    return "".join(w[:1].upper() + w[1:] for w in split_words(name) or [name])


def nested_name(prefix: str, field: Field) -> str | None:
    """The record of a field's nested typed object (issue 30 §7): ``prefix`` and
    the field's words (``ResourceDetails`` + ``owner``), with ``Item`` for an
    array's items; None where the field holds no object with ``fields:``."""
    shape = field.shape
    if shape.type == "object" and shape.fields is not None:
        return prefix + _words(field.name)
    items = shape.items
    if shape.type == "array" and items is not None and items.fields is not None:
        return prefix + _words(field.name) + "Item"
    return None


def owner_prefix(
    field: Field, named: NamedCode, base: str, domains: Mapping[str, str]
) -> str:
    """What the records of a code's details ``field`` start with: the details
    type of whatever declares it, so a shared field gives one record, not one
    per code: the base class's (``ApiDetails``) for the top level's, its
    domain's class's (``ResourceDetails``) for a domain's, the code's own
    (``NotFoundDetails``) for the code's. ``domains``: each domain's class."""
    if field.top:
        return details_type(base)
    if field.domain is not None:
        return details_type(domains[field.domain])
    return named.details_type or details_type(named.class_name)


def _declared(field: Field, named: NamedCode, dkey: str) -> str:
    """The key path of where a code's details field is declared."""
    if field.top:
        return f"details.{field.name}"
    if field.domain is not None:
        return f"domains.{field.domain}.details.{field.name}"
    return f"{dkey}.codes.{named.code.code}.details.{field.name}"


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class NestedRecord:
    """The record of a nested typed object: a field's object, or its items'."""

    name: str
    fields: tuple[Field, ...]
    key: str  # where its object's ``fields:`` are declared, as a key path
    shown: str  # its path in the details, as the docs tables write it
    position: Position
    description: str


def _below(name: str, field: Field, key: str, shown: str) -> Iterator[NestedRecord]:
    shape = field.shape
    declared = shape.fields
    if declared is None and shape.items is not None:
        declared = shape.items.fields
        key += ".items"
        shown += "[]"
    assert declared is not None  # nested_name gave ``name``
    key += ".fields"
    yield NestedRecord(
        name=name,
        fields=declared,
        key=key,
        shown=shown,
        position=field.position,
        description=field.description,
    )
    for member in declared:
        inner = nested_name(name, member)
        if inner is not None:
            yield from _below(
                inner, member, f"{key}.{member.name}", f"{shown}.{member.name}"
            )


def nested_records(
    base: str, domains: Sequence[NamedDomain], refused: Collection[str] = ()
) -> list[NestedRecord]:
    """Every nested object's record, in source order, each once (a shared field's
    object is one record); two of one name declared apart are both listed (the
    check refuses them)."""
    classes = {d.domain.key: d.class_name for d in domains}
    found: dict[tuple[str, str], NestedRecord] = {}
    for domain in domains:
        dkey = f"domains.{domain.domain.key}"
        for named in domain.codes:
            if named.code.code in refused:
                continue
            for field in named.code.fields:
                prefix = owner_prefix(field, named, base, classes)
                name = nested_name(prefix, field)
                if name is None:
                    continue
                for record in _below(
                    name, field, _declared(field, named, dkey), field.name
                ):
                    found.setdefault((record.name, record.key), record)
    return list(found.values())


def _components(
    fields: Sequence[Field], owner: tuple[str, str]
) -> list[tuple[str, Field]]:
    """Each two fields (or members) of one record that are one record component:
    the message, and the second of them."""
    found = []
    spelt: dict[str, str] = {}
    for field in fields:
        java = field_name(field.name)
        if java in spelt:
            message = (
                f"{owner[0]} {spelt[java]!r} and {field.name!r}{owner[1]} are both "
                f"the Java record component {java!r}; rename one"
            )
            found.append((message, field))
        spelt.setdefault(java, field.name)
    return found


def check(
    domains: Sequence[NamedDomain], refused: Collection[str], path: str
) -> list[Diagnostic]:
    """Two details fields of one code (or two members of one nested object) that
    are one record component; a nested object's record named as another class
    of the package (or another nested object's record) is."""
    problems = []
    # The package's classes: a root domain extends the base class.
    base = next((d.parent_class for d in domains if d.domain.parent is None), "")
    taken: dict[str, str] = {base: "the base class"}
    for name in JAVA_PACKAGE_NAMES | JAVA_LANG_USED:
        taken[name] = "a class the generated Java package names"
    for domain in domains:
        taken.setdefault(
            domain.class_name, f"the class of domain {domain.domain.key!r}"
        )
        for named in domain.codes:
            code = named.code
            what = f"code {code.code!r}"
            taken.setdefault(named.class_name, f"the class of {what}")
            for alias in named.aliases:
                taken.setdefault(alias.class_name, f"the class of alias {alias.name!r}")
            if named.details_type:
                taken.setdefault(named.details_type, f"the details record of {what}")
            key = f"domains.{domain.domain.key}.codes.{code.code}"
            owner = ("details fields", f" of code {code.code!r}")
            for message, _ in _components(code.fields, owner):
                problems.append(
                    Diagnostic(
                        path=path, position=code.position, key=key, message=message
                    )
                )
    for record in nested_records(base, domains, refused):
        where = record.key.removesuffix(".fields")
        earlier = taken.get(record.name)
        if earlier is not None:
            message = (
                f"its object would be the Java record {record.name!r}, which is "
                f"already {earlier}; rename the field or a member"
            )
            problems.append(
                Diagnostic(
                    path=path, position=record.position, key=where, message=message
                )
            )
        taken.setdefault(record.name, f"the record of the object of {where}")
        owner = ("members", f" of {where}")
        for message, member in _components(record.fields, owner):
            problems.append(
                Diagnostic(
                    path=path,
                    position=member.position,
                    key=f"{record.key}.{member.name}",
                    message=message,
                )
            )
    return problems


def _reserved(name: str) -> list[tuple[str, str]]:
    if name in JAVA_PACKAGE_NAMES:
        return [("module", "Java")]
    if name in JAVA_LANG_USED:
        return [("builtin", "the java.lang type")]
    return []


class JavaNames(TypedDict):
    package: Annotated[str, Doc("the Java package")]


class JavaDomainNames(TypedDict):
    constant: Annotated[str, Doc("its constant of the Domain class")]


class JavaCodeNames(TypedDict):
    constant: Annotated[str, Doc("its constant of the Code class")]
    fields: Annotated[dict[str, str], Doc("each details field → its record component")]


def _package(names: Names) -> JavaNames:
    return {"package": default_package(names.taxonomy.name)}


def _renamed(options: Mapping[str, object]) -> dict[str, object]:
    package = options.get("package")
    return {"package": package} if isinstance(package, str) else {}


def _domain(named: NamedDomain) -> JavaDomainNames:
    return {"constant": "Domain." + named.member}


def _code(named: NamedCode) -> JavaCodeNames:
    return {
        "constant": "Code." + named.member,
        "fields": {f.name: field_name(f.name) for f in named.code.fields},
    }


#: The java target's names, as the core reads them.
LANGUAGES = {
    "java": Language(
        package_type=JavaNames,
        domain_type=JavaDomainNames,
        code_type=JavaCodeNames,
        package=_package,
        renamed=_renamed,
        domain=_domain,
        code=_code,
        check=check,
        reserved=_reserved,
    )
}
