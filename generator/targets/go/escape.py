"""Go's escapers: taxonomy text made safe in a Go string literal or comment.

Each is total (any ``str`` in, a safe spelling out) and fast on the usual case,
text with nothing to escape; the templates reach them as the ``go_str`` and
``go_comment`` filters (target.py).  The table of hostile inputs is
``tests/targets/go/test_go.py`` and the injection suite, which compile what they give.
"""

from __future__ import annotations

from taxogen.escape import C_ESCAPES, comment_line

__all__ = ["go_comment", "go_str"]


def _go_escape(char: str) -> str:
    escaped = C_ESCAPES.get(char)
    if escaped is not None:
        return escaped
    if char.isprintable():
        return char
    code = ord(char)
    if 0xD800 <= code <= 0xDFFF:  # a lone surrogate: Go has no rune for it
        return "".join(
            f"\\x{byte:02x}" for byte in char.encode("utf-8", "surrogatepass")
        )
    return f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


def go_str(text: str) -> str:
    """A Go interpreted string literal; everything invisible is escaped."""
    if text.isprintable() and "\\" not in text and '"' not in text:  # the usual case
        return f'"{text}"'
    return '"' + "".join(_go_escape(char) for char in text) + '"'


def go_comment(text: str) -> str:
    """``text`` as the body of one ``//`` comment line: every character that is not
    printable (line breaks, NUL, which Go source may not hold, bidi overrides)
    becomes a space, and the ends are stripped, as gofmt would.  Since Go 1.19
    gofmt turns a doc comment's two backquotes or two single quotes into
    typographic quotes, so each such pair is kept apart by a space."""
    text = comment_line(text)
    while "``" in text or "''" in text:
        text = text.replace("``", "` `").replace("''", "' '")
    return text
