"""The Go target: its view model (the declaration, cheap to import, is target.py).

The module is ``go/``: ``go.mod`` (the module path is ``module`` of
``[tool.taxogen.go]``, see ``options.py``, else ``<name>-errors``),
``errors.go`` (the package ``<name>errors``: the taxonomy's ``Code`` and
``Domain`` constants, a constructor, an ``IsXxxError`` helper and, where fields
are declared, a details struct per code, the tables, and the public functions
bound to the runtime) and ``internal/taxogen/runtime.go`` and ``values.go`` (the
code that is the same for every taxonomy, copied verbatim from ``runtime/``,
which is real Go source, vetted and tested; ``values.go`` holds details to the
limits and the number model every runtime shares).  The runtime is a package
of its own because a Go file names its package and the generated package's
name varies; ``errors.go`` re-exports its types as aliases, so users never
import it.  Strings reach Go
through :func:`escape.go_str`, comments through :func:`escape.go_comment`, and
the templates write gofmt's layout (no aligned blocks: one declaration a line).

It runs past 300 lines because only Go needs the details structs and the
field specs built here: the other runtimes check details from data.
"""

from __future__ import annotations

import dataclasses
import json

from taxogen.model import (
    DOCS_URL_PLACEHOLDER,
    Field,
    Shape,
    Taxonomy,
    code_pattern,
    constant_text,
)
from taxogen.naming import NamedCode, Names
from taxogen.targets.go.naming import (
    GoObject,
    alias_names,
    code_names,
    domain_const,
    domain_helper,
    go_package,
    object_types,
)
from taxogen.targets.go.escape import go_comment, go_header, go_str
from taxogen.targets.go.reserved import GO_SENTINELS
from taxogen.targets.base import Options
from taxogen.targets.mapped import Mapping, class_mappings, code_mapping

__all__ = [
    "GO_VERSION",
    "GoCode",
    "GoDetails",
    "GoField",
    "GoView",
    "view",
]

#: The Go release the module declares (Debian's golang-go, which CI installs).
GO_VERSION = "1.19"

_SCALARS = {"string": "string", "integer": "int64", "number": "float64"}
_SCALARS["boolean"] = "bool"


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class GoField:
    """A field of a details struct, ready to print."""

    name: str  # the Go field
    key: str  # the details key, a Go string literal
    type: str
    tag: str  # the struct tag, a raw string literal
    doc: str  # its comment line ("" for none)
    pointer: bool  # an optional scalar: *T, nil when absent
    nilable: bool  # a slice or map that is left out when nil
    #: How it becomes JSON data: "" as it is, "object" a nested struct's
    #: fields(), "objects" a slice of nested structs, each its fields().
    convert: str = ""


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class GoDetails:
    """A code's details struct."""

    name: str
    code: str  # the code, for its comment
    fields: tuple[GoField, ...]
    #: A nested object's struct (issue 30 §7): its path, for its comment.
    path: str | None = None


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class GoCode:
    """A code: its constant, constructor, helper and table entry, ready to print."""

    const: str
    literal: str  # the code as a Go string literal
    code: str  # the code, for comments (escaped)
    meaning: str  # for comments (escaped)
    retryable: bool
    deprecated: str | None  # the text of its "Deprecated:" paragraph
    new: str
    is_: str
    details: str | None  # its details struct, if any
    templated: bool  # its message is rendered from a template
    defaults: bool  # an optional field has a default
    spec: str  # its taxogen.Spec literal
    #: Its ``aliases:``: each alias's constant, constructor and helper.
    aliases: tuple[tuple[str, str, str], ...] = ()


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class GoView:
    """Everything the Go templates use, computed once."""

    header: tuple[str, str]
    title: str  # escaped for a comment
    version: str  # a Go string literal
    package: str
    module: str
    go_version: str
    code_pattern: str  # a Go string literal
    domains: tuple[tuple[str, str], ...]  # (constant, literal)
    #: Each domain's helper: (name, key as a comment, the constants of the
    #: domain and of every domain below it).
    helpers: tuple[tuple[str, str, tuple[str, ...]], ...]
    codes: tuple[GoCode, ...]
    details: tuple[GoDetails, ...]
    fallback: str  # constant ("" with fallback: null)
    fallback_doc: str  # how the comments name it
    #: With a domain's fallback: null only: WithUnknownRetryable's argument.
    unknown_rule: str | None
    #: With ``fallback: null``: WithoutFallback's arguments (meaning, rule).
    without_fallback: str | None
    wrap: str  # constant
    events: tuple[tuple[str, str], ...]  # (type, location) as Go string literals
    #: Each prefix or range of a domain's ``match:``, a ``taxogen.Match`` literal.
    matches: tuple[str, ...] = ()
    #: The ``taxogen.PayloadMap`` literal where the payload is not today's.
    payload_map: str | None = None
    #: Each alias spelling a payload may carry (a Go string literal) and the
    #: constant of its code (string wire codes only).
    aliases: tuple[tuple[str, str], ...] = ()
    #: The standard-library packages the sentinels of ``go_is`` need, sorted.
    imports: tuple[str, ...] = ()
    #: Whether a slice of nested structs is written (the objects helper).
    objects: bool = False


