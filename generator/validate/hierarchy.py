"""Hierarchy: a domain's ``parent:`` and ``match:``, and the checks across domains.

``parent: Y`` makes a domain's base class a subclass of domain Y's, to any
depth; a domain that is the parent of others may have no codes of its own.
``match:`` names the unknown wire codes that fall back to a domain rather than
to the global ``fallback``: string prefixes (``"23"``, or a list of them) where
codes are strings, inclusive integer ranges (``[-32099, -32000]``, or a list of
them) where they are integers.  Each domain's values are read where the domain
is; :class:`Hierarchy` remembers them with their positions, and once every
domain is read :meth:`Hierarchy.check` reports what only the whole can tell: a
parent no domain has, a cycle (naming its members), a domain with neither codes
nor children, a prefix two domains claim, ranges that cross without one holding
the other.
"""

from __future__ import annotations

import dataclasses

from generator.diagnostics import Position
from generator.model import MAX_CODE_LENGTH, MAX_PARENT_DEPTH, WIRE_PATTERN
from generator.nodes import Node, ScalarNode, SeqNode
from generator.validate.hints import INT, close_match
from generator.validate.reader import Reader, join
from generator.validate.text import describe, show
from generator.validate.wire import integer_code

__all__ = ["Hierarchy", "Match", "read_match"]


@dataclasses.dataclass(frozen=True, slots=True)
class Match:
    """What a domain's ``match:`` gave, each value with where it was written."""

    prefixes: tuple[tuple[str, Position], ...] = ()
    ranges: tuple[tuple[int, int, Position], ...] = ()


@dataclasses.dataclass(slots=True)
class _Entry:
    key: str
    position: Position
    has_codes: bool
    parent: tuple[str, Position] | None
    match: Match


class Hierarchy:
    """Every domain's parent and match, read so far, for the checks across domains."""

    def __init__(self) -> None:
        self.entries: dict[str, _Entry] = {}

    def add(
        self,
        key: str,
        position: Position,
        *,
        has_codes: bool,
        parent: tuple[str, Position] | None,
        match: Match,
    ) -> None:
        self.entries[key] = _Entry(key, position, has_codes, parent, match)

    def check(self, r: Reader) -> None:
        """Report every problem among the domains read (see the module)."""
        self._parents(r)
        self._childless(r)
        self._prefixes(r)
        self._ranges(r)

    def _parents(self, r: Reader) -> None:
        reported: set[str] = set()
        for entry in self.entries.values():
            if entry.parent is None:
                continue
            parent, where = entry.parent
            key = join(join("domains", entry.key), "parent")
            if parent not in self.entries:
                hint = close_match(parent, list(self.entries))
                more = f" (did you mean {hint!r}?)" if hint is not None else ""
                r.error(where, key, f"no domain {show(parent)} is defined{more}")
                continue
            cycle = self._cycle(entry.key)
            if cycle and entry.key not in reported:
                reported.update(cycle)
                r.error(
                    where,
                    key,
                    "the parents make a cycle: "
                    + " -> ".join([*cycle, cycle[0]])
                    + "; a domain cannot be its own ancestor",
                )
            elif not cycle and self._depth(entry.key) == MAX_PARENT_DEPTH + 1:
                # Reported once, at the first domain past the limit.
                r.error(
                    where,
                    key,
                    f"domain {entry.key!r} is nested {MAX_PARENT_DEPTH + 1} deep; "
                    f"domains nest at most {MAX_PARENT_DEPTH} deep through parent:",
                )

    def _cycle(self, start: str) -> list[str]:
        """The domains of the cycle ``start`` is on (from ``start``), or []."""
        path = [start]
        current = self.entries[start]
        while current.parent is not None and current.parent[0] in self.entries:
            following = current.parent[0]
            if following == start:
                return path
            if following in path:
                return []  # a cycle further up, which its own members report
            path.append(following)
            current = self.entries[following]
        return []

    def _depth(self, key: str) -> int:
        """How deep ``key`` nests: 1 without a parent (or past an unknown one, or
        on a cycle further up, each reported on its own)."""
        depth, seen = 1, {key}
        current = self.entries[key]
        while current.parent is not None and current.parent[0] in self.entries:
            following = current.parent[0]
            if following in seen:
                break
            seen.add(following)
            depth += 1
            current = self.entries[following]
        return depth

    def _childless(self, r: Reader) -> None:
        parents = {e.parent[0] for e in self.entries.values() if e.parent is not None}
        for entry in self.entries.values():
            if not entry.has_codes and entry.key not in parents:
                r.error(
                    entry.position,
                    join("domains", entry.key),
                    "a domain needs at least one code, unless it is the parent of "
                    "other domains (`parent:`)",
                )

    def _prefixes(self, r: Reader) -> None:
        owners: dict[str, tuple[str, Position]] = {}
        for entry in self.entries.values():
            for prefix, where in entry.match.prefixes:
                earlier = owners.get(prefix)
                if earlier is None:
                    owners[prefix] = (entry.key, where)
                    continue
                whose = (
                    "this domain"
                    if earlier[0] == entry.key
                    else f"domain {earlier[0]!r}"
                )
                r.error(
                    where,
                    join(join("domains", entry.key), "match"),
                    f"prefix {show(prefix)} is also matched by {whose} at line "
                    f"{earlier[1].line}; an unknown code must fall back to one "
                    "domain",
                )

    def _ranges(self, r: Reader) -> None:
        seen: list[tuple[int, int, str, Position]] = []
        for entry in self.entries.values():
            for low, high, where in entry.match.ranges:
                for other_low, other_high, owner, other_where in seen:
                    apart = high < other_low or other_high < low
                    inside = (other_low <= low and high <= other_high) or (
                        low <= other_low and other_high <= high
                    )
                    same = (low, high) == (other_low, other_high)
                    if apart or (inside and not same):
                        continue
                    whose = "this domain" if owner == entry.key else f"domain {owner!r}"
                    how = "is the same as" if same else "crosses"
                    r.error(
                        where,
                        join(join("domains", entry.key), "match"),
                        f"range [{low}, {high}] {how} the range "
                        f"[{other_low}, {other_high}] of {whose} at line "
                        f"{other_where.line}; ranges must be apart, or one "
                        "inside the other (the inner one wins)",
                    )
                    break
                seen.append((low, high, entry.key, where))


