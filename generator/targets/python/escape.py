"""Python's escapers: taxonomy text made safe in generated Python and its TOML.

A Python string literal (:func:`python_str`, black's quotes, from
:mod:`taxogen.targets.python.pysyntax`), the body of one ``#`` comment line
(:func:`python_comment`) and a TOML basic string for the package's
pyproject.toml (:func:`toml_str`).  Each is total and fast on the usual
case; ``tests/test_escape.py`` lists hostile inputs and their escaped forms.
"""

from __future__ import annotations

from taxogen.escape import comment_line
from taxogen.targets.python.pysyntax import string_literal as python_str

__all__ = ["python_comment", "python_str", "toml_str"]


def python_comment(text: str) -> str:
    """``text`` as the body of one ``#`` comment line: every character that is not
    printable (line breaks, tabs, controls, bidi overrides) becomes a space, and
    the ends are stripped (black strips a comment's trailing space), so the text
    can neither end the comment nor hide in it."""
    return comment_line(text)


def toml_str(text: str) -> str:
    """A TOML basic string: quotes, backslashes, every invisible character escaped."""
    out = []
    for char in text:
        code = ord(char)
        if char == '"':
            out.append('\\"')
        elif char == "\\":
            out.append("\\\\")
        elif code < 0x20 or code == 0x7F or not char.isprintable():
            out.append(f"\\u{code:04X}" if code < 0x10000 else f"\\U{code:08X}")
        else:
            out.append(char)
    return '"' + "".join(out) + '"'
