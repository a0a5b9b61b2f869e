"""Python's names: the package's, each domain module's, and their checks.

A domain's and a code's names are the class names the core gives every
language with classes (:func:`taxogen.language.class_names`); the package's
are its import name (the taxonomy's name plus ``_errors``), its distribution
(that with dashes), the base class and the type guard ``is_<base in snake
case>``, which may be no builtin, keyword or name the module defines.  Which
of Python's reserved names (``reserved.py``) a class or a details field is,
the core asks here.  ``LANGUAGES`` is what the core reads.
"""

from __future__ import annotations

from collections.abc import Mapping
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
from taxogen.naming import NamedDomain, Names, snake
from taxogen.targets.python import nested
from taxogen.targets.python.reserved import (
    PYTHON_BUILTINS,
    PYTHON_EXCEPTIONS,
    PYTHON_HARD_KEYWORDS,
    PYTHON_KEYWORDS,
    PYTHON_MODULE_NAMES,
    PYTHON_ROOT_EXCEPTIONS,
    PYTHON_STANDARD_NAMES,
)
from taxogen.typeschema import Doc

__all__ = [
    "LANGUAGES",
    "PYTHON_EXCEPTIONS",
    "PythonNames",
    "dist",
    "domain_module",
    "guard",
    "package",
    "python_dist",
]


def package(names: Names) -> str:
    """The package: the taxonomy's name plus ``_errors``."""
    return f"{names.taxonomy.name}_errors"


def python_dist(package: str) -> str:
    """The distribution name of a Python package: its name with dashes."""
    return package.replace("_", "-")


def dist(names: Names) -> str:
    """The distribution name of the package."""
    return python_dist(package(names))


def guard(names: Names) -> str:
    """The type guard: ``is_`` and the base class in snake case."""
    return f"is_{snake(names.base)}"


def domain_module(domain: NamedDomain) -> str:
    """The private module of a domain's classes in the lazy layout.

    The prefix keeps it apart from the package's own private names (a
    submodule, once imported, is an attribute of its package), and enum
    members are unique and upper snake, so their lower case is too.
    """
    return f"_domain_{domain.member.lower()}"


def _reserved(name: str) -> list[tuple[str, str]]:
    found = []
    if name in PYTHON_KEYWORDS:
        found.append(("keyword", "a Python keyword"))
    # A class may take a builtin exception's name (issue 30 §6: errno's
    # FileNotFoundError): the generated module then writes builtins.X for it.
    if name in PYTHON_BUILTINS and (
        name not in PYTHON_EXCEPTIONS or name in PYTHON_ROOT_EXCEPTIONS
    ):
        found.append(("builtin", "the Python builtin"))
    if name in PYTHON_STANDARD_NAMES:
        found.append(("clause", f"would shadow the standard Python class enum.{name}"))
    if name in PYTHON_MODULE_NAMES:
        found.append(("module", "Python"))
    return found


#: What the Python error holds or its constructor takes beyond the error
#: model's own members (:data:`taxogen.reserved.ERROR_OWN_NAMES`): a field of
#: one of these names would be mistaken for it.
PYTHON_ERROR_NAMES = frozenset({"self", "wire_code"})


def _field(name: str) -> list[str]:
    # A field is a keyword argument: soft keywords (match, type) are fine there.
    found = ["is a Python keyword"] if name in PYTHON_HARD_KEYWORDS else []
    if name in PYTHON_ERROR_NAMES:
        found.append("is a name the Python error holds or its constructor takes")
    return found


def _check_base(base: str, position: Position, path: str) -> list[Diagnostic]:
    name = f"is_{snake(base)}"
    if name in PYTHON_MODULE_NAMES:
        clash = "a name the generated module defines itself"
    elif name in PYTHON_BUILTINS | PYTHON_KEYWORDS:
        clash = "a builtin"
    else:
        return []
    message = (
        f"base {base!r} makes the Python type guard {name!r}, which is {clash}; "
        "choose another base name"
    )
    return [Diagnostic(path=path, position=position, key="base", message=message)]


class PythonNames(TypedDict):
    package: str
    dist: Annotated[str, Doc("the distribution name")]
    base: str
    guard: str


def _package(names: Names) -> PythonNames:
    return {
        "package": package(names),
        "dist": dist(names),
        "base": names.base,
        "guard": guard(names),
    }


def _renamed(options: Mapping[str, object]) -> dict[str, object]:
    """``[tool.taxogen.python]``'s ``name`` is the distribution's."""
    return {"dist": options["name"]} if "name" in options else {}


def _renames(old: Names, new: Names) -> list[Rename]:
    """Its package-level names before and after: one that differs is a
    breaking rename."""
    return [
        ("Python package", package(old), package(new)),
        ("Python type guard", guard(old), guard(new)),
    ]


#: The python target's names, as the core reads them.
LANGUAGES = {
    "python": Language(
        package_type=PythonNames,
        domain_type=ClassNames,
        code_type=CodeNames,
        package=_package,
        renamed=_renamed,
        domain=class_names,
        code=code_class_names,
        renames=_renames,
        check_base=_check_base,
        reserved=_reserved,
        field=_field,
        check=nested.check,
    )
}
