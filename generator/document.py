"""Document: the validated, named model as one JSON document, and its JSON Schema.

``taxogen model`` prints :func:`document` of a taxonomy: what a plugin or a
user template reads instead of the YAML, with every default applied, every
identifier each built-in target gives a domain or a code, and nothing that
only positions or internals need.  ``taxogen model --schema`` prints
:func:`schema`, derived from the same ``TypedDict`` classes that type the
document here, so the two cannot drift: a key added to a class is in the
schema, and mypy holds :func:`document` to the classes.

Within ``model_format: 1`` the document only grows: a key may be added, never
removed, renamed or given another type, so a consumer must ignore keys it does
not know (the schema allows them).

It is longer than 300 lines because the classes (the schema's source, through
:mod:`taxogen.typeschema`) and the functions that fill them stand together:
a key added to one is seen missing from the other in the same module.
"""

from __future__ import annotations

import json
import typing
from collections.abc import Mapping
from typing import Annotated, Any, Final, Literal, NotRequired, TypedDict

from taxogen.model import Field, Payload, Shape, Taxonomy, json_data
from taxogen.naming import NamedCode, NamedDomain, Names
from taxogen.targets import languages
from taxogen.typeschema import Doc, object_schema

__all__ = ["MODEL_FORMAT", "ModelDocument", "document", "encode", "schema"]

#: The version of the document's shape; only additions happen within it.
MODEL_FORMAT: Final = 1


JSON = Annotated[object, Doc("any JSON value")]
#: A canonical gRPC status name but OK (model.GRPC_STATUSES).
GrpcStatus = Literal[
    "CANCELLED",
    "UNKNOWN",
    "INVALID_ARGUMENT",
    "DEADLINE_EXCEEDED",
    "NOT_FOUND",
    "ALREADY_EXISTS",
    "PERMISSION_DENIED",
    "RESOURCE_EXHAUSTED",
    "FAILED_PRECONDITION",
    "ABORTED",
    "OUT_OF_RANGE",
    "UNIMPLEMENTED",
    "INTERNAL",
    "UNAVAILABLE",
    "DATA_LOSS",
    "UNAUTHENTICATED",
]


class ShapeDoc(TypedDict):
    type: Annotated[
        Literal["string", "integer", "number", "boolean", "array", "object"],
        Doc("the field's type"),
    ]
    enum: Annotated[list[str], Doc("the strings a string may be; empty: any")]
    minimum: Annotated[float | None, Doc("inclusive lower bound of a number")]
    maximum: Annotated[float | None, Doc("inclusive upper bound of a number")]
    items: Annotated[ShapeDoc | None, Doc("an array's item shape; null: any")]
    fields: NotRequired[
        Annotated[
            list[FieldDoc],
            Doc("a nested object's members (`fields:`); absent: any object"),
        ]
    ]


class FieldDoc(ShapeDoc):
    name: Annotated[str, Doc("the key in details, an identifier in every language")]
    required: bool
    description: str
    default: NotRequired[Annotated[JSON, Doc("an optional field's default")]]
    domain: Annotated[
        str | None,
        Doc("the domain that declares it for its codes and child domains'; null: code"),
    ]
    const: NotRequired[
        Annotated[
            JSON,
            Doc("the value fixed for the code (issue 30 §7), also its default"),
        ]
    ]
    top: NotRequired[
        Annotated[
            Literal[True],
            Doc("the top-level details: declares it, for every code (issue 30 §7)"),
        ]
    ]


class PieceDoc(TypedDict):
    text: Annotated[str, Doc("literal text, braces unescaped")]
    field: Annotated[str | None, Doc("the field rendered after the text, if any")]


class TemplateDoc(TypedDict):
    text: Annotated[str, Doc("the template as written, {{ and }} included")]
    pieces: list[PieceDoc]


class DeprecationDoc(TypedDict):
    reason: str
    replaced_by: str | None
    since: Annotated[str | None, Doc("the taxonomy version that deprecated it")]


def _languages(name: str, kind: str) -> Any:
    """A ``TypedDict`` named ``name`` with a key per target that names things
    (:func:`taxogen.targets.languages`), of that target's ``kind`` type."""
    fields = {target: getattr(lang, kind) for target, lang in languages()}
    return TypedDict(name, fields)  # type: ignore[operator]


