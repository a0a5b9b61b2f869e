"""TypeScript's escapers: taxonomy text made safe in generated TypeScript.

A string literal (:func:`ts_str`), a wire code as a literal
(:func:`ts_literal`) and one line of a JSDoc block (:func:`ts_doc`).  Each is
total and fast on the usual case; ``tests/test_escape.py`` lists hostile
inputs and their escaped forms.
"""

from __future__ import annotations

from taxogen.escape import C_ESCAPES

__all__ = ["ts_doc", "ts_literal", "ts_str"]


def _ts_escape(char: str) -> str:
    escaped = C_ESCAPES.get(char)
    if escaped is not None:
        return escaped
    if char.isprintable():
        return char
    code = ord(char)
    if code < 0x10000:
        return f"\\u{code:04x}"
    return f"\\u{{{code:x}}}"


def ts_str(text: str) -> str:
    """A TypeScript string literal; everything invisible is escaped."""
    if text.isprintable():  # the usual case, checked in C
        if "\\" in text or '"' in text:  # the only printable C_ESCAPES
            text = text.replace("\\", "\\\\").replace('"', '\\"')
        return f'"{text}"'
    return '"' + "".join(_ts_escape(char) for char in text) + '"'


def ts_literal(value: str | int | None) -> str:
    """A wire code (a string or an integer) as a TypeScript literal; None: ``null``."""
    if value is None:
        return "null"
    if isinstance(value, int):
        return str(value)
    return ts_str(value)


def ts_doc(text: str) -> str:
    """Text for one line of a JSDoc block: cannot close the comment or start a tag."""
    escaped = text.replace("\\", "\\\\")
    if not text.isprintable():  # else nothing to escape: the usual case, checked in C
        escaped = "".join(
            char if char.isprintable() else _ts_escape(char) for char in escaped
        )
    return escaped.replace("*/", "*\\/").replace("@", "\\@")
