"""TypeScript's names, as the core reads them: the package's, and each class's.

A domain's and a code's names are the class names the core gives every
language with classes (:func:`generator.language.class_names`); the package's
are its npm name, base class, type guard, options type and brand.  Its
reserved words and checks are still the core's (:mod:`generator.reserved`,
issue 31 §1: to be moved here).
"""

from __future__ import annotations

from typing import Annotated, TypedDict

from generator.language import (
    ClassNames,
    CodeNames,
    Language,
    Rename,
    class_names,
    code_class_names,
)
from generator.naming import Names
from generator.typeschema import Doc

__all__ = ["LANGUAGES", "TypeScriptNames"]


class TypeScriptNames(TypedDict):
    package: Annotated[str, Doc("the npm package name")]
    base: str
    guard: str
    options: Annotated[str, Doc("the constructor options type")]
    brand: Annotated[str, Doc("the Symbol.for key every error carries")]


def _package(names: Names) -> TypeScriptNames:
    return {
        "package": names.npm_package,
        "base": names.base,
        "guard": names.ts_guard,
        "options": names.ts_options,
        "brand": names.brand,
    }


def _renames(old: Names, new: Names) -> list[Rename]:
    """Its package-level names before and after: one that differs is a
    breaking rename."""
    return [
        ("npm package", old.npm_package, new.npm_package),
        ("TypeScript type guard", old.ts_guard, new.ts_guard),
    ]


#: The typescript target's names, as the core reads them.
LANGUAGES = {
    "typescript": Language(
        package_type=TypeScriptNames,
        domain_type=ClassNames,
        code_type=CodeNames,
        package=_package,
        domain=class_names,
        code=code_class_names,
        renames=_renames,
    )
}