# Built from the targets (each one's names, in planning order), so mypy sees a
# mapping: the classes below are what the schema is derived from.
if typing.TYPE_CHECKING:
    DomainLanguages = dict[str, Any]
    CodeLanguages = dict[str, Any]
    PackageNames = dict[str, Any]
else:
    DomainLanguages = _languages("DomainLanguages", "domain_type")
    CodeLanguages = _languages("CodeLanguages", "code_type")
    PackageNames = _languages("PackageNames", "package_type")


class MatchDoc(TypedDict):
    prefixes: Annotated[
        list[str], Doc("string codes starting with one of these (the longest wins)")
    ]
    ranges: Annotated[
        list[list[int]],
        Doc("integer codes within one of these [low, high] (the innermost wins)"),
    ]


class DomainDoc(TypedDict):
    id: Annotated[str, Doc("the domain's key")]
    parent: Annotated[
        str | None,
        Doc("the domain whose class its class extends (`parent:`); null: the base"),
    ]
    match: Annotated[
        MatchDoc,
        Doc("the unknown wire codes that fall back to it (`match:`)"),
    ]
    title: str
    description: str
    fields: Annotated[list[FieldDoc], Doc("details fields all its codes share")]
    codes: Annotated[list[str], Doc("its live codes' ids, in file order")]
    base_code: Annotated[str | None, Doc("its <domain>_error code, whose class it is")]
    names: Annotated[DomainLanguages, Doc("its identifiers in each language")]
    http_status: Annotated[
        int | None, Doc("the HTTP status its codes inherit (its own, else the top's)")
    ]
    http_statuses: Annotated[
        list[int], Doc("every status its codes inherit, the default first")
    ]
    grpc_status: Annotated[
        GrpcStatus | None, Doc("the gRPC status its codes inherit, likewise")
    ]
    python_bases: NotRequired[
        Annotated[
            list[str],
            Doc(
                "the builtin exceptions its class names among its bases "
                "(`python_bases:`), its codes' classes inheriting them; absent: none"
            ),
        ]
    ]


class CodeDoc(TypedDict):
    id: Annotated[str, Doc("the code's identifier (its key in the taxonomy)")]
    wire: Annotated[
        str | int, Doc("the code on the wire: an integer where wire_type is integer")
    ]
    domain: str
    retryable: bool
    meaning: str
    since: Annotated[str | None, Doc("the taxonomy version that added it")]
    deprecated: DeprecationDoc | None
    fields: Annotated[list[FieldDoc], Doc("every declared field, the domain's first")]
    message: Annotated[TemplateDoc | None, Doc("its message template")]
    names: Annotated[CodeLanguages, Doc("its identifiers in each language")]
    http_status: Annotated[
        int | None, Doc("its HTTP status: its own, else its domain's, else the top's")
    ]
    http_statuses: Annotated[
        list[int],
        Doc("every HTTP status it may take, likewise: the default first, [] for none"),
    ]
    grpc_status: Annotated[GrpcStatus | None, Doc("its gRPC status, likewise")]
    throttling: Annotated[bool, Doc("callers back off before retrying it")]
    retry_after: Annotated[
        str | None,
        Doc(
            "the details field that says when to retry, in seconds (`retry_after:`):"
            " its own, else its domain's or a parent's, else the top's"
        ),
    ]
    doc_url: Annotated[str | None, Doc("its documentation link, from docs_url")]
    aliases: NotRequired[
        Annotated[
            list[str],
            Doc(
                "its other names (`aliases:`), each exported as an alias of its "
                "member and class (and, with string codes, read on the wire as "
                "it); absent: none"
            ),
        ]
    ]
    python_bases: NotRequired[
        Annotated[
            list[str],
            Doc(
                "the builtin exceptions its Python class names among its bases "
                "(`python_bases:`, issue 30 §6; the class also has its domain's "
                "and the top level's through its parents); absent: none"
            ),
        ]
    ]
    go_is: NotRequired[
        Annotated[
            list[str],
            Doc(
                "the Go standard library's sentinel errors its Go error answers "
                "errors.Is for (`go_is:`); absent: none"
            ),
        ]
    ]


