"""Contract: the wire format as data anyone can check — a JSON Schema and conformance vectors.

Both are computed from the model alone, never from a generated runtime, so they
state what every implementation must do: the Python and TypeScript suites run
every vector and must agree with it, and a team implementing the taxonomy in a
third language can run the same file.  The schema accepts exactly what
``from_payload`` accepts: well-formed codes of at most ``MAX_CODE_LENGTH``
characters (known ones are listed with their meanings, unknown ones stay valid,
as the fallback rule requires), a string message, a real boolean ``retryable``,
``details`` an object or null, and any extra field; save the limits on
``details`` that JSON Schema cannot state (``MAX_DETAILS_DEPTH``,
``MAX_DETAILS_NODES``), which its description states instead and the vectors
mark with ``schema_valid``.
"""

from __future__ import annotations

import json
import json.encoder
from collections.abc import Callable
from typing import Any

from generator.model import CASE_PATTERNS
from generator.naming import NamedCode, Names, in_code_case, other_case

__all__ = [
    "MAX_CODE_LENGTH",
    "MAX_DETAILS_DEPTH",
    "MAX_DETAILS_NODES",
    "PATHS",
    "SCHEMA_PATH",
    "VECTORS_PATH",
    "dump_json",
    "payload_schema",
    "vectors",
]

SCHEMA_PATH = "schema/error-payload.schema.json"
VECTORS_PATH = "conformance/vectors.json"
#: Every file the contract writes.
PATHS = (SCHEMA_PATH, VECTORS_PATH)

# The runtimes' limits, the same for every taxonomy and in every language: the
# generated runtimes state them as constants of their own (plain runtime code in
# the templates), the schema says what JSON Schema can, the vectors test them.
#: The longest code a payload may carry, in characters (codes are ASCII).
MAX_CODE_LENGTH = 256
#: How deep details may nest: the details object is depth 1, each object or array inside adds one.
MAX_DETAILS_DEPTH = 64
#: How many values details may hold in all: every object, array and scalar, the details object included.
MAX_DETAILS_NODES = 100_000
_LIMITS_UNSAID = (
    f"At most {MAX_DETAILS_DEPTH} levels deep (the details object is level 1, each object or array inside adds one) "
    f"and at most {MAX_DETAILS_NODES} values in all (every object, array and scalar, the details object included): "
    "JSON Schema cannot state either limit, so details past them validate here, yet every runtime refuses them."
)


def _compact_encoder() -> Callable[[object], str]:
    """The compact JSON of one value, exactly as ``json.dumps(value, ensure_ascii=False)`` spells it.

    ``json.dumps`` builds a new encoder for every call, which costs more than
    encoding a short value: this builds json's C encoder once and calls it
    directly (a fresh one per document, as its circular-reference markers are
    state), falling back to ``JSONEncoder.encode`` where there is no C encoder.
    Without an indent, ``", "`` and ``": "`` are json's separators.
    """
    encoder = json.JSONEncoder(ensure_ascii=False)
    make = getattr(json.encoder, "c_make_encoder", None)
    if make is None:
        return encoder.encode
    c_encode = make(
        {},
        encoder.default,
        json.encoder.encode_basestring,
        None,
        encoder.key_separator,
        encoder.item_separator,
        False,
        False,
        True,
    )
    return lambda value: "".join(c_encode(value, 0))


