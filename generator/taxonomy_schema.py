"""The JSON Schema of the taxonomy format itself, for editors (``taxogen schema``).

An editor with a YAML language server reads it from the modeline
``# yaml-language-server: $schema=<SCHEMA_ID>`` and completes keys, shows each
key's description on hover and flags what validation would refuse as it is
typed: an unknown key (a typo, or a code's key indented to the domain level), a
boolean that is not ``true``/``false`` (``yes`` is text in YAML 1.2), a status
out of range.  It is built here from the same constants validation reads
(:mod:`taxogen.model`: the names' patterns, the code cases, the gRPC statuses,
the field types, the payload presets), so those cannot drift; the keys and the
rules only the validator's code states are held to the schema by
tests/test_taxonomy_schema.py, which validates every good and every bad case
of the repository against it.  What a schema cannot say (a ``fallback`` naming a
defined code, a name two codes clash on, a date that is no date) is listed,
with why, in tests/bad/SCHEMA.md.  ``schema/taxonomy.schema.json`` at the
repository root is this schema as ``taxogen schema`` prints it (for
SchemaStore), rewritten by ``make golden`` and checked by the same test.

Keys issue 30 adds are in the schema as the issue spells them (``PENDING``
names them); a taxonomy using one validates here before taxogen reads it.

It is longer than 300 lines because it is one document: every key of the format
with its description, which an editor shows, in the order the README gives.
"""

from __future__ import annotations

import json
import re
import sys
from typing import Any

from taxogen.model import (
    CASE_PATTERNS,
    CLASS_OVERRIDE,
    CLASS_PATTERN,
    CLASS_SUFFIX,
    DETAILS_TYPES,
    FIELD_NAME,
    FIELD_TYPES,
    GRPC_STATUSES,
    HTTP_STATUSES,
    MAX_CODE_LENGTH,
    MAX_NAME_LENGTH,
    MAX_WIRE_INTEGER,
    NAME_PATTERN,
    PAYLOAD_PRESETS,
    PYTHON_LAYOUTS,
    SCALAR_TYPES,
    SEMVER,
    WIRE_PATTERN,
    WIRE_TYPES,
)
from taxogen.targets.go.reserved import GO_SENTINELS
from taxogen.targets.python.reserved import PYTHON_EXCEPTIONS
from taxogen.validate.top import TOP_REQUIRED

__all__ = ["PENDING", "SCHEMA_ID", "encode", "schema"]

#: Where the schema is published: the repository's schema/taxonomy.schema.json.
SCHEMA_ID = (
    "https://raw.githubusercontent.com/acme/taxogen/main/schema/taxonomy.schema.json"
)

#: The keys of issue 30 ("Every real catalogue, exactly as it is") in the schema
#: ahead of the validator that reads them, by where they sit; a key leaves this
#: list with the change that makes taxogen take it (tests/test_taxonomy_schema.py).
PENDING: dict[str, tuple[str, ...]] = {
    "top": (),
    "domain": (),
    "code": (),
    "field": (),
    "items": (),
    "payload": (),
}
#: ``code_case: as_written`` (issue 30 §4): a wire code as the protocol writes it,
#: whose first letter or digit is a letter (the model's own once it has it).
_AS_WRITTEN = CASE_PATTERNS.get(
    "as_written", re.compile(r"[!-/:-@\[-`{-~]*[A-Za-z][!-~]*")
)
_CODE_CASES = {**CASE_PATTERNS, "as_written": _AS_WRITTEN}
#: The longest payload member name (validate.payload.MAX_MEMBER_LENGTH).
_MAX_MEMBER = 64
#: The largest finite double: a YAML number past it (1e999) is no JSON number.
_MAX_DOUBLE = sys.float_info.max
#: The longest docs_url (validate.status.MAX_URL_LENGTH).
_MAX_URL = 2000

