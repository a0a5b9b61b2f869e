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
from taxogen.nodes import MapNode, ScalarNode


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


@pytest.mark.parametrize("incomplete", [True, False])
@pytest.mark.parametrize("flow", [True, False])
def test_a_fast_mapping_is_a_mapping(incomplete: bool, flow: bool) -> None:
    at = Position(line=1, col=2)
    items = (
        (
            ScalarNode(value="k", plain=True, position=at),
            ScalarNode(value="v", plain=False, position=at),
        ),
    )
    made = builder._mapping(items, at, incomplete, flow)
    expected = MapNode(items=items, position=at, incomplete=incomplete, flow=flow)
    assert type(made) is MapNode
    assert made == expected
    assert hash(made) == hash(expected)
    for field in dataclasses.fields(MapNode):
        assert getattr(made, field.name) == getattr(expected, field.name)
    with pytest.raises(dataclasses.FrozenInstanceError):
        made.flow = not flow  # type: ignore[misc]


@pytest.mark.parametrize(
    "text",
    [
        "format: 1\nname: t\ndomains:\n  a:\n    codes:\n"
        "      x_y: {retryable: true, meaning: 'quoted'}\n      z: [1, \"2\"]\n",
        # mappings in a list, block and flow, nested as values
        "a:\n  - {b: 1, c: {d: [2, {e: f}]}}\n  - g: h\n    i:\n      j: k\n",
        # a mapping as a key, a tagged mapping, a duplicate key, a merge key,
        # nesting past the limit: each refused (through feed) at its place
        "a: {? {b: c} : d, e: !!map {f: g}, h: 1, h: 2, <<: {i: j}}\n"
        + "k: "
        + "{k: " * 40
        + "v"
        + "}" * 40
        + "\n",
    ],
    ids=["codes", "nested", "refused"],
)
def test_the_fast_path_builds_the_tree_the_slow_path_does(text: str) -> None:
    fast, slow = builder.Builder("t.yaml"), builder.Builder("t.yaml")
    fast.feed_all(yaml.parse(text, Loader=yaml.CSafeLoader))
    for event in yaml.parse(text, Loader=yaml.CSafeLoader):
        slow.feed(event)
    assert fast.root == slow.root
    assert fast.root is not None
    assert fast.diagnostics == slow.diagnostics
