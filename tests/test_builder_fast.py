"""The builder's fast constructors make exactly the frozen nodes the classes make.

``builder._position`` and ``builder._scalar`` set a frozen dataclass's slots
through their descriptors (issue 34: loading made 100,000 of them at 10,000
codes).  The oracle is the dataclass's own constructor: every field set, equal,
hashed alike, still frozen; and the tree a document loads into is the one the
slow path (``Builder.feed``, event by event) builds.
"""

from __future__ import annotations

import dataclasses

import pytest
import yaml

from taxogen import builder
from taxogen.diagnostics import Position
from taxogen.nodes import ScalarNode


def test_a_fast_position_is_a_position() -> None:
    made = builder._position(3, 7)
    assert type(made) is Position
    assert made == Position(line=3, col=7)
    assert hash(made) == hash(Position(line=3, col=7))
    assert [getattr(made, f.name) for f in dataclasses.fields(Position)] == [3, 7]
    with pytest.raises(dataclasses.FrozenInstanceError):
        made.line = 4  # type: ignore[misc]


@pytest.mark.parametrize("plain", [True, False])
def test_a_fast_scalar_is_a_scalar(plain: bool) -> None:
    at = Position(line=1, col=2)
    made = builder._scalar("task_timeout", plain, at)
    expected = ScalarNode(value="task_timeout", plain=plain, position=at)
    assert type(made) is ScalarNode
    assert made == expected
    # Every field is set (one left out would raise AttributeError here).
    for field in dataclasses.fields(ScalarNode):
        assert getattr(made, field.name) == getattr(expected, field.name)
    with pytest.raises(dataclasses.FrozenInstanceError):
        made.value = "other"  # type: ignore[misc]


def test_the_fast_path_builds_the_tree_the_slow_path_does() -> None:
    text = (
        "format: 1\nname: t\ndomains:\n  a:\n    codes:\n"
        "      x_y: {retryable: true, meaning: 'quoted'}\n      z: [1, \"2\"]\n"
    )
    fast, slow = builder.Builder("t.yaml"), builder.Builder("t.yaml")
    fast.feed_all(yaml.parse(text, Loader=yaml.CSafeLoader))
    for event in yaml.parse(text, Loader=yaml.CSafeLoader):
        slow.feed(event)
    assert fast.root == slow.root
    assert fast.root is not None
