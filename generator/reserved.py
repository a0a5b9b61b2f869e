"""Reserved names: why a generated class or details field may not be called so.

Each target with names of its own says which of its reserved words a name is
(its folder's ``naming.py`` and ``reserved.py``,
:class:`taxogen.language.Language`); :func:`reserved_reason` joins what they
say into one reason, for people, and :mod:`taxogen.naming` refuses such a
class name.  What the error itself holds is every language's: a details field
may not take those names (:data:`ERROR_OWN_NAMES`).
"""

from __future__ import annotations

from taxogen.targets import languages

__all__ = ["ERROR_OWN_NAMES", "field_reasons", "reserved_reason"]

# What every error holds, whatever its language: the members of the error model
# (the payload's code, message, retryable and details, the cause, the domain and
# the meaning).  A details field of one of these names would be mistaken for it
# (Python's generated constructors take each field as a keyword argument beside
# these); each target adds its own spellings of the rest (``wire_code``,
# ``wireCode``, ``self``) through its field check.
ERROR_OWN_NAMES = frozenset(
    "cause code details domain meaning message retryable".split()
)


def _keyword(phrases: list[str]) -> str:
    return "is " + " and ".join(phrases)


def _shadowed(phrases: list[str]) -> str:
    return "would shadow " + " and ".join(phrases) + " of that name"


def _defined(phrases: list[str]) -> str:
    modules = "modules" if len(phrases) > 1 else "module"
    return f"is already defined by the generated {' and '.join(phrases)} {modules}"


#: How the reasons of one kind read, joined across languages, in the order they
#: are said: each language gives a phrase ("a Python keyword"), and two read as
#: one clause ("is a Python keyword and a TypeScript reserved word").  A
#: ``clause`` is given whole.
_KINDS = {
    "keyword": _keyword,
    "builtin": _shadowed,
    "clause": " and ".join,
    "module": _defined,
}


def reserved_reason(name: str) -> str | None:
    """Why ``name`` cannot be a generated class name (``None`` when it can): what
    every target says of it, by kind (a keyword, a builtin or global it would
    shadow, a clause of its own, a name its module defines), in that order."""
    said: dict[str, list[str]] | None = None  # made for the few names refused
    for _target, names in languages():
        for kind, phrase in names.reserved(name):
            if said is None:
                said = {each: [] for each in _KINDS}
            said[kind].append(phrase)
    if said is None:
        return None
    found = [spell(said[kind]) for kind, spell in _KINDS.items() if said[kind]]
    return " and ".join(found)


def field_reasons(name: str) -> list[str]:
    """Why each target's language refuses ``name`` as a details field, in order."""
    return [reason for _target, names in languages() for reason in names.field(name)]
