"""The YAML loader's fast paths build exactly what its general path builds.

``_Builder.feed_all`` handles the common events inline, and ``_scalar_node``
fills a frozen dataclass's slots directly; both exist only for speed, so both
are checked against the plain code they stand in for, over every taxonomy the
tests hold (good and bad).
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
import yaml

from generator import source
from generator.diagnostics import Position
from tests.support import REPO


def _events(path: Path) -> list[yaml.Event] | None:
    """The parser's events for ``path``; None for a file refused before any is built."""
    try:
        return list(
            yaml.parse(path.read_bytes().decode("utf-8"), Loader=source._Loader)
        )
    except (UnicodeDecodeError, yaml.YAMLError):
        return None


# Every taxonomy of the tests that gets as far as the builder, good and bad.
TAXONOMIES = [
    path
    for path in sorted(
        [
            REPO / "taxonomy.yaml",
            *(REPO / "tests" / "cases").glob("*/taxonomy.yaml"),
            *(REPO / "tests" / "bad").glob("*.yaml"),
        ]
    )
    if _events(path) is not None
]


def test_scalar_node_is_the_dataclass() -> None:
    fast = source._scalar_node("text", True, 3, 7)
    plain = source.ScalarNode(
        value="text", plain=True, position=Position(line=3, col=7)
    )
    assert fast == plain and hash(fast) == hash(plain) and repr(fast) == repr(plain)
    assert type(fast) is source.ScalarNode and type(fast.position) is Position
    with pytest.raises(dataclasses.FrozenInstanceError):
        fast.value = "changed"  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        fast.position.line = 1  # type: ignore[misc]


@pytest.mark.parametrize("path", TAXONOMIES, ids=lambda p: str(p.relative_to(REPO)))
def test_feed_all_builds_what_feed_builds(path: Path) -> None:
    events = _events(path)
    assert events is not None
    fast, slow = source._Builder("t.yaml"), source._Builder("t.yaml")
    outcomes = []
    for builder, run in (
        (fast, fast.feed_all),
        (slow, lambda evs: [slow.feed(e) for e in evs]),
    ):
        try:
            run(events)
            outcomes.append(None)
        except source._Stop:
            outcomes.append("stopped")
    assert outcomes[0] == outcomes[1]
    assert fast.stack == slow.stack
    assert fast.diagnostics == slow.diagnostics
    assert fast.root == slow.root
