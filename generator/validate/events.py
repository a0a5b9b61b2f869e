"""Events: the ``events`` table, event types that carry an error and where it sits.

Each key is an event type, any text without control characters (``task.failed``,
``tool/result``, ``com.example.object.deleted.v2``), and each value a dotted
path into the event (``payload.error``): the generated ``error_from_event``
follows that path.
"""

from __future__ import annotations

import re

from taxogen.model import Event
from taxogen.nodes import MapNode, Node, ScalarNode
from taxogen.validate.reader import Reader, join
from taxogen.validate.text import describe

__all__ = ["read_events"]

#: Event types are any text on one line: no control characters, not empty.
_EVENT_TYPE = re.compile(r"[^\x00-\x1f\x7f-\x9f]+")
_LOCATION = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*")


def read_events(r: Reader, item: tuple[ScalarNode, Node] | None) -> tuple[Event, ...]:
    if item is None or item[1].refused:
        return ()
    node = item[1]
    if not isinstance(node, MapNode):
        r.error(
            node.position,
            "events",
            f"expected a mapping of event type to error location, got {describe(node)}",
        )
        return ()
    events: list[Event] = []
    for type_node, value in node.items:
        key = join("events", type_node.value)
        # The text check first: it names the control character, if there is one.
        ok = r.text(type_node, key, allow_empty=False) is not None and r.name_key(
            type_node,
            key,
            _EVENT_TYPE,
            "an event type (text without control characters, such as 'task.failed')",
        )
        location = r.matching(
            value, key, _LOCATION, "a dotted path such as 'payload.error'"
        )
        if ok and location is not None:
            events.append(
                Event(
                    type=type_node.value, location=location, position=type_node.position
                )
            )
    return tuple(events)