# Characters text may not hold (validate.text): C0 and C1 controls, DEL and the
# bidirectional controls; prose keeps tabs and line breaks.
_CONTROLS = "\\u0000-\\u001f\\u007f-\\u009f\\u202a-\\u202e\\u2066-\\u2069"
_PROSE_CONTROLS = (
    "\\u0000-\\u0008\\u000b-\\u001f\\u007f-\\u009f\\u202a-\\u202e\\u2066-\\u2069"
)
# A URL character as it is (RFC 3986), or a percent escape.
_URL_CHAR = r"(?:[A-Za-z0-9\-._~:/?#\[\]@!$&'()*+,;=]|%[0-9A-Fa-f]{2})"
_HOST_FIRST = r"(?:[A-Za-z0-9\-._~\[\]!$&'()*+,;=]|%[0-9A-Fa-f]{2})"
_HOST_CHAR = r"(?:[A-Za-z0-9\-._~:\[\]@!$&'()*+,;=]|%[0-9A-Fa-f]{2})"
_HOST_LAST = r"(?:[A-Za-z0-9\-._~:\[\]!$&'()*+,;=]|%[0-9A-Fa-f]{2})"
_DOCS_URL = (
    f"^https?://{_HOST_FIRST}(?:{_HOST_CHAR}*{_HOST_LAST})?[/?#]"
    f"{_URL_CHAR}*\\{{code\\}}{_URL_CHAR}*$"
)
# A version: a semantic version, or a date whose month and day can be (the
# validator also refuses a day its month does not have).
_VERSION = (
    f"^(?:{SEMVER.pattern}|(?!0000)[0-9]{{4}}-(?:0[1-9]|1[0-2])-"
    "(?:0[1-9]|[12][0-9]|3[01]))$"
)
# A message template: text, {field} placeholders, {{ and }} for braces.
_TEMPLATE = f"^(?:[^{{}}]|\\{{\\{{|\\}}\\}}|\\{{{FIELD_NAME.pattern}\\}})*$"


def _full(pattern: re.Pattern[str]) -> str:
    """A pattern of :mod:`taxogen.model` (used with ``fullmatch``) anchored."""
    return f"^(?:{pattern.pattern})$"


