"""The contract's number vectors: the one number model every runtime shares.

Every runtime reads a JSON number as a double, so a number in ``details`` that
a double cannot hold (``1e400``; ``2**1024 - 2**970``, the smallest integer
that rounds to Infinity, 309 digits; 5,000 digits past the range) is refused,
``field`` ``details``, and one it holds is taken however long it is written
(the largest double as its 309 integer digits, ``0.5`` and 5,000 zeros).  Such
a number must reach each language's own JSON parser, so these vectors carry
their input as JSON text, ``input_json`` in place of ``input`` (written as
data, Python would spell 1e400 ``Infinity``, which is no JSON): a
:class:`RawJSON` stands for the number until :func:`raw_inputs` writes it.
Past the limits too: details of one value more than ``MAX_DETAILS_NODES``
(as compact text too, its 100,001 values two bytes each), and, where codes are
integers, a code that is no finite number.
"""

from __future__ import annotations

import json
from typing import Any

from taxogen.naming import Names
from taxogen.targets.contract.payload_vectors import (
    VectorList,
    accepted,
    good_payload,
    plain_code,
)
from taxogen.targets.contract.schema import MAX_DETAILS_NODES

__all__ = [
    "FIRST_INFINITE",
    "INPUT_JSON",
    "LARGEST_DOUBLE",
    "RAW",
    "RawJSON",
    "add_number_vectors",
    "raw_inputs",
]

#: The smallest integer a double cannot hold: it rounds up to 2**1024, past the
#: largest double, as JavaScript's JSON.parse, Go's ParseFloat and Python's
#: float() all round it.
FIRST_INFINITE = 2**1024 - 2**970
#: The largest double, an integer: 309 digits every parser reads exactly.
LARGEST_DOUBLE = 2**1024 - 2**971
#: What the vectors file says of ``input_json``.
INPUT_JSON = (
    "present instead of input on a vector whose input holds a number that each "
    "language's own JSON parser must meet (1e400, 309 or 5,000 digits, 100,001 "
    "values): parse this text as JSON the way the implementation's users do "
    "(every runtime reads a number as a double), then run the vector"
)
#: The key that marks a vector whose input holds a RawJSON (until raw_inputs).
RAW = "raw"


class RawJSON:
    """A JSON value in a vector's input (a number, or the 99,999 items of the
    node limit's array), written as ``text`` exactly."""

    __slots__ = ("text",)

    def __init__(self, text: str) -> None:
        self.text = text

    def __repr__(self) -> str:
        return f"RawJSON({self.text[:20]!r}...)"


def _refused(
    out: VectorList, vid: str, why: str, given: dict[str, Any], field: str
) -> None:
    """A raw vector refused at ``field``; ``details`` refusals are ones the schema
    cannot state (JSON's grammar allows 1e400), so it marks them."""
    out.add(
        "from_payload",
        vid,
        f"rejected: {why}",
        given,
        {"ok": False, "field": field},
        schema_valid=True if field == "details" else None,
    )
    out.vectors[-1][RAW] = True


def add_number_vectors(out: VectorList, names: Names) -> None:
    """The ``from_payload`` vectors of the number model and the node limit."""
    first = plain_code(names)
    good = good_payload(names)
    past = (
        ("1e400", "1e400", "1e400, past a double's range (Infinity in JavaScript)"),
        ("minus_1e400", "-1e400", "-1e400, past a double's range"),
        (
            "integer_past_double",
            str(FIRST_INFINITE),
            "2**1024 - 2**970, the smallest integer a double cannot hold",
        ),
        (
            "5000_digits_past_double",
            "1" + "0" * 5000 + ".5",
            "a number of 5,002 digits, past a double's range",
        ),
    )
    for vid, text, why in past:
        _refused(
            out,
            f"details_number_{vid}",
            f"{why}: no number JSON carries the same in every language",
            {**good, "details": {"n": RawJSON(text)}},
            "details",
        )
    _refused(
        out,
        "details_number_deep_1e400",
        "1e400, past a double's range, inside an array inside details",
        {**good, "details": {"a": [{"b": RawJSON("1e400")}]}},
        "details",
    )
    kept = (
        ("largest_double", str(LARGEST_DOUBLE), float(LARGEST_DOUBLE), "the largest "
         "double written as its 309 integer digits is taken"),
        ("5000_digits", "0.5" + "0" * 5000, 0.5, "a number of 5,001 digits a "
         "double holds is taken: no runtime refuses a number for its length"),
    )  # fmt: skip
    for vid, text, value, why in kept:
        given = {**good, "details": {"n": RawJSON(text)}}
        out.add(
            "from_payload",
            f"details_number_{vid}",
            why,
            given,
            accepted(first, {**good, "details": {"n": value}}),
        )
        out.vectors[-1][RAW] = True
    out.add(
        "from_payload",
        f"details_nodes_{MAX_DETAILS_NODES + 1}",
        f"rejected: details holding {MAX_DETAILS_NODES + 1} values (the object, "
        "an array and its items), one past the limit (the schema cannot say so)",
        {
            **good,
            "details": {"l": RawJSON("[" + "0," * (MAX_DETAILS_NODES - 2) + "0]")},
        },
        {"ok": False, "field": "details"},
        schema_valid=True,
    )
    # As text, spelt at once: 200 KB, where data took 300 KB and 25 ms to write.
    out.vectors[-1][RAW] = True
    if names.taxonomy.wire_type == "integer":
        for vid, text in (
            ("1e400", "1e400"),
            ("integer_past_double", str(FIRST_INFINITE)),
        ):
            _refused(
                out,
                f"code_number_{vid}",
                f"a code past a double's range ({text[:12]}...), no integer",
                {**good, "code": RawJSON(text)},
                "code",
            )


def _spelt(value: Any, raws: list[str]) -> Any:
    """``value`` with each RawJSON a placeholder string, its text in ``raws``."""
    if isinstance(value, RawJSON):
        raws.append(value.text)
        return f"\x00{len(raws) - 1}\x00"
    if isinstance(value, dict):
        return {key: _spelt(item, raws) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_spelt(item, raws) for item in value]
    return value


def raw_json(value: Any) -> str:
    """``value`` as compact JSON text, each RawJSON written as its text."""
    raws: list[str] = []
    text = json.dumps(_spelt(value, raws), ensure_ascii=False, separators=(",", ":"))
    for index, raw in enumerate(raws):
        placeholder = json.dumps(f"\x00{index}\x00")
        assert text.count(placeholder) == 1, placeholder  # no text holds a NUL
        text = text.replace(placeholder, raw)
    return text


def raw_inputs(vectors: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """``vectors``, each marked one's ``input`` written as ``input_json`` text."""
    out = []
    for vector in vectors:
        if vector.pop(RAW, False):
            vector = {
                ("input_json" if key == "input" else key): (
                    raw_json(item) if key == "input" else item
                )
                for key, item in vector.items()
            }
        out.append(vector)
    return out
