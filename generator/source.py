"""Source: read a YAML file into a small tree of nodes that remember where they were.

This is the only place that parses YAML.  It walks the parser's event stream
itself (with the C parser when PyYAML has one) instead of letting PyYAML build
Python objects, because PyYAML's own constructors silently keep the last of two
duplicate keys, turn ``yes`` and ``off`` into booleans, expand alias bombs and
construct objects from tags.  Here every scalar stays text, together with
whether it was written plain (unquoted), and the loader refuses aliases, tags
that would construct something, duplicate keys, non-scalar keys, more than one
document and absurd nesting, each with the line and column it was found at.
What a scalar *means* (a boolean, a number, a string) is decided later by
whoever asks for it, according to the key it sits under.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Union

import yaml

from generator.diagnostics import Diagnostic, Position, TaxonomyError

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

#: Taxonomies are hand-written; anything this large is a mistake or an attack.
MAX_BYTES = 16 * 1024 * 1024
#: The format needs five levels; the cap keeps hostile nesting cheap to refuse.
MAX_DEPTH = 32

_Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

# Explicit tags that construct nothing: they only say "this is a string / map / list".
_HARMLESS_TAGS = frozenset(
    {"!", "tag:yaml.org,2002:str", "tag:yaml.org,2002:map", "tag:yaml.org,2002:seq"}
)


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class ScalarNode:
    """A scalar exactly as written; ``plain`` is true when it was not quoted."""

    value: str
    plain: bool
    position: Position


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class MapNode:
    """A mapping with scalar keys, in source order, without duplicate keys."""

    items: tuple[tuple[ScalarNode, "Node"], ...]
    position: Position


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class SeqNode:
    """A sequence, in source order."""

    items: tuple["Node", ...]
    position: Position


Node = Union[ScalarNode, MapNode, SeqNode]


def _pos(mark: object) -> Position:
    return Position(line=getattr(mark, "line", 0) + 1, col=getattr(mark, "column", 0) + 1)


def _offset_position(text: str, index: int) -> Position:
    line = text.count("\n", 0, index) + 1
    return Position(line=line, col=index - (text.rfind("\n", 0, index) + 1) + 1)


def load_file(path: Path, display: str | None = None) -> tuple[Node, list[Diagnostic]]:
    """Read and parse ``path`` into its root node and the problems that did not stop parsing.

    Problems that leave no usable tree (unreadable file, bad encoding, a YAML
    syntax error, an alias) raise :class:`TaxonomyError`; the others, such as a
    duplicate key, are returned so validation can add its own to them.
    """
    name = display if display is not None else str(path)
    try:
        with open(path, "rb") as handle:
            data = handle.read(MAX_BYTES + 1)
    except OSError as exc:
        raise TaxonomyError(
            [Diagnostic(path=name, position=None, key="", message=f"cannot read file: {exc.strerror}")]
        ) from None
    if len(data) > MAX_BYTES:
        raise TaxonomyError(
            [
                Diagnostic(
                    path=name,
                    position=Position(line=1, col=1),
                    key="",
                    message=f"file is larger than {MAX_BYTES // (1024 * 1024)} MiB",
                )
            ]
        )
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        head = data[: exc.start]
        line = head.count(b"\n") + 1
        col = len(head[head.rfind(b"\n") + 1 :].decode("utf-8", "replace")) + 1
        raise TaxonomyError(
            [
                Diagnostic(
                    path=name,
                    position=Position(line=line, col=col),
                    key="",
                    message=f"file is not valid UTF-8 (byte 0x{data[exc.start]:02x})",
                )
            ]
        ) from None
    return load_text(text, name)


def load_text(text: str, name: str) -> tuple[Node, list[Diagnostic]]:
    """Parse YAML ``text`` (reported as file ``name``); see :func:`load_file`."""
    if text.startswith("\ufeff"):
        text = text[1:]
    builder = _Builder(name)
    try:
        for event in yaml.parse(text, Loader=_Loader):
            builder.feed(event)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        problem = exc.problem or exc.context or "invalid YAML"
        builder.fail(_pos(mark) if mark is not None else None, f"invalid YAML: {problem}")
    except yaml.reader.ReaderError as exc:
        builder.fail(
            _offset_position(text, exc.position),
            f"invalid YAML: character U+{exc.character if isinstance(exc.character, int) else ord(exc.character):04X} is not allowed",
        )
    except yaml.YAMLError as exc:
        builder.fail(Position(line=1, col=1), f"invalid YAML: {exc}")
    except _Stop:
        pass
    if builder.root is None and not builder.diagnostics:
        builder.error(Position(line=1, col=1), "file is empty")
    if builder.root is None or builder.fatal:
        raise TaxonomyError(builder.diagnostics)
    return builder.root, builder.diagnostics


class _Stop(Exception):
    """Raised inside the builder to abandon a stream it cannot make sense of."""


@dataclasses.dataclass(slots=True)
class _Frame:
    kind: str  # "map" or "seq"
    position: Position
    items: list[object]
    keys: dict[str, Position]
    path: str
    pending_key: ScalarNode | None = None


class _Builder:
    """Turns parser events into nodes with an explicit stack (no recursion)."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.diagnostics: list[Diagnostic] = []
        self.stack: list[_Frame] = []
        self.root: Node | None = None
        self.documents = 0
        self.skip_depth = 0  # > 0 while skipping a mapping key that is not a scalar
        self.fatal = False  # set when the tree is unusable (a syntax error, an alias...)

    def error(self, position: Position | None, message: str) -> None:
        self.diagnostics.append(
            Diagnostic(path=self.name, position=position, key="", message=message)
        )

    def fail(self, position: Position | None, message: str) -> None:
        self.error(position, message)
        self.fatal = True

    def _check_tag(self, event: yaml.NodeEvent, position: Position) -> None:
        # Parser events carry a tag only when the source spells one out.
        tag = getattr(event, "tag", None)
        if tag is not None and tag not in _HARMLESS_TAGS:
            self.error(position, f"YAML tag {tag!r} is not allowed (taxonomies hold plain data)")

    def feed(self, event: yaml.Event) -> None:
        if isinstance(event, yaml.AliasEvent):
            self.fail(
                _pos(event.start_mark),
                f"YAML alias '*{event.anchor}' is not allowed (write the value out)",
            )
            raise _Stop
        if isinstance(event, yaml.DocumentStartEvent):
            self.documents += 1
            if self.documents > 1:
                self.fail(_pos(event.start_mark), "expected a single YAML document")
                raise _Stop
            return
        if self.skip_depth:
            if isinstance(event, (yaml.MappingStartEvent, yaml.SequenceStartEvent)):
                self.skip_depth += 1
            elif isinstance(event, (yaml.MappingEndEvent, yaml.SequenceEndEvent)):
                self.skip_depth -= 1
            return
        if isinstance(event, yaml.ScalarEvent):
            position = _pos(event.start_mark)
            self._check_tag(event, position)
            # An explicit tag (even `!!str`) makes a scalar text, like quoting does.
            plain = event.style in (None, "") and event.tag is None
            self._add(ScalarNode(value=event.value, plain=plain, position=position))
        elif isinstance(event, (yaml.MappingStartEvent, yaml.SequenceStartEvent)):
            position = _pos(event.start_mark)
            self._check_tag(event, position)
            top = self.stack[-1] if self.stack else None
            if top is not None and top.kind == "map" and top.pending_key is None:
                self.error(position, "mapping keys must be plain scalars")
                self.skip_depth = 1
                top.pending_key = ScalarNode(value="\0invalid", plain=False, position=position)
                return
            if len(self.stack) >= MAX_DEPTH:
                self.fail(position, f"nesting deeper than {MAX_DEPTH} levels")
                raise _Stop
            kind = "map" if isinstance(event, yaml.MappingStartEvent) else "seq"
            self.stack.append(
                _Frame(kind=kind, position=position, items=[], keys={}, path=self._child_path())
            )
        elif isinstance(event, (yaml.MappingEndEvent, yaml.SequenceEndEvent)):
            frame = self.stack.pop()
            node: Node
            if frame.kind == "map":
                node = MapNode(items=tuple(frame.items), position=frame.position)  # type: ignore[arg-type]
            else:
                node = SeqNode(items=tuple(frame.items), position=frame.position)  # type: ignore[arg-type]
            self._add(node)

    def _child_path(self) -> str:
        """The key path of the value about to be added (``domains.task.codes``)."""
        if not self.stack:
            return ""
        top = self.stack[-1]
        if top.kind == "seq":
            return f"{top.path}[{len(top.items)}]"
        name = top.pending_key.value if top.pending_key is not None else ""
        return f"{top.path}.{name}" if top.path else name

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
                return  # unreachable: container keys are diverted in feed()
            first = top.keys.get(node.value)
            if first is not None:
                self.diagnostics.append(
                    Diagnostic(
                        path=self.name,
                        position=node.position,
                        key=f"{top.path}.{node.value}" if top.path else node.value,
                        message=f"duplicate key {node.value!r} (first defined at line {first.line})",
                    )
                )
            top.pending_key = node
            return
        key, top.pending_key = top.pending_key, None
        if key.value == "\0invalid":
            return
        if key.value in top.keys:
            return  # the duplicate was reported; keep the first definition
        top.keys[key.value] = key.position
        top.items.append((key, node))
