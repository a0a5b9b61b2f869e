"""TypeScript's names: the package's, and their checks.

A domain's and a code's names are the class names the core gives every
language with classes (:func:`taxogen.language.class_names`); the package's
are its npm name (the taxonomy's name with dashes, plus ``-errors``), the base
class, the type guard ``is<Base>`` (no global, reserved word or name the
module binds), the constructor options type ``<Base>Options`` and the brand,
the ``Symbol.for`` key every error carries.  Which of TypeScript's reserved
names (``reserved.py``) a class or a details field is, the core asks here.
``LANGUAGES`` is what the core reads.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from typing import Annotated, TypedDict

from taxogen.diagnostics import Diagnostic, Position
from taxogen.language import (
    ClassNames,
    CodeNames,
    Language,
    Rename,
    class_names,
    code_class_names,
)
from taxogen.naming import NamedDomain, Names
from taxogen.targets.typescript import nested
from taxogen.targets.typescript.reserved import (
    JS_RESERVED,
    TS_GLOBALS,
    TS_MODULE_NAMES,
    TS_RESERVED,
)
from taxogen.typeschema import Doc

__all__ = ["LANGUAGES", "TypeScriptNames", "brand", "guard", "options", "package"]


def package(names: Names) -> str:
    """The npm package: the taxonomy's name with dashes, plus ``-errors``."""
    return f"{names.taxonomy.name.replace('_', '-')}-errors"


def guard(names: Names) -> str:
    """The type guard: ``is`` and the base class."""
    return guard_of(names.base)


def guard_of(base: str) -> str:
    """The type guard of base class ``base``."""
    return f"is{base}"


def options(names: Names) -> str:
    """The constructor options type: the base class plus ``Options``."""
    ((name, _what),) = _base_types(names.base)
    return name


def brand(names: Names) -> str:
    """The ``Symbol.for`` key every error of the package carries."""
    return f"{names.taxonomy.name}-errors.{names.base}"


def _reserved(name: str) -> list[tuple[str, str]]:
    found = []
    if name in TS_RESERVED:
        found.append(("keyword", "a TypeScript reserved word"))
    if name in TS_GLOBALS:
        found.append(("builtin", "the JavaScript global"))
    if name in TS_MODULE_NAMES:
        found.append(("module", "TypeScript"))
    return found


#: What the TypeScript error holds beyond the error model's own members
#: (:data:`taxogen.reserved.ERROR_OWN_NAMES`).
TS_ERROR_NAMES = frozenset({"wireCode"})


def _field(name: str) -> list[str]:
    # A field is a property: only the reserved words may not be a binding.
    found = ["is a JavaScript reserved word"] if name in JS_RESERVED else []
    if name in TS_ERROR_NAMES:
        found.append("is a name the TypeScript error holds")
    return found


def _check(
    domains: Sequence[NamedDomain], refused: Collection[str], path: str
) -> list[Diagnostic]:
    """The interfaces of nested objects (issue 30 §7, :mod:`nested`): none may
    take a name another one, a class, a details type or the module has."""
    base = nested.base_of(domains)
    if base is None:  # no domain (a taxonomy refused already): nothing nests
        return []
    taken = dict.fromkeys(TS_MODULE_NAMES, "a name the module defines")
    taken.update(dict.fromkeys([base, *_base_names(base)], "a name of the base"))
    taken[guard_of(base)] = "the type guard"
    for domain in domains:
        taken[domain.class_name] = f"the class of domain {domain.domain.key!r}"
        for code in domain.codes:
            what = f"code {code.code.code!r}"
            taken[code.class_name] = f"the class of {what}"
            for alias in code.aliases:
                taken[alias.class_name] = f"the class of alias {alias.name!r}"
            if code.details_type:
                taken[code.details_type] = f"the details type of {what}"
    return nested.check(domains, taken, path)


def _base_names(base: str) -> list[str]:
    return [name for name, _what in _base_types(base)]


def _base_types(base: str) -> list[tuple[str, str]]:
    return [(f"{base}Options", "the options type of the base class")]


def _check_base(base: str, position: Position, path: str) -> list[Diagnostic]:
    name = f"is{base}"
    if name in TS_MODULE_NAMES:
        clash = "a name the generated module defines itself"
    elif name in TS_GLOBALS | TS_RESERVED:
        clash = "a builtin"
    else:
        return []
    message = (
        f"base {base!r} makes the TypeScript type guard {name!r}, which is "
        f"{clash}; choose another base name"
    )
    return [Diagnostic(path=path, position=position, key="base", message=message)]


class TypeScriptNames(TypedDict):
    package: Annotated[str, Doc("the npm package name")]
    base: str
    guard: str
    options: Annotated[str, Doc("the constructor options type")]
    brand: Annotated[str, Doc("the Symbol.for key every error carries")]


def _package(names: Names) -> TypeScriptNames:
    return {
        "package": package(names),
        "base": names.base,
        "guard": guard(names),
        "options": options(names),
        "brand": brand(names),
    }


def _renamed(options: Mapping[str, object]) -> dict[str, object]:
    """``[tool.taxogen.typescript]``'s ``name`` is the npm package's."""
    return {"package": options["name"]} if "name" in options else {}


def _renames(old: Names, new: Names) -> list[Rename]:
    """Its package-level names before and after: one that differs is a
    breaking rename."""
    return [
        ("npm package", package(old), package(new)),
        ("TypeScript type guard", guard(old), guard(new)),
    ]


#: The typescript target's names, as the core reads them.
LANGUAGES = {
    "typescript": Language(
        package_type=TypeScriptNames,
        domain_type=ClassNames,
        code_type=CodeNames,
        package=_package,
        renamed=_renamed,
        domain=class_names,
        code=code_class_names,
        renames=_renames,
        check_base=_check_base,
        base_types=_base_types,
        reserved=_reserved,
        field=_field,
        check=_check,
    )
}
