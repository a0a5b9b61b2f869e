"""Escape: user text made safe for each output language, one escaper per context.

Every piece of taxonomy text that lands in an output passes through exactly one
escaper, chosen by where it lands: a language's own in its target's folder
(Python's string literals, comments and TOML, TypeScript's string literals and
JSDoc lines, Go's string literals and comments: each ``targets/<name>/escape.py``),
and here the ones every target may use: a JSON string, Markdown inline text
(or a fence, a list item, a quote), the taxonomy's file name in a generated
header comment, the body of one line comment, and the escapes C's string
syntax gave several languages.  Each is total (any ``str`` in, a safe spelling
out) and fast on the usual case, text with nothing to escape.  The table test
``tests/test_escape.py`` lists hostile inputs and their escaped forms per
language.
"""

from __future__ import annotations

import json
import re

__all__ = [
    "C_ESCAPES",
    "comment_line",
    "header_name",
    "json_str",
    "md_cell",
    "md_code",
    "md_fence",
    "md_indent",
    "md_quote",
    "md_text",
]


# ----------------------------------------------------------------- comments
def comment_line(text: str) -> str:
    """``text`` as the body of one line comment (``#``, ``//``): every character
    that is not printable (line breaks, tabs, controls, bidi overrides) becomes a
    space, and the ends are stripped (as black and gofmt strip a comment's
    trailing space), so the text can neither end the comment nor hide in it."""
    if not text.isprintable():
        text = "".join(char if char.isprintable() else " " for char in text)
    return text.strip()


#: The escapes C's string syntax gave TypeScript and Go alike (a target's own
#: escapers, as ``targets/go/escape.py``, start from them); each language spells
#: other invisible characters its own way.
C_ESCAPES = {"\\": "\\\\", '"': '\\"', "\n": "\\n", "\r": "\\r", "\t": "\\t"}


# ------------------------------------------------------------------------ JSON
def json_str(text: str) -> str:
    """A JSON string, ASCII only (also a valid TypeScript and Python literal)."""
    return json.dumps(text, ensure_ascii=True)


# -------------------------------------------------------------------- Markdown
# What can start inline Markdown (emphasis, code, links, HTML, entities, table
# pipes, strikethrough, math, autolinks) anywhere in a line; everything else is
# left as is so the page stays readable as source.  The characters
# Python-Markdown (MkDocs) can backslash-escape too are escaped so; the others
# are written as character references, which every renderer decodes: a
# backslash before them is shown by Python-Markdown (issue 33 §6).
_MD_BACKSLASHED = frozenset("\\`*_[]!")
_MD_REFERENCES = {
    "<": "&lt;",
    ">": "&gt;",
    "&": "&amp;",
    "|": "&#124;",
    "~": "&#126;",
    "$": "&#36;",
    ":": "&#58;",
}
_MD_LINE_START = re.compile(r"[#>+=-]|[0-9]+[.)]")
#: A leading block marker's punctuation, as each renderer reads it escaped.
_MD_MARKER = {"#": "\\#", ">": "&gt;", "+": "\\+", "=": "&#61;", "-": "\\-"}
_MD_MARKER.update({".": "\\.", ")": "\\)"})

# Text with no character to escape, no block marker at its start, no "#" or
# space at either end.
_MD_PLAIN = re.compile(
    r"(?![#>+=-]|[0-9]+[.)])[^ \\`*_\[\]<>|&~$!:]"
    r"(?:[^\\`*_\[\]<>|&~$!:]*[^ #\\`*_\[\]<>|&~$!:])?"
)


def md_text(text: str) -> str:
    """Plain text as Markdown inline content that renders as exactly ``text``
    in CommonMark, GitHub's Markdown and MkDocs' Python-Markdown alike.

    Characters that could start inline markup are escaped (a backslash where
    every renderer takes one, else a character reference), and so is the
    punctuation of a leading block marker (``#``, ``>``, ``-``, the ``.`` of
    ``1.``) and a final ``#`` (which would close an ATX heading); line breaks
    become ``<br>`` (a table row is one line) and invisible characters, like
    leading and trailing spaces (which headings and table cells strip), become
    character references.
    """
    if text.isprintable() and _MD_PLAIN.fullmatch(text):  # the usual case
        return text
    out = []
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    body = text.strip(" ")
    lead = len(text) - len(text.lstrip(" "))
    trail = len(text) - lead - len(body)
    escape: set[int] = set()
    marker = _MD_LINE_START.match(body)
    if marker is not None:
        escape.add(marker.end() - 1)  # a backslash before a digit would be shown
    if body.endswith("#"):
        escape.add(len(body) - 1)
    out.append("&#x20;" * lead)
    if body.replace("\n", "").isprintable():
        out.append(_md_by_table(body, escape))  # the usual case of text to escape
    else:
        out.append(_md_by_char(body, escape))
    out.append("&#x20;" * trail)
    return "".join(out)