def _layout(
    value: object,
    depth: int,
    inline_below: int,
    compact: Callable[[object], str],
    out: list[str],
) -> None:
    """Append to ``out`` the JSON of ``value``: one item a line down to ``inline_below`` levels, compact beneath.

    Compact parts go through json's C encoder (``indent`` forces the slow Python
    one), which keeps 20,000 vectors fast and puts each vector on one line.
    """
    if depth >= inline_below or not value or not isinstance(value, (dict, list)):
        out.append(compact(value))
        return
    pad = "\n" + "  " * (depth + 1)
    separator = "," + pad
    if (
        isinstance(value, list) and depth + 1 >= inline_below
    ):  # a list of compact items, one a line
        out.extend(("[", pad, separator.join(map(compact, value)), pad[:-2], "]"))
        return
    out.append("{" if isinstance(value, dict) else "[")
    between = pad
    for key, item in value.items() if isinstance(value, dict) else enumerate(value):
        out.append(between)
        if isinstance(value, dict):
            out.append(compact(key) + ": ")
        _layout(item, depth + 1, inline_below, compact, out)
        between = separator
    out.append(pad[:-2] + ("}" if isinstance(value, dict) else "]"))


def dump_json(document: object, inline_below: int = 64) -> bytes:
    """Deterministic, readable JSON in which every invisible character is escaped.

    Values nested deeper than ``inline_below`` levels are written on one line.
    """
    out: list[str] = []
    _layout(document, 0, inline_below, _compact_encoder(), out)
    text = "".join(out)
    # The usual cases, checked in C: ASCII JSON can only hide DEL (the encoder
    # escapes every other control character).
    if (text.isascii() and "\x7f" not in text) or text.replace("\n", "").isprintable():
        return (text + "\n").encode("utf-8")
    out = []
    for char in text:
        # Invisible characters can only sit inside strings, where an escape means the same.
        if char.isprintable() or char in "\n ":
            out.append(char)
        elif ord(char) < 0x10000:
            out.append(f"\\u{ord(char):04x}")
        else:
            high, low = divmod(ord(char) - 0x10000, 0x400)
            out.append(f"\\u{0xD800 + high:04x}\\u{0xDC00 + low:04x}")
    return ("".join(out) + "\n").encode("utf-8")


def _code_pattern(names: Names) -> str:
    return "^" + CASE_PATTERNS[names.taxonomy.code_case].pattern + "$"


def payload_schema(names: Names, header: str) -> dict[str, Any]:
    """A JSON Schema (2020-12) of the error payload of ``names``' taxonomy."""
    taxonomy = names.taxonomy
    fallback = names.fallback.code.code
    known = [
        {"const": c.code.code, "title": c.class_name, "description": c.code.meaning}
        for c in names.codes
    ]
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": f"urn:taxogen:{taxonomy.name}:error-payload:{taxonomy.version}",
        "$comment": header,
        "title": f"{taxonomy.title}: error payload",
        "description": f"An error of the {taxonomy.name} taxonomy, version {taxonomy.version}, on the wire.",
        "type": "object",
        "required": ["code", "message", "retryable"],
        "properties": {
            "code": {
                "description": "Machine-readable error code. A well-formed code this taxonomy "
                f"does not define is valid and is treated as {fallback}.",
                "type": "string",
                "maxLength": MAX_CODE_LENGTH,
                "pattern": _code_pattern(names),
                # Some regex engines let `$` match before a final line break.
                "not": {"pattern": "\n"},
                "anyOf": [
                    *known,
                    {
                        "description": f"A code this version does not define: treated as {fallback}."
                    },
                ],
            },
            "message": {"description": "Human-readable description.", "type": "string"},
            "retryable": {
                "description": "Whether the caller may retry after this error.",
                "type": "boolean",
            },
            "details": {
                "description": f"Context-specific error metadata (null counts as absent). {_LIMITS_UNSAID}",
                "type": ["object", "null"],
            },
        },
        "additionalProperties": True,
    }


def _unknown(names: Names, stem: str) -> str:
    """A code spelt from lower_snake ``stem`` that the taxonomy does not define."""
    known = {c.code.code for c in names.codes}
    case = names.taxonomy.code_case
    candidate = in_code_case(stem, case)
    while candidate in known:
        candidate += in_code_case("_x", case)
    return candidate