def go_module(names: Names, options: Options) -> str:
    """The module path: the option ``module`` if set, else ``<name>-errors``
    (the taxonomy's name with dashes, as the npm package is named)."""
    module = options.get("module")
    default = f"{names.taxonomy.name.replace('_', '-')}-errors"
    return module if isinstance(module, str) else default


def _number(value: int | float) -> str:
    return repr(value) if isinstance(value, float) else str(value)


def _go_type(shape: Shape, struct: str) -> str:
    """The Go type of a value of ``shape``: ``struct`` names the struct of a
    nested typed object (issue 30 §7), or of an array's typed items."""
    if shape.type == "array":
        return "[]" + (_go_type(shape.items, struct) if shape.items else "any")
    if shape.type == "object":
        return "map[string]any" if shape.fields is None else struct
    return _SCALARS[shape.type]


def _typed(shape: Shape) -> bool:
    """Whether values of ``shape`` are a nested struct (or its items are)."""
    if shape.type == "array" and shape.items is not None:
        shape = shape.items
    return shape.type == "object" and shape.fields is not None


def _shape_parts(shape: Shape) -> list[str]:
    parts = []
    if shape.enum:
        parts.append("Enum: []string{" + ", ".join(go_str(e) for e in shape.enum) + "}")
    if shape.minimum is not None:
        parts.append(f"Minimum: taxogen.Float({_number(shape.minimum)})")
    if shape.maximum is not None:
        parts.append(f"Maximum: taxogen.Float({_number(shape.maximum)})")
    return parts


def _members(fields: tuple[Field, ...] | None) -> list[str]:
    """A nested object's members, as the runtime's table holds them."""
    if fields is None:
        return []
    return ["Fields: []taxogen.Field{" + ", ".join(map(_field_spec, fields)) + "}"]


def _field_spec(field: Field) -> str:
    shape = field.shape
    parts = [f"Name: {go_str(field.name)}", f"Type: {go_str(shape.type)}"]
    if field.required:
        parts.append("Required: true")
    parts += _shape_parts(shape)
    if shape.items is not None:
        items = [f"Type: {go_str(shape.items.type)}", *_shape_parts(shape.items)]
        items += _members(shape.items.fields)
        parts.append("Items: &taxogen.Shape{" + ", ".join(items) + "}")
    parts += _members(shape.fields)
    if field.has_default:
        text = json.dumps(field.default, ensure_ascii=False, separators=(",", ":"))
        parts.append(f"Default: {go_str(text)}")
    if field.has_const:
        parts.append(f"Const: {go_str(constant_text(field.default))}")
    return "{" + ", ".join(parts) + "}"


def _spec(named: NamedCode, domain: str, mapping: Mapping) -> str:
    code = named.code
    parts = [
        f"Code: {code_names(named).const}",
        f"Domain: {domain}",
        f"Retryable: {'true' if code.retryable else 'false'}",
        f"Meaning: {go_str(code.meaning)}",
    ]
    if code.fields:
        fields = ", ".join(_field_spec(field) for field in code.fields)
        parts.append("Fields: []taxogen.Field{" + fields + "}")
    if code.message is not None:
        pieces = ", ".join(
            "{"
            + ", ".join(
                [f"Text: {go_str(piece.text)}"]
                + ([f"Field: {go_str(piece.field)}"] if piece.field else [])
            )
            + "}"
            for piece in code.message.pieces
        )
        parts.append("Template: []taxogen.Piece{" + pieces + "}")
    # Only what the taxonomy declares: the zero values say "none".
    if mapping.http_status is not None:
        parts.append(f"HTTPStatus: {mapping.http_status}")
    if mapping.grpc_status is not None:
        parts.append(f"GRPCStatus: {go_str(mapping.grpc_status)}")
    if mapping.throttling:
        parts.append("Throttling: true")
    if mapping.doc_url is not None:
        parts.append(f"DocURL: {go_str(mapping.doc_url)}")
    if mapping.retry_after_field is not None:  # issue 30 §8
        parts.append(f"RetryAfterField: {go_str(mapping.retry_after_field)}")
    if code.go_is:  # issue 30 §6
        parts.append("Is: []error{" + ", ".join(code.go_is) + "}")
    return "{" + ", ".join(parts) + "}"


