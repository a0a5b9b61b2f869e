"""The openapi target: the error catalogue as an OpenAPI 3.1 components document.

An API description written by hand (or by another generator) can ``$ref`` the
taxonomy's errors instead of restating them: ``components.schemas`` holds one
schema per code (its payload, the code a constant, its declared details typed,
its meaning and retryability said), one for the payload of any code (an unknown
code included, as the fallback rule requires), and the union of the known
codes' schemas, discriminated on ``code`` (``<name>.Payload`` and
``<name>.KnownError``, names no class can have).  The document has no paths: it is a
library of components.  Like the contract, it is data computed from the model
(:func:`document`), and off by default: ``targets`` names it when wanted.
"""

from __future__ import annotations

import http
import json
from typing import Any

from taxogen.model import json_data
from taxogen.naming import NamedCode, Names
from taxogen.targets.base import Target, header_lines
from taxogen.targets.contract.schema import code_type, field_schema, payload_schema
from taxogen.targets.mapped import code_mapping, schema_annotations, status_schema

__all__ = ["PATH", "TARGET", "TARGETS", "document", "files"]

PATH = "openapi/errors.openapi.json"
#: The OpenAPI version written, the first with JSON Schema 2020-12 (``const``,
#: ``type`` lists) inside.
OPENAPI = "3.1.0"


def _ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/components/schemas/{name}"}


def _payload_properties(names: Names) -> dict[str, Any]:
    return {
        "code": {"description": "Machine-readable error code.", **code_type(names)},
        "message": {"description": "Human-readable description.", "type": "string"},
        "retryable": {
            "description": "Whether the caller may retry after this error.",
            "type": "boolean",
        },
        "details": {
            "description": "Context-specific error metadata.",
            "type": ["object", "null"],
        },
    }


def _mapped_body(named: NamedCode, names: Names) -> dict[str, Any]:
    """A code's payload under a payload mapping (issue 14 §2): the code a
    constant in its member (a problem's type URI), the others as the mapping
    names them, the envelope around."""
    taxonomy = names.taxonomy
    payload = taxonomy.payload
    code = named.code
    fields = code.fields
    required_fields = [f.name for f in fields if f.required]
    wire: Any = code.wire_code
    if payload.problem:
        wire = taxonomy.doc_url(code)
    constants = {name: {"const": json_data(value)} for name, value in payload.constants}
    # The constants are the payload's own members: beside the envelope, if any.
    properties: dict[str, Any] = {} if payload.envelope else dict(constants)
    properties[payload.code] = {"const": wire}
    required = [payload.code]  # a constant may be absent (written always)
    if payload.problem:
        status = code_mapping(taxonomy, code).http_status
        properties["title"] = {"type": "string", "default": code.meaning}
        properties["status"] = {"type": "integer", "default": status}
    properties[payload.message] = {"type": "string"}
    if not payload.optional_message:
        required.append(payload.message)
    if payload.retryable is not None:
        properties[payload.retryable] = {"type": "boolean", "default": code.retryable}
        required.append(payload.retryable)
    if payload.status is not None:
        properties[payload.status] = status_schema(code_mapping(taxonomy, code))
    if payload.rest:
        properties.update((f.name, field_schema(f)) for f in fields)
        required += required_fields
    elif payload.details is not None:
        details: dict[str, Any]
        if payload.details_type == "object":
            details = {"type": "object" if required_fields else ["object", "null"]}
            if fields:
                details["properties"] = {f.name: field_schema(f) for f in fields}
            if required_fields:
                details["required"] = required_fields
                required.append(payload.details)
        elif payload.details_type == "array":
            details = {"type": ["array", "null"]}
        else:
            details = {}
        properties[payload.details] = details
    body = {"type": "object", "required": required, "properties": properties}
    if payload.envelope is None:
        return body
    return {
        "type": "object",
        "required": [payload.envelope],
        "properties": {**constants, payload.envelope: body},
    }


def _code_schema(named: NamedCode, names: Names) -> dict[str, Any]:
    code = named.code
    fields = code.fields
    required = [f.name for f in fields if f.required]
    details: dict[str, Any] = {"type": "object" if required else ["object", "null"]}
    if fields:
        details["properties"] = {f.name: field_schema(f) for f in fields}
    if required:
        details["required"] = required
    retry = "retryable" if code.retryable else "not retryable"
    schema: dict[str, Any] = {
        "title": named.class_name,
        "description": f"{code.meaning} (`{code.wire_text}`, {retry}).",
        "type": "object",
        "required": [
            "code",
            "message",
            "retryable",
            *(["details"] if required else []),
        ],
        "properties": {
            "code": {"const": code.wire_code},
            "message": {"type": "string"},
            "retryable": {"type": "boolean", "default": code.retryable},
            "details": details,
        },
    }
    if not names.taxonomy.payload.default:
        schema.update(_mapped_body(named, names))
    if code.deprecated is not None:
        schema["deprecated"] = True
    if code.message is not None:
        schema["x-message-template"] = code.message.text
    mapping = code_mapping(names.taxonomy, code)
    schema.update(schema_annotations(mapping))
    doc_url = schema.pop("x-doc-url", None)
    if doc_url is not None:
        schema["externalDocs"] = {"description": f"`{code.code}`", "url": doc_url}
    return schema


