"""Python's names, as the core reads them: the package's, and each class's.

A domain's and a code's names are the class names the core gives every
language with classes (:func:`generator.language.class_names`); the package's
are its import name, distribution, base class and type guard.  Its reserved
words and checks are still the core's (:mod:`generator.reserved`, issue 31
§1: to be moved here).
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

__all__ = ["LANGUAGES", "PythonNames"]


class PythonNames(TypedDict):
    package: str
    dist: Annotated[str, Doc("the distribution name")]
    base: str
    guard: str


def _package(names: Names) -> PythonNames:
    return {
        "package": names.python_package,
        "dist": names.python_dist,
        "base": names.base,
        "guard": names.py_guard,
    }


def _renames(old: Names, new: Names) -> list[Rename]:
    """Its package-level names before and after: one that differs is a
    breaking rename."""
    return [
        ("Python package", old.python_package, new.python_package),
        ("Python type guard", old.py_guard, new.py_guard),
    ]


#: The python target's names, as the core reads them.
LANGUAGES = {
    "python": Language(
        package_type=PythonNames,
        domain_type=ClassNames,
        code_type=CodeNames,
        package=_package,
        domain=class_names,
        code=code_class_names,
        renames=_renames,
    )
}
