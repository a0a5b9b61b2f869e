"""Unknown codes that keep their identity (issue 30 §3): ``fallback: null``.

``fallback: null`` at the top level borrows no real code for an unknown wire
code: it becomes an error of the base class reporting the code it was received
with.  ``unknown_retryable`` says whether such an error is retryable when its
payload has no retryable member to say so: ``false`` (the default), ``true``, or
``by_status`` (when the HTTP status it was received with is 5xx; with none
received, not retryable).  It means something only where unknown codes keep
their identity, so it is refused beside a fallback code.
"""

from __future__ import annotations

from taxogen.model import UNKNOWN_RETRYABLE
from taxogen.nodes import MapNode, Node, ScalarNode
from taxogen.validate.reader import Reader
from taxogen.validate.text import NULLS, describe

__all__ = ["UNKNOWN_KEY", "is_null", "read_unknown_retryable"]

#: The top-level key of what an unknown code's retryability is.
UNKNOWN_KEY = "unknown_retryable"


def is_null(node: Node) -> bool:
    """Whether ``node`` is a plain YAML null (``null``, ``~`` or nothing)."""
    return isinstance(node, ScalarNode) and node.plain and node.value in NULLS


def read_unknown_retryable(
    r: Reader, top: dict[str, tuple[ScalarNode, Node]], keeps_identity: bool
) -> str | None:
    """The top level's ``unknown_retryable`` ("false" when absent), or None when
    it is wrong (reported).  ``keeps_identity``: whether any unknown code keeps
    its identity (a ``fallback: null``)."""
    if UNKNOWN_KEY not in top:
        return "false"
    node = top[UNKNOWN_KEY][1]
    if node.refused:
        return None
    if isinstance(node, MapNode) or not isinstance(node, ScalarNode):
        value = None
    else:
        value = node.value if node.plain or node.value == "by_status" else None
    if value not in UNKNOWN_RETRYABLE:
        r.error(
            node.position,
            UNKNOWN_KEY,
            "expected false, true or by_status (retryable when received with a "
            f"5xx status), got {describe(node)}",
        )
        return None
    if not keeps_identity:
        r.error(
            node.position,
            UNKNOWN_KEY,
            "says whether an unknown code that keeps its identity is retryable, "
            "but the fallback code decides it here; say fallback: null (at the top "
            "level, or on a domain with match:), or remove unknown_retryable",
        )
        return None
    return value
