"""Did-you-mean hints of the validator: what a wrong value most likely meant.

A hint is offered only when it is certain to be right in form: a close match
among the values allowed there (``difflib``, the cutoff it uses by default), or
a value respelt by one of the guesses of :mod:`taxogen.naming` and
:mod:`taxogen.model` that then passes the very rule the value broke.
Booleans get a hint of their own, since YAML 1.1 and quoting make ``yes``,
``"true"`` and ``True`` look like booleans that are not.
"""

from __future__ import annotations

import difflib
import json
import re
from collections.abc import Callable, Iterable

from taxogen.model import MAX_NAME_LENGTH
from taxogen.nodes import MapNode, ScalarNode

__all__ = [
    "FLOAT",
    "INT",
    "boolean_hint",
    "close_match",
    "comma_split",
    "did_you_mean",
    "name_hint",
]

#: YAML 1.2 core schema numbers, as plain scalars.
INT = re.compile(r"[-+]?[0-9]+")
FLOAT = re.compile(r"[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?")

# YAML 1.1 booleans that YAML 1.2 (and this loader) read as text, lowercased.
_YAML11_TRUE = ("y", "yes", "on")
_YAML11_FALSE = ("n", "no", "off")


def close_match(value: str, choices: Iterable[str]) -> str | None:
    """The one choice closest to ``value``, if any is close enough."""
    hint = difflib.get_close_matches(value, list(choices), n=1, cutoff=0.6)
    return hint[0] if hint else None


def name_hint(code: str, named: Iterable[str]) -> str:
    """`` (did you mean 'x'?)`` for a code not among the ``named`` ones, or ""."""
    hint = close_match(code, named)
    return f" (did you mean {hint!r}?)" if hint else ""


def did_you_mean(
    value: str, pattern: re.Pattern[str], suggest: Callable[[str], str] | None
) -> str:
    """``; did you mean 'x'?`` when ``suggest`` respells ``value`` to fit."""
    if suggest is None:
        return ""
    candidate = suggest(value)
    if (
        candidate == value
        or len(candidate) > MAX_NAME_LENGTH
        or not pattern.fullmatch(candidate)
    ):
        return ""
    return f"; did you mean {candidate!r}?"


def boolean_hint(node: object) -> str:
    """What to write instead of ``node``, which is not ``true`` or ``false``."""
    hint = "write true or false"
    if isinstance(node, ScalarNode):
        lower = node.value.lower()
        word = "true" if lower in ("true", *_YAML11_TRUE) else "false"
        if not node.plain and lower in (
            "true",
            "false",
            *_YAML11_TRUE,
            *_YAML11_FALSE,
        ):
            hint = f"quoted, it is text; write {word} without quotes"
        elif lower in ("true", "false"):
            hint = f"booleans are lowercase; write {lower}"
        elif lower in (*_YAML11_TRUE, *_YAML11_FALSE):
            hint = f"YAML 1.1's yes/no/on/off are not booleans here; write {word}"
        elif INT.fullmatch(node.value) or FLOAT.fullmatch(node.value):
            hint = "a number is not a boolean here; write true or false"
    return hint


def comma_split(mapping: MapNode, index: int) -> str | None:
    """The hint for the unknown key at ``index`` of ``mapping`` when it is the end
    of the value before it, cut off by a comma.

    In a mapping written in braces a comma ends an unquoted value, so
    ``{meaning: Rate limited, try later}`` reads as a key ``try later`` with no
    value.  Offered only for exactly that shape, in a flow mapping: plain keys
    without a value (not even ``:``), each right after a plain value or another
    such key; every key of the run gets the same hint, the whole value quoted.
    """
    items = mapping.items

    def cut(at: int) -> bool:
        key, value = items[at]
        return (
            key.plain
            and isinstance(value, ScalarNode)
            and value.plain
            and not value.value
        )

    if not mapping.flow or not cut(index):
        return None
    first = index
    while first > 0 and cut(first - 1):
        first -= 1
    if first == 0:
        return None
    name, before = items[first - 1]
    if not isinstance(before, ScalarNode) or not before.plain or not before.value:
        return None
    last = index
    while last + 1 < len(items) and cut(last + 1):
        last += 1
    text = ", ".join([before.value, *(key.value for key, _ in items[first : last + 1])])
    # JSON's string syntax is YAML's double-quoted one, for text without controls.
    quoted = json.dumps(text, ensure_ascii=False)
    return (
        " (in braces, a comma ends an unquoted value: quote it, as "
        f"`{name.value}: {quoted}`)"
    )
