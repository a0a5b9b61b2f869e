"""Rust's escapers: how a string reaches a Rust literal and a comment line.

The templates' filters (``rust_str``, ``rust_comment``), kept apart from the
view so that the target's declaration imports them cheaply.
"""

from __future__ import annotations

from taxogen.escape import comment_line

__all__ = ["rust_comment", "rust_str"]


def rust_str(text: str) -> str:
    """A Rust string literal; everything invisible is escaped."""
    out = []
    for char in text:
        if char in '"\\':
            out.append("\\" + char)
        elif char.isprintable():
            out.append(char)
        else:
            out.append(f"\\u{{{ord(char):x}}}")
    return '"' + "".join(out) + '"'


def rust_comment(text: str) -> str:
    """``text`` as the body of one ``///`` or ``//`` comment line."""
    return comment_line(text)