class RemovedDoc(TypedDict):
    id: str
    domain: str
    since: Annotated[str, Doc("the taxonomy version that removed it")]
    reason: str
    meaning: str


class EventDoc(TypedDict):
    type: str
    location: Annotated[str, Doc("the dotted path of the error in the event")]


class ExampleDoc(TypedDict):
    code: str
    message: str
    details: JSON


class DocsDoc(TypedDict):
    status: str
    purpose: str
    payload: str
    example: ExampleDoc | None
    fields: Annotated[dict[str, str], Doc("payload field → description")]
    taxonomy: str
    retryability: str
    propagation: str
    notes: list[str]
    diagram: Annotated[bool, Doc("whether the page draws the class hierarchy")]


class PayloadDoc(TypedDict):
    preset: Literal["harmovela", "json-rpc", "problem"]
    code: Annotated[str, Doc("the member holding the code")]
    message: Annotated[str, Doc("the member holding the message")]
    retryable: Annotated[
        str | None, Doc("the member holding retryable; null: not on the wire")
    ]
    details: Annotated[
        str | None,
        Doc('the member holding details; null: none, "*": every other member'),
    ]
    details_type: Literal["object", "array", "any"]
    envelope: Annotated[
        str | None, Doc("the member of the body the error object sits under")
    ]
    status: Annotated[
        str | None, Doc("the member holding each error's HTTP status; null: none")
    ]
    message_required: NotRequired[
        Annotated[bool, Doc("as given (issue 30 §1); absent: the preset's")]
    ]
    constants: NotRequired[
        Annotated[
            dict[str, JSON],
            Doc("member → the value every payload carries there (issue 30 §1)"),
        ]
    ]
    outside: NotRequired[
        Annotated[
            Literal["keep"],
            Doc("the members beside the envelope are kept (issue 30 §1)"),
        ]
    ]


class ModelDocument(TypedDict):
    model_format: Annotated[Literal[1], Doc("only additions within one format")]
    source: Annotated[str, Doc("the file the generated files say they come from")]
    name: str
    title: str
    version: str
    base: str
    fallback: Annotated[
        str | None, Doc("null: no code is borrowed, unknown ones keep theirs")
    ]
    #: Issue 30 §3, only with fallback null.
    unknown_retryable: NotRequired[
        Annotated[
            Literal["false", "true", "by_status"],
            Doc("whether an unknown code is retryable where its payload does not say"),
        ]
    ]
    wrap: str
    code_case: Literal["lower_snake", "upper_snake", "as_written"]
    python_layout: Literal["auto", "module", "lazy"]
    wire_type: Literal["string", "integer"]
    class_suffix: Annotated[str, Doc("what a derived class name ends with")]
    names: PackageNames
    domains: list[DomainDoc]
    codes: list[CodeDoc]
    removed: Annotated[list[RemovedDoc], Doc("tombstones: codes no longer live")]
    events: list[EventDoc]
    docs: DocsDoc
    http_status: Annotated[int | None, Doc("the HTTP status of codes giving none")]
    http_statuses: Annotated[
        list[int], Doc("every HTTP status of codes giving none, the default first")
    ]
    grpc_status: Annotated[
        GrpcStatus | None, Doc("the gRPC status of codes giving none")
    ]
    docs_url: Annotated[
        str | None, Doc("each code's docs link, {code} standing for its wire code")
    ]
    payload: Annotated[PayloadDoc, Doc("the payload the wire carries (issue 14 §2)")]
    fields: NotRequired[
        Annotated[
            list[FieldDoc],
            Doc("details fields every code carries (issue 30 §7); absent: none"),
        ]
    ]
    python_bases: NotRequired[
        Annotated[
            list[str],
            Doc(
                "the builtin exceptions the base class names among its bases "
                "(`python_bases:`), every class inheriting them; absent: none"
            ),
        ]
    ]


# ---------------------------------------------------------------- the document


def _shape(shape: Shape) -> ShapeDoc:
    doc: ShapeDoc = {
        "type": typing.cast(Any, shape.type),
        "enum": list(shape.enum),
        "minimum": shape.minimum,
        "maximum": shape.maximum,
        "items": None if shape.items is None else _shape(shape.items),
    }
    if shape.fields is not None:
        doc["fields"] = [_field(member) for member in shape.fields]
    return doc