def _md_by_char(body: str, escape: set[int]) -> str:
    """The characters of ``body`` as md_text writes them, the marks at the indexes
    ``escape`` included: one character at a time."""
    out = []
    for index, char in enumerate(body):
        if index in escape:
            out.append(_MD_MARKER[char])
        elif char in _MD_BACKSLASHED:
            out.append("\\" + char)
        elif char in _MD_REFERENCES:
            out.append(_MD_REFERENCES[char])
        elif char == "\n":
            out.append("<br>")
        elif char == " " or char.isprintable():
            out.append(char)
        else:
            out.append(f"&#x{ord(char):X};")
    return "".join(out)


def _md_by_table(body: str, escape: set[int]) -> str:
    """:func:`_md_by_char` of a ``body`` whose characters are printable or line
    breaks, through one table in C between the marks (prose with a colon or an
    asterisk: 930 of 10,000 synthesized meanings, walked in Python they took
    most of the docs page's escaping; tests/test_escape.py holds both equal)."""
    out = []
    start = 0
    for index in sorted(escape):
        out.append(body[start:index].translate(_MD_TABLE))
        out.append(_MD_MARKER[body[index]])
        start = index + 1
    out.append(body[start:].translate(_MD_TABLE))
    return "".join(out)


#: What md_text writes for each character of printable text that it changes.
_MD_TABLE = str.maketrans(
    {
        **{char: "\\" + char for char in _MD_BACKSLASHED},
        **_MD_REFERENCES,
        "\n": "<br>",
    }
)


def md_fence(text: str, language: str) -> str:
    """``text`` as a fenced code block: the fence is longer than any backtick run
    inside.
    """
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    fence = "`" * max(3, longest + 1)
    return f"{fence}{language}\n{text}\n{fence}"


def md_code(text: str) -> str:
    """One line of text as a code span in a table cell, rendering as exactly ``text``.

    The span's backtick fence is longer than any backtick run inside; a space
    pads both ends when the text starts or ends with a backtick or a space
    (CommonMark strips one from each end again).  Text with a ``|`` is an HTML
    ``<code>`` element instead, its content escaped as :func:`md_text` escapes
    text (the pipe a character reference): a GFM table
    splits its cells on pipes first, code spans included, and a ``\\|`` there
    is shown as written by Python-Markdown.
    """
    if "|" in text:  # the element's content is Markdown: escaped as text is
        return f"<code>{md_text(text)}</code>"
    if "`" not in text:  # most code spans: no backtick run to outgrow
        return f"`{text}`" if text[:1] != " " and text[-1:] != " " else f"` {text} `"
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    fence = "`" * (longest + 1)
    pad = " " if text[:1] in ("`", " ") or text[-1:] in ("`", " ") else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def md_cell(text: str) -> str:
    """Markdown (a ``docs`` entry) as the content of one table cell, rendered as
    Markdown: a row is one line, so line breaks become ``<br>``, and a ``|`` is
    written ``\\|`` (a GFM table splits its cells on pipes first, code spans
    included); nothing else is escaped.
    """
    text = text.replace("\r\n", "\n").replace("\r", "\n").strip()
    return text.replace("|", "\\|").replace("\n", "<br>")


def md_indent(text: str) -> str:
    """Several lines as the body of a list item (each line after the first indented)."""
    return text.replace("\n", "\n  ")


def md_quote(text: str) -> str:
    """Several lines as one block quote (every line after the first marked)."""
    return text.replace("\n", "\n> ")


# ------------------------------------------------------------------ headers
def header_name(source: str) -> str:
    """The taxonomy's file name as it may stand in any comment of any output.

    Headers sit in ``#`` and ``//`` line comments, HTML comments of Markdown and
    JSON strings.  Percent-encoded (as UTF-8): every invisible character, line
    breaks and Unicode line separators included (they would end a line
    comment), ``%`` itself, ``<``, ``>`` and ``&``, and the second ``-`` of a
    ``--`` (which HTML comments may not hold, and ``-->`` would close).
    """
    if (
        source.isprintable()
        and not any(c in source for c in "%<>&")
        and "--" not in source
    ):
        return source  # the usual case
    out: list[str] = []
    for char in source:
        if (
            not char.isprintable()
            or char in "%<>&"
            or (char == "-" and out[-1:] == ["-"])
        ):
            encoded = char.encode("utf-8", "surrogatepass")
            out.append("".join(f"%{byte:02X}" for byte in encoded))
        else:
            out.append(char)
    return "".join(out)
