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
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Union

import yaml

from generator.diagnostics import MAX_DIAGNOSTICS, Diagnostic, Position, TaxonomyError

__all__ = [
    "MAX_BYTES",
    "MAX_DEPTH",
    "MapNode",
    "Node",
    "ScalarNode",
    "SeqNode",
    "load_file",
    "load_text",
]

#: Taxonomies are hand-written (the shipped one is 5 KiB; ten thousand codes fit
#: in about 1 MiB): anything larger is a mistake or an attack, refused unread.
MAX_BYTES = 4 * 1024 * 1024
#: The format itself needs five levels (free-form example details more); the cap keeps hostile nesting cheap to refuse.
MAX_DEPTH = 32

_Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

# Explicit tags that construct nothing: they only say "this is a string / map / list".
_HARMLESS_TAGS = frozenset(
    {"!", "tag:yaml.org,2002:str", "tag:yaml.org,2002:map", "tag:yaml.org,2002:seq"}
)
_YAML_TAG_PREFIX = "tag:yaml.org,2002:"
_SURROGATE = re.compile("[\ud800-\udfff]")

# Byte order marks of the encodings people save YAML in by mistake (longest first).
_BOMS = (
    (b"\x00\x00\xfe\xff", "UTF-32"),
    (b"\xff\xfe\x00\x00", "UTF-32"),
    (b"\xfe\xff", "UTF-16"),
    (b"\xff\xfe", "UTF-16"),
)


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class ScalarNode:
    """A scalar exactly as written; ``plain`` is true when it was not quoted.

    ``refused`` marks a part of the file the loader reported and threw away (an
    alias, a tagged value, a merge key...): validation skips it silently.
    """

    value: str
    plain: bool
    position: Position
    refused: bool = False


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class MapNode:
    """A mapping with scalar keys, in source order, without duplicate keys.

    ``incomplete`` is true when some of its keys were refused (a merge key, an
    alias or a list as a key): keys that seem missing may have been meant there.
    """

    items: tuple[tuple[ScalarNode, "Node"], ...]
    position: Position
    refused: bool = False
    incomplete: bool = False


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class SeqNode:
    """A sequence, in source order."""

    items: tuple["Node", ...]
    position: Position
    refused: bool = False


Node = Union[ScalarNode, MapNode, SeqNode]


def _slot_setters(
    cls: type, *names: str
) -> tuple[Callable[[object, object], None], ...]:
    """The slot descriptors' setters of frozen dataclass ``cls``, for :func:`_scalar_node`."""
    return tuple(vars(cls)[name].__set__ for name in names)


_NEW = object.__new__
_SET_LINE, _SET_COL = _slot_setters(Position, "line", "col")
_SET_VALUE, _SET_PLAIN, _SET_POSITION, _SET_REFUSED = _slot_setters(
    ScalarNode, "value", "plain", "position", "refused"
)


def _scalar_node(value: str, plain: bool, line: int, col: int) -> ScalarNode:
    """``ScalarNode(value=..., plain=..., position=Position(line=..., col=...))``, three times faster.

    A frozen dataclass sets each field through ``object.__setattr__`` (about
    0.9 µs for a scalar and its position), and a taxonomy of 10,000 codes has
    some 50,000 scalars: the builder's hot path fills the slots directly.  The
    objects are the same (``tests/test_source.py`` compares them).
    """
    position = _NEW(Position)
    _SET_LINE(position, line)
    _SET_COL(position, col)
    node = _NEW(ScalarNode)
    _SET_VALUE(node, value)
    _SET_PLAIN(node, plain)
    _SET_POSITION(node, position)
    _SET_REFUSED(node, False)
    return node


