"""Values: free-form data in a taxonomy, read as JSON.

Example details and the defaults and bounds of details fields are written in
YAML but mean JSON values, typed like YAML 1.2's core schema: null, booleans,
integers, finite floats, strings, lists and mappings (kept in source order).
"""

from __future__ import annotations

import math

from generator.model import JSONObject, JSONValue
from generator.nodes import MapNode, Node, SeqNode
from generator.validate.hints import FLOAT, INT
from generator.validate.reader import Reader, join
from generator.validate.text import NULLS

__all__ = ["json_value"]


def json_value(r: Reader, node: Node, key: str) -> JSONValue:
    """Free-form data (docs.example.details), typed like YAML 1.2's core schema."""
    if node.refused:
        return None
    if isinstance(node, MapNode):
        return JSONObject(
            tuple(
                (k.value, json_value(r, v, join(key, k.value))) for k, v in node.items
            )
        )
    if isinstance(node, SeqNode):
        return tuple(json_value(r, v, f"{key}[{i}]") for i, v in enumerate(node.items))
    value = node.value
    if not node.plain:
        return value
    if value in NULLS:
        return None
    if value in ("true", "false"):
        return value == "true"
    if INT.fullmatch(value):
        return int(value)
    if FLOAT.fullmatch(value):
        number = float(value)
        if not math.isfinite(number):
            r.error(node.position, key, f"{value!r} is not a finite number")
            return None
        return number
    return value
