"""Source: read a YAML file into a small tree of nodes that remember where they were.

This is the only place that parses YAML.  It walks the parser's event stream
itself (with the C parser when PyYAML has one) instead of letting PyYAML build
Python objects, because PyYAML's own constructors silently keep the last of two
duplicate keys, turn ``yes`` and ``off`` into booleans, expand alias bombs and
construct objects from tags.  Here every scalar stays text, together with
whether it was written plain (unquoted), and the loader refuses aliases, merge
keys, tags that would construct something, duplicate keys, non-scalar keys,
more than one document and absurd nesting, each with the line and column it was
found at.  What a scalar *means* (a boolean, a number, a string) is decided
later by whoever asks for it, according to the key it sits under.

A refused part of the file does not stop the loader: it is reported once and
left in the tree as a node marked ``refused``, which validation skips without a
word, so one run reports every problem.  Only what leaves no tree to check (a
file that cannot be read or decoded, a YAML syntax error) stops loading, and
even then the problems found before it are reported with it.

This module reads the file and parses it; the tree's nodes are defined in
:mod:`taxogen.nodes` (re-exported here) and built from the parser's events by
:mod:`taxogen.builder`.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import yaml

from taxogen import sourcefile
from taxogen.builder import MAX_DEPTH, Builder, Stop, mark_position
from taxogen.diagnostics import Diagnostic, Position, TaxonomyError
from taxogen.nodes import MapNode, Node, ScalarNode, SeqNode
from taxogen.sourcefile import MAX_BYTES

__all__ = [
    "MAX_BYTES",
    "MAX_DEPTH",
    "MapNode",
    "Node",
    "ScalarNode",
    "SeqNode",
    "load_bytes",
    "load_file",
    "load_text",
]


_Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

_SURROGATE = re.compile("[\ud800-\udfff]")

# Byte order marks of the encodings people save YAML in by mistake (longest first).
_BOMS = (
    (b"\x00\x00\xfe\xff", "UTF-32"),
    (b"\xff\xfe\x00\x00", "UTF-32"),
    (b"\xfe\xff", "UTF-16"),
    (b"\xff\xfe", "UTF-16"),
)


def _offset_position(text: str, index: int) -> Position:
    line = text.count("\n", 0, index) + 1
    return Position(line=line, col=index - (text.rfind("\n", 0, index) + 1) + 1)


def _whole_file(
    name: str, message: str, position: Position | None = None
) -> TaxonomyError:
    where = position if position is not None else Position(line=1, col=1)
    return TaxonomyError(
        [Diagnostic(path=name, position=where, key="", message=message)]
    )


def load_file(path: Path, display: str | None = None) -> tuple[Node, list[Diagnostic]]:
    """Read and parse ``path`` into its root node and the problems that did not stop
    parsing (see :func:`load_bytes`)."""
    name = display if display is not None else str(path)
    return load_bytes(sourcefile.read(path, name), name)


def load_bytes(data: bytes, name: str) -> tuple[Node, list[Diagnostic]]:
    """Parse the taxonomy ``data`` (reported as file ``name``) into its root node
    and the problems that did not stop parsing.

    Problems that leave no usable tree (bad encoding, a YAML syntax error) raise
    :class:`TaxonomyError`; the others, such as a duplicate key or an alias, are
    returned so validation can add its own to them.
    """
    for bom, encoding in _BOMS:
        if data.startswith(bom):
            raise _whole_file(
                name,
                f"file is {encoding} (it starts with a {encoding} byte order mark);"
                " save it as UTF-8",
            )
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        head = data[: exc.start]
        line = head.count(b"\n") + 1
        col = len(head[head.rfind(b"\n") + 1 :].decode("utf-8", "replace")) + 1
        raise _whole_file(
            name,
            f"file is not valid UTF-8 (byte 0x{data[exc.start]:02x} here); save it as"
            " UTF-8",
            Position(line=line, col=col),
        ) from None
    # Strict UTF-8 decoding never yields a lone surrogate: no need to look
    # for one in the text (load_text does, for a str from elsewhere).
    return _load(text[1:] if text.startswith("\ufeff") else text, name)


# libyaml's problem texts, with what a person can do about them.
_HINTS = (
    ("mapping values are not allowed", "a value that contains ': ' must be quoted"),
    ("tab character", "indent with spaces; YAML does not allow tabs there"),
    (
        "invalid Unicode character escape",
        (
            "a \\u escape must name a character, and a lone surrogate such as \\ud800"
            " is not one"
        ),
    ),
    ("unexpected end of stream", "a quote or bracket is never closed"),
    ("expected <document start>", "there is text after the end of the document"),
    ("did not find expected key", "check the indentation of this line"),
)


def _syntax_message(exc: yaml.MarkedYAMLError, text: str) -> str:
    """The parser's complaint, said plainly, with where the construct it was reading
    began.
    """
    problem = exc.problem or exc.context or "invalid YAML"
    mark = exc.problem_mark
    if mark is not None and "cannot start any token" in problem:
        lines = text.split("\n")
        line = lines[mark.line] if 0 <= mark.line < len(lines) else ""
        if line[mark.column : mark.column + 1] == "\t":
            problem = "found a tab character that cannot start any token"
    message = f"invalid YAML: {problem}"
    context, context_mark = exc.context, exc.context_mark
    match = re.fullmatch(r"while (?:parsing|scanning) an? (.+)", context or "")
    if (
        match
        and context_mark is not None
        and problem is not context
        and (
            (context_mark.line, context_mark.column)
            != (getattr(mark, "line", -1), getattr(mark, "column", -1))
        )
    ):
        message += (
            f" (in the {match.group(1)} that starts at line {context_mark.line + 1},"
            f" column {context_mark.column + 1})"
        )
    for needle, hint in _HINTS:
        if needle in problem:
            message += f"; {hint}"
            break
    return message


def load_text(text: str, name: str) -> tuple[Node, list[Diagnostic]]:
    """Parse YAML ``text`` (reported as file ``name``); see :func:`load_file`."""
    if text.startswith("\ufeff"):
        text = text[1:]
    surrogate = _SURROGATE.search(text)
    if surrogate is not None:  # only a str from elsewhere than a file can hold one
        raise _whole_file(
            name,
            f"text holds a lone surrogate U+{ord(surrogate.group()):04X}, which is not"
            " a character",
            _offset_position(text, surrogate.start()),
        )
    return _load(text, name)


def _events(text: str) -> Iterator[yaml.Event]:
    """The parser's events, as ``yaml.parse`` gives them, through ``get_event``
    until it answers None (the stream's end): no ``check_event`` call and no
    Python frame per event (72,000 at 10,000 codes)."""
    loader = _Loader(text)
    try:
        yield from iter(loader.get_event, None)
    finally:
        loader.dispose()


def _load(text: str, name: str) -> tuple[Node, list[Diagnostic]]:
    """:func:`load_text` of a ``text`` known to hold no lone surrogate, its
    byte order mark taken off."""
    builder = Builder(name)
    try:
        builder.feed_all(_events(text))
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        builder.fail(
            mark_position(mark) if mark is not None else Position(line=1, col=1),
            _syntax_message(exc, text),
        )
    except yaml.reader.ReaderError as exc:
        char = exc.character if isinstance(exc.character, int) else ord(exc.character)
        escape = f"\\x{char:02x}" if char < 0x100 else f"\\u{char:04x}"
        builder.fail(
            _offset_position(text, exc.position),
            f"invalid YAML: character U+{char:04X} is not allowed in YAML; write it as"
            f" the escape {escape} inside double quotes",
        )
    except yaml.YAMLError as exc:
        builder.fail(Position(line=1, col=1), f"invalid YAML: {exc}")
    except Stop:
        pass
    builder.finish()
    if builder.root is None and not builder.diagnostics:
        if text.strip():
            builder.error(
                Position(line=1, col=1),
                "file holds only comments; a taxonomy is a mapping (format: 1, name:"
                " ..., domains: ...)",
            )
        else:
            builder.error(
                Position(line=1, col=1),
                "file is empty; a taxonomy is a mapping (format: 1, name: ..., domains:"
                " ...)",
            )
    if builder.root is None or builder.fatal:
        raise TaxonomyError(builder.diagnostics, truncated=builder.truncated)
    return builder.root, builder.diagnostics
