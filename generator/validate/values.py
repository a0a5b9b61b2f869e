"""Values: free-form data in a taxonomy, read as JSON.

Example details and the defaults and bounds of details fields are written in
YAML but mean JSON values, typed like YAML 1.2's core schema: null, booleans,
integers, floats, strings, lists and mappings (kept in source order).  Every
generated package reads a JSON number as a double, so a number must be one
that every language reads the same: an integer within JavaScript's safe
integers (:func:`safe_integer`, the rule integer wire codes follow too) and a
float that is finite (``.inf``, ``.nan`` and ``1e400`` are refused).
"""

from __future__ import annotations

import math
import re

from taxogen.model import MAX_WIRE_INTEGER, JSONObject, JSONValue
from taxogen.nodes import MapNode, Node, ScalarNode, SeqNode
from taxogen.validate.hints import FLOAT, INT
from taxogen.validate.reader import Reader, join
from taxogen.validate.text import NULLS, SHOWN, show

__all__ = ["ROUNDED", "json_value", "out_of_range", "safe_integer"]

#: YAML 1.2 core schema's infinities and not-a-number, as plain scalars.
_NOT_FINITE = re.compile(r"[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN)")
#: More digits than the largest safe integer has: out of range without being
#: converted (Python refuses to convert an integer of over 4,300 digits).
_DIGITS = len(str(MAX_WIRE_INTEGER))
ROUNDED = "; past them, a JSON number is rounded where it is read as a double"


def safe_integer(
    r: Reader, node: ScalarNode, key: str, what: str, why: str = ""
) -> int | None:
    """The integer ``node`` spells (it matches :data:`INT`) if it is within
    JavaScript's safe integers, the integers every language reads exactly; else
    None, reported as ``what`` out of range (and ``why`` that matters)."""
    digits = node.value.lstrip("+-").lstrip("0")
    if len(digits) <= _DIGITS and abs(int(node.value)) <= MAX_WIRE_INTEGER:
        return int(node.value)
    # A number of thousands of digits is shown cut, and never converted.
    shown = str(int(node.value)) if len(digits) <= SHOWN else show(node.value)[1:-1]
    out_of_range(r, node, key, shown, what, why)
    return None


def out_of_range(
    r: Reader, node: Node, key: str, shown: str, what: str, why: str = ""
) -> None:
    """Report the number ``shown`` at ``node`` as past JavaScript's safe integers."""
    r.error(
        node.position,
        key,
        f"{shown} is out of range: {what} is at most {MAX_WIRE_INTEGER} either "
        f"side of 0 (JavaScript's safe integers){why}",
    )


def json_value(r: Reader, node: Node, key: str) -> JSONValue:
    """Free-form data (docs.example.details), typed like YAML 1.2's core schema;
    a number every language cannot read alike is reported (and read as null)."""
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
        return safe_integer(r, node, key, "an integer", ROUNDED)
    if FLOAT.fullmatch(value) or _NOT_FINITE.fullmatch(value):
        number = math.inf if _NOT_FINITE.fullmatch(value) else float(value)
        if not math.isfinite(number):
            r.error(node.position, key, f"{value!r} is not a finite number")
            return None
        return number
    return value