def _field(field: Field) -> FieldDoc:
    shape = _shape(field.shape)
    doc: FieldDoc = {
        "type": shape["type"],
        "enum": shape["enum"],
        "minimum": shape["minimum"],
        "maximum": shape["maximum"],
        "items": shape["items"],
        "name": field.name,
        "required": field.required,
        "description": field.description,
        "domain": field.domain,
    }
    if "fields" in shape:
        doc["fields"] = shape["fields"]
    if field.has_default:
        doc["default"] = json_data(field.default)
    if field.top:
        doc["top"] = True
    if field.has_const:
        doc["const"] = json_data(field.default)
    return doc


def _code(named: NamedCode, taxonomy: Taxonomy) -> CodeDoc:
    code = named.code
    mapped = taxonomy.mapped(code)

    deprecated = code.deprecated
    message = code.message
    doc: CodeDoc = {
        "id": code.code,
        "wire": code.wire_code,
        "domain": code.domain,
        "retryable": code.retryable,
        "meaning": code.meaning,
        "since": code.since,
        "deprecated": (
            None
            if deprecated is None
            else {
                "reason": deprecated.reason,
                "replaced_by": deprecated.replaced_by,
                "since": deprecated.since,
            }
        ),
        "fields": [_field(field) for field in code.fields],
        "message": (
            None
            if message is None
            else {
                "text": message.text,
                "pieces": [{"text": p.text, "field": p.field} for p in message.pieces],
            }
        ),
        "names": {target: lang.code(named) for target, lang in languages()},
        "http_status": mapped.http_status,
        "http_statuses": list(mapped.http_statuses),
        "grpc_status": typing.cast(Any, mapped.grpc_status),
        "throttling": code.throttling,
        "retry_after": taxonomy.retry_field(code),
        "doc_url": taxonomy.doc_url(code),
    }
    if code.aliases:
        doc["aliases"] = list(code.aliases)
    if code.python_bases:
        doc["python_bases"] = list(code.python_bases)
    if code.go_is:
        doc["go_is"] = list(code.go_is)
    return doc


def _domain(named: NamedDomain, taxonomy: Taxonomy) -> DomainDoc:
    domain = named.domain
    mapped = taxonomy.mapped(domain)

    base = named.base_code
    doc: DomainDoc = {
        "id": domain.key,
        "parent": domain.parent,
        "match": {
            "prefixes": list(domain.prefixes),
            "ranges": [[low, high] for low, high in domain.ranges],
        },
        "title": domain.title,
        "description": domain.description,
        "fields": [_field(field) for field in domain.fields],
        "codes": [code.code for code in domain.codes],
        "base_code": None if base is None else base.code.code,
        "names": {target: lang.domain(named) for target, lang in languages()},
        "http_status": mapped.http_status,
        "http_statuses": list(mapped.http_statuses),
        "grpc_status": typing.cast(Any, mapped.grpc_status),
    }
    if domain.python_bases:
        doc["python_bases"] = list(domain.python_bases)
    return doc