def _pos(mark: object) -> Position:
    return Position(
        line=getattr(mark, "line", 0) + 1, col=getattr(mark, "column", 0) + 1
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
    """Read and parse ``path`` into its root node and the problems that did not stop parsing.

    Problems that leave no usable tree (unreadable file, bad encoding, a YAML
    syntax error) raise :class:`TaxonomyError`; the others, such as a duplicate
    key or an alias, are returned so validation can add its own to them.
    """
    name = display if display is not None else str(path)
    try:
        with open(path, "rb") as handle:
            data = handle.read(MAX_BYTES + 1)
    except OSError as exc:
        raise TaxonomyError(
            [
                Diagnostic(
                    path=name,
                    position=None,
                    key="",
                    message=f"cannot read file: {exc.strerror}",
                )
            ]
        ) from None
    if len(data) > MAX_BYTES:
        raise _whole_file(
            name,
            f"file is larger than {MAX_BYTES // (1024 * 1024)} MiB; a taxonomy is a hand-written file,"
            " refused unread",
        )
    for bom, encoding in _BOMS:
        if data.startswith(bom):
            raise _whole_file(
                name,
                f"file is {encoding} (it starts with a {encoding} byte order mark); save it as UTF-8",
            )
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        head = data[: exc.start]
        line = head.count(b"\n") + 1
        col = len(head[head.rfind(b"\n") + 1 :].decode("utf-8", "replace")) + 1
        raise _whole_file(
            name,
            f"file is not valid UTF-8 (byte 0x{data[exc.start]:02x} here); save it as UTF-8",
            Position(line=line, col=col),
        ) from None
    return load_text(text, name)


# libyaml's problem texts, with what a person can do about them.
_HINTS = (
    ("mapping values are not allowed", "a value that contains ': ' must be quoted"),
    ("tab character", "indent with spaces; YAML does not allow tabs there"),
    (
        "invalid Unicode character escape",
        "a \\u escape must name a character, and a lone surrogate such as \\ud800 is not one",
    ),
    ("unexpected end of stream", "a quote or bracket is never closed"),
    ("expected <document start>", "there is text after the end of the document"),
    ("did not find expected key", "check the indentation of this line"),
)


def _syntax_message(exc: yaml.MarkedYAMLError, text: str) -> str:
    """The parser's complaint, said plainly, with where the construct it was reading began."""
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
            f"text holds a lone surrogate U+{ord(surrogate.group()):04X}, which is not a character",
            _offset_position(text, surrogate.start()),
        )
    builder = _Builder(name)
    try:
        builder.feed_all(yaml.parse(text, Loader=_Loader))
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        builder.fail(
            _pos(mark) if mark is not None else Position(line=1, col=1),
            _syntax_message(exc, text),
        )
    except yaml.reader.ReaderError as exc:
        char = exc.character if isinstance(exc.character, int) else ord(exc.character)
        escape = f"\\x{char:02x}" if char < 0x100 else f"\\u{char:04x}"
        builder.fail(
            _offset_position(text, exc.position),
            f"invalid YAML: character U+{char:04X} is not allowed in YAML; write it as the escape"
            f" {escape} inside double quotes",
        )
    except yaml.YAMLError as exc:
        builder.fail(Position(line=1, col=1), f"invalid YAML: {exc}")
    except _Stop:
        pass
    builder.finish()
    if builder.root is None and not builder.diagnostics:
        if text.strip():
            builder.error(
                Position(line=1, col=1),
                "file holds only comments; a taxonomy is a mapping (format: 1, name: ..., domains: ...)",
            )
        else:
            builder.error(
                Position(line=1, col=1),
                "file is empty; a taxonomy is a mapping (format: 1, name: ..., domains: ...)",
            )
    if builder.root is None or builder.fatal:
        raise TaxonomyError(builder.diagnostics, truncated=builder.truncated)
    return builder.root, builder.diagnostics


class _Stop(Exception):
    """Raised inside the builder to stop reading a stream (the tree so far is kept)."""


@dataclasses.dataclass(slots=True)
class _Frame:
    kind: str  # "map" or "seq"
    position: Position
    items: list[object]
    keys: dict[str, Position]
    path: str
    pending_key: ScalarNode | None = None
    incomplete: bool = False


def _alias_message(anchor: str, uses: int) -> str:
    more = f"; its {uses - 1} other uses are refused too" if uses > 1 else ""
    return (
        f"YAML alias '*{anchor}' is not allowed: anchors and aliases are refused"
        f" (they can expand a small file into a huge one); write the value out{more}"
    )


def _tag_text(tag: str) -> str:
    """A tag as the user wrote it: ``!!binary``, not ``tag:yaml.org,2002:binary``."""
    if tag.startswith(_YAML_TAG_PREFIX):
        return "!!" + tag[len(_YAML_TAG_PREFIX) :]
    return tag


def _refused_container(kind: str, position: Position) -> Node:
    """The empty node a refused mapping (``kind`` "map") or sequence leaves in the tree."""
    if kind == "map":
        return MapNode(items=(), position=position, refused=True)
    return SeqNode(items=(), position=position, refused=True)


