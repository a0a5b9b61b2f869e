"""The YAML loader's fast path builds exactly what its general path builds.

``Builder.feed_all`` handles the common events inline; it exists only for
speed, so it is checked against the plain code it stands in for, over every
taxonomy the tests hold (good and bad).
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from taxogen import source
from taxogen.builder import Builder, Stop
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


@pytest.mark.parametrize("path", TAXONOMIES, ids=lambda p: str(p.relative_to(REPO)))
def test_feed_all_builds_what_feed_builds(path: Path) -> None:
    events = _events(path)
    assert events is not None
    fast, slow = Builder("t.yaml"), Builder("t.yaml")
    outcomes = []
    for builder, run in (
        (fast, fast.feed_all),
        (slow, lambda evs: [slow.feed(e) for e in evs]),
    ):
        try:
            run(events)
            outcomes.append(None)
        except Stop:
            outcomes.append("stopped")
    assert outcomes[0] == outcomes[1]
    assert fast.stack == slow.stack
    assert fast.diagnostics == slow.diagnostics
    assert fast.root == slow.root