def document(
    names: Names, options: Mapping[str, Mapping[str, object]] | None = None
) -> ModelDocument:
    """The model of ``names`` as the document ``taxogen model`` prints; the
    targets' ``options`` (by target name) rename what they name (the npm
    package, the Python distribution)."""
    taxonomy: Taxonomy = names.taxonomy
    given = options or {}
    docs = taxonomy.docs
    example = docs.example
    out: ModelDocument = {
        "model_format": MODEL_FORMAT,
        "source": taxonomy.source,
        "name": taxonomy.name,
        "title": taxonomy.title,
        "version": taxonomy.version,
        "base": taxonomy.base,
        "fallback": taxonomy.fallback,
        "wrap": taxonomy.wrap,
        "code_case": typing.cast(Any, taxonomy.code_case),
        "python_layout": typing.cast(Any, taxonomy.python_layout),
        "wire_type": typing.cast(Any, taxonomy.wire_type),
        "class_suffix": taxonomy.class_suffix,
        "names": {
            target: {**lang.package(names), **lang.renamed(given.get(target, {}))}
            for target, lang in languages()
        },
        "domains": [_domain(domain, taxonomy) for domain in names.domains],
        "codes": [_code(code, taxonomy) for code in names.codes],
        "removed": [
            {
                "id": tomb.code,
                "domain": tomb.domain,
                "since": tomb.since,
                "reason": tomb.reason,
                "meaning": tomb.meaning,
            }
            for tomb in taxonomy.removed
        ],
        "events": [{"type": e.type, "location": e.location} for e in taxonomy.events],
        "docs": {
            "status": docs.status,
            "purpose": docs.purpose,
            "payload": docs.payload,
            "example": (
                None
                if example is None
                else {
                    "code": example.code,
                    "message": example.message,
                    "details": json_data(example.details),
                }
            ),
            "fields": dict(docs.fields),
            "taxonomy": docs.taxonomy,
            "retryability": docs.retryability,
            "propagation": docs.propagation,
            "notes": list(docs.notes),
            "diagram": docs.diagram,
        },
        "http_status": taxonomy.http_status,
        "http_statuses": list(
            taxonomy.http_statuses
            or (() if taxonomy.http_status is None else (taxonomy.http_status,))
        ),
        "grpc_status": typing.cast(Any, taxonomy.grpc_status),
        "docs_url": taxonomy.docs_url,
        "payload": _payload(taxonomy.payload),
    }
    if taxonomy.fallback is None:
        out["unknown_retryable"] = typing.cast(Any, taxonomy.unknown_retryable)
    if taxonomy.fields:
        out["fields"] = [_field(field) for field in taxonomy.fields]
    if taxonomy.python_bases:
        out["python_bases"] = list(taxonomy.python_bases)
    return out


def _payload(payload: Payload) -> PayloadDoc:
    """The payload mapping; issue 30's parts only where the taxonomy gives them."""
    out: PayloadDoc = {
        "preset": typing.cast(Any, payload.preset),
        "code": payload.code,
        "message": payload.message,
        "retryable": payload.retryable,
        "details": payload.details,
        "details_type": typing.cast(Any, payload.details_type),
        "envelope": payload.envelope,
        "status": payload.status,
    }
    if payload.message_required is not None:
        out["message_required"] = payload.message_required
    if payload.constants:
        out["constants"] = {name: json_data(value) for name, value in payload.constants}
    if payload.keeps_outside:
        out["outside"] = "keep"
    return out


# ------------------------------------------------------------------ the schema


def _types(*kinds: str) -> tuple[Any, ...]:
    """The targets' name types of these ``kinds``, each once, in planning order."""
    found = [getattr(lang, kind) for _, lang in languages() for kind in kinds]
    return tuple(dict.fromkeys(found))


def schema() -> dict[str, Any]:
    """The JSON Schema (2020-12) of :func:`document`'s output.

    Every class above is a definition; unknown keys are allowed everywhere, as
    later releases of ``model_format: 1`` may add keys.
    """
    classes = (
        ShapeDoc,
        FieldDoc,
        PieceDoc,
        TemplateDoc,
        DeprecationDoc,
        *_types("domain_type", "code_type"),
        DomainLanguages,
        CodeLanguages,
        MatchDoc,
        DomainDoc,
        CodeDoc,
        RemovedDoc,
        EventDoc,
        ExampleDoc,
        DocsDoc,
        *_types("package_type"),
        PackageNames,
        PayloadDoc,
    )
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": f"https://taxogen.invalid/model-format-{MODEL_FORMAT}.schema.json",
        "title": "taxogen model document",
        "description": (
            "What `taxogen model` prints: a validated, named taxonomy. Within one "
            "model_format only keys are added, so unknown keys are allowed."
        ),
        **object_schema(ModelDocument),
        "$defs": {cls.__name__: object_schema(cls) for cls in classes},
    }


def encode(value: object) -> bytes:
    """The document (or the schema) as ``taxogen model`` prints it: UTF-8 JSON,
    indented by two spaces, keys in the classes' order, one final newline."""
    return (json.dumps(value, indent=2, ensure_ascii=False) + "\n").encode("utf-8")
