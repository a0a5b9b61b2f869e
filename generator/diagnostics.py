"""Diagnostics: the one shape every problem with a taxonomy is reported in.

A diagnostic points at a place in the source (``path:line:col``), names the key
path it concerns (``domains.task.codes.task_timeout.retryable``) and says what
is wrong.  Loading and validation collect every diagnostic they find instead of
stopping at the first (up to :data:`MAX_DIAGNOSTICS`), then raise them together
as one :class:`TaxonomyError`, which the command line prints one per line and
turns into exit status 2.
"""

from __future__ import annotations

import dataclasses

__all__ = [
    "MAX_DIAGNOSTICS",
    "Diagnostic",
    "Position",
    "TaxonomyError",
    "describe_value",
    "visible",
]

#: Loading and validation stop collecting after this many problems: a file that
#: has more is not a taxonomy with typos, and reporting millions of lines (a
#: hostile file can hold one mistake per five bytes) would cost more than it helps.
MAX_DIAGNOSTICS = 100


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True, order=True)
class Position:
    """A 1-based line and column in a source file."""

    line: int
    col: int


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class Diagnostic:
    """One problem found in a source file."""

    path: str
    position: Position | None
    key: str
    message: str
    level: str = "error"

    def format(self) -> str:
        """One line, ``path:line:col: error: key.path: message``, whatever the text
        holds.

        Key paths and messages quote the user's text, which may hold line breaks
        or terminal escapes: anything invisible is shown as an escape, so one
        problem is always one line and cannot pose as another.
        """
        where = self.path
        if self.position is not None:
            where = f"{where}:{self.position.line}:{self.position.col}"
        text = f"{self.key}: {self.message}" if self.key else self.message
        return visible(f"{where}: {self.level}: {text}")

    def sort_key(self) -> tuple[str, int, int, str]:
        pos = self.position or Position(line=0, col=0)
        return (self.path, pos.line, pos.col, self.key)


def visible(text: str) -> str:
    """``text`` with everything invisible shown as a Python-style escape: always one
    line.
    """
    if text.isprintable():
        return text
    out = []
    for char in text:
        if char.isprintable():
            out.append(char)
        elif ord(char) < 0x100:
            out.append(f"\\x{ord(char):02x}")
        elif ord(char) < 0x10000:
            out.append(f"\\u{ord(char):04x}")
        else:
            out.append(f"\\U{ord(char):08x}")
    return "".join(out)


class TaxonomyError(Exception):
    """Raised with every diagnostic found when a taxonomy cannot be used.

    ``truncated`` is true when collecting stopped at :data:`MAX_DIAGNOSTICS`,
    so there may be more problems than ``diagnostics`` holds.
    """

    def __init__(
        self, diagnostics: list[Diagnostic], *, truncated: bool = False
    ) -> None:
        self.diagnostics = sorted(diagnostics, key=Diagnostic.sort_key)
        self.truncated = truncated
        super().__init__("\n".join(d.format() for d in self.diagnostics))

    def summary(self, path: str) -> str:
        """The last line the command line prints: how many problems, and that nothing
        was written.
        """
        count = len(self.diagnostics)
        path = visible(path)
        if self.truncated:
            return (
                f"taxogen: more than {count} errors in {path} (stopped after {count});"
                " nothing was written"
            )
        return (
            f"taxogen: {count} error{'s' if count != 1 else ''} in {path}; nothing was"
            " written"
        )


def describe_value(value: object) -> str:
    """A value read from a settings file, as a message names what was found instead."""
    if isinstance(value, bool):
        return f"boolean {str(value).lower()}"
    if isinstance(value, (int, float, str)):
        kind = {int: "integer", float: "number", str: "string"}[type(value)]
        return visible(f"{kind} {value!r:.60}")
    if isinstance(value, list):
        if all(isinstance(item, str) for item in value):
            return "an array"
        return "an array holding non-strings"
    if isinstance(value, dict):
        return "a table"
    return "a date or time"
