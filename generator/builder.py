"""Builder: YAML parser events → the node tree, every refusal reported at its place.

It walks the parser's event stream itself instead of letting PyYAML build
Python objects, because PyYAML's own constructors silently keep the last of two
duplicate keys, turn ``yes`` and ``off`` into booleans, expand alias bombs and
construct objects from tags.  Here the builder refuses aliases, merge keys,
tags that would construct something, duplicate keys, non-scalar keys, more than
one document and absurd nesting, each with the line and column it was found
at, and leaves a ``refused`` node in its place so one run reports every
problem.  It is longer than 300 lines because :class:`Builder` is one state
machine over the event stream (a stack of open containers, the skipping of a
refused part, the aliases met): its methods share that state and read best
together.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from typing import Any, cast

import yaml

from taxogen.diagnostics import MAX_DIAGNOSTICS, Diagnostic, Position
from taxogen.nodes import MapNode, Node, ScalarNode, SeqNode

__all__ = ["MAX_DEPTH", "Builder", "Stop", "mark_position"]

#: The format itself needs five levels (free-form example details more); the
#: cap keeps hostile nesting cheap to refuse.
MAX_DEPTH = 32

# Explicit tags that construct nothing: they only say "this is a string / map / list".
_HARMLESS_TAGS = frozenset(
    {"!", "tag:yaml.org,2002:str", "tag:yaml.org,2002:map", "tag:yaml.org,2002:seq"}
)
_YAML_TAG_PREFIX = "tag:yaml.org,2002:"


def mark_position(mark: object) -> Position:
    return Position(
        line=getattr(mark, "line", 0) + 1, col=getattr(mark, "column", 0) + 1
    )


# Frozen dataclasses set each field through object.__setattr__, about twice
# what a plain class costs, and loading makes two objects per scalar (100,000
# at 10,000 codes).  The hot path of feed_all makes the same objects by setting
# their slots through the slots' own descriptors, every field of each (equal,
# hashed and frozen as any other: tests/test_builder_fast.py).
_new = object.__new__
_LINE, _COL = vars(Position)["line"].__set__, vars(Position)["col"].__set__
_VALUE, _PLAIN = vars(ScalarNode)["value"].__set__, vars(ScalarNode)["plain"].__set__
_AT, _REFUSED = (
    vars(ScalarNode)["position"].__set__,
    vars(ScalarNode)["refused"].__set__,
)
_ITEMS, _MAP_AT = vars(MapNode)["items"].__set__, vars(MapNode)["position"].__set__
_MAP_REFUSED = vars(MapNode)["refused"].__set__
_INCOMPLETE, _FLOW = (
    vars(MapNode)["incomplete"].__set__,
    vars(MapNode)["flow"].__set__,
)


def _position(line: int, col: int) -> Position:
    """``Position(line=line, col=col)``, made faster (see above)."""
    made: Position = _new(Position)
    _LINE(made, line)
    _COL(made, col)
    return made


def _scalar(value: str, plain: bool, position: Position) -> ScalarNode:
    """``ScalarNode(value=value, plain=plain, position=position)``, made faster."""
    made: ScalarNode = _new(ScalarNode)
    _VALUE(made, value)
    _PLAIN(made, plain)
    _AT(made, position)
    _REFUSED(made, False)
    return made


def _mapping(
    items: tuple[tuple[ScalarNode, Node], ...],
    position: Position,
    incomplete: bool,
    flow: bool,
) -> MapNode:
    """``MapNode(items=..., position=..., incomplete=..., flow=...)``, made faster."""
    made: MapNode = _new(MapNode)
    _ITEMS(made, items)
    _MAP_AT(made, position)
    _MAP_REFUSED(made, False)
    _INCOMPLETE(made, incomplete)
    _FLOW(made, flow)
    return made


class Stop(Exception):
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
    flow: bool = False  # a mapping written {a: b, c: d}


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
    """The empty node a refused mapping (``kind`` "map") or sequence leaves."""
    if kind == "map":
        return MapNode(items=(), position=position, refused=True)
    return SeqNode(items=(), position=position, refused=True)


class Builder:
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
        """Feed every event of ``events`` to :meth:`feed`, the common ones inline.

        Untagged scalars, untagged mappings that are values (not keys) and the
        ends of mappings and sequences are nearly every event of a taxonomy.
        Building their nodes here, without the method calls and checks
        :meth:`feed` makes for any event, and each node through its slots
        (above), takes loading 10,000 codes from 185 to 156 ms (cycle collector
        off), then the builder's own part from 85 to 60 ms.  Whatever could need
        a diagnostic (a duplicate key, a merge key, a tag, a mapping as a key or
        too deep, a scalar as the whole document) or arrives while events are
        skipped goes through :meth:`feed` unchanged.
        """
        stack = self.stack
        feed = self.feed
        new = _new
        line_, col_, value_, plain_, at_, refused_ = (
            _LINE,
            _COL,
            _VALUE,
            _PLAIN,
            _AT,
            _REFUSED,
        )
        scalar_event, mapping_start = yaml.ScalarEvent, yaml.MappingStartEvent
        mapping_end, sequence_end = yaml.MappingEndEvent, yaml.SequenceEndEvent
        # Any: the branches below test the event's type by identity, which
        # mypy does not narrow through the local names.
        for event in cast(Iterable[Any], events):
            kind = type(event)
            if self.skip_depth or self.truncated or not stack:
                feed(event)
            elif kind is scalar_event and event.tag is None and event.value != "<<":
                mark = event.start_mark  # both parsers mark every event
                at: Position = new(Position)
                line_(at, mark.line + 1)
                col_(at, mark.column + 1)
                node: ScalarNode = new(ScalarNode)
                value_(node, event.value)
                plain_(node, not event.style)  # None or "" for a plain scalar
                at_(node, at)
                refused_(node, False)
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
            elif kind is mapping_end:
                frame = stack.pop()
                made = _mapping(
                    tuple(frame.items),  # type: ignore[arg-type]
                    frame.position,
                    frame.incomplete,
                    frame.flow,
                )
                self._add(made)
            elif kind is sequence_end:
                self._end()
            elif (
                kind is mapping_start
                and event.tag is None
                and len(stack) < MAX_DEPTH
                and (stack[-1].kind == "seq" or stack[-1].pending_key is not None)
            ):  # an untagged mapping as a value: _start's own path, without checks
                mark = event.start_mark
                at = new(Position)
                line_(at, mark.line + 1)
                col_(at, mark.column + 1)
                stack.append(
                    _Frame(
                        kind="map",
                        position=at,
                        items=[],
                        keys={},
                        path=self._child_path(),
                        flow=bool(event.flow_style),
                    )
                )
            else:
                feed(event)

    def feed(self, event: yaml.Event) -> None:
        if self.truncated:
            raise Stop
        if self.skip_depth:
            self._skip(event)
            return
        if isinstance(event, yaml.DocumentStartEvent):
            self.documents += 1
            if self.documents > 1:
                self.error(
                    mark_position(event.start_mark),
                    "a second YAML document starts here; a taxonomy is a single "
                    "document"
                    " (remove this '---' and everything after it, or merge the two)",
                )
                raise Stop
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
            node = MapNode(
                items=tuple(frame.items),  # type: ignore[arg-type]
                position=frame.position,
                incomplete=frame.incomplete,
                flow=frame.flow,
            )
        else:
            node = SeqNode(
                items=tuple(frame.items),  # type: ignore[arg-type]
                position=frame.position,
            )
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
        """Whether the node to be added is the value of a refused (reported) key."""
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
        """Report an explicit tag that would construct something; true if one was."""
        # Parser events carry a tag only when the source spells one out.
        tag = getattr(event, "tag", None)
        if tag is None or tag in _HARMLESS_TAGS:
            return False
        self.error(
            position,
            f"YAML tag '{_tag_text(tag)}' is not allowed: a taxonomy holds plain text, "
            "mappings and lists"
            " (remove the tag)",
            self._child_path(),
        )
        return True

    def _alias(self, event: yaml.AliasEvent) -> None:
        position = mark_position(event.start_mark)
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
        position = mark_position(event.start_mark)
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
        position = mark_position(event.start_mark)
        kind = "map" if isinstance(event, yaml.MappingStartEvent) else "seq"
        if self._is_key():
            self.error(
                position,
                "a mapping key must be text, not a "
                f"{'mapping' if kind == 'map' else 'list'}",
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
                f"nested deeper than {MAX_DEPTH} levels; the rest of this value was "
                "not read",
                self._child_path(),
            )
            self._begin_skip(_refused_container(kind, position))
            return
        self.stack.append(
            _Frame(
                kind=kind,
                position=position,
                items=[],
                keys={},
                path=self._child_path(),
                flow=bool(event.flow_style),
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
                    f"duplicate key {node.value!r}: it is already defined at line "
                    f"{first.line}, column {first.col}"
                    " (YAML would silently keep only one of them;"
                    " remove or rename one)",
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
