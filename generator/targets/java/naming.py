"""Java's names: the identifiers the java target gives a taxonomy, and their checks.

Classes are the names every language with classes shares (the core's); a code
is also a ``Code`` constant and a domain a ``Domain`` constant, each its
member name (``TASK_NOT_FOUND``); a details field is a record component in
lowerCamelCase (``task_id`` → ``taskId``), a Java word or a method every record
has spelt with a trailing ``_`` (``default_``).  Two fields of one code may not
be one component.  The package is ``package`` of ``[tool.taxogen.java]``, else
``<name>.errors``.  ``LANGUAGES`` is what the core reads
(:class:`taxogen.language.Language`).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from typing import Annotated, TypedDict

from taxogen.diagnostics import Diagnostic
from taxogen.language import Language
from taxogen.naming import NamedCode, NamedDomain, Names, split_words
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
    "check",
    "default_package",
    "field_name",
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


def check(
    domains: Sequence[NamedDomain], refused: Collection[str], path: str
) -> list[Diagnostic]:
    """Two details fields of one code that are one record component."""
    problems = []
    for domain in domains:
        for named in domain.codes:
            code = named.code
            spelt: dict[str, str] = {}
            for field in code.fields:
                java = field_name(field.name)
                if java in spelt:
                    message = (
                        f"details fields {spelt[java]!r} and {field.name!r} of code "
                        f"{code.code!r} are both the Java record component "
                        f"{java!r}; rename one"
                    )
                    key = f"domains.{domain.domain.key}.codes.{code.code}"
                    problems.append(
                        Diagnostic(
                            path=path, position=code.position, key=key, message=message
                        )
                    )
                spelt.setdefault(java, field.name)
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
