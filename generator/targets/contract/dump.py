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


def _encoder(separator: str) -> Callable[[object], str]:
    """``json.dumps(value, ensure_ascii=False, separators=(separator, ": "))``,
    through an encoder built once: json.dumps builds one each call, as
    JSONEncoder.encode builds json's C encoder each call (over a quarter of the time
    of a vector's line); this C encoder is built once and kept (it keeps no
    state between calls), without the check for cycles, which documents built
    here cannot hold."""
    plain = json.JSONEncoder(ensure_ascii=False, separators=(separator, ": "))
    make = getattr(json.encoder, "c_make_encoder", None)
    if make is None:  # a Python without json's C accelerator
        return plain.encode
    # As JSONEncoder.iterencode calls it: markers (None: no cycle check),
    # default, the string encoder (ensure_ascii=False), indent, the key and
    # item separators, sort_keys, skipkeys, allow_nan.
    chunks = make(
        None,
        plain.default,
        json.encoder.encode_basestring,
        None,
        ": ",
        separator,
        False,
        False,
        True,
    )

    def encode(value: object) -> str:
        return "".join(chunks(value, 0))

    return encode


# Without an indent, ", " and ": " are json's separators.
_COMPACT = _encoder(", ")
# The values json spells alone, whatever the separators: a container holding
# only these is laid out by one call of an encoder whose item separator is the
# line break and indent of its items (see _flat).
_SCALARS = frozenset((str, int, float, bool, type(None)))
_FLAT: dict[str, Callable[[object], str]] = {}


def _flat(separator: str) -> Callable[[object], str]:
    """json's C encoder with ``separator`` between items (one per depth: the
    schema's indented parts are 10 levels deep at most)."""
    if separator not in _FLAT:
        _FLAT[separator] = _encoder(separator)
    return _FLAT[separator]


def _visible(text: str) -> str:
    """``text`` (json's, whose only raw line breaks are the layout's) with each
    invisible character escaped; checked in C, walked only where one hides."""
    if text.isascii():
        # ASCII JSON can only hide DEL (the encoder escapes every other
        # control character), escaped as _escaped would.
        return text.replace("\x7f", "\\u007f") if "\x7f" in text else text
    if text.isprintable():
        return text
    return "\n".join(
        line if line.isprintable() else _escaped(line) for line in text.split("\n")
    )


def _layout(
    value: object,
    depth: int,
    inline_below: int,
    compact: Callable[[object], str],
    out: list[str],
) -> None:
    """Append to ``out`` the JSON of ``value``, one item a line down to depth
    ``inline_below``, compact beneath, every invisible character escaped.

    Compact parts go through json's C encoder (``indent`` forces the slow Python
    one), which keeps 20,000 vectors fast and puts each vector on one line; so
    does a container of scalars laid out one a line (the schema's 10,000 codes),
    its separator a line break (:func:`_flat`).
    """
    if depth >= inline_below or not value or not isinstance(value, (dict, list)):
        out.append(_visible(compact(value)))
        return
    pad = "\n" + "  " * (depth + 1)
    separator = "," + pad
    if (
        isinstance(value, list) and depth + 1 >= inline_below
    ):  # a list of compact items, one a line
        line = separator.join([_visible(compact(item)) for item in value])
        out.extend(("[", pad, line, pad[:-2], "]"))
        return
    items = value.values() if isinstance(value, dict) else value
    if depth + 1 < inline_below and all(type(item) in _SCALARS for item in items):
        if not isinstance(value, dict) or all(type(key) is str for key in value):
            text = _flat(separator)(value)  # "{" items "}", or "[" items "]"
            out.extend((text[0], pad, _visible(text[1:-1]), pad[:-2], text[-1]))
            return
    out.append("{" if isinstance(value, dict) else "[")
    between = pad
    for key, item in value.items() if isinstance(value, dict) else enumerate(value):
        out.append(between)
        if isinstance(value, dict):
            out.append(_visible(compact(key)) + ": ")
        _layout(item, depth + 1, inline_below, compact, out)
        between = separator
    out.append(pad[:-2] + ("}" if isinstance(value, dict) else "]"))


def dump_json(document: object, inline_below: int = 64) -> bytes:
    """Deterministic, readable JSON in which every invisible character is escaped.

    Values nested deeper than ``inline_below`` levels are written on one line.
    Each part is escaped as it is made, where json's C encoder made it in one
    piece (a line, or a container of scalars): checking the 10,000 codes'
    vectors as one text, then line by line, cost a fifth of writing them.
    """
    out: list[str] = []
    _layout(document, 0, inline_below, _COMPACT, out)
    return ("".join(out) + "\n").encode("utf-8")


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
