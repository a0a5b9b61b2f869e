"""Wire: the code a payload carries, when it is not the code's key.

A code's key names its enum member and its class; ``wire:`` gives the code on
the wire when that differs: SQLSTATE ``"23505"``, Stripe's ``"card_declined"``
beside a PascalCase class, gRPC's ``14``.  ``wire_type`` (top level, ``string``
by default) says which kind every wire code is: a string wire code is printable
ASCII without spaces, at most ``MAX_CODE_LENGTH`` characters (the code-case
rule is for keys only), or the empty string (Kubernetes' StatusReasonUnknown
is ``""``); with ``integer`` every code gives an integer ``wire:``
within JavaScript's safe integers.  :class:`Wires` remembers every wire code
met, a key standing for a code without ``wire:``, so that two codes that would
meet on the wire are reported with the line of the other.
"""

from __future__ import annotations

from taxogen.diagnostics import Position
from taxogen.model import MAX_CODE_LENGTH, WIRE_PATTERN
from taxogen.nodes import Node, ScalarNode
from taxogen.validate.hints import INT
from taxogen.validate.reader import Reader
from taxogen.validate.text import describe, show
from taxogen.validate.values import safe_integer

__all__ = ["Wires", "integer_code", "read_wire"]


class Wires:
    """The wire codes met so far, and the type every one must have.

    ``wire_type`` is None while the top level's ``wire_type`` is invalid (its
    error is reported): wire codes are then not checked further.
    """

    def __init__(self, wire_type: str | None) -> None:
        self.wire_type = wire_type
        #: Each wire code met: the code that has it, where, and whether removed.
        self.seen: dict[str | int, tuple[str, Position, bool]] = {}

    def claim(
        self,
        r: Reader,
        key: str,
        code: str,
        wire: str | int,
        position: Position,
        removed: bool = False,
    ) -> bool:
        """Record ``code``'s wire code; a wire code taken already is an error."""
        other = self.seen.get(wire)
        if other is None:
            self.seen[wire] = (code, position, removed)
            return True
        owner, where, gone = other
        what = "the key" if wire == owner else "the wire code"
        whose = "the removed code" if gone else "code"
        r.error(
            position,
            key,
            f"wire code {show(wire) if isinstance(wire, str) else wire} is also "
            f"{what} of {whose} {owner!r} at line {where.line}; wire codes "
            "must be unique, or a receiver cannot tell the two apart",
        )
        return False


def read_wire(r: Reader, node: Node, key: str, wire_type: str) -> str | int | None:
    """The ``wire:`` at ``node`` as ``wire_type`` says, or None (reported)."""
    if node.refused:
        return None
    if wire_type == "integer":
        return _integer(r, node, key)
    if isinstance(node, ScalarNode) and node.plain and INT.fullmatch(node.value):
        r.error(
            node.position,
            key,
            f"expected a string (wire_type is string), got integer {node.value}; "
            f'quote it, as wire: "{node.value}", to keep it as written (leading '
            "zeros too), or set wire_type: integer",
        )
        return None
    text = r.text(node, key)
    if text is None:
        return None
    if len(text) > MAX_CODE_LENGTH:
        r.error(
            node.position,
            key,
            f"longer than {MAX_CODE_LENGTH} characters ({len(text)})",
        )
        return None
    # "" is a wire code too: Kubernetes' StatusReasonUnknown.
    if text and not WIRE_PATTERN.fullmatch(text):
        r.error(
            node.position,
            key,
            f"expected printable ASCII without spaces, got {show(text)}",
        )
        return None
    return text


def _integer(r: Reader, node: Node, key: str) -> int | None:
    return integer_code(r, node, key, "an integer (wire_type is integer)")


def integer_code(r: Reader, node: Node, key: str, expected: str) -> int | None:
    """An integer wire code at ``node`` (or a bound of a range of them), written
    without quotes and within JavaScript's safe integers, or None (reported as
    not being ``expected``)."""
    if not isinstance(node, ScalarNode) or not INT.fullmatch(node.value):
        r.error(node.position, key, f"expected {expected}, got {describe(node)}")
        return None
    if not node.plain:
        r.error(
            node.position,
            key,
            f"expected {expected}, got the string "
            f"{show(node.value)}; write it without quotes",
        )
        return None
    return safe_integer(r, node, key, "an integer wire code")