def _discriminated(names: Names) -> bool:
    """Whether a union can name its discriminator: a top-level ``code`` member
    holding string codes (a discriminator's values are strings)."""
    payload = names.taxonomy.payload
    return names.taxonomy.wire_type == "string" and (
        payload.default or (payload.envelope is None and not payload.problem)
    )


def _union(codes: list[NamedCode], names: Names) -> dict[str, Any]:
    """The schema of a payload of any of ``codes``: one's, or their union."""
    if len(codes) == 1:
        return _ref(codes[0].class_name)
    union: dict[str, Any] = {"oneOf": [_ref(c.class_name) for c in codes]}
    if _discriminated(names):
        union["discriminator"] = {
            "propertyName": names.taxonomy.payload.code,
            "mapping": {
                c.code.wire_text: f"#/components/schemas/{c.class_name}" for c in codes
            },
        }
    return union


def _responses(names: Names) -> dict[str, Any]:
    """One response per HTTP status some code maps to, in numeric order: its
    body is a payload of one of those codes."""
    by_status: dict[int, list[NamedCode]] = {}
    for named in names.codes:
        mapping = code_mapping(names.taxonomy, named.code)
        # A code that may take several statuses is a body of each of them.
        for status in mapping.http_statuses or (mapping.http_status,):
            if status is not None:
                by_status.setdefault(status, []).append(named)
    responses = {}
    # RFC 9457: a problem document's own media type.
    media = (
        "application/problem+json"
        if names.taxonomy.payload.problem
        else "application/json"
    )
    for status, codes in sorted(by_status.items()):
        try:
            reason = http.HTTPStatus(status).phrase
        except ValueError:
            reason = f"HTTP status {status}"
        listed = ", ".join(f"`{c.code.code}`" for c in codes)
        which = "code" if len(codes) == 1 else "one of the codes"
        responses[f"{names.taxonomy.name}.HTTP{status}"] = {
            "description": f"{reason}: an error of {which} {listed}.",
            "content": {media: {"schema": _union(codes, names)}},
        }
    return responses


def document(names: Names) -> dict[str, Any]:
    """The OpenAPI 3.1 document of ``names``' taxonomy."""
    taxonomy = names.taxonomy
    fallback = names.fallback_text("`")
    # A dot is no part of any class name: these two cannot clash with a code's.
    payload, known = f"{taxonomy.name}.Payload", f"{taxonomy.name}.KnownError"
    any_payload: dict[str, Any] = {
        "title": f"{taxonomy.title}: error payload",
        "description": "The payload of any error of this taxonomy: a well-formed "
        f"code it does not define is valid and is treated as {fallback}.",
        "type": "object",
        "required": ["code", "message", "retryable"],
        "properties": _payload_properties(names),
    }
    if not taxonomy.payload.default:  # issue 14 §2: the contract's schema
        mapped = payload_schema(names, "")
        for key in ("$schema", "$id", "$comment", "title", "description"):
            mapped.pop(key, None)
        any_payload = {**any_payload, **mapped}
        if "required" not in mapped:
            any_payload.pop("required")
    schemas: dict[str, Any] = {
        payload: any_payload,
        known: {
            "title": f"{taxonomy.title}: a known error",
            "description": "One of the codes this version defines, by its code.",
            "oneOf": [_ref(c.class_name) for c in names.codes],
            # A discriminator's values are strings: integer codes go without.
            **(
                {
                    "discriminator": {
                        "propertyName": taxonomy.payload.code,
                        "mapping": {
                            c.code.wire_text: f"#/components/schemas/{c.class_name}"
                            for c in names.codes
                        },
                    }
                }
                if _discriminated(names)
                else {}
            ),
        },
    }
    for named in names.codes:
        schemas[named.class_name] = _code_schema(named, names)
    components: dict[str, Any] = {"schemas": schemas}
    responses = _responses(names)
    if responses:
        components["responses"] = responses
    return {
        "openapi": OPENAPI,
        "info": {
            "title": f"{taxonomy.title}: errors",
            "version": taxonomy.version,
            "description": " ".join(header_lines(taxonomy.source)),
        },
        "paths": {},
        "components": components,
    }


def files(names: Names) -> dict[str, bytes]:
    text = json.dumps(document(names), indent=2, ensure_ascii=False) + "\n"
    return {PATH: text.encode("utf-8")}


TARGET = Target(name="openapi", compute=files, computed_paths=(PATH,))
#: This folder's targets (see target.toml).
TARGETS = (TARGET,)
