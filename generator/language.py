"""Language: what a target tells the core about the names it gives a taxonomy.

The core names codes and domains in language-neutral terms (words, case, the
class names every target with classes shares, and one check that no two of
them meet); everything one output language adds lives in its target's folder,
in a ``naming.py`` whose ``LANGUAGES`` maps each of the folder's target names
to a :class:`Language`: the checks of its own names, which validation runs
over every taxonomy (a target need not be selected for its clashes to be
reported: the taxonomy is shared, and the model document names every
target's identifiers), its names in the model document (with their
``TypedDict`` types, from which the document's schema is derived), and which
of its renames ``taxogen diff`` calls breaking.  :func:`taxogen.targets.languages`
finds them; nothing in the core names a language.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Collection, Mapping, Sequence
from typing import TYPE_CHECKING, Annotated, Any, TypedDict

from taxogen.diagnostics import Diagnostic, Position
from taxogen.typeschema import Doc

if TYPE_CHECKING:  # naming imports this module
    from taxogen.naming import NamedCode, NamedDomain, Names

__all__ = [
    "ClassNames",
    "CodeNames",
    "Language",
    "Rename",
    "class_names",
    "code_class_names",
]

#: One of a language's package-level names in two versions: what it is (for
#: the message, "the <label> is renamed from <before> to <after>"), before,
#: after.
Rename = tuple[str, str, str]
#: A language's own name checks: the named domains (their codes inside), the
#: codes whose class name the core refused already (reported once, not again
#: for each language) and the taxonomy's path; every problem found.
Check = Callable[["Sequence[NamedDomain]", Collection[str], str], list[Diagnostic]]


def _no_problems(
    domains: Sequence[NamedDomain], refused: Collection[str], path: str
) -> list[Diagnostic]:
    return []


def _no_renames(old: Names, new: Names) -> list[Rename]:
    return []


def _nothing(name: str) -> list[Any]:
    return []


def _not_renamed(options: Mapping[str, object]) -> Mapping[str, object]:
    return {}


def _no_base_problems(base: str, position: Position, path: str) -> list[Diagnostic]:
    return []


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class Language:
    """One target's names: checked, documented, and compared across versions."""

    #: The ``TypedDict`` classes of its names in the model document: the
    #: package's (``names.<target>``), a domain's and a code's
    #: (``domains[].names.<target>``, ``codes[].names.<target>``).
    package_type: Any
    domain_type: Any
    code_type: Any
    #: Its names in the model document, each a value of the type above.
    package: Callable[[Names], Mapping[str, object]]
    #: Its package-level names its options give instead (``[tool.taxogen.<target>]``'s
    #: ``name``: the npm package, the distribution), by key of ``package``'s.
    renamed: Callable[[Mapping[str, object]], Mapping[str, object]] = _not_renamed
    domain: Callable[[NamedDomain], Mapping[str, object]]
    code: Callable[[NamedCode], Mapping[str, object]]
    #: Its own name checks (keywords, its package's names, clashes of its own).
    check: Check = _no_problems
    #: Its checks of the names it makes from the base class (a type guard...),
    #: given the base, where it stands and the taxonomy's path; run once the
    #: base is a free class name.
    check_base: Callable[[str, Position, str], list[Diagnostic]] = _no_base_problems
    #: The types it declares beside the classes, in their namespace, made from
    #: the base class (TypeScript's ``<Base>Options``): (name, what it is), each
    #: claimed by the core like a class name, so no code's class can take it.
    base_types: Callable[[str], list[tuple[str, str]]] = _nothing
    #: Which of its reserved names a class name is, for the core's one message
    #: (:func:`taxogen.reserved.reserved_reason`): (kind, phrase) pairs, a
    #: kind being ``keyword`` ("a Python keyword"), ``builtin`` ("the Python
    #: builtin"), ``module`` ("Python": its generated module defines it) or
    #: ``clause`` (a whole clause of its own).
    reserved: Callable[[str], list[tuple[str, str]]] = _nothing
    #: Why a details field may not have this name in it ("is a Python
    #: keyword"): a field is a keyword argument, a property...
    field: Callable[[str], list[str]] = _nothing
    #: Its package-level names in two versions (label, before, after), most
    #: important first: each that differs is a breaking change for ``taxogen
    #: diff``, which lists every target's first, then every target's second...
    renames: Callable[[Names, Names], list[Rename]] = _no_renames


# The names of a domain or code in a language with classes, the same in every
# such language today (users grep across them): the functional form, since
# ``class`` is a Python keyword.
ClassNames = TypedDict(
    "ClassNames",
    {
        "class": Annotated[str, Doc("the class name")],
        "member": Annotated[str, Doc("the member of the ErrorCode or Domain enum")],
    },
)


class CodeNames(ClassNames):
    parent: Annotated[str, Doc("the class it extends")]
    details_type: Annotated[
        str | None, Doc("the type of its declared details (TypedDict, interface)")
    ]


def class_names(named: NamedDomain) -> ClassNames:
    """A domain's names in a language with classes."""
    return {"class": named.class_name, "member": named.member}


def code_class_names(named: NamedCode) -> CodeNames:
    """A code's names in a language with classes."""
    return {
        "class": named.class_name,
        "member": named.member,
        "parent": named.parent,
        "details_type": named.details_type,
    }
