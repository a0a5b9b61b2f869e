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

from taxogen.diagnostics import Position
from taxogen.model import MAX_CODE_LENGTH, MAX_PARENT_DEPTH, WIRE_PATTERN
from taxogen.nodes import Node, ScalarNode, SeqNode
from taxogen.validate.hints import INT, close_match
from taxogen.validate.reader import Reader, join
from taxogen.validate.text import describe, show
from taxogen.validate.wire import integer_code

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
        cycles = self._cycles()
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
            cycle = cycles.get(entry.key)
            if cycle is not None:
                if entry.key not in reported:  # once, at its first member
                    reported.update(cycle)
                    at = cycle.index(entry.key)
                    members = cycle[at:] + cycle[:at]
                    r.error(
                        where,
                        key,
                        "the parents make a cycle: "
                        + " -> ".join([*members, members[0]])
                        + "; a domain cannot be its own ancestor",
                    )
            elif self._depth(entry.key, cycles) == MAX_PARENT_DEPTH + 1:
                # Reported once, at the first domain past the limit.
                r.error(
                    where,
                    key,
                    f"domain {entry.key!r} is nested {MAX_PARENT_DEPTH + 1} deep; "
                    f"domains nest at most {MAX_PARENT_DEPTH} deep through parent:",
                )

    def _cycles(self) -> dict[str, list[str]]:
        """Every domain on a cycle of parents, with that cycle's members.

        One walk up from each domain not yet seen, so thousands of domains cost
        a pass, not a pass each."""
        on: dict[str, list[str]] = {}
        seen: set[str] = set()
        for start in self.entries:
            path: list[str] = []
            at: dict[str, int] = {}
            key: str | None = start
            while key is not None and key in self.entries:
                if key in seen or key in at:
                    break
                at[key] = len(path)
                path.append(key)
                parent = self.entries[key].parent
                key = None if parent is None else parent[0]
            if key is not None and key in at:  # the walk met itself
                cycle = path[at[key] :]
                on.update((member, cycle) for member in cycle)
            seen.update(path)
        return on

    def _depth(self, key: str, cycles: dict[str, list[str]]) -> int:
        """How deep ``key`` nests, up to one past the limit: 1 without a parent
        (the walk also stops at an unknown parent or a cycle, each reported on
        its own)."""
        depth, current = 1, self.entries[key]
        while depth <= MAX_PARENT_DEPTH + 1 and current.parent is not None:
            above = current.parent[0]
            if above not in self.entries or above in cycles:
                break
            depth += 1
            current = self.entries[above]
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
