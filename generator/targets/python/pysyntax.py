"""Python syntax: literals and statements spelled exactly as black would spell them.

Generated Python must be black's output byte for byte, yet running black over
every file costs seconds per thousand classes.  So the Python templates print
black-clean code directly, using these helpers for the few constructs whose
layout depends on the length of user-controlled text: string literals (black's
choice of quotes), ``name = value`` statements (black wraps a long right-hand
side in parentheses when that makes it fit) and class headers (black moves a
long base class onto its own line).  :func:`finish` is the safety net: a file
with any line wider than black's limit goes through black itself.
"""

from __future__ import annotations

import functools
import importlib.util
import re
from collections.abc import Callable
from pathlib import Path

__all__ = [
    "LINE_LENGTH",
    "assign",
    "assign_call",
    "class_header",
    "finish",
    "fits",
    "string_literal",
    "width",
]

#: black's default line length, which the generated code is formatted for.
LINE_LENGTH = 88

# No character below U+1100 (the first East Asian Wide one, Hangul Choseong
# Kiyeok) is two columns wide for black, so a line's width is its length plus at
# most one per character from there up; tests/targets/python/test_pysyntax.py
# checks this bound against black's own table.
_WIDE_FROM = "\u1100"


@functools.cache
def _blacks_width() -> Callable[[str], int]:
    """black's measure of a line, from black's own table, read at the first need.

    The table is black's ``_width_table.py`` (every entry two columns wide),
    loaded from the installed black by itself: importing black for it would run
    black's package start-up, some 50 ms, more than rendering a thousand codes.
    Should black ship the table otherwise, its ``black.strings.str_width``.
    """
    spec = importlib.util.find_spec("black")
    for folder in (spec.submodule_search_locations or []) if spec else []:
        source = Path(folder) / "_width_table.py"
        table_spec = importlib.util.spec_from_file_location(
            "_taxogen_blacks_width_table", source
        )
        if not source.is_file() or table_spec is None or table_spec.loader is None:
            continue
        table = importlib.util.module_from_spec(table_spec)
        table_spec.loader.exec_module(table)
        ranges = getattr(table, "WIDTH_TABLE", None)
        if ranges and all(columns == 2 for _, _, columns in ranges):
            wide = re.compile(
                "["
                + "".join(
                    f"{re.escape(chr(start))}-{re.escape(chr(end))}"
                    for start, end, _ in ranges
                )
                + "]"
            )
            return lambda line: len(line) + len(wide.findall(line))
    from black.strings import str_width

    return str_width


def width(line: str) -> int:
    """The width black measures a line by (East Asian wide characters count twice).

    Exactly black's ``black.strings.str_width``, from black's own table (see
    :func:`_blacks_width`), looked up only for a line that may hold a wide
    character.
    """
    if line.isascii() or max(line) < _WIDE_FROM:
        return len(line)
    return _blacks_width()(line)


def fits(line: str) -> bool:
    """Whether black counts ``line`` within its line length.

    Exact, and cheap for nearly every line: a character is one or two columns
    wide, and only one from U+1100 up may be two, so only a line whose length
    lies between those bounds and the limit needs black's width table.
    """
    if len(line) > LINE_LENGTH:
        return False
    if line.isascii() or len(line) * 2 <= LINE_LENGTH:
        return True
    # Counted in Python, not by a regular expression: a class spanning most of
    # Unicode takes some 4-10 ms to compile, more than a run spends counting.
    if len(line) + sum(char >= _WIDE_FROM for char in line) <= LINE_LENGTH:
        return True
    return width(line) <= LINE_LENGTH


def _escape(char: str) -> str:
    code = ord(char)
    if char == "\\":
        return "\\\\"
    if char == "\n":
        return "\\n"
    if char == "\r":
        return "\\r"
    if char == "\t":
        return "\\t"
    if char.isprintable():
        return char
    # Everything invisible (controls, bidi overrides, line separators) is escaped,
    # so a reader of the generated code sees exactly what the string holds.
    if code < 0x100:
        return f"\\x{code:02x}"
    if code < 0x10000:
        return f"\\u{code:04x}"
    return f"\\U{code:08x}"


def string_literal(text: str) -> str:
    """A Python string literal for ``text``, with the quotes black would pick.

    black keeps double quotes unless single quotes need fewer backslashes.
    """
    if '"' not in text and "\\" not in text and text.isprintable():
        return f'"{text}"'  # the usual case (a name, most meanings), checked in C
    if text.isprintable() and "\\" not in text:  # quotes only: which to use
        body = text
    else:
        body = "".join(_escape(char) for char in text)
    if text.count("'") < text.count('"'):
        return "'" + body.replace("'", "\\'") + "'"
    return '"' + body.replace('"', '\\"') + '"'


def docstring(indent: int, paragraphs: tuple[str, ...]) -> str:
    """A docstring of ``paragraphs`` at ``indent`` spaces, in black's layout.

    Each paragraph is wrapped to the line length (a word longer than a line
    stays whole), every line stripped; a backslash, a double quote (so no
    ``\"\"\"`` can end it early, and black never pads a quote at either end)
    and every invisible character are escaped as in a string literal.  The
    closing quotes stand on a line of their own, which black keeps.
    """
    pad = " " * indent
    width = LINE_LENGTH - indent - 3  # the first line's opening quotes: every line
    blocks = []
    for paragraph in paragraphs:
        if paragraph.isprintable() and "\\" not in paragraph:  # checked in C
            # Its only blank is the space: most are already one-spaced.
            spaced = "  " not in paragraph and paragraph.strip() == paragraph
            text = paragraph if spaced else " ".join(paragraph.split())
        else:
            text = " ".join("".join(map(_escape, word)) for word in paragraph.split())
        if '"' in text:
            text = text.replace('"', '\\"')
        if len(text) > width:
            text = f"\n{pad}".join(_wrapped(text, width))
        blocks.append(text)
    if all(blocks):
        return f'{pad}"""' + f"\n\n{pad}".join(blocks) + f'\n{pad}"""'
    # A paragraph of no words leaves an empty line, which takes no indent (and
    # as the first, the indent of the line after it is cut: as always printed).
    body = "\n\n".join(pad + text if text else "" for text in blocks)
    return f'{pad}"""{body[indent:]}\n{pad}"""'


