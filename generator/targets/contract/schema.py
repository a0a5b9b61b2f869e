"""The contract's JSON Schema of the error payload, and the limits it states.

The schema accepts exactly what ``from_payload`` accepts: well-formed codes of
at most ``MAX_CODE_LENGTH`` characters (known ones are listed with their
meanings, unknown ones stay valid, as the fallback rule requires), a string
message, a real boolean ``retryable``, ``details`` an object or null, and any
extra field, and a known code's details as its declared fields say (extra keys
allowed); save the limits on ``details`` that JSON Schema cannot state
(``MAX_DETAILS_DEPTH``, ``MAX_DETAILS_NODES``), which its description states
instead and the vectors mark with ``schema_valid``.  Each known code's entry
is annotated with what it maps to, where the taxonomy says: ``x-http-status``,
``x-grpc-status``, ``x-throttling`` and ``x-doc-url`` (annotations, which no
validator checks).

It runs past 300 lines because the schema of a mapped payload writes each
member the mapping names beside today's schema, and the two share the code and
details rules.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from taxogen.model import (
    MAX_CODE_LENGTH,
    MAX_WIRE_INTEGER,
    Code,
    Field,
    Shape,
    constant_text,
    doc_url,
    json_data,
)
from taxogen.model import code_pattern as _pattern
from taxogen.naming import Names
from taxogen.targets.mapped import (
    NONE,
    Mapping,
    code_mapping,
    declares_nothing,
    schema_annotations,
    status_schema,
)

__all__ = [
    "MAX_CODE_LENGTH",
    "MAX_DETAILS_DEPTH",
    "MAX_DETAILS_NODES",
    "code_pattern",
    "code_type",
    "details_rules",
    "field_schema",
    "payload_schema",
]

# The runtimes' limits, the same for every taxonomy and in every language: the
# generated runtimes state them as constants of their own (plain runtime code in
# the templates), the schema says what JSON Schema can, the vectors test them.
#: How deep details may nest: the details object is depth 1, each object or array inside
# adds one.
MAX_DETAILS_DEPTH = 64
#: How many values details may hold in all: every object, array and scalar, the details
# object included.
MAX_DETAILS_NODES = 100_000
_LIMITS_UNSAID = (
    f"At most {MAX_DETAILS_DEPTH} levels deep (the details object is level 1, each "
    "object or array inside adds one) "
    f"and at most {MAX_DETAILS_NODES} values in all (every object, array and scalar, "
    "the details object included): "
    "JSON Schema cannot state either limit, so details past them validate here, yet "
    "every runtime refuses them."
)


def code_pattern(names: Names) -> str | None:
    """The schema's ``pattern`` of a string code (None: codes are integers)."""
    pattern = _pattern(names.taxonomy)
    return None if pattern is None else f"^{pattern}$"


def code_type(names: Names) -> dict[str, Any]:
    """What makes a code well-formed: an integer in range, or a string."""
    pattern = code_pattern(names)
    if pattern is None:
        return {
            "type": "integer",
            "minimum": -MAX_WIRE_INTEGER,
            "maximum": MAX_WIRE_INTEGER,
        }
    return {
        "type": "string",
        "maxLength": MAX_CODE_LENGTH,
        "pattern": pattern,
        # Some regex engines let `$` match before a final line break.
        "not": {"pattern": "\n"},
    }


def _mappings(names: Names) -> Callable[[Code], Mapping]:
    """What each code maps to: NONE for all where the taxonomy declares
    nothing a code can map to (most do not: 10,000 lineages not walked)."""
    taxonomy = names.taxonomy
    if declares_nothing(taxonomy):
        return lambda code: NONE
    return lambda code: code_mapping(taxonomy, code)


def _shape_schema(shape: Shape) -> dict[str, Any]:
    out: dict[str, Any] = {"type": shape.type}
    if shape.enum:
        out["enum"] = list(shape.enum)
    if shape.minimum is not None:
        out["minimum"] = shape.minimum
    if shape.maximum is not None:
        out["maximum"] = shape.maximum
    if shape.items is not None:
        out["items"] = _shape_schema(shape.items)
    if shape.fields is not None:  # issue 30 §7; undeclared members are kept
        out["properties"] = {m.name: field_schema(m) for m in shape.fields}
        required = [m.name for m in shape.fields if m.required]
        if required:
            out["required"] = required
    return out


