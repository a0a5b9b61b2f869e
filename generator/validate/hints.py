"""Did-you-mean hints of the validator: what a wrong value most likely meant.

A hint is offered only when it is certain to be right in form: a close match
among the values allowed there (``difflib``, the cutoff it uses by default), or
a value respelt by one of the guesses of :mod:`generator.naming` and
:mod:`generator.model` that then passes the very rule the value broke.
Booleans get a hint of their own, since YAML 1.1 and quoting make ``yes``,
``"true"`` and ``True`` look like booleans that are not.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Iterable

from generator.model import MAX_NAME_LENGTH
from generator.nodes import ScalarNode

__all__ = ["FLOAT", "INT", "boolean_hint", "close_match", "did_you_mean", "name_hint"]

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
