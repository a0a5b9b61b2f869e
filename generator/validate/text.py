"""Text checks of the validator: what a scalar may hold, and how one is quoted back.

Every string of a taxonomy reaches generated code, docs or a terminal, so the
characters that would arrive there invisibly or altered are refused here, with
the code point named: lone surrogates, C0 and C1 controls, DEL and the
bidirectional controls ("Trojan Source"); prose may keep line breaks and tabs.
The same module says how a value is shown inside a message (quoted, cut short).
"""

from __future__ import annotations

import re

from taxogen.nodes import MapNode, Node, SeqNode

__all__ = ["NULLS", "SHOWN", "character_problem", "describe", "first_surrogate", "show"]

#: Plain scalars that mean null in YAML 1.2's core schema.
NULLS = ("", "~", "null", "Null", "NULL")
SHOWN = 60  # a value quoted in a message is cut to this many characters

_SURROGATE = re.compile("[\ud800-\udfff]")

# Characters that would reach the outputs invisibly or in altered form: C0 and
# C1 controls, DEL, and the bidirectional embeddings, overrides and isolates
# that make text read differently from what it is ("Trojan Source").
_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")
_CONTROL_LINE = re.compile("[\x00-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def show(value: str) -> str:
    """``value`` quoted for a message, cut to :data:`SHOWN` characters."""
    return repr(value if len(value) <= SHOWN else value[: SHOWN - 3] + "...")


def describe(node: Node) -> str:
    """What ``node`` is, for "expected ..., got ..." messages."""
    if isinstance(node, MapNode):
        return "a mapping"
    if isinstance(node, SeqNode):
        return "a list"
    if node.plain and node.value in NULLS:
        return "null"
    return show(node.value)


def first_surrogate(text: str) -> str | None:
    """The first lone surrogate of ``text``, if it holds one."""
    if text.isascii():  # the usual case, known without reading the text
        return None
    found = _SURROGATE.search(text)
    return None if found is None else found.group()


def character_problem(text: str, lines: bool) -> str | None:
    """Why ``text`` may not be used (``lines``: prose, which may break lines)."""
    bad = first_surrogate(text)
    if bad is not None:
        return (
            f"text contains a lone surrogate U+{ord(bad):04X}, which is not a character"
        )
    if text.isprintable():  # else no control character: the usual case, in C
        return None
    control = (_CONTROL if lines else _CONTROL_LINE).search(text)
    if control is None:
        return None
    allowed = "only line breaks and tabs are" if lines else "no control character is"
    return (
        f"text contains the control character U+{ord(control.group()):04X}"
        f"{' (a bidirectional control)' if control.group() > chr(0x9F) else ''}; "
        f"{allowed} allowed here"
    )
