"""Source file: the taxonomy's bytes, read once, whatever kind of file names them.

Every command reads the taxonomy exactly once, here, and hands the bytes on:
the memo's digest and the parser then see the same bytes (an edit during the run
cannot pair one version's digest with another's outputs), and a taxonomy that
is not a regular file (``--taxonomy /dev/stdin``, a pipe, ``<(...)``), which can
be read only once, works in every command.  Reads are bounded: a taxonomy is a
hand-written file, and anything over :data:`MAX_BYTES` is refused after reading
one byte past the limit, never read whole.  This module imports nothing heavy,
as the no-op ``check`` reads through it.
"""

from __future__ import annotations

from pathlib import Path

from generator.diagnostics import Diagnostic, Position, TaxonomyError

__all__ = ["MAX_BYTES", "read"]

#: Taxonomies are hand-written (the shipped one is 5 KiB; ten thousand codes fit
#: in about 1 MiB): anything larger is a mistake or an attack, refused unread.
MAX_BYTES = 4 * 1024 * 1024


def read(path: Path, shown: str | None = None) -> bytes:
    """The bytes of the taxonomy at ``path`` (reported as ``shown``), or
    :class:`TaxonomyError` if it cannot be read or is larger than MAX_BYTES."""
    name = shown if shown is not None else str(path)
    try:
        with open(path, "rb") as handle:
            # One read to the end of the file (or of the pipe: its writer closed)
            # or one byte past the limit, whichever comes first.
            data = handle.read(MAX_BYTES + 1)
    except OSError as exc:
        raise TaxonomyError(
            [
                Diagnostic(
                    path=name,
                    position=None,
                    key="",
                    message=f"cannot read file: {exc.strerror or exc}",
                )
            ]
        ) from None
    if len(data) > MAX_BYTES:
        raise TaxonomyError(
            [
                Diagnostic(
                    path=name,
                    position=Position(line=1, col=1),
                    key="",
                    message=f"file is larger than {MAX_BYTES // (1024 * 1024)} MiB;"
                    " a taxonomy is a hand-written file, refused unread",
                )
            ]
        )
    return data