def _go_field(field: Field, go: str, struct: str) -> GoField:
    """A details field or a nested member as a struct field: ``struct`` names
    the struct of its nested object (or of its array's items)."""
    kind = field.shape.type
    typed = _typed(field.shape)
    # A nested struct is a value, a pointer when optional (nil: absent).
    nilable = kind == "array" or (kind == "object" and not typed)
    pointer = not field.required and not nilable
    omit = "" if field.required else ",omitempty"
    # A struct tag is a raw string: a field name is [A-Za-z][A-Za-z0-9_]*.
    return GoField(
        name=go,
        key=go_str(field.name),
        type=("*" if pointer else "") + _go_type(field.shape, struct),
        tag=f'`json:"{field.name}{omit}"`',
        doc=go_comment(field.description),
        pointer=pointer,
        nilable=nilable and not field.required,
        convert=("objects" if kind == "array" else "object") if typed else "",
    )


def _details(named: NamedCode) -> GoDetails:
    names = code_names(named)
    assert names.details is not None
    structs = {o.path: o.name for o in object_types(named, names.details)}
    fields = [
        _go_field(
            field, go, structs.get(field.name) or structs.get(field.name + "[]", "")
        )
        for field, (_, go) in zip(named.code.fields, names.fields)
    ]
    return GoDetails(
        name=names.details,
        code=go_comment(named.code.wire_text),
        fields=tuple(fields),
    )


def _object(struct: GoObject, structs: dict[str, str]) -> GoDetails:
    """A nested object's struct (issue 30 §7)."""
    fields = []
    for member, go in struct.members:
        path = f"{struct.path}.{member.name}"
        fields.append(
            _go_field(member, go, structs.get(path) or structs.get(path + "[]", ""))
        )
    return GoDetails(
        name=struct.name, code="", fields=tuple(fields), path=go_comment(struct.path)
    )


def _objects(names: Names) -> tuple[GoDetails, ...]:
    """Every nested object's struct, once (a shared field's struct is one), in
    the order of the codes and their fields."""
    seen: set[str] = set()
    out = []
    for named in names.codes:
        found = object_types(named)
        structs = {o.path: o.name for o in found}
        for struct in found:
            if struct.name not in seen:
                seen.add(struct.name)
                out.append(_object(struct, structs))
    return tuple(out)


def _helpers(names: Names) -> tuple[tuple[str, str, tuple[str, ...]], ...]:
    """Each domain's InDomainXxx helper: its name, the domain's key for its
    comment, and the Domain constants it matches (the domain's, then its
    descendants' in taxonomy order)."""
    children: dict[str, list[str]] = {}
    for named in names.domains:
        if named.domain.parent is not None:
            children.setdefault(named.domain.parent, []).append(named.domain.key)
    helpers = []
    for named in names.domains:
        below: set[str] = set()
        todo = [named.domain.key]
        while todo:
            for child in children.get(todo.pop(), []):
                if child not in below:
                    below.add(child)
                    todo.append(child)
        matched = [named] + [d for d in names.domains if d.domain.key in below]
        helpers.append(
            (
                domain_helper(named),
                go_comment(named.domain.key),
                tuple(domain_const(d) for d in matched),
            )
        )
    return tuple(helpers)


