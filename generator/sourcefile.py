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

import os
import stat
from pathlib import Path

from taxogen.diagnostics import Diagnostic, Position, TaxonomyError

__all__ = ["MAX_BYTES", "read"]

#: Taxonomies are hand-written (the shipped one is 5 KiB; ten thousand codes fit
#: in about 1 MiB): anything larger is a mistake or an attack, refused unread.
MAX_BYTES = 4 * 1024 * 1024


def _nonblocking(path: str, flags: int) -> int:
    return os.open(path, flags | os.O_NONBLOCK)


def _problem(name: str, message: str) -> TaxonomyError:
    return TaxonomyError(
        [Diagnostic(path=name, position=None, key="", message=message)]
    )


def read(path: Path, shown: str | None = None, *, waiting: bool = False) -> bytes:
    """The bytes of the taxonomy at ``path`` (reported as ``shown``), or
    :class:`TaxonomyError` if it cannot be read or is larger than MAX_BYTES.

    ``waiting``: the user named this path (``--taxonomy``, a ``diff`` argument),
    so a pipe or a device is read, waiting for its writer.  Otherwise (the
    default ``taxonomy.yaml``, or the ``taxonomy`` of ``pyproject.toml``, which a
    cloned repository chooses) only a regular file is read, never waited on: a
    committed link to ``/dev/stdin`` or ``/proc/kmsg`` cannot hang a command.
    """
    name = shown if shown is not None else str(path)
    try:
        if not waiting and not stat.S_ISREG(os.stat(path).st_mode):
            raise _problem(
                name,
                "not a regular file; a taxonomy named by pyproject.toml or found by"
                " default must be one (pass a pipe with --taxonomy)",
            )
        with open(path, "rb", opener=None if waiting else _nonblocking) as handle:
            # One read to the end of the file (or of the pipe: its writer closed)
            # or one byte past the limit, whichever comes first.
            data = handle.read(MAX_BYTES + 1)
    except OSError as exc:
        raise _problem(name, f"cannot read file: {exc.strerror or exc}") from None
    if data is None:  # a file that would make the read wait (non-blocking)
        raise _problem(name, "cannot read file: it would make the read wait")
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