def _ref(name: str, description: str | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {"$ref": f"#/$defs/{name}"}
    if description is not None:
        out["description"] = description
    return out


def _obj(
    properties: dict[str, Any], *, required: tuple[str, ...] = (), **more: Any
) -> dict[str, Any]:
    """A mapping that refuses unknown keys, as the validator's reader does."""
    out: dict[str, Any] = {"type": "object"}
    if required:
        out["required"] = list(required)
    out["properties"] = properties
    out["additionalProperties"] = False
    out.update(more)
    return out


def _boolean(description: str) -> dict[str, Any]:
    return {"type": "boolean", "description": description}


def _http_status(where: str) -> dict[str, Any]:
    return {
        "description": f"The HTTP status {where}: an integer from "
        f"{HTTP_STATUSES[0]} to {HTTP_STATUSES[1]}, or a list of them (the "
        "statuses a code may take, its default first).",
        "anyOf": [
            _ref("httpStatus"),
            {
                "type": "array",
                "items": _ref("httpStatus"),
                "minItems": 1,
                "uniqueItems": True,
            },
        ],
    }


def _grpc_status(where: str) -> dict[str, Any]:
    return _ref("grpcStatus", f"The gRPC status {where}, by its canonical name.")


def _python_bases(where: str) -> dict[str, Any]:
    return _ref(
        "pythonBases",
        f"Builtin exceptions the Python class of {where} also subclasses, "
        "such as [FileNotFoundError].",
    )


def _retry_after(where: str) -> dict[str, Any]:
    return _ref(
        "fieldName",
        f"The details field (seconds, an integer or a number) that says when to "
        f"retry {where}.",
    )


def _defs() -> dict[str, Any]:
    safe = {"minimum": -MAX_WIRE_INTEGER, "maximum": MAX_WIRE_INTEGER}
    return {
        "text": {
            "description": "Plain text on one line, no control character.",
            "type": ["string", "number"],
            "not": {"type": "string", "pattern": f"[{_CONTROLS}]"},
        },
        "label": {
            "description": "Plain text on one line, not empty.",
            "allOf": [_ref("text"), {"pattern": "\\S"}],
        },
        "prose": {
            "description": "Text that may break lines and hold tabs.",
            "type": ["string", "number"],
            "not": {"type": "string", "pattern": f"[{_PROSE_CONTROLS}]"},
        },
        "version": {
            "description": "A semantic version (1.2.0) or an ISO date (2024-06-20).",
            "type": "string",
            "pattern": _VERSION,
        },
        "codeName": {
            "description": "The key of a code.",
            "type": "string",
            "maxLength": MAX_NAME_LENGTH,
            "pattern": "\\S",
        },
        "className": {
            "description": "A class name: a capital, then letters, digits or "
            "underscores.",
            "type": "string",
            "maxLength": MAX_NAME_LENGTH,
            "pattern": _full(CLASS_OVERRIDE),
        },
        "fieldName": {
            "description": "A details field's name.",
            "type": "string",
            "maxLength": MAX_NAME_LENGTH,
            "pattern": _full(FIELD_NAME),
        },
        "httpStatus": {
            "type": "integer",
            "minimum": HTTP_STATUSES[0],
            "maximum": HTTP_STATUSES[1],
        },
        "grpcStatus": {"enum": list(GRPC_STATUSES)},
        "stringWire": {
            "description": "A wire code: printable ASCII without spaces.",
            "type": "string",
            "maxLength": MAX_CODE_LENGTH,
            # "" is one too, where the protocol has it (issue 30 §4).
            "pattern": "^[!-~]*$",
        },
        "integerWire": {
            "description": "An integer wire code, within JavaScript's safe "
            "integers.",
            "type": "integer",
            **safe,
        },
        "prefix": {
            "type": "string",
            "minLength": 1,
            "maxLength": MAX_CODE_LENGTH,
            "pattern": _full(WIRE_PATTERN),
        },
        "range": {
            "type": "array",
            "items": _ref("integerWire"),
            "minItems": 2,
            "maxItems": 2,
        },
        "pythonBases": {
            "type": "array",
            "items": {"enum": sorted(PYTHON_EXCEPTIONS)},
            "minItems": 1,
            "uniqueItems": True,
        },
        "member": {
            "description": "The name of a payload member.",
            "type": "string",
            "minLength": 1,
            "maxLength": _MAX_MEMBER,
            "pattern": "\\S",
            "not": {"const": "*"},
        },
        "nullableMember": {
            "description": "The name of a payload member, or null: not on the wire.",
            "anyOf": [_ref("member"), {"type": "null"}],
        },
        "json": {"description": "Any JSON value."},
        "fields": {
            "description": "Typed details fields: each name's type, or a mapping "
            "of type, required, description, default, enum, items, minimum, "
            "maximum.",
            "type": "object",
            "propertyNames": _ref("fieldName"),
            "additionalProperties": _ref("field"),
        },
        "field": {
            "anyOf": [
                {
                    "description": "The short form: just the type.",
                    "enum": list(FIELD_TYPES),
                },
                _ref("fieldShape"),
            ]
        },
        "fieldShape": _shape(FIELD_TYPES, items=True),
        "nestedFields": {
            "description": "A nested object's members: each name's type, or a "
            "mapping of type, required, description, enum, items, minimum, "
            "maximum, fields.",
            "type": "object",
            "minProperties": 1,
            "propertyNames": _ref("fieldName"),
            "additionalProperties": _ref("nestedField"),
        },
        "nestedField": {
            "anyOf": [
                {
                    "description": "The short form: just the type.",
                    "enum": list(FIELD_TYPES),
                },
                _ref("nestedShape"),
            ]
        },
        "nestedShape": _shape(FIELD_TYPES, items=True, member=True),
        "items": {
            "description": "An array's item shape: a type name (a scalar or "
            "object) or a mapping of type, enum, minimum, maximum, fields.",
            "anyOf": [{"enum": [*SCALAR_TYPES, "object"]}, _ref("itemShape")],
        },
        "itemShape": _shape((*SCALAR_TYPES, "object"), items=False),
    }


def _shape(
    types: tuple[str, ...], *, items: bool, member: bool = False
) -> dict[str, Any]:
    """A details field's (``items``), a nested object's member's (``member``: no
    value of its own, no default nor const) or an array item's mapping."""
    # A finite number: YAML's .inf and 1e999 are past the largest double.
    number = {"type": "number", "minimum": -_MAX_DOUBLE, "maximum": _MAX_DOUBLE}
    properties: dict[str, Any] = {
        "type": {"description": "The field's type.", "enum": list(types)},
    }
    rules: list[dict[str, Any]] = []
    if items:
        properties.update(
            description=_ref("text", "Plain text, shown in docs and code."),
            required=_boolean(
                "Whether every error of the code carries it " "(the default), or not."
            ),
        )
    if items and not member:
        properties["default"] = {
            "description": "An optional field's value when a constructor is "
            "not given it (it must fit the shape)."
        }
        rules.append(
            {
                "if": {"required": ["default"]},
                "then": {
                    "required": ["required"],
                    "properties": {"required": {"const": False}},
                },
            }
        )
        for kind, json_type in (
            ("string", "string"),
            ("integer", "integer"),
            ("number", "number"),
            ("boolean", "boolean"),
            ("array", "array"),
            ("object", "object"),
        ):
            rules.append(
                {
                    "if": {"properties": {"type": {"const": kind}}},
                    "then": {
                        "properties": {
                            "default": (
                                number if kind == "number" else {"type": json_type}
                            )
                        }
                    },
                }
            )
    properties.update(
        enum={
            "description": "A string's allowed values.",
            "type": "array",
            "items": _ref("text"),
            "minItems": 1,
            "uniqueItems": True,
        },
    )
    if items:
        properties["items"] = _ref("items", "An array's item shape.")
    properties.update(
        minimum={**number, "description": "An inclusive lower bound."},
        maximum={**number, "description": "An inclusive upper bound."},
        fields=_ref(
            "nestedFields", "A nested object's typed members (absent: any object)."
        ),
    )
    if items and not member:
        properties["const"] = {
            "description": "The value the field has for the code, filled in and "
            "checked on decoding.",
            "type": ["string", "number", "boolean"],
        }
    rules += [
        {
            "if": {"properties": {"type": {"const": "string"}}},
            "else": {"properties": {"enum": False}},
        },
        {
            "if": {"properties": {"type": {"enum": ["integer", "number"]}}},
            "else": {"properties": {"minimum": False, "maximum": False}},
        },
        {
            "if": {"properties": {"type": {"const": "integer"}}},
            "then": {
                "properties": {
                    bound: {
                        "type": "integer",
                        "minimum": -MAX_WIRE_INTEGER,
                        "maximum": MAX_WIRE_INTEGER,
                    }
                    for bound in ("minimum", "maximum")
                }
            },
        },
        {
            "if": {"properties": {"type": {"const": "object"}}},
            "else": {"properties": {"fields": False}},
        },
    ]
    if items:
        rules.append(
            {
                "if": {"properties": {"type": {"const": "array"}}},
                "then": {"required": ["items"]},
                "else": {"properties": {"items": False}},
            }
        )
    return _obj(properties, required=("type",), allOf=rules)


def _code() -> dict[str, Any]:
    """A code of a domain: live (retryable, meaning) or removed (a tombstone)."""
    version = "The taxonomy version"
    properties: dict[str, Any] = {
        "retryable": _boolean(
            "Whether the same request may succeed if sent again: true or false."
        ),
        "meaning": _ref("label", "What the code means, for people."),
        "class": _ref(
            "className", "The code's class name, where the derived one " "will not do."
        ),
        "since": _ref("version", f"{version} that added the code."),
        "deprecated": _obj(
            {
                "reason": _ref("label", "Why the code is deprecated."),
                "replaced_by": _ref("codeName", "The code to use instead."),
                "since": _ref("version", f"{version} that deprecated it."),
            },
            required=("reason",),
            description="The code is deprecated: why, and what replaces it.",
        ),
        "details": _ref(
            "fields", "The typed details the code carries (besides " "its domain's)."
        ),
        "message": {
            "description": "The message template: {field} names a details field, "
            "{{ and }} are braces.",
            "allOf": [_ref("label"), {"pattern": _TEMPLATE}],
        },
        "removed": _obj(
            {
                "since": _ref("version", f"{version} that removed the code."),
                "reason": _ref("label", "Why it was removed."),
                "replaced_by": {
                    "description": "The code to use instead: its docs page says so.",
                    "type": "string",
                    "minLength": 1,
                },
            },
            required=("since", "reason"),
            description="A tombstone: the code is no longer generated and its "
            "name and wire code are never used again.",
        ),
        "http_status": _http_status("of the code"),
        "grpc_status": _grpc_status("of the code"),
        "throttling": _boolean(
            "A retryable code whose callers must back off before retrying."
        ),
        "wire": {
            "description": "The code on the wire, where it is not the key: a "
            "string (quote one YAML reads as a number), or an integer under "
            "wire_type: integer.",
            "anyOf": [_ref("stringWire"), _ref("integerWire")],
        },
        "aliases": {
            "description": "Other names of the same code (issue 30).",
            "type": "array",
            "items": {
                "type": "string",
                "maxLength": MAX_NAME_LENGTH,
                "pattern": _full(WIRE_PATTERN),
            },
            "minItems": 1,
            "uniqueItems": True,
        },
        "python_bases": _python_bases("the code"),
        "go_is": {
            "description": "Go standard-library sentinels the error answers "
            "errors.Is for, such as [fs.ErrNotExist].",
            "type": "array",
            "items": {"enum": sorted(GO_SENTINELS)},
            "minItems": 1,
            "uniqueItems": True,
        },
        "retry_after": _retry_after("after this code"),
    }
    gone = (
        "class",
        "deprecated",
        "since",
        "details",
        "message",
        "http_status",
        "grpc_status",
        "throttling",
    )
    return _obj(
        properties,
        description="A code: retryable and meaning, or removed: {since, reason}.",
        allOf=[
            {
                "if": {"required": ["removed"]},
                "then": {
                    "properties": {
                        "meaning": _ref("text"),
                        **{key: False for key in gone},
                    }
                },
                "else": {"required": ["retryable", "meaning"]},
            },
            {
                "if": {
                    "required": ["retryable"],
                    "properties": {"retryable": {"const": False}},
                },
                "then": {"properties": {"throttling": {"const": False}}},
            },
        ],
    )


def _domain() -> dict[str, Any]:
    return _obj(
        {
            "title": _ref("label", "The domain's title."),
            "description": _ref("prose", "What the domain's errors are about."),
            "class": _ref("className", "The domain's class name."),
            "parent": {
                "description": "The domain whose class this domain's class extends.",
                "type": "string",
                "minLength": 1,
            },
            "match": {
                "description": "The unknown wire codes that fall back to this "
                "domain: a prefix or a list of them (string codes), a range "
                "[low, high] or a list of them (integer codes).",
                "anyOf": [
                    _ref("prefix"),
                    {"type": "array", "items": _ref("prefix"), "minItems": 1},
                    _ref("range"),
                    {"type": "array", "items": _ref("range"), "minItems": 1},
                ],
            },
            "details": _ref(
                "fields", "Details fields every code of the domain " "carries."
            ),
            "codes": {
                "description": "The domain's codes, by key.",
                "type": "object",
                "minProperties": 1,
                "propertyNames": _ref("codeName"),
                "additionalProperties": _ref("code"),
            },
            "http_status": _http_status("of the domain's codes"),
            "grpc_status": _grpc_status("of the domain's codes"),
            "fallback": {
                "description": "null (with match:): an unknown code this domain's "
                "match claims borrows no code, an error of the domain's class "
                "carrying its own (issue 30).",
                "type": "null",
            },
            "python_bases": _python_bases("the domain"),
            "retry_after": _retry_after("after the domain's codes"),
        },
        required=("title",),
        # Issue 30 §3: a domain's fallback: null keeps what its match claims.
        dependentRequired={"fallback": ["match"]},
        description="A domain: a group of codes and the class they extend.",
    )


def _payload() -> dict[str, Any]:
    return _obj(
        {
            "preset": {
                "description": "A whole shape: harmovela (default, {code, message, "
                "retryable, details}), json-rpc, or problem (RFC 9457).",
                "enum": list(PAYLOAD_PRESETS),
            },
            "code": _ref("member", "The member that holds the code."),
            "message": _ref("member", "The member that holds the message."),
            "retryable": _ref(
                "nullableMember", "The member that holds retryable (null: none)."
            ),
            "details": {
                "description": 'The member that holds the details (null: none; "*": '
                "every member the mapping does not read).",
                "anyOf": [_ref("nullableMember"), {"const": "*"}],
            },
            "details_type": {
                "description": "What the details are: object (default), array or "
                "any.",
                "enum": list(DETAILS_TYPES),
            },
            "envelope": _ref(
                "nullableMember", "The member the error object sits under, if any."
            ),
            "message_required": _boolean(
                "false: the message member may be absent (issue 30)."
            ),
            "constants": {
                "description": "Members every payload carries with a fixed value "
                "(issue 30).",
                "type": "object",
                "minProperties": 1,
                "propertyNames": {
                    "minLength": 1,
                    "maxLength": _MAX_MEMBER,
                    "not": {"const": "*"},
                },
                "additionalProperties": {"type": ["string", "number", "boolean"]},
            },
            "status": _ref(
                "nullableMember",
                "The member that holds the HTTP status (issue 30).",
            ),
            "outside": {
                "description": "Members the error does not hold (beside the "
                "envelope, or without one those the mapping does not name): drop "
                "(default) or keep (issue 30).",
                "enum": ["drop", "keep"],
            },
        },
        description="The payload the wire carries.",
        allOf=[
            {
                # Under details "*" (the problem preset's own) every member the
                # mapping does not name is the details: kept members need an
                # envelope to be beside.
                "if": {
                    "required": ["outside"],
                    "properties": {"outside": {"const": "keep"}},
                    "anyOf": [
                        {
                            "required": ["details"],
                            "properties": {"details": {"const": "*"}},
                        },
                        {
                            "required": ["preset"],
                            "properties": {"preset": {"const": "problem"}},
                            "not": {"required": ["details"]},
                        },
                    ],
                },
                "then": {
                    "required": ["envelope"],
                    "properties": {"envelope": {"type": "string"}},
                },
            },
            {
                # The problem preset writes its own status member.
                "if": {
                    "required": ["preset"],
                    "properties": {"preset": {"const": "problem"}},
                },
                "then": {"properties": {"status": {"type": "null"}}},
            },
            {
                "if": {
                    "required": ["details"],
                    "properties": {"details": {"const": "*"}},
                },
                "then": {"properties": {"details_type": {"const": "object"}}},
            },
            {
                "if": {
                    "required": ["details"],
                    "properties": {"details": {"type": "null"}},
                },
                "then": {"properties": {"details_type": False}},
            },
        ],
    )


def _docs() -> dict[str, Any]:
    prose = {
        "status": "The page's status line.",
        "purpose": "What the error model is for.",
        "payload": "How errors travel.",
    }
    more = {
        "taxonomy": "How the codes are organised.",
        "retryability": "What retryable means here.",
        "propagation": "How errors pass between services.",
    }
    return _obj(
        {
            **{key: _ref("prose", text) for key, text in prose.items()},
            "example": _obj(
                {
                    "code": {"description": "A live code.", "type": "string"},
                    "message": _ref("text", "Its message."),
                    "details": {"description": "Its details.", "type": "object"},
                },
                required=("code", "message"),
                description="The example payload the page shows.",
            ),
            "fields": _obj(
                {
                    key: _ref("prose", f"The {key} field's description.")
                    for key in ("code", "message", "retryable", "details")
                },
                description="The payload fields' descriptions.",
            ),
            **{key: _ref("prose", text) for key, text in more.items()},
            "notes": {
                "description": "Notes, each Markdown.",
                "type": "array",
                "items": _ref("prose"),
            },
            "diagram": _boolean("false: leave out the class diagram."),
            "layout": {
                "description": "pages: also a page per code (removed ones kept) "
                "at docs/errors/<wire code>.md, and an index; page (default): "
                "the one page.",
                "enum": ["page", "pages"],
            },
        },
        description="The docs page's prose, each entry Markdown.",
    )


def _cases() -> list[dict[str, Any]]:
    """What a top-level choice says of every code: the case of its key and of
    a replacement's name, and the kind of its wire code and its domain's match."""

    def codes(code: dict[str, Any], *, names: dict[str, Any] | None = None) -> Any:
        domain: dict[str, Any] = {
            "properties": {"codes": {"additionalProperties": code}}
        }
        if names is not None:
            domain["properties"]["codes"]["propertyNames"] = names
        return {"properties": {"domains": {"additionalProperties": domain}}}

    rules = []
    for case, pattern in _CODE_CASES.items():
        name = {"maxLength": MAX_NAME_LENGTH, "pattern": _full(pattern)}
        replaced = {"properties": {"deprecated": {"properties": {"replaced_by": name}}}}
        # lower_snake is the default: its rule holds where code_case is absent.
        given = [] if case == "lower_snake" else ["code_case"]
        rules.append(
            {
                "if": {"required": given, "properties": {"code_case": {"const": case}}},
                "then": codes(replaced, names=name),
            }
        )
    integer = codes(
        {
            "properties": {"wire": _ref("integerWire")},
            "if": {"required": ["removed"]},
            "else": {"required": ["wire"]},
        }
    )
    ranges = {
        "anyOf": [
            _ref("range"),
            {"type": "array", "items": _ref("range"), "minItems": 1},
        ]
    }
    integer["properties"]["domains"]["additionalProperties"]["properties"][
        "match"
    ] = ranges
    string = codes({"properties": {"wire": _ref("stringWire")}})
    prefixes = {
        "anyOf": [
            _ref("prefix"),
            {"type": "array", "items": _ref("prefix"), "minItems": 1},
        ]
    }
    string["properties"]["domains"]["additionalProperties"]["properties"][
        "match"
    ] = prefixes
    rules.append(
        {
            "if": {
                "required": ["wire_type"],
                "properties": {"wire_type": {"const": "integer"}},
            },
            "then": integer,
            "else": string,
        }
    )
    rules += [
        # Issue 30 §3: unknown_retryable beside a fallback code only where some
        # domain says fallback: null (not every domain lacks it), and no
        # fallback: null where a problem's type may name no code.
        {
            "if": {
                "required": ["fallback", "unknown_retryable"],
                "properties": {"fallback": {"type": "string"}},
            },
            "then": {
                "properties": {
                    "domains": {
                        "not": {
                            "additionalProperties": {"not": {"required": ["fallback"]}}
                        }
                    }
                }
            },
        },
        {
            "if": {
                "required": ["payload"],
                "properties": {
                    "payload": {
                        "required": ["preset"],
                        "properties": {"preset": {"const": "problem"}},
                    }
                },
            },
            "then": {"properties": {"fallback": {"type": "string"}}},
        },
        _untyped(),
        {
            "if": {
                "required": ["payload"],
                "properties": {
                    "payload": {
                        "required": ["preset"],
                        "properties": {"preset": {"const": "json-rpc"}},
                    }
                },
            },
            "then": {
                "required": ["wire_type"],
                "properties": {"wire_type": {"const": "integer"}},
            },
        },
        {
            "if": {
                "required": ["payload"],
                "properties": {
                    "payload": {
                        "required": ["preset"],
                        "properties": {"preset": {"const": "problem"}},
                    }
                },
            },
            "then": {"required": ["docs_url"]},
        },
    ]
    return rules


def _untyped() -> dict[str, Any]:
    """Declared details fields need object details: none where the payload has
    no details, or details that are an array or any JSON (json-rpc's default)."""
    none = {"maxProperties": 0}
    fields = {"properties": {"details": none}}
    untyped = [
        {"required": ["details"], "properties": {"details": {"type": "null"}}},
        {
            "required": ["details_type"],
            "properties": {"details_type": {"enum": ["array", "any"]}},
        },
        {
            "required": ["preset"],
            "properties": {"preset": {"const": "json-rpc"}},
            "not": {"required": ["details_type"]},
        },
    ]
    return {
        "if": {"required": ["payload"], "properties": {"payload": {"anyOf": untyped}}},
        "then": {
            "properties": {
                "details": none,
                "domains": {
                    "additionalProperties": {
                        "properties": {
                            "details": none,
                            "codes": {"additionalProperties": fields},
                        }
                    }
                },
            }
        },
    }


def schema() -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of a taxonomy file, format 1."""
    top: dict[str, Any] = {
        "format": {"description": "The taxonomy format: 1.", "enum": [1, "1"]},
        "name": {
            "description": "lower_snake: the Python package is <name>_errors, the "
            "npm package <name>-errors.",
            "type": "string",
            "maxLength": MAX_NAME_LENGTH,
            "pattern": _full(NAME_PATTERN),
        },
        "title": _ref("label", "The error model's title."),
        "version": _ref("version", "The taxonomy's version."),
        "base": {
            "description": "The root error class, the same name in every language "
            "(PascalCase).",
            "type": "string",
            "maxLength": MAX_NAME_LENGTH,
            "pattern": _full(CLASS_PATTERN),
        },
        "fallback": {
            "description": "The code an unknown wire code is treated as; null: "
            "none is borrowed, the unknown code keeps its identity (issue 30).",
            "anyOf": [_ref("codeName"), {"type": "null"}],
        },
        "wrap": _ref("codeName", "The code a caught value that is no error gets."),
        "code_case": {
            "description": "How code keys are spelt: lower_snake (default), "
            "upper_snake, or as_written (the wire code itself, issue 30).",
            "enum": list(_CODE_CASES),
        },
        "python_layout": {
            "description": "How the Python package lays out its classes: auto "
            "(default), module or lazy.",
            "enum": list(PYTHON_LAYOUTS),
        },
        "wire_type": {
            "description": "The type of every wire code: string (default) or "
            "integer.",
            "enum": list(WIRE_TYPES),
        },
        "class_suffix": {
            "description": 'What a derived class name ends with (default Error; "" '
            "for none).",
            "type": "string",
            "maxLength": MAX_NAME_LENGTH,
            "pattern": _full(CLASS_SUFFIX),
        },
        "domains": {
            "description": "The domains, by name (lower_snake or upper_snake).",
            "type": "object",
            "minProperties": 1,
            "propertyNames": {
                "maxLength": MAX_NAME_LENGTH,
                "pattern": f"^(?:{CASE_PATTERNS['lower_snake'].pattern}|"
                f"{CASE_PATTERNS['upper_snake'].pattern})$",
            },
            "additionalProperties": _ref("domain"),
        },
        "events": {
            "description": "Event types that carry an error, each with the dotted "
            "path to it (payload.error).",
            "type": "object",
            "propertyNames": {"minLength": 1, "not": {"pattern": f"[{_CONTROLS}]"}},
            "additionalProperties": {
                "type": "string",
                "maxLength": MAX_NAME_LENGTH,
                "pattern": "^[A-Za-z_][A-Za-z0-9_]*(?:\\.[A-Za-z_][A-Za-z0-9_]*)*$",
            },
        },
        "docs": _docs(),
        "http_status": _http_status("of every code that declares none"),
        "grpc_status": _grpc_status("of every code that declares none"),
        "docs_url": {
            "description": "Each code's documentation link: an http(s) URL holding "
            "{code} once, after the host.",
            "type": "string",
            "maxLength": _MAX_URL,
            "pattern": _DOCS_URL,
        },
        "payload": _ref(
            "payload",
            "The payload the wire carries (default: {code, message, retryable, "
            "details}).",
        ),
        "details": _ref("fields", "Details fields every code carries (issue 30)."),
        "retry_after": _retry_after("after any code"),
        "python_bases": _python_bases("every code"),
        "unknown_retryable": {
            "description": "With fallback: null, whether an unknown code (which "
            "keeps its identity) is retryable where its payload does not say: "
            "false (the default), true, or by_status (when received with a 5xx "
            "status; not without one).",
            "enum": [False, True, "by_status"],
        },
    }
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": SCHEMA_ID,
        "title": "taxogen taxonomy (format 1)",
        "description": "A taxonomy.yaml of error codes, from which taxogen "
        "generates Python, TypeScript and Go packages, docs and schemas.",
        **_obj(
            top,
            required=TOP_REQUIRED,
        ),
        "allOf": _cases(),
        "$defs": {
            **_defs(),
            "domain": _domain(),
            "code": _code(),
            "payload": _payload(),
        },
    }


def encode() -> bytes:
    """The schema as ``taxogen schema`` prints it and the repository keeps it:
    UTF-8 JSON, indented by two spaces, one final newline."""
    return (json.dumps(schema(), indent=2, ensure_ascii=False) + "\n").encode()