def view(names: Names, options: Options) -> GoView:
    """The Go view of a named taxonomy."""
    taxonomy = names.taxonomy
    pattern = code_pattern(taxonomy)
    codes = []
    aliases: list[tuple[str, str]] = []
    for domain in names.domains:
        for named in domain.codes:
            code = named.code
            go = code_names(named)
            deprecated = None
            if code.deprecated is not None:
                instead = code.deprecated.replaced_by_wire
                use = f"; use {instead} instead" if instead else ""
                deprecated = go_comment(code.deprecated.reason + use)
            codes.append(
                GoCode(
                    const=go.const,
                    literal=go_str(code.wire_text),
                    code=go_comment(code.wire_text),
                    meaning=go_comment(code.meaning),
                    retryable=code.retryable,
                    deprecated=deprecated,
                    new=go.new,
                    is_=go.is_,
                    details=go.details,
                    templated=code.message is not None,
                    defaults=any(field.has_default for field in code.fields),
                    spec=_spec(
                        named, domain_const(domain), code_mapping(taxonomy, code)
                    ),
                    aliases=tuple(
                        (other.const, other.new, other.is_)
                        for other in map(alias_names, named.aliases)
                    ),
                )
            )
            if taxonomy.wire_type == "string":  # each spelling decodes as the code
                aliases.extend((go_str(a.name), go.const) for a in named.aliases)
    return GoView(
        header=go_header(taxonomy.source),
        title=go_comment(taxonomy.title),
        version=go_str(taxonomy.version),
        package=go_package(taxonomy.name),
        module=go_module(names, options),
        go_version=GO_VERSION,
        code_pattern=go_str("" if pattern is None else f"^(?:{pattern})$"),
        domains=tuple((domain_const(d), go_str(d.domain.key)) for d in names.domains),
        helpers=_helpers(names),
        codes=tuple(codes),
        details=tuple(_details(c) for c in names.codes if c.details_type)
        + _objects(names),
        fallback=('""' if names.fallback is None else code_names(names.fallback).const),
        fallback_doc=(
            "the code itself (no fallback)"
            if names.fallback is None
            else code_names(names.fallback).const
        ),
        unknown_rule=(
            go_str(taxonomy.unknown_retryable)
            if names.fallback is not None
            and any(d.keeps_unknown for d in taxonomy.domains)
            else None
        ),
        # Issue 30 §3: fallback: null, what an unknown code's error says then.
        without_fallback=(
            f"{go_str(taxonomy.title)}, {go_str(taxonomy.unknown_retryable)}"
            if names.fallback is None
            else None
        ),
        wrap=code_names(names.wrap).const,
        events=tuple((go_str(e.type), go_str(e.location)) for e in taxonomy.events),
        matches=_matches(names),
        payload_map=_payload_map(taxonomy),
        aliases=tuple(aliases),
        imports=tuple(
            sorted({GO_SENTINELS[s] for c in taxonomy.codes for s in c.go_is})
        ),
        objects=any(f.convert == "objects" for d in _objects(names) for f in d.fields)
        or any(
            field.shape.type == "array" and _typed(field.shape)
            for field in (f for c in taxonomy.codes for f in c.fields)
        ),
    )


def _matches(names: Names) -> tuple[str, ...]:
    """Each prefix or range of every domain's ``match:`` as a ``taxogen.Match``:
    the domain, the code its errors are treated as (its ``<domain>_error`` code,
    else the fallback) and its class's statuses."""
    classes = class_mappings(names)
    out = []
    for domain in names.domains:
        named = domain.base_code or names.fallback
        # Issue 30 §3: an unknown code keeps its identity where the domain says
        # fallback: null, or nothing lends it a code ("": no class's code).
        code = '""' if named is None else code_names(named).const
        if named is None or domain.domain.keeps_unknown:
            code += ", Keeps: true"
        mapping = classes[domain.class_name][1]
        statuses = ""
        if mapping.http_status is not None:
            statuses += f", HTTPStatus: {mapping.http_status}"
        if mapping.grpc_status is not None:
            statuses += f", GRPCStatus: {go_str(mapping.grpc_status)}"
        meaning = (
            domain.domain.title
            if domain.base_code is None
            else domain.base_code.code.meaning
        )
        head = f"{{Domain: {domain_const(domain)}, Code: {code}"
        statuses = f", Meaning: {go_str(meaning)}" + statuses
        for prefix in domain.domain.prefixes:
            out.append(f"{head}, Prefix: {go_str(prefix)}{statuses}}}")
        for low, high in domain.domain.ranges:
            out.append(f"{head}, Low: {low}, High: {high}{statuses}}}")
    return tuple(out)


def _payload_map(taxonomy: Taxonomy) -> str | None:
    """The ``taxogen.PayloadMap{...}`` of a payload other than today's (issue 14
    §2; a field not on the wire is ``""``), or None."""
    payload = taxonomy.payload
    if payload.default:
        return None
    parts = [
        f"Code: {go_str(payload.code)}",
        f"Message: {go_str(payload.message)}",
        f"Retryable: {go_str(payload.retryable or '')}",
        f"Details: {go_str(payload.details or '')}",
        f"DetailsType: {go_str(payload.details_type)}",
        f"Envelope: {go_str(payload.envelope or '')}",
        f"AlwaysDetails: {'true' if payload.always_details else 'false'}",
    ]
    if payload.problem and taxonomy.docs_url is not None:
        prefix, suffix = taxonomy.docs_url.split(DOCS_URL_PLACEHOLDER)
        parts.append(f"URI: &[2]string{{{go_str(prefix)}, {go_str(suffix)}}}")
    parts.append(f"MessageRequired: {'false' if payload.optional_message else 'true'}")
    if payload.exact_message:
        parts.append("ExactMessage: true")
    if payload.constants:
        items = ", ".join(
            f"{{Name: {go_str(name)}, Text: {go_str(constant_text(value))}}}"
            for name, value in payload.constants
        )
        parts.append(f"Constants: []taxogen.Constant{{{items}}}")
    if payload.keeps_outside:
        parts.append("Outside: true")
    if payload.status is not None:
        parts.append(f"Status: {go_str(payload.status)}")
    return "taxogen.PayloadMap{" + ", ".join(parts) + "}"
