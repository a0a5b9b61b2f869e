"""The contract's ``from_payload`` vectors: every code, each rule, each rejection.

Every known code is accepted as itself; then one vector a rule of the wire
format (the payload's ``retryable`` wins, ``details`` may be absent or null,
extra fields are ignored, an unknown well-formed code falls back, as does a
removed one); then one a way a payload can be malformed, each naming the field
an implementation must blame.  The limits are tested at the limit and one past.

It is longer than 300 lines because it is the one list of the wire format's
rules, a vector for each in the README's order; split, the list would no longer
show which rules are covered.
"""

from __future__ import annotations

import re
from typing import Any

from taxogen.model import (
    EMPTY_OR_WIRE_PATTERN,
    MAX_WIRE_INTEGER,
    WIRE_PATTERN,
    Tombstone,
    code_pattern,
    json_data,
)
from taxogen.naming import NamedCode, Names, in_code_case, other_case
from taxogen.targets.contract.samples import known_details
from taxogen.targets.contract.schema import MAX_CODE_LENGTH, MAX_DETAILS_DEPTH

__all__ = [
    "VectorList",
    "accepted",
    "accepted_unknown",
    "add_from_payload",
    "good_payload",
    "matched_samples",
    "nested",
    "plain_code",
    "removed_on_the_wire",
    "string_aliases",
    "unknown_code",
    "unknown_target",
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


def string_aliases(names: Names) -> list[tuple[NamedCode, str]]:
    """Each code's aliases a payload may carry (string wire codes only: integer
    codes' aliases are names in the languages alone)."""
    if names.taxonomy.wire_type != "string":
        return []
    return [(named, alias) for named in names.codes for alias in named.code.aliases]


def _taken(names: Names) -> frozenset[str | int]:
    """Every wire code the taxonomy defines or removed, and every key (made once
    for ``names``: the vectors ask seven times, 40,000 values at 10,000 codes)."""
    return names.derived(_make_taken)


def _make_taken(names: Names) -> frozenset[str | int]:
    taken: set[str | int] = {c.code.wire_code for c in names.codes}
    taken.update(c.code.code for c in names.codes)
    taken.update(tomb.wire_code for tomb in names.taxonomy.removed)
    taken.update(alias for named in names.codes for alias in named.code.aliases)
    return frozenset(taken)


def unknown_code(names: Names, stem: str) -> str:
    """A string code spelt from lower_snake ``stem`` that the taxonomy neither
    defines nor removed (a removed code has vectors of its own).
    """
    known = _taken(names)
    case = names.taxonomy.code_case
    candidate = in_code_case(stem, case)
    while candidate in known:
        candidate += in_code_case("_x", case)
    return candidate


def unknown_integer(names: Names, start: int = 424242) -> int:
    """An integer code the taxonomy neither defines nor removed, from ``start`` on."""
    known = _taken(names)
    candidate = start
    while candidate in known:
        candidate += 1
    return candidate


def removed_on_the_wire(names: Names) -> list[Tombstone]:
    """The removed codes a peer can still send: all of them, but where codes are
    integers those that kept no integer ``wire:`` (a key is no integer)."""
    taxonomy = names.taxonomy
    return [
        tomb
        for tomb in taxonomy.removed
        if not (taxonomy.wire_type == "integer" and isinstance(tomb.wire_code, str))
    ]


def some_unknown(names: Names) -> str | int:
    """A well-formed code the taxonomy does not know, of its wire type."""
    if names.taxonomy.wire_type == "integer":
        return unknown_integer(names)
    return unknown_code(names, "zz_unknown_code")


def accepted(
    named: NamedCode,
    payload: dict[str, Any],
    wire_code: str | int | None = None,
    *,
    known: bool = True,
) -> dict[str, Any]:
    code = named.code
    details = payload.get("details")
    echoed = {
        "code": payload["code"],
        "message": payload["message"],
        "retryable": payload["retryable"],
        "details": dict(details) if isinstance(details, dict) else {},
    }
    if known:  # a known code's constant fields are filled in (issue 30 §7)
        for field in code.fields:
            if field.has_const and field.name not in echoed["details"]:
                echoed["details"][field.name] = json_data(field.default)
    wire = code.wire_code
    return {
        "ok": True,
        "class": named.class_name,
        "code": wire,
        "domain": code.domain,
        "retryable": payload["retryable"],
        "wire_code": wire if wire_code is None else wire_code,
        "payload": echoed,
    }


def _treated(names: Names) -> str:
    """What the vectors' descriptions say an unknown code is treated as: the
    fallback's key, or itself where there is none (issue 30 §3)."""
    if names.fallback is None:
        return f"itself (an error of {names.base})"
    return names.fallback.code.code


def unknown_target(
    names: Names, wire: str | int
) -> tuple[str, str | int, str | None, bool]:
    """What an unknown wire code is treated as (class, code, domain, retryable):
    the class of the domain whose ``match:`` it falls in (carrying that domain's
    ``<domain>_error`` code, else the fallback's), else the fallback's.  With no
    fallback (issue 30 §3) a code with nothing to borrow keeps its identity: its
    class the root's (no domain) or the matching domain's, its code itself, and
    retryable as ``unknown_retryable`` says where nothing else does (here, with
    no status received: only ``true``)."""
    fallback = names.fallback
    domain = names.taxonomy.matched(wire)
    kept = names.taxonomy.unknown_retryable == "true"
    if domain is None:
        if fallback is None:
            return (names.base, wire, None, kept)
        return (
            fallback.class_name,
            fallback.code.wire_code,
            fallback.code.domain,
            fallback.code.retryable,
        )
    named = next(d for d in names.domains if d.domain is domain)
    carried = named.base_code or fallback
    if carried is None or domain.keeps_unknown:
        return (named.class_name, wire, domain.key, kept)
    return (
        named.class_name,
        carried.code.wire_code,
        domain.key,
        carried.code.retryable,
    )


def accepted_unknown(
    names: Names, payload: dict[str, Any], wire: str | int
) -> dict[str, Any]:
    """The outcome of a payload whose code ``wire`` the taxonomy does not know."""
    class_name, code, domain, _ = unknown_target(names, wire)
    return {
        **accepted(plain_code(names), payload, wire_code=wire, known=False),
        "class": class_name,
        "code": code,
        "domain": domain,
    }


def matched_samples(names: Names) -> list[tuple[str, str | int]]:
    """For each prefix or range of a domain's ``match:``, an unknown well-formed
    code that falls in it (and in no longer prefix or inner range), with the
    domain's key; none where every such code is defined."""
    taxonomy = names.taxonomy
    taken = _taken(names)
    pattern = code_pattern(taxonomy)
    out: list[tuple[str, str | int]] = []
    for domain in taxonomy.domains:
        for prefix in domain.prefixes:
            for tail in ("zz", "ZZ", "_zz", "_ZZ", "99", "9", ""):
                code = prefix + tail
                if (
                    code not in taken
                    and len(code) <= MAX_CODE_LENGTH
                    and pattern is not None
                    and re.fullmatch(pattern, code)
                    and taxonomy.matched(code) is domain
                ):
                    out.append((domain.key, code))
                    break
        for low, high in domain.ranges:
            for number in (high, low, (low + high) // 2, *range(low, high + 1)[:64]):
                if number not in taken and taxonomy.matched(number) is domain:
                    out.append((domain.key, number))
                    break
    return out


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
    return names.fallback or names.wrap  # which may declare optional ones only


def good_payload(names: Names) -> dict[str, Any]:
    """A valid payload of a plain code, for the vectors that change one thing."""
    first = plain_code(names)
    return {
        "code": first.code.wire_code,
        "message": "m",
        "retryable": first.code.retryable,
    }


def add_from_payload(out: VectorList, names: Names) -> None:
    """Add the ``from_payload`` vectors of ``names`` to ``out``."""
    taxonomy = names.taxonomy
    first = plain_code(names)
    # from_payload: every code, then each rule.
    for named in names.codes:
        key = named.code.code
        payload = {
            "code": named.code.wire_code,
            "message": f"an example {key} error",
            "retryable": named.code.retryable,
            "details": known_details(named),
        }
        out.add(
            "from_payload",
            f"code/{key}",
            f"the known code {key}",
            payload,
            accepted(named, payload),
        )
    for named, alias in string_aliases(names):
        payload = {
            "code": alias,
            "message": f"an example {alias} error",
            "retryable": named.code.retryable,
            "details": known_details(named),
        }
        out.add(
            "from_payload",
            f"alias/{alias}",
            f"the alias {alias} is the code {named.code.code}, its spelling kept",
            payload,
            accepted(named, payload, alias),
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
    unknown = some_unknown(names)
    payload = {
        "code": unknown,
        "message": "from a newer peer",
        "retryable": True,
        "details": {"v": 2},
    }
    out.add(
        "from_payload",
        "unknown_code",
        f"a well-formed unknown code is treated as {_treated(names)}, and "
        "re-emitted as received",
        payload,
        accepted_unknown(names, payload, unknown),
    )
    for key, code in matched_samples(names):
        payload = {"code": code, "message": "from a newer peer", "retryable": False}
        out.add(
            "from_payload",
            f"matched/{key}/{code}",
            f"the unknown code {code} falls back to domain {key}, whose match "
            "claims it: an error of its class, re-emitted as received",
            payload,
            accepted_unknown(names, payload, code),
        )
    for tomb in removed_on_the_wire(names):
        payload = {
            "code": tomb.wire_code,
            "message": "from an older peer",
            "retryable": False,
        }
        out.add(
            "from_payload",
            f"removed/{tomb.code}",
            f"the removed code {tomb.code} falls back like any unknown code",
            payload,
            accepted_unknown(names, payload, tomb.wire_code),
        )
    if taxonomy.wire_type == "integer":
        _integer_codes(out, names, good)
    else:
        _string_codes(out, names, good)
    invalid: list[tuple[str, Any, str]] = [
        ("payload_null", None, "payload"),
        ("payload_array", [good], "payload"),
        ("payload_string", "text", "payload"),
        ("payload_number", 1, "payload"),
        ("payload_boolean", True, "payload"),
        ("code_missing", {k: v for k, v in good.items() if k != "code"}, "code"),
        ("code_null", {**good, "code": None}, "code"),
        ("code_boolean", {**good, "code": True}, "code"),
        ("code_array", {**good, "code": [good["code"]]}, "code"),
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
        f"details_depth_{MAX_DETAILS_DEPTH + 1}",
        f"rejected: details nested deeper than "
        f"{MAX_DETAILS_DEPTH} (the schema cannot say so)",
        {**good, "details": nested(MAX_DETAILS_DEPTH + 1)},
        {"ok": False, "field": "details"},
        schema_valid=True,
    )


def _rejected(
    out: VectorList, vid: str, given: dict[str, Any], why: str = "bad code"
) -> None:
    out.add(
        "from_payload", vid, f"rejected: {why}", given, {"ok": False, "field": "code"}
    )


def _string_codes(out: VectorList, names: Names, good: dict[str, Any]) -> None:
    """The vectors of what makes a string code well-formed, and its limit.

    While every wire code is its key, a code must look like one (the code case);
    once ``wire:`` spells codes otherwise, any printable ASCII without spaces
    will do, and the spellings a key could not have fall back instead.
    """
    taxonomy = names.taxonomy
    key = plain_code(names).code.code
    wire = str(good["code"])
    longest = unknown_code(names, "zz_" + "x" * (MAX_CODE_LENGTH - 3))
    payload = {"code": longest, "message": "from a newer peer", "retryable": False}
    out.add(
        "from_payload",
        f"code_length_{MAX_CODE_LENGTH}",
        f"a well-formed unknown code of {MAX_CODE_LENGTH} "
        f"characters, the limit, is treated as {_treated(names)}",
        payload,
        accepted_unknown(names, payload, longest),
    )
    _rejected(
        out,
        f"code_length_{MAX_CODE_LENGTH + 1}",
        {**good, "code": longest + longest[-1]},
        f"a code longer than {MAX_CODE_LENGTH} characters, well-formed or not",
    )
    for vid, code in (
        ("code_number", 7),
        ("code_empty", ""),
        ("code_trailing_newline", wire + "\n"),
        ("code_leading_space", " " + wire),
        ("code_inner_space", wire + " x"),
        ("code_tab", wire + "\tx"),
        ("code_non_ascii", wire + "\u00e9"),
        ("code_control", wire + "\u007f"),
    ):
        if code != "" or "" not in _taken(names):  # "" may be a wire code
            _rejected(out, vid, {**good, "code": code})
    case_only = (
        ("code_other_case", other_case(key, taxonomy.code_case)),
        ("code_double_underscore", key + "__x"),
        ("code_leading_digit", "1" + key),
        ("code_hyphen", key + "-x"),
    )
    taken = _taken(names)
    shaped = code_pattern(taxonomy) not in (
        WIRE_PATTERN.pattern,
        EMPTY_OR_WIRE_PATTERN.pattern,
    )
    for vid, code in case_only:
        if shaped:
            _rejected(out, vid, {**good, "code": code})
        elif code not in taken and WIRE_PATTERN.fullmatch(code):
            payload = {**good, "code": code}
            out.add(
                "from_payload",
                vid,
                f"{code!r} is a well-formed unknown code (wire codes are any "
                f"printable ASCII): treated as {_treated(names)}",
                payload,
                accepted_unknown(names, payload, code),
            )


def _integer_codes(out: VectorList, names: Names, good: dict[str, Any]) -> None:
    """The vectors of what makes an integer code well-formed, and its limits."""
    first = plain_code(names)
    number = int(first.code.wire_code)
    whole = {**good, "code": float(number)}
    out.add(
        "from_payload",
        "code_integral_float",
        "a code written with a zero fraction (5.0) is the integer",
        whole,
        accepted(first, whole, wire_code=first.code.wire_code),
    )
    for limit in (MAX_WIRE_INTEGER, -MAX_WIRE_INTEGER):
        if limit in _taken(names):
            continue
        payload = {**good, "code": limit}
        out.add(
            "from_payload",
            f"code_limit_{'minus' if limit < 0 else 'plus'}",
            f"{limit}, the limit, is a well-formed unknown code: treated as "
            f"{_treated(names)}",
            payload,
            accepted_unknown(names, payload, limit),
        )
    for vid, code in (
        ("code_string", str(number)),
        ("code_fraction", number + 0.5),
        ("code_above_limit", MAX_WIRE_INTEGER + 1),
        ("code_below_limit", -MAX_WIRE_INTEGER - 1),
        ("code_object", {"value": number}),
    ):
        _rejected(out, vid, {**good, "code": code})