def read_match(r: Reader, node: Node, key: str, wire_type: str | None) -> Match | None:
    """A domain's ``match:`` at ``node``, as ``wire_type`` says it is written, or
    None (reported; also when the wire type itself is invalid)."""
    if node.refused or wire_type is None:
        return None
    if wire_type == "integer":
        return _ranges(r, node, key)
    items = node.items if isinstance(node, SeqNode) else (node,)
    if isinstance(node, SeqNode) and not items:
        r.error(node.position, key, "expected at least one prefix, got an empty list")
        return None
    prefixes = []
    for item in items:
        prefix = _prefix(r, item, key)
        if prefix is None:
            return None
        prefixes.append((prefix, item.position))
    return Match(prefixes=tuple(prefixes))


def _prefix(r: Reader, node: Node, key: str) -> str | None:
    if isinstance(node, ScalarNode) and node.plain and INT.fullmatch(node.value):
        r.error(
            node.position,
            key,
            f"expected a string prefix (wire_type is string), got integer "
            f'{node.value}; quote it, as "{node.value}", to keep it as written',
        )
        return None
    if isinstance(node, SeqNode):
        r.error(
            node.position,
            key,
            "expected a prefix (a string), got a list; ranges are for integer "
            "codes (wire_type: integer)",
        )
        return None
    text = r.text(node, key, allow_empty=False)
    if text is None:
        return None
    if len(text) > MAX_CODE_LENGTH or not WIRE_PATTERN.fullmatch(text):
        r.error(
            node.position,
            key,
            f"expected a code prefix (printable ASCII without spaces, at most "
            f"{MAX_CODE_LENGTH} characters), got {show(text)}",
        )
        return None
    return text


def _ranges(r: Reader, node: Node, key: str) -> Match | None:
    shape = (
        "a range [low, high] of integer codes, or a list of such ranges "
        "(wire_type is integer)"
    )
    if not isinstance(node, SeqNode) or not node.items:
        r.error(node.position, key, f"expected {shape}, got {describe(node)}")
        return None
    groups = node.items if isinstance(node.items[0], SeqNode) else (node,)
    ranges = []
    for group in groups:
        if not isinstance(group, SeqNode) or len(group.items) != 2:
            r.error(group.position, key, f"expected {shape}, got {describe(group)}")
            return None
        bounds = [_bound(r, item, key) for item in group.items]
        low, high = bounds
        if low is None or high is None:
            return None
        if low > high:
            r.error(
                group.position,
                key,
                f"range [{low}, {high}] is empty: its low end is above its high end",
            )
            return None
        ranges.append((low, high, group.position))
    return Match(ranges=tuple(ranges))


def _bound(r: Reader, node: Node, key: str) -> int | None:
    return integer_code(r, node, key, "an integer")
