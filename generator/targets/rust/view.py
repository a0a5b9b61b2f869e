"""The Rust target: its view model (the declaration, cheap to import, is target.py).

The crate is ``rust/``: ``Cargo.toml`` (the package is ``crate`` of
``[tool.taxogen.rust]``, see ``options.py``, else ``<name>-errors``;
``rust-version = "1.63"``, Debian's; serde and serde_json its only
dependencies), ``src/lib.rs`` (the ``Code`` enum, a variant per code and
``Unrecognized`` for a code the taxonomy does not know; the ``Domain`` enum; a
constructor per code, an ``is_xxx_error`` and ``in_domain_xxx`` method of
``Error`` per code and domain, a details struct per code that declares fields),
``src/tables.json`` (what the taxonomy says of each code, domain, match and the
payload, read once by the runtime: data, so that rustfmt's layout never depends
on it and 10,000 codes compile as fast as two) and ``src/runtime.rs`` (the code
that is the same for every taxonomy, copied verbatim from ``runtime/``).  The
templates write rustfmt's layout: one item a line, nothing aligned, and an
attribute laid out as rustfmt would (:func:`attribute`).

It runs past 300 lines because the tables document (what the Go target writes
as struct literals) is built here, beside the details structs.
"""

from __future__ import annotations

import dataclasses
import json
import re
from typing import Any

from taxogen.escape import comment_line, header_name
from taxogen.model import DOCS_URL_PLACEHOLDER, Field, Shape, Taxonomy, code_pattern
from taxogen.model import constant_text
from taxogen.model import (
    CASE_PATTERNS,
    EMPTY_OR_WIRE_PATTERN,
    WIRE_PATTERN,
)
from taxogen.naming import NamedCode, Names
from taxogen.targets.base import Options
from taxogen.targets.mapped import class_mappings, code_mapping
from taxogen.targets.rust.escape import rust_comment, rust_str
from taxogen.targets.rust.naming import (
    NestedStruct,
    alias_names,
    code_names,
    crate_name,
    domain_helper,
    domain_variant,
    field_name,
    field_stem,
    nested_structs,
    rust_camel,
    nested_type,
)

__all__ = ["RUST_VERSION", "RustView", "rust_str", "view"]

#: The Rust release the crate declares (Debian's rustc, which CI installs).
RUST_VERSION = "1.63"
_SEMVER = re.compile(r"(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)")


def attribute(indent: int, name: str, items: list[str]) -> str:
    """An outer attribute as rustfmt lays it out: on one line if it fits in 99
    columns (several items only within 70, rustfmt's ``attr_fn_like_width``),
    else an item a line."""
    pad = " " * indent
    line = f"{pad}#[{name}({', '.join(items)})]"
    if len(line) < 100 and (len(items) == 1 or len(", ".join(items)) <= 70):
        return line
    inner = ",\n".join(f"{pad}    {item}" for item in items)
    return f"{pad}#[{name}(\n{inner}\n{pad})]"


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class RustField:
    name: str
    attributes: tuple[str, ...]  # its serde attributes, laid out
    type: str
    required: bool
    doc: str


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class RustDetails:
    name: str
    code: str
    fields: tuple[RustField, ...]


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class RustCode:
    variant: str
    code: str  # for comments
    meaning: str  # for comments
    retryable: bool
    deprecated: str | None  # its #[deprecated] attribute, indented 4
    deprecated_fn: str | None  # the same of its constructor, not indented
    new: str
    is_: str
    details: str | None
    #: Its ``aliases:`` (issue 30 §5): each one's wire spelling (for comments),
    #: Code constant, constructor, helper and details type alias (or None).
    aliases: tuple[tuple[str, str, str, str, str | None], ...] = ()


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class RustView:
    """Everything the Rust templates use, computed once."""

    header: tuple[str, str]
    title: str
    version: str  # a Rust string literal
    crate: str
    crate_version: str
    rust_version: str
    description: str  # a TOML basic string
    domains: tuple[tuple[str, str, str], ...]  # (variant, key, helper)
    codes: tuple[RustCode, ...]
    details: tuple[RustDetails, ...]
    nested: tuple[RustDetails, ...]  # issue 30 §7: code is the member's path
    tables: str


def _rust_field(field: Field, name: str, type_name: str) -> RustField:
    """A struct field of ``field`` (a details field or a member) named ``name``,
    ``type_name`` the struct of its nested object, if typed (issue 30 §7)."""
    base = nested_type(field.shape, type_name)
    attributes = []
    if name.removeprefix("r#") != field.name:
        attributes.append(attribute(4, "serde", [f"rename = {rust_str(field.name)}"]))
    if not field.required:
        optional = ["default", 'skip_serializing_if = "Option::is_none"']
        attributes.append(attribute(4, "serde", optional))
    return RustField(
        name=name,
        attributes=tuple(attributes),
        type=base if field.required else f"Option<{base}>",
        required=field.required,
        doc=rust_comment(field.description),
    )


