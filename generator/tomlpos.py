"""TOML positions: where a key's value stands in a TOML text.

The standard library's TOML reader gives values without positions, yet a wrong
``[tool.taxogen]`` value must be reported where it stands
(``pyproject.toml:LINE:COL``): :func:`locate` finds it in the text again, with
just enough of TOML's grammar (tables, dotted and quoted keys, multi-line
strings) to never take a line inside a string for a key.
"""

from __future__ import annotations

import re

from taxogen.diagnostics import Position

__all__ = ["locate"]

_KEY = re.compile(r'\s*(?:([A-Za-z0-9_-]+)|"((?:[^"\\]|\\.)*)"|\'([^\']*)\')\s*')
_HEADER = re.compile(r"\s*\[(\[?)")


def _keys(text: str, start: int) -> tuple[tuple[str, ...], int] | None:
    """The dotted key at ``text[start:]`` and where it ends, or None if there is
    none.
    """
    parts: list[str] = []
    at = start
    while True:
        found = _KEY.match(text, at)
        if found is None or found.end() == at:
            return None
        bare, basic, literal = found.groups()
        parts.append(
            bare if bare is not None else basic if basic is not None else literal
        )
        at = found.end()
        if text.startswith(".", at):
            at += 1
            continue
        return tuple(parts), at


def locate(text: str, where: tuple[str, ...]) -> Position:
    """The line and column of the value at key path ``where`` in the TOML ``text``.

    The value's own position when it is written as ``key = value`` (dotted keys
    included) or as a ``[table]`` header; else the deepest enclosing key that is
    written (an inline table); else the start of the file.  Multi-line strings
    are skipped, so a line inside one is never taken for a key.
    """
    best = Position(line=1, col=1)
    best_depth = 0
    table: tuple[str, ...] = ()
    in_string: str | None = None
    for number, line in enumerate(text.splitlines(), start=1):
        if in_string is not None:
            if in_string in line:
                in_string = None
            continue
        header = _HEADER.match(line)
        if header is not None:
            parsed = _keys(line, header.end())
            if parsed is not None:
                table = parsed[0]
                depth = _common(table, where)
                if depth == len(table) and depth > best_depth:
                    best = Position(line=number, col=line.index("[") + 1)
                    best_depth = depth
            continue
        parsed = _keys(line, 0)
        if parsed is None or not line[parsed[1] :].startswith("="):
            continue
        full = table + parsed[0]
        depth = _common(full, where)
        if depth == len(full) and depth > best_depth:
            value_at = parsed[1] + 1
            value_at += len(line[value_at:]) - len(line[value_at:].lstrip())
            best, best_depth = Position(line=number, col=value_at + 1), depth
        rest = line[parsed[1] + 1 :]
        for quote in ('"""', "'''"):
            if rest.count(quote) % 2 == 1:
                in_string = quote
    return best


def _common(keys: tuple[str, ...], where: tuple[str, ...]) -> int:
    """How many leading keys ``keys`` shares with ``where`` (all of them, or fewer)."""
    depth = 0
    for ours, theirs in zip(keys, where):
        if ours != theirs:
            break
        depth += 1
    return depth
