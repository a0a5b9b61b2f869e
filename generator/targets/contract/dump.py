"""The contract's JSON: deterministic, readable, every invisible character escaped.

Nested values are written one item a line down to a given depth and compactly
beneath it, so the schema reads as an indented document and each conformance
vector sits on one line (readable, diffable, and fast to write at 20,000
vectors).  The compact parts are json's own spelling
(``json.dumps(value, ensure_ascii=False)``), through one reused encoder.
"""

from __future__ import annotations

import json
from collections.abc import Callable

__all__ = ["dump_json"]

# json.dumps builds a new encoder on every call with options; this one is
# built once (encode keeps no state between calls).  Without an indent, ", "
# and ": " are json's separators.
_COMPACT = json.JSONEncoder(ensure_ascii=False).encode


def _layout(
    value: object,
    depth: int,
    inline_below: int,
    compact: Callable[[object], str],
    out: list[str],
) -> None:
    """Append to ``out`` the JSON of ``value``, one item a line down to depth
    ``inline_below``, compact beneath.

    Compact parts go through json's C encoder (``indent`` forces the slow Python
    one), which keeps 20,000 vectors fast and puts each vector on one line.
    """
    if depth >= inline_below or not value or not isinstance(value, (dict, list)):
        out.append(compact(value))
        return
    pad = "\n" + "  " * (depth + 1)
    separator = "," + pad
    if (
        isinstance(value, list) and depth + 1 >= inline_below
    ):  # a list of compact items, one a line
        out.extend(("[", pad, separator.join(map(compact, value)), pad[:-2], "]"))
        return
    out.append("{" if isinstance(value, dict) else "[")
    between = pad
    for key, item in value.items() if isinstance(value, dict) else enumerate(value):
        out.append(between)
        if isinstance(value, dict):
            out.append(compact(key) + ": ")
        _layout(item, depth + 1, inline_below, compact, out)
        between = separator
    out.append(pad[:-2] + ("}" if isinstance(value, dict) else "]"))


def dump_json(document: object, inline_below: int = 64) -> bytes:
    """Deterministic, readable JSON in which every invisible character is escaped.

    Values nested deeper than ``inline_below`` levels are written on one line.
    """
    out: list[str] = []
    _layout(document, 0, inline_below, _COMPACT, out)
    text = "".join(out)
    # The usual cases, done in C: ASCII JSON can only hide DEL (the encoder
    # escapes every other control character), escaped as _escaped would.
    if text.isascii():
        return (text.replace("\x7f", "\\u007f") + "\n").encode("utf-8")
    # Else line by line, each checked in C: only a line holding an invisible
    # character is walked (every string taxonomy's vectors hold a DEL, in the
    # code_control vector, and walking all 10,000 codes' vectors a character at a
    # time costs a second).
    lines = text.split("\n")
    return (
        "\n".join(line if line.isprintable() else _escaped(line) for line in lines)
        + "\n"
    ).encode("utf-8")


def _escaped(line: str) -> str:
    """``line`` with each invisible character as a JSON escape: they can only sit
    inside strings, where an escape means the same."""
    out = []
    for char in line:
        if char.isprintable():
            out.append(char)
        elif ord(char) < 0x10000:
            out.append(f"\\u{ord(char):04x}")
        else:
            high, low = divmod(ord(char) - 0x10000, 0x400)
            out.append(f"\\u{0xD800 + high:04x}\\u{0xDC00 + low:04x}")
    return "".join(out)