def field_schema(field: Field) -> dict[str, Any]:
    """The JSON Schema of a declared details field (the openapi target's too)."""
    out: dict[str, Any] = {}
    if field.description:
        out["description"] = field.description
    out.update(_shape_schema(field.shape))
    if field.has_const:
        out["const"] = json_data(field.default)  # issue 30 §7: absent or equal
    elif field.has_default:
        out["default"] = json_data(field.default)
    return out


def details_rules(names: Names) -> list[dict[str, Any]]:
    """One ``if``/``then`` a code with fields: its details checked against them.

    Extra keys stay allowed (forward compatible); details may be absent or null
    only when no field is required, as ``from_payload`` says.
    """
    rules = []
    for named in names.codes:
        fields = named.code.fields
        if not fields:
            continue
        required = [f.name for f in fields if f.required]
        details: dict[str, Any] = {
            "type": "object" if required else ["object", "null"],
            "properties": {f.name: field_schema(f) for f in fields},
        }
        if required:
            details["required"] = required
        then: dict[str, Any] = {"properties": {"details": details}}
        if required:
            then["required"] = ["details"]
        for code in (named.code.wire_code, *_spellings(names, named)):
            rules.append(
                {
                    "if": {
                        "properties": {"code": {"const": code}},
                        "required": ["code"],
                    },
                    "then": then,
                }
            )
    return rules


def _spellings(names: Names, named: Any) -> tuple[str, ...]:
    """The aliases of a code a payload may carry: string wire codes only."""
    return named.code.aliases if names.taxonomy.wire_type == "string" else ()


def _alias_entries(names: Names, wire: Any = None) -> list[dict[str, Any]]:
    """Each alias a payload may carry, as a known code's entry names it."""
    return [
        {
            "const": alias if wire is None else wire(alias),
            "title": c.class_name,
            "description": f"Another name of {c.code.wire_text}: {c.code.meaning}",
        }
        for c in names.codes
        for alias in _spellings(names, c)
    ]