def _accepted(
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


_ABSENT = object()


def _event(event_type: str, location: str, value: Any = _ABSENT) -> dict[str, Any]:
    """An event of ``event_type`` holding ``value`` at the dotted ``location``.

    Without a value the path leading to the location is there, the last key not.
    """
    root: dict[str, Any] = {"type": event_type}
    node = root
    *parents, leaf = location.split(".")
    for part in parents:
        node[part] = {}
        node = node[part]
    if value is not _ABSENT:
        node[leaf] = value
    return root


def _nested(levels: int) -> dict[str, Any]:
    """Details ``levels`` deep: objects and arrays in turn inside the details object, a string at the bottom."""
    node: Any = "bottom"  # scalars add no depth
    for level in range(levels, 1, -1):
        node = {"d": node} if level % 2 else [node]
    return {"d": node}


def vectors(names: Names, header: str) -> dict[str, Any]:
    """Inputs and the outcome every implementation of the taxonomy must produce."""
    taxonomy = names.taxonomy
    case = taxonomy.code_case
    first = names.codes[0]
    fallback = names.fallback
    wrap = names.wrap
    out: list[dict[str, Any]] = []

    def add(
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
        out.append(vector)

    # from_payload: every code, then each rule.
    for named in names.codes:
        payload = {
            "code": named.code.code,
            "message": f"an example {named.code.code} error",
            "retryable": named.code.retryable,
            "details": {"example": True},
        }
        add(
            "from_payload",
            f"code/{named.code.code}",
            f"the known code {named.code.code}",
            payload,
            _accepted(named, payload),
        )
    good = {"code": first.code.code, "message": "m", "retryable": first.code.retryable}
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
            {**good, "details": _nested(MAX_DETAILS_DEPTH)},
        ),
    ]
    for vid, description, payload in rules:
        add("from_payload", vid, description, payload, _accepted(first, payload))
    unknown = _unknown(names, "zz_unknown_code")
    payload = {
        "code": unknown,
        "message": "from a newer peer",
        "retryable": True,
        "details": {"v": 2},
    }
    add(
        "from_payload",
        "unknown_code",
        f"a well-formed unknown code is treated as {fallback.code.code}, and re-emitted as received",
        payload,
        {**_accepted(fallback, payload, wire_code=unknown)},
    )
    longest = _unknown(names, "zz_" + "x" * (MAX_CODE_LENGTH - 3))
    payload = {"code": longest, "message": "from a newer peer", "retryable": False}
    add(
        "from_payload",
        f"code_length_{MAX_CODE_LENGTH}",
        f"a well-formed unknown code of {MAX_CODE_LENGTH} "
        f"characters, the limit, is treated as {fallback.code.code}",
        payload,
        _accepted(fallback, payload, wire_code=longest),
    )
    for tomb in taxonomy.removed:
        payload = {
            "code": tomb.code,
            "message": "from an older peer",
            "retryable": False,
        }
        add(
            "from_payload",
            f"removed/{tomb.code}",
            f"the removed code {tomb.code} falls back like any unknown code",
            payload,
            _accepted(fallback, payload, wire_code=tomb.code),
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
        add(
            "from_payload",
            vid,
            f"rejected: bad {field}",
            given,
            {"ok": False, "field": field},
        )
    add(
        "from_payload",
        f"code_length_{MAX_CODE_LENGTH + 1}",
        f"rejected: a code longer than {MAX_CODE_LENGTH} "
        "characters, well-formed or not",
        {**good, "code": longest + longest[-1]},
        {"ok": False, "field": "code"},
    )
    add(
        "from_payload",
        f"details_depth_{MAX_DETAILS_DEPTH + 1}",
        f"rejected: details nested deeper than "
        f"{MAX_DETAILS_DEPTH} (the schema cannot say so)",
        {**good, "details": _nested(MAX_DETAILS_DEPTH + 1)},
        {"ok": False, "field": "details"},
        schema_valid=True,
    )

    # lookup: every code and an unknown one.
    for named in names.codes:
        add(
            "lookup",
            named.code.code,
            f"the class of {named.code.code}",
            named.code.code,
            {"class": named.class_name, "retryable": named.code.retryable},
        )
    add(
        "lookup",
        "unknown",
        "an unknown code gets the fallback's class",
        unknown,
        {"class": fallback.class_name, "retryable": fallback.code.retryable},
    )
    for tomb in taxonomy.removed:
        add(
            "lookup",
            f"removed/{tomb.code}",
            "a removed code gets the fallback's class",
            tomb.code,
            {"class": fallback.class_name, "retryable": fallback.code.retryable},
        )

    # error_from_event: every event type of the propagation table.
    for event in taxonomy.events:
        error = {
            "code": first.code.code,
            "message": f"failed in {event.type}",
            "retryable": first.code.retryable,
            "details": {},
        }
        add(
            "error_from_event",
            f"{event.type}/error",
            f"{event.type} carries its error at {event.location}",
            _event(event.type, event.location, error),
            _accepted(first, error),
        )
        add(
            "error_from_event",
            f"{event.type}/null",
            "a null error means none",
            _event(event.type, event.location, None),
            {"ok": True, "none": True},
        )
        add(
            "error_from_event",
            f"{event.type}/absent",
            "no error at the location means none",
            _event(event.type, event.location),
            {"ok": True, "none": True},
        )
        add(
            "error_from_event",
            f"{event.type}/invalid",
            "an invalid error payload is rejected",
            _event(event.type, event.location, {"code": first.code.code}),
            {"ok": False, "field": "message"},
        )
    add(
        "error_from_event",
        "unknown_type",
        "an event type the table lacks carries no error",
        {"type": "zz.not.an.event", "payload": {"error": good}},
        {"ok": True, "none": True},
    )
    add(
        "error_from_event",
        "no_type",
        "an event without a type carries no error",
        {"payload": {"error": good}},
        {"ok": True, "none": True},
    )
    add(
        "error_from_event",
        "not_an_object",
        "an event must be an object",
        ["x"],
        {"ok": False, "field": "event"},
    )

    # to_error: values that are not errors are wrapped with the wrap code.
    for vid, given in (
        ("string", "boom"),
        ("number", 42),
        ("null", None),
        ("object", {"code": first.code.code}),
        ("array", [1, 2]),
        ("boolean", False),
    ):
        add(
            "to_error",
            vid,
            f"a {vid} is wrapped as {wrap.code.code}, the value kept",
            given,
            {
                "class": wrap.class_name,
                "code": wrap.code.code,
                "domain": wrap.code.domain,
                "retryable": wrap.code.retryable,
            },
        )

    return {
        "//": header,
        "taxonomy": {
            "name": taxonomy.name,
            "version": taxonomy.version,
            "base": names.base,
            "fallback": fallback.code.code,
            "wrap": wrap.code.code,
            "code_pattern": _code_pattern(names),
        },
        "limits": {
            "max_code_length": MAX_CODE_LENGTH,
            "max_details_depth": MAX_DETAILS_DEPTH,
            "max_details_nodes": MAX_DETAILS_NODES,
            "depth": "the details object is depth 1; each object or array inside adds one; scalars add nothing",
            "nodes": "every object, array, string, number, boolean and null in details, the details object included",
        },
        "kinds": {
            "from_payload": "input is a payload; expect ok with the class, code, domain, retryable, wire_code and the "
            "payload to_payload() re-emits, or ok false with the bad field",
            "lookup": "input is a code; expect the class lookup() returns and is_retryable()",
            "error_from_event": "input is an event; expect the error (as from_payload), none, or a rejection",
            "to_error": "input is a value that is not an error; expect the wrapper's class, code, domain and retryable",
        },
        "schema_valid": "present on a vector whose input the JSON Schema judges otherwise than expect.ok says, "
        "because the schema cannot state that rule (details depth): implementations follow expect",
        "vectors": out,
    }
