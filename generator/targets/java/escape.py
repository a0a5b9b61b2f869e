"""Java's escapers: taxonomy text made safe in a Java string literal or comment.

Java translates ``\\uXXXX`` escapes before it reads anything else, in comments
too: a literal spells every character outside printable ASCII as such an
escape except the ones that would end it (line breaks, ``"``, ``\\``), which get
their own; a comment doubles every backslash (an escape needs an even number of
backslashes before it), breaks ``*/`` and spells ``@`` as ``&#64;`` (a Javadoc
line opening with ``@deprecated`` would be a tag, and javac's lint would ask for
the annotation).  Both are total: any ``str`` in, a
safe spelling out.
"""

from __future__ import annotations

from taxogen.escape import C_ESCAPES, comment_line

__all__ = ["java_comment", "java_str"]

_SPECIAL = {**C_ESCAPES, "\b": "\\b", "\f": "\\f"}


def _escape(char: str) -> str:
    special = _SPECIAL.get(char)
    if special is not None:
        return special
    code = ord(char)
    if 0x20 <= code < 0x7F:
        return char
    if code < 0x10000:
        return f"\\u{code:04x}"
    code -= 0x10000  # a surrogate pair
    return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"


def java_str(text: str) -> str:
    """A Java string literal, ASCII only."""
    if text.isascii() and text.isprintable() and "\\" not in text and '"' not in text:
        return f'"{text}"'
    return '"' + "".join(_escape(char) for char in text) + '"'


def java_comment(text: str) -> str:
    """``text`` as the body of one line of a comment."""
    text = comment_line(text).replace("\\", "\\\\").replace("@", "&#64;")
    return text.replace("*/", "*&#47;")
