"""The contract's ``from_payload`` vectors: every code, each rule, each rejection.

Every known code is accepted as itself; then one vector a rule of the wire
format (the payload's ``retryable`` wins, ``details`` may be absent or null,
extra fields are ignored, an unknown well-formed code falls back, as does a
removed one); then one a way a payload can be malformed, each naming the field
an implementation must blame.  The limits are tested at the limit and one past.
"""

from __future__ import annotations

from typing import Any

from generator.naming import NamedCode, Names, in_code_case, other_case
from generator.targets.contract.samples import known_details
from generator.targets.contract.schema import MAX_CODE_LENGTH, MAX_DETAILS_DEPTH

__all__ = [
    "VectorList",
    "accepted",
    "add_from_payload",
    "good_payload",
    "nested",
    "plain_code",
    "unknown_code",
]


class VectorList:
    """The vectors of a contract, in the order they are added."""

    def __init__(self) -> None:
        self.vectors: list[dict[str, Any]] = []

    def add(
        self,
        kind: str,
        vid: str,
        description: str,
        given: Any,
        expect: dict[str, Any],
        schema_valid: bool | None = None,
    ) -> None:
        vector = {
            "id": f"{kind}/{vid}",
            "kind": kind,
            "description": description,
            "input": given,
            "expect": expect,
        }
        if schema_valid is not None:
            vector["schema_valid"] = schema_valid
        self.vectors.append(vector)


def unknown_code(names: Names, stem: str) -> str:
    """A code spelt from lower_snake ``stem`` that the taxonomy neither defines nor
    removed (a removed code has vectors of its own).
    """
    known = {c.code.code for c in names.codes}
    known.update(tomb.code for tomb in names.taxonomy.removed)
    case = names.taxonomy.code_case
    candidate = in_code_case(stem, case)
    while candidate in known:
        candidate += in_code_case("_x", case)
    return candidate


def accepted(
    named: NamedCode, payload: dict[str, Any], wire_code: str | None = None
) -> dict[str, Any]:
    echoed = dict(payload)
    echoed = {key: echoed[key] for key in ("code", "message", "retryable")}
    details = payload.get("details")
    echoed["details"] = details if isinstance(details, dict) else {}
    return {
        "ok": True,
        "class": named.class_name,
        "code": named.code.code,
        "domain": named.code.domain,
        "retryable": payload["retryable"],
        "wire_code": wire_code or named.code.code,
        "payload": echoed,
    }


def nested(levels: int) -> dict[str, Any]:
    """Details ``levels`` deep: objects and arrays in turn, a string at the bottom."""
    node: Any = "bottom"  # scalars add no depth
    for level in range(levels, 1, -1):
        node = {"d": node} if level % 2 else [node]
    return {"d": node}


def plain_code(names: Names) -> NamedCode:
    """The first code without declared details (else the fallback, which has no
    required ones): the vectors of the wire rules use it, so any details pass."""
    for named in names.codes:
        if not named.code.fields:
            return named
    return names.fallback


def good_payload(names: Names) -> dict[str, Any]:
    """A valid payload of a plain code, for the vectors that change one thing."""
    first = plain_code(names)
    return {"code": first.code.code, "message": "m", "retryable": first.code.retryable}