class _Builder:
    """Turns parser events into nodes with an explicit stack (no recursion)."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.diagnostics: list[Diagnostic] = []
        self.stack: list[_Frame] = []
        self.root: Node | None = None
        self.documents = 0
        # While > 0, events are skipped (a refused container, a non-scalar key);
        # when it drops back to 0, ``skip_node`` takes the skipped part's place.
        self.skip_depth = 0
        self.skip_node: Node | None = None
        self.fatal = False  # set when the tree is unusable (a syntax error...)
        self.truncated = False  # set when MAX_DIAGNOSTICS problems were found
        # Each anchor's aliases are reported once, at the first: (its diagnostic, uses).
        self.aliases: dict[str, tuple[int, int]] = {}

    def error(self, position: Position | None, message: str, key: str = "") -> None:
        if len(self.diagnostics) >= MAX_DIAGNOSTICS:
            self.truncated = True
            self.fatal = True
            return
        self.diagnostics.append(
            Diagnostic(path=self.name, position=position, key=key, message=message)
        )

    def fail(self, position: Position | None, message: str) -> None:
        self.error(position, message)
        self.fatal = True

    def feed_all(self, events: Iterable[yaml.Event]) -> None:
        """Feed every event of ``events`` to :meth:`feed`, the common ones handled inline.

        Untagged scalars and the ends of mappings and sequences are nearly every
        event of a taxonomy.  Building their nodes here, without the method calls
        and checks :meth:`feed` makes for any event, saves a sixth of loading
        (10,000 codes, cycle collector off: 185 -> 156 ms).  Whatever could need a diagnostic
        (a duplicate key, a merge key, a tag, a scalar as the whole document) or
        arrives while events are skipped goes through :meth:`feed` unchanged.
        """
        stack = self.stack
        feed = self.feed
        for event in events:
            if self.skip_depth or self.truncated or not stack:
                feed(event)
            elif (
                type(event) is yaml.ScalarEvent
                and event.tag is None
                and event.value != "<<"
            ):
                mark = event.start_mark  # both parsers mark every event
                # not style: None or "" for a plain scalar
                node = _scalar_node(event.value, not event.style, mark.line + 1, mark.column + 1)  # type: ignore[union-attr]
                top = stack[-1]
                if top.kind == "seq":
                    top.items.append(node)
                elif top.pending_key is not None:
                    key, top.pending_key = top.pending_key, None
                    if key.refused:
                        top.incomplete = True
                    elif key.value not in top.keys:  # else a duplicate: keep the first
                        top.keys[key.value] = key.position
                        top.items.append((key, node))
                elif node.value in top.keys:
                    self._add(node)  # reports the duplicate key
                else:
                    top.pending_key = node
            elif (
                type(event) is yaml.MappingEndEvent
                or type(event) is yaml.SequenceEndEvent
            ):
                self._end()
            else:
                feed(event)

    def feed(self, event: yaml.Event) -> None:
        if self.truncated:
            raise _Stop
        if self.skip_depth:
            self._skip(event)
            return
        if isinstance(event, yaml.DocumentStartEvent):
            self.documents += 1
            if self.documents > 1:
                self.error(
                    _pos(event.start_mark),
                    "a second YAML document starts here; a taxonomy is a single document"
                    " (remove this '---' and everything after it, or merge the two)",
                )
                raise _Stop
            return
        if isinstance(event, yaml.AliasEvent):
            self._alias(event)
        elif isinstance(event, yaml.ScalarEvent):
            self._scalar(event)
        elif isinstance(event, (yaml.MappingStartEvent, yaml.SequenceStartEvent)):
            self._start(event)
        elif isinstance(event, (yaml.MappingEndEvent, yaml.SequenceEndEvent)):
            self._end()

    def _end(self) -> None:
        """Close the innermost mapping or sequence into its node."""
        frame = self.stack.pop()
        node: Node
        if frame.kind == "map":
            node = MapNode(items=tuple(frame.items), position=frame.position, incomplete=frame.incomplete)  # type: ignore[arg-type]
        else:
            node = SeqNode(items=tuple(frame.items), position=frame.position)  # type: ignore[arg-type]
        self._add(node)

    # ------------------------------------------------------------- key paths
    def _is_key(self) -> bool:
        """Whether the node about to be added is a mapping key."""
        return (
            bool(self.stack)
            and self.stack[-1].kind == "map"
            and self.stack[-1].pending_key is None
        )

    def _child_path(self) -> str:
        """The key path of the value about to be added (``domains.task.codes``)."""
        if not self.stack:
            return ""
        top = self.stack[-1]
        if top.kind == "seq":
            return f"{top.path}[{len(top.items)}]"
        if top.pending_key is None:  # the node is a key: report the mapping it is in
            return top.path
        name = "?" if top.pending_key.refused else top.pending_key.value
        return f"{top.path}.{name}" if top.path else name

    def _refused_value(self) -> bool:
        """Whether the node about to be added is the value of a refused key (already reported)."""
        return (
            bool(self.stack)
            and self.stack[-1].kind == "map"
            and (
                self.stack[-1].pending_key is not None
                and self.stack[-1].pending_key.refused
            )
        )

    # ---------------------------------------------------------------- events
    def _bad_tag(self, event: yaml.NodeEvent, position: Position) -> bool:
        """Report an explicit tag that would construct something; true if there was one."""
        # Parser events carry a tag only when the source spells one out.
        tag = getattr(event, "tag", None)
        if tag is None or tag in _HARMLESS_TAGS:
            return False
        self.error(
            position,
            f"YAML tag '{_tag_text(tag)}' is not allowed: a taxonomy holds plain text, mappings and lists"
            " (remove the tag)",
            self._child_path(),
        )
        return True

    def _alias(self, event: yaml.AliasEvent) -> None:
        position = _pos(event.start_mark)
        anchor = str(event.anchor)
        seen = self.aliases.get(anchor)
        if seen is not None:
            self.aliases[anchor] = (seen[0], seen[1] + 1)
        elif (
            not self._refused_value()
        ):  # `<<: *defaults` is reported once, at the merge key
            self.error(position, _alias_message(anchor, 1), self._child_path())
            if not self.truncated:
                self.aliases[anchor] = (len(self.diagnostics) - 1, 1)
        self._add(ScalarNode(value="", plain=False, position=position, refused=True))

    def finish(self) -> None:
        """Say, at the first use of each anchor, how many more uses were refused."""
        for anchor, (index, uses) in self.aliases.items():
            if uses > 1:
                first = self.diagnostics[index]
                self.diagnostics[index] = dataclasses.replace(
                    first, message=_alias_message(anchor, uses)
                )

    def _scalar(self, event: yaml.ScalarEvent) -> None:
        position = _pos(event.start_mark)
        refused = self._bad_tag(event, position)
        # An explicit tag (even `!!str`) makes a scalar text, like quoting does.
        plain = event.style in (None, "") and event.tag is None
        if plain and event.value == "<<" and self._is_key() and not refused:
            self.error(
                position,
                "YAML merge key '<<' is not allowed; write the keys out in full",
                self._child_path(),
            )
            refused = True
        self._add(
            ScalarNode(
                value=event.value, plain=plain, position=position, refused=refused
            )
        )

    def _start(self, event: yaml.CollectionStartEvent) -> None:
        position = _pos(event.start_mark)
        kind = "map" if isinstance(event, yaml.MappingStartEvent) else "seq"
        if self._is_key():
            self.error(
                position,
                f"a mapping key must be text, not a {'mapping' if kind == 'map' else 'list'}",
                self._child_path(),
            )
            self._begin_skip(
                ScalarNode(value="", plain=False, position=position, refused=True)
            )
            return
        if self._bad_tag(event, position):
            self._begin_skip(_refused_container(kind, position))
            return
        if len(self.stack) >= MAX_DEPTH:
            self.error(
                position,
                f"nested deeper than {MAX_DEPTH} levels; the rest of this value was not read",
                self._child_path(),
            )
            self._begin_skip(_refused_container(kind, position))
            return
        self.stack.append(
            _Frame(
                kind=kind, position=position, items=[], keys={}, path=self._child_path()
            )
        )

    def _begin_skip(self, placeholder: Node) -> None:
        self.skip_depth = 1
        self.skip_node = placeholder

    def _skip(self, event: yaml.Event) -> None:
        if isinstance(event, (yaml.MappingStartEvent, yaml.SequenceStartEvent)):
            self.skip_depth += 1
        elif isinstance(event, (yaml.MappingEndEvent, yaml.SequenceEndEvent)):
            self.skip_depth -= 1
            if self.skip_depth == 0 and self.skip_node is not None:
                node, self.skip_node = self.skip_node, None
                self._add(node)

    def _add(self, node: Node) -> None:
        if not self.stack:
            self.root = node
            return
        top = self.stack[-1]
        if top.kind == "seq":
            top.items.append(node)
            return
        if top.pending_key is None:
            if not isinstance(node, ScalarNode):
                return  # unreachable: container keys are diverted in _start()
            first = None if node.refused else top.keys.get(node.value)
            if first is not None:
                self.error(
                    node.position,
                    f"duplicate key {node.value!r}: it is already defined at line {first.line}, column {first.col}"
                    " (YAML would silently keep only one of them; remove or rename one)",
                    f"{top.path}.{node.value}" if top.path else node.value,
                )
            top.pending_key = node
            return
        key, top.pending_key = top.pending_key, None
        if key.refused:
            top.incomplete = True
            return  # reported where the key was refused
        if key.value in top.keys:
            return  # the duplicate was reported; keep the first definition
        top.keys[key.value] = key.position
        top.items.append((key, node))