def _wrapped(text: str, width: int) -> list[str]:
    """``text``, words separated by one space, in lines of at most ``width``
    characters, each ending at the last space within it (a longer word alone)."""
    lines = []
    while len(text) > width:
        end = text.rfind(" ", 0, width + 1)
        if end < 0:  # a word longer than a line: alone on its own
            end = text.find(" ")
            if end < 0:
                break
        lines.append(text[:end])
        text = text[end + 1 :]
    lines.append(text)
    return lines


def _atom(value: str) -> bool:
    """Whether black sees ``value`` as one atom it cannot split: a string or a name."""
    return value[:1] in ("'", '"') or value.isidentifier()


def assign(indent: int, target: str, value: str) -> str:
    """``target = value`` at ``indent`` spaces, wrapped in parentheses as black would.

    ``value`` is a string literal, a name or a dotted name; ``target`` a name,
    possibly annotated (``code: ClassVar[ErrorCode]``).  A line that is too long
    gets its value wrapped when that makes it fit.  When it does not, black
    leaves an atom after a plain name alone, but still wraps a dotted name, or
    any value after a target with brackets (it tries to split those first).
    """
    pad = " " * indent
    line = f"{pad}{target} = {value}"
    if len(line) <= LINE_LENGTH and line.isascii():
        return line  # the usual case, without the call to ``fits``
    if fits(line):
        return line
    if not fits(f"{pad}    {value}") and _atom(value) and "[" not in target:
        return line
    return f"{pad}{target} = (\n{pad}    {value}\n{pad})"


def assign_call(indent: int, target: str, function: str, args: tuple[str, ...]) -> str:
    """``target = function(args...)`` at ``indent`` spaces, one argument a line.

    The trailing comma after the last argument is black's magic one: black keeps
    the call exploded as it is, however short it would be joined.
    """
    pad = " " * indent
    body = "".join(f"{pad}    {arg},\n" for arg in args)
    return f"{pad}{target} = {function}(\n{body}{pad})"


def class_header(name: str, base: str) -> str:
    """A top-level ``class name(base):`` line, split as black splits a long one."""
    line = f"class {name}({base}):"
    if fits(line):
        return line
    return f"class {name}(\n    {base}\n):"


# A string literal on one line.  Its body is written unrolled (runs of plain
# characters between escapes), not as ``(?:[^"\\\n]|\\.)*``: the same strings,
# matched some five times faster, as every long ``meaning = "..."`` line is.
_STRING = r'(?:"[^"\\\n]*(?:\\.[^"\\\n]*)*"|\'[^\'\\\n]*(?:\\.[^\'\\\n]*)*\')'

# ``name = "text"``: black leaves such a line alone however long it is (it can
# neither split the string nor gain anything by wrapping it), see ``assign``.
_UNSPLITTABLE = re.compile(rf" *[A-Za-z_][A-Za-z0-9_]* = {_STRING}")

# ``"key": Name,`` or ``"key": "text",``: one entry of an exploded dict, which
# black cannot split further and so keeps as it is.
_DICT_ENTRY = re.compile(rf" *{_STRING}: (?:[A-Za-z_][A-Za-z0-9_]*|{_STRING}),")


# The first line of a docstring that goes on below it: black strips the line's
# ends (nothing to strip here), pads a leading quote (none here) and moves only
# the closing quotes, which are on another line; it never wraps a docstring.
_DOCSTRING_OPENING = re.compile(r' *"""[^\s"\\](?:[^"\\]*[^\s"\\])?')


def _kept_long(line: str) -> bool:
    """Whether black keeps this over-long line as it is (see ``assign``)."""
    if _DICT_ENTRY.fullmatch(line) or _DOCSTRING_OPENING.fullmatch(line):
        return True
    if not _UNSPLITTABLE.fullmatch(line):
        return False
    indent = len(line) - len(line.lstrip(" "))
    value = line.split(" = ", 1)[1]
    return not fits(" " * (indent + 4) + value)


def _suspects(source: str) -> list[str]:
    """The lines of ``source`` that may not fit: every other one, at most half the
    limit or ASCII within it, does (see ``fits``).  One comprehension, no call a
    line: half of a module's lines are longer than half the limit."""
    lines = source.splitlines()
    if source.isascii():
        return [line for line in lines if len(line) > LINE_LENGTH]
    half = LINE_LENGTH // 2
    return [
        line
        for line in lines
        if len(line) > half and (len(line) > LINE_LENGTH or not line.isascii())
    ]


def finish(source: str) -> str:
    """Return ``source`` as black would format it.

    The templates already emit black's layout; only a file with a line wider than
    black allows (which the helpers above cannot always avoid) is passed to black.
    A long ``name = "text"`` line does not count: black keeps it as it is, and a
    long meaning must not cost a run of black over the whole module.
    """
    if all(fits(line) or _kept_long(line) for line in _suspects(source)):
        return source
    import black

    return black.format_str(source, mode=black.Mode(line_length=LINE_LENGTH))