def _details(named: NamedCode) -> RustDetails:
    names = code_names(named)
    rust = dict(names.fields)
    fields = [
        _rust_field(field, rust[field.name], field_stem(named, field)[0])
        for field in named.code.fields
    ]
    assert names.details is not None
    return RustDetails(
        name=names.details,
        code=rust_comment(named.code.wire_text),
        fields=tuple(fields),
    )


def _nested(nested: NestedStruct) -> RustDetails:
    """The struct of a nested object: ``code`` is its path."""
    fields = tuple(
        _rust_field(m, field_name(m.name), nested.name + rust_camel(m.name))
        for m in nested.fields
    )
    return RustDetails(name=nested.name, code=nested.path, fields=fields)


def _shape(shape: Shape) -> dict[str, Any]:
    out: dict[str, Any] = {"type": shape.type}
    if shape.enum:
        out["enum"] = list(shape.enum)
    if shape.minimum is not None:
        out["minimum"] = shape.minimum
    if shape.maximum is not None:
        out["maximum"] = shape.maximum
    if shape.items is not None and shape.items.fields is not None:
        out["items"] = _shape(shape.items)  # issue 30 §7: typed items
    if shape.fields is not None:
        out["fields"] = [_field(member) for member in shape.fields]
    return out


def _field(field: Field) -> dict[str, Any]:
    out = {"name": field.name, **_shape(field.shape), "required": field.required}
    if field.shape.items is not None:
        out["items"] = _shape(field.shape.items)
    if field.has_default:
        out["default"] = field.default
    if field.has_const:
        # Issue 30 §7: as messages show it; "default" is the value itself.
        out["const"] = constant_text(field.default)
    return out


def _case(taxonomy: Taxonomy) -> str:
    """Which of the runtime's code patterns is the taxonomy's."""
    pattern = code_pattern(taxonomy)
    if pattern is None:
        return "integer"
    if pattern == EMPTY_OR_WIRE_PATTERN.pattern:
        return "empty_or_wire"
    if pattern == WIRE_PATTERN.pattern:
        return "wire"
    for case, compiled in CASE_PATTERNS.items():
        if compiled.pattern == pattern:
            return case
    raise AssertionError(f"no Rust spelling of the code pattern {pattern!r}")


def _payload(taxonomy: Taxonomy) -> dict[str, Any] | None:
    payload = taxonomy.payload
    if payload.default:
        return None
    out: dict[str, Any] = {
        "code": payload.code,
        "message": payload.message,
        "retryable": payload.retryable or "",
        "details": payload.details or "",
        "details_type": payload.details_type,
        "envelope": payload.envelope or "",
        "always_details": payload.always_details,
        "message_required": not payload.optional_message,
        "exact_message": payload.exact_message,
        "constants": [
            [name, json.loads(constant_text(value))]
            for name, value in payload.constants
        ],
        "outside": payload.keeps_outside,
        "status": payload.status or "",
    }
    if payload.problem and taxonomy.docs_url is not None:
        out["uri"] = taxonomy.docs_url.split(DOCS_URL_PLACEHOLDER)
    return out