def _mapped_schema(names: Names, header: str) -> dict[str, Any]:
    """The schema of a payload other than today's: each field in the member the
    mapping names (issue 14 §2), the rest as :func:`payload_schema` says."""
    taxonomy = names.taxonomy
    payload = taxonomy.payload
    fallback = names.fallback_text()
    template = taxonomy.docs_url or ""
    mapping = _mappings(names)

    def wire(c: Any) -> Any:
        return spelt(c.code.wire_code)

    def spelt(code: Any) -> Any:
        return doc_url(template, str(code)) if payload.problem else code

    known = [
        {
            "const": wire(c),
            "title": c.class_name,
            "description": c.code.meaning,
            **schema_annotations(mapping(c.code)),
        }
        for c in names.codes
    ]
    known += _alias_entries(names, spelt)
    if payload.problem:
        code_schema: dict[str, Any] = {
            "description": "A URI naming the problem type: docs_url with the "
            "percent-encoded code in place of {code}. Any other URI (about:blank "
            f"too), or none (null too), is treated as {fallback}.",
            "type": ["string", "null"],
        }
    else:
        code_schema = {
            "description": "Machine-readable error code. A well-formed code this "
            f"taxonomy does not define is valid and is treated as {fallback}.",
            **code_type(names),
        }
    code_schema["anyOf"] = [
        *known,
        {"description": f"A code this version does not define: treated as {fallback}."},
    ]
    constants = {
        name: {
            "description": f"Always {constant_text(value)}: a constant every "
            "payload carries (written on every payload; absent or null accepted).",
            "enum": [json_data(value), None],
        }
        for name, value in payload.constants
    }
    # The constants are the payload's own members: beside the envelope, if any.
    properties: dict[str, Any] = {} if payload.envelope else dict(constants)
    properties[payload.code] = code_schema
    required = [] if payload.problem else [payload.code]
    absent = ""
    if payload.exact_message:
        absent = (
            " (optional; null counts as absent. Absent: the code's message "
            "template rendered from the details, else the meaning; an error "
            "received without it is written back without it)"
        )
    elif payload.optional_message:
        absent = " (absent: the title, else the meaning)"
    properties[payload.message] = {
        "description": "Human-readable description" + absent + ".",
        "type": ["string", "null"] if payload.optional_message else "string",
    }
    if not payload.optional_message:
        required.append(payload.message)
    if payload.retryable is not None:
        properties[payload.retryable] = {
            "description": "Whether the caller may retry after this error.",
            "type": "boolean",
        }
        required.append(payload.retryable)
    if payload.status is not None:
        properties[payload.status] = status_schema()
    if payload.problem:
        properties["title"] = {
            "description": "A short summary of the problem type (written as the "
            "code's meaning); kept as received, whatever it holds."
        }
        properties["status"] = {
            "description": "The HTTP status (written as the code's); kept as "
            "received, whatever it holds."
        }
    if payload.details is not None and not payload.rest:
        types = {"object": ["object", "null"], "array": ["array", "null"]}
        details: dict[str, Any] = {
            "description": "Context-specific error metadata (null counts as "
            f"absent). {_LIMITS_UNSAID}"
        }
        if payload.details_type in types:
            details["type"] = types[payload.details_type]
        properties[payload.details] = details
    rules = []
    for rule in details_rules(names):
        const = rule["if"]["properties"]["code"]["const"]
        named = next(
            c
            for c in names.codes
            if const == c.code.wire_code or const in _spellings(names, c)
        )
        then = rule["then"]
        if payload.rest:
            inner = then["properties"]["details"]
            then = {"properties": inner["properties"]}
            if "required" in inner:
                then["required"] = inner["required"]
        elif payload.details != "details":
            then = {
                "properties": {payload.details: then["properties"]["details"]},
                **({"required": [payload.details]} if "required" in then else {}),
            }
        rules.append(
            {
                "if": {
                    "properties": {
                        payload.code: {
                            "const": (
                                wire(named)
                                if const == named.code.wire_code
                                else spelt(const)
                            )
                        }
                    },
                    "required": [payload.code],
                },
                "then": then,
            }
        )
    body: dict[str, Any] = {
        "type": "object",
        "required": required,
        "properties": properties,
        "additionalProperties": True,
        **({"allOf": rules} if rules else {}),
    }
    head = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": f"urn:taxogen:{taxonomy.name}:error-payload:{taxonomy.version}",
        "$comment": header,
        "title": f"{taxonomy.title}: error payload",
        "description": f"An error of the {taxonomy.name} taxonomy, version "
        f"{taxonomy.version}, on the wire (payload preset {payload.preset}).",
    }
    if payload.rest:
        body["description"] = (
            "Every member but those above is the error's details (RFC 9457's "
            f"extension members). {_LIMITS_UNSAID}"
        )
    if payload.envelope is None:
        if payload.rest:
            head["description"] += " " + body.pop("description")
        if payload.keeps_outside:
            head["description"] += (
                " Every member the mapping does not name is kept as received and "
                "written back (outside: keep)."
            )
        return {**head, **body}
    if payload.keeps_outside:
        head["description"] += (
            f" Every other member beside {payload.envelope} is kept as received "
            "and written back (outside: keep)."
        )
    return {
        **head,
        "type": "object",
        "required": [payload.envelope],
        "properties": {**constants, payload.envelope: body},
        "additionalProperties": True,
    }


def payload_schema(names: Names, header: str) -> dict[str, Any]:
    """A JSON Schema (2020-12) of the error payload of ``names``' taxonomy."""
    taxonomy = names.taxonomy
    if not taxonomy.payload.default:
        return _mapped_schema(names, header)
    fallback = names.fallback_text()
    mapping = _mappings(names)
    known = [
        {
            "const": c.code.wire_code,
            "title": c.class_name,
            "description": c.code.meaning,
            **schema_annotations(mapping(c.code)),
        }
        for c in names.codes
    ]
    known += _alias_entries(names)
    rules = details_rules(names)  # a known code's details against its fields
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": f"urn:taxogen:{taxonomy.name}:error-payload:{taxonomy.version}",
        "$comment": header,
        "title": f"{taxonomy.title}: error payload",
        "description": f"An error of the {taxonomy.name} taxonomy, version "
        f"{taxonomy.version}, on the wire.",
        "type": "object",
        "required": ["code", "message", "retryable"],
        "properties": {
            "code": {
                "description": "Machine-readable error code. A well-formed code this "
                "taxonomy "
                f"does not define is valid and is treated as {fallback}.",
                **code_type(names),
                "anyOf": [
                    *known,
                    {
                        "description": "A code this version does not define: treated "
                        f"as {fallback}."
                    },
                ],
            },
            "message": {"description": "Human-readable description.", "type": "string"},
            "retryable": {
                "description": "Whether the caller may retry after this error.",
                "type": "boolean",
            },
            "details": {
                "description": "Context-specific error metadata (null counts as "
                f"absent). {_LIMITS_UNSAID}",
                "type": ["object", "null"],
            },
        },
        "additionalProperties": True,
        **({"allOf": rules} if rules else {}),
    }