def add_from_payload(out: VectorList, names: Names) -> None:
    """Add the ``from_payload`` vectors of ``names`` to ``out``."""
    taxonomy = names.taxonomy
    case = taxonomy.code_case
    first = plain_code(names)
    fallback = names.fallback
    # from_payload: every code, then each rule.
    for named in names.codes:
        payload = {
            "code": named.code.code,
            "message": f"an example {named.code.code} error",
            "retryable": named.code.retryable,
            "details": known_details(named),
        }
        out.add(
            "from_payload",
            f"code/{named.code.code}",
            f"the known code {named.code.code}",
            payload,
            accepted(named, payload),
        )
    good = good_payload(names)
    rules: list[tuple[str, str, dict[str, Any]]] = [
        (
            "retryable_from_wire",
            "the payload's retryable wins over the class default",
            {**good, "retryable": not first.code.retryable},
        ),
        ("details_absent", "details may be absent", dict(good)),
        ("details_null", "null details count as absent", {**good, "details": None}),
        (
            "details_nested",
            "details hold any JSON",
            {**good, "details": {"a": [1, 2.5, None, True, "x"], "b": {"c": {}}}},
        ),
        (
            "extra_fields",
            "extra top-level fields are ignored",
            {**good, "trace_id": "t-1", "nested": {"x": 1}},
        ),
        (
            "empty_message",
            "an empty message is still a message",
            {**good, "message": ""},
        ),
        (
            f"details_depth_{MAX_DETAILS_DEPTH}",
            f"details nested {MAX_DETAILS_DEPTH} deep, the limit, are kept whole",
            {**good, "details": nested(MAX_DETAILS_DEPTH)},
        ),
    ]
    for vid, description, payload in rules:
        out.add("from_payload", vid, description, payload, accepted(first, payload))
    unknown = unknown_code(names, "zz_unknown_code")
    payload = {
        "code": unknown,
        "message": "from a newer peer",
        "retryable": True,
        "details": {"v": 2},
    }
    out.add(
        "from_payload",
        "unknown_code",
        f"a well-formed unknown code is treated as {fallback.code.code}, and "
        "re-emitted as received",
        payload,
        {**accepted(fallback, payload, wire_code=unknown)},
    )
    longest = unknown_code(names, "zz_" + "x" * (MAX_CODE_LENGTH - 3))
    payload = {"code": longest, "message": "from a newer peer", "retryable": False}
    out.add(
        "from_payload",
        f"code_length_{MAX_CODE_LENGTH}",
        f"a well-formed unknown code of {MAX_CODE_LENGTH} "
        f"characters, the limit, is treated as {fallback.code.code}",
        payload,
        accepted(fallback, payload, wire_code=longest),
    )
    for tomb in taxonomy.removed:
        payload = {
            "code": tomb.code,
            "message": "from an older peer",
            "retryable": False,
        }
        out.add(
            "from_payload",
            f"removed/{tomb.code}",
            f"the removed code {tomb.code} falls back like any unknown code",
            payload,
            accepted(fallback, payload, wire_code=tomb.code),
        )
    invalid: list[tuple[str, Any, str]] = [
        ("payload_null", None, "payload"),
        ("payload_array", [good], "payload"),
        ("payload_string", "text", "payload"),
        ("payload_number", 1, "payload"),
        ("payload_boolean", True, "payload"),
        ("code_missing", {k: v for k, v in good.items() if k != "code"}, "code"),
        ("code_null", {**good, "code": None}, "code"),
        ("code_number", {**good, "code": 7}, "code"),
        ("code_empty", {**good, "code": ""}, "code"),
        (
            "code_other_case",
            {**good, "code": other_case(first.code.code, case)},
            "code",
        ),
        ("code_trailing_newline", {**good, "code": first.code.code + "\n"}, "code"),
        ("code_leading_space", {**good, "code": " " + first.code.code}, "code"),
        ("code_double_underscore", {**good, "code": first.code.code + "__x"}, "code"),
        ("code_leading_digit", {**good, "code": "1" + first.code.code}, "code"),
        ("code_hyphen", {**good, "code": first.code.code + "-x"}, "code"),
        ("code_non_ascii", {**good, "code": first.code.code + "\u00e9"}, "code"),
        (
            "message_missing",
            {k: v for k, v in good.items() if k != "message"},
            "message",
        ),
        ("message_null", {**good, "message": None}, "message"),
        ("message_number", {**good, "message": 5}, "message"),
        ("message_object", {**good, "message": {"text": "m"}}, "message"),
        (
            "retryable_missing",
            {k: v for k, v in good.items() if k != "retryable"},
            "retryable",
        ),
        ("retryable_string", {**good, "retryable": "true"}, "retryable"),
        ("retryable_number", {**good, "retryable": 1}, "retryable"),
        ("retryable_null", {**good, "retryable": None}, "retryable"),
        ("details_array", {**good, "details": [1]}, "details"),
        ("details_string", {**good, "details": "x"}, "details"),
        ("details_number", {**good, "details": 0}, "details"),
        ("details_boolean", {**good, "details": False}, "details"),
    ]
    for vid, given, field in invalid:
        out.add(
            "from_payload",
            vid,
            f"rejected: bad {field}",
            given,
            {"ok": False, "field": field},
        )
    out.add(
        "from_payload",
        f"code_length_{MAX_CODE_LENGTH + 1}",
        f"rejected: a code longer than {MAX_CODE_LENGTH} "
        "characters, well-formed or not",
        {**good, "code": longest + longest[-1]},
        {"ok": False, "field": "code"},
    )
    out.add(
        "from_payload",
        f"details_depth_{MAX_DETAILS_DEPTH + 1}",
        f"rejected: details nested deeper than "
        f"{MAX_DETAILS_DEPTH} (the schema cannot say so)",
        {**good, "details": nested(MAX_DETAILS_DEPTH + 1)},
        {"ok": False, "field": "details"},
        schema_valid=True,
    )
