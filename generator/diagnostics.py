"""Diagnostics: the one shape every problem with a taxonomy is reported in.

A diagnostic points at a place in the source (``path:line:col``), names the key
path it concerns (``domains.task.codes.task_timeout.retryable``) and says what
is wrong.  Loading and validation collect every diagnostic they find instead of
stopping at the first, then raise them together as one :class:`TaxonomyError`,
which the command line prints one per line and turns into exit status 2.
"""

from __future__ import annotations

import dataclasses

__all__ = ["Diagnostic", "Position", "TaxonomyError"]


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
        where = self.path
        if self.position is not None:
            where = f"{where}:{self.position.line}:{self.position.col}"
        text = f"{self.key}: {self.message}" if self.key else self.message
        return f"{where}: {self.level}: {text}"

    def sort_key(self) -> tuple[str, int, int, str]:
        pos = self.position or Position(line=0, col=0)
        return (self.path, pos.line, pos.col, self.key)


class TaxonomyError(Exception):
    """Raised with every diagnostic found when a taxonomy cannot be used."""

    def __init__(self, diagnostics: list[Diagnostic]) -> None:
        self.diagnostics = sorted(diagnostics, key=Diagnostic.sort_key)
        super().__init__("\n".join(d.format() for d in self.diagnostics))
