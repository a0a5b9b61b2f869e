"""Rust's options: what ``[tool.taxogen.rust]`` may say, each value checked.

``crate`` is the package name Cargo.toml declares (else ``<name>-errors``, the
taxonomy's name with dashes, as the Go module and npm package are named).  The
settings read this module only when a pyproject.toml gives one, and it imports
nothing of the target's.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping

from taxogen.diagnostics import describe_value

__all__ = ["CRATE", "OPTIONS"]

#: A crates.io package name: ASCII letters, digits, ``-`` and ``_``, starting
#: with a letter, at most 64 characters (Cargo's own rule for a new crate).
CRATE = re.compile(r"[A-Za-z][A-Za-z0-9_-]{0,63}")


def _crate(value: object) -> str | None:
    """Why ``value`` is no crate name (None when it is one)."""
    if isinstance(value, str) and CRATE.fullmatch(value):
        return None
    got = repr(value) if isinstance(value, str) else describe_value(value)
    return f"expected a Rust crate name (as acme-errors), got {got}"


#: Each target's options, by name: what is wrong with a value (None: nothing).
OPTIONS: Mapping[str, Mapping[str, Callable[[object], str | None]]] = {
    "rust": {"crate": _crate}
}