def _tables(names: Names) -> str:
    """tables.json: every code's spec, the domains, matches, events, payload."""
    taxonomy = names.taxonomy
    domain_index = {d.domain.key: i for i, d in enumerate(names.domains)}
    code_index = {named.code.code: i for i, named in enumerate(names.codes)}
    specs = []
    aliases = []
    for domain in names.domains:
        for named in domain.codes:
            code = named.code
            mapping = code_mapping(taxonomy, code)
            spec: dict[str, Any] = {
                "code": code.wire_text,
                "domain": domain_index[domain.domain.key],
                "retryable": code.retryable,
                "meaning": code.meaning,
            }
            if code.fields:
                spec["fields"] = [_field(f) for f in code.fields]
            if code.message is not None:
                spec["template"] = [
                    {"text": p.text, **({"field": p.field} if p.field else {})}
                    for p in code.message.pieces
                ]
            if mapping.http_status is not None:
                spec["http_status"] = mapping.http_status
            if mapping.grpc_status is not None:
                spec["grpc_status"] = mapping.grpc_status
            if mapping.throttling:
                spec["throttling"] = True
            if mapping.doc_url is not None:
                spec["doc_url"] = mapping.doc_url
            if mapping.retry_after_field is not None:
                spec["retry_after_field"] = mapping.retry_after_field
            specs.append(spec)
            if taxonomy.wire_type == "string":
                aliases += [[a.name, code_index[code.code]] for a in named.aliases]
    classes = class_mappings(names)
    matches = []
    for domain in names.domains:
        base = domain.base_code or names.fallback
        mapping = classes[domain.class_name][1]
        head: dict[str, Any] = {
            "domain": domain_index[domain.domain.key],
            # None: no code to lend its class (issue 30 §3).
            "code": None if base is None else code_index[base.code.code],
            # The unknown code keeps its identity: the domain says fallback:
            # null, or nothing lends it a code.
            "keeps": base is None or domain.domain.keeps_unknown,
            "meaning": (
                domain.domain.title
                if domain.base_code is None
                else domain.base_code.code.meaning
            ),
        }
        if mapping.http_status is not None:
            head["http_status"] = mapping.http_status
        if mapping.grpc_status is not None:
            head["grpc_status"] = mapping.grpc_status
        matches += [{**head, "prefix": p} for p in domain.domain.prefixes]
        matches += [{**head, "low": lo, "high": hi} for lo, hi in domain.domain.ranges]
    parents = [
        None if d.domain.parent is None else domain_index[d.domain.parent]
        for d in names.domains
    ]
    document = {
        "specs": specs,
        "domains": [d.domain.key for d in names.domains],
        "parents": parents,
        # Issue 30 §3: null, an unknown code keeps its identity.
        "fallback": (
            None if names.fallback is None else code_index[names.fallback.code.code]
        ),
        "unknown_meaning": taxonomy.title,
        "unknown_retryable": taxonomy.unknown_retryable,
        "wrap": code_index[names.wrap.code.code],
        "case": _case(taxonomy),
        "events": [[e.type, e.location] for e in taxonomy.events],
        "matches": matches,
        "payload": _payload(taxonomy),
        "aliases": aliases,
    }
    return json.dumps(document, ensure_ascii=False, separators=(",", ":"))


def rust_crate(names: Names, options: Options) -> str:
    """The crate: the option ``crate`` if set, else ``<name>-errors``."""
    crate = options.get("crate")
    return crate if isinstance(crate, str) else crate_name(names.taxonomy.name)


def view(names: Names, options: Options) -> RustView:
    """The Rust view of a named taxonomy."""
    taxonomy = names.taxonomy
    codes = []
    for domain in names.domains:
        for named in domain.codes:
            code = named.code
            rust = code_names(named)
            deprecated = None
            if code.deprecated is not None:
                instead = code.deprecated.replaced_by_wire
                use = f"; use {instead} instead" if instead else ""
                deprecated = code.deprecated.reason + use
            codes.append(
                RustCode(
                    variant=rust.variant,
                    code=rust_comment(code.wire_text).replace("`", "'"),
                    meaning=rust_comment(code.meaning),
                    retryable=code.retryable,
                    deprecated=(
                        None
                        if deprecated is None
                        else attribute(
                            4, "deprecated", [f"note = {rust_str(deprecated)}"]
                        )
                    ),
                    deprecated_fn=(
                        None
                        if deprecated is None
                        else attribute(
                            0, "deprecated", [f"note = {rust_str(deprecated)}"]
                        )
                    ),
                    new=rust.new,
                    is_=rust.is_,
                    details=rust.details,
                    aliases=tuple(
                        (
                            rust_comment(alias.name).replace("`", "'"),
                            other.variant,
                            other.new,
                            other.is_,
                            other.details,
                        )
                        for alias in named.aliases
                        for other in (alias_names(alias, rust),)
                    ),
                )
            )
    structs: dict[str, NestedStruct] = {}  # one per declaration (issue 30 §7)
    for named in names.codes:
        for nested in nested_structs(named):
            structs.setdefault(nested.name, nested)
    semver = _SEMVER.fullmatch(taxonomy.version)
    return RustView(
        header=header_lines_rust(taxonomy.source),
        title=rust_comment(taxonomy.title),
        version=rust_str(taxonomy.version),
        crate=rust_crate(names, options),
        crate_version=taxonomy.version if semver else "0.0.0",
        rust_version=RUST_VERSION,
        description=json.dumps(comment_line(taxonomy.title), ensure_ascii=False),
        domains=tuple(
            (domain_variant(d), rust_comment(d.domain.key), domain_helper(d))
            for d in names.domains
        ),
        codes=tuple(codes),
        details=tuple(_details(c) for c in names.codes if c.details_type),
        nested=tuple(_nested(n) for n in structs.values()),
        tables=_tables(names),
    )


def header_lines_rust(source: str) -> tuple[str, str]:
    """The two lines every generated file opens with."""
    shown = header_name(source)
    return (
        f"Generated by taxogen from {shown}.",
        f"DO NOT EDIT: edit {shown} and regenerate.",
    )
