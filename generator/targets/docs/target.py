"""The docs target: its view model (the tables, the example, the changelog).

``docs/errors.md`` documents the payload's fields, every domain with its codes
and retryability (its ``<prefix>_*`` only where every code carries it; the HTTP
status, gRPC status and documentation link of its codes in columns of their own,
only where some code of the domain has one), each code's details fields and
message template, the events, and a **Changes** table built from ``since``,
``deprecated`` and ``removed``.  Plain text (titles, meanings, descriptions)
reaches the page through the Markdown escapers of :mod:`taxogen.escape`, so
it renders as exactly itself; the ``docs`` entries are Markdown and are
rendered as such.

It is longer than 300 lines because the page's view is a handful of small
frozen classes (a row, a domain, a change, a field) with the functions filling
each, which no other target uses.
"""

from __future__ import annotations

import dataclasses
import functools
import html
import json
import urllib.parse
from typing import Any

from taxogen import escape
from taxogen import model
from taxogen.model import (
    PAYLOAD_FIELDS,
    Docs,
    Event,
    Shape,
    Taxonomy,
    constant_text,
    json_data,
    version_key,
)
from taxogen.naming import NamedCode, NamedDomain, Names, domain_prefix
from taxogen.targets.base import Options, Target, Template, header_lines
from taxogen.targets.docs.pages import CodePage, each_page, index_once, pages
from taxogen.targets.mapped import code_mapping
from taxogen.targets.contract.mapped_vectors import wire_input

__all__ = [
    "TARGET",
    "TARGETS",
    "Change",
    "CodeDetails",
    "CodeRow",
    "DocsView",
    "DomainView",
    "Field",
    "shape_text",
    "view",
]


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class Change:
    """A row of the changelog: a code added, deprecated or removed in a version."""

    version: str  # "—" for a deprecation that records no version
    what: str  # "added", "deprecated" or "removed"
    code: str
    text: str
    replaced_by: str | None


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class Field:
    """A row of the payload table."""

    name: str
    type: str
    required: bool
    description: str
    default: str | None = None  # the default as JSON, for a details field
    const: bool = False  # the default is the field's constant (issue 30 §7)
    markdown: bool = False  # the description is Markdown (a ``docs`` entry)


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class CodeDetails:
    """A code's details fields and message template, as the page lists them."""

    code: str
    template: str | None  # as written, ``{{`` and ``}}`` included
    fields: tuple[Field, ...]


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class CodeRow:
    """A row of a domain's table: the code, and what it maps to ("" for none)."""

    named: NamedCode
    throttling: bool
    http_status: str
    grpc_status: str
    doc_url: str
    #: Markdown: its wire code, which leads the row; its key where that differs
    #: (else ""); the wire code of the code that replaces it (else "").
    wire: str = ""
    key: str = ""
    replaced_by: str = ""
    #: Markdown: its ``aliases:``, each a code span, joined ("" for none).
    aliases: str = ""
    #: The id of its row (HTML-escaped): what its docs link points at.
    anchor: str = ""
    #: Markdown: the builtins its Python class names (``python_bases``) and the
    #: Go sentinels it answers (``go_is``), issue 30 §6 ("" for none).
    native: str = ""


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class DomainView:
    """A domain, its codes and the details of those that declare any."""

    named: NamedDomain
    prefix: str | None  # ``llm_*``, only when every code of the domain has it
    details: tuple[CodeDetails, ...]
    rows: tuple[CodeRow, ...]  # its codes, in source order
    #: The optional columns of its table: each only where some code has a value.
    http_column: bool
    grpc_column: bool
    docs_column: bool
    #: Markdown: the builtins its classes extend (its ``python_bases``), "" for none.
    native: str = ""
    native_column: bool = False
    #: Its parent domain (``parent:``), and the domains whose parent it is.
    parent: NamedDomain | None = None
    children: tuple[NamedDomain, ...] = ()
    #: Its ``match:``, each prefix or range as Markdown (`` `23` ``, ``-32099 to
    #: -32000``).
    matches: tuple[str, ...] = ()
    #: The details fields it declares for its codes and its child domains',
    #: listed once (issue 30 §7).
    shared: tuple[Field, ...] = ()


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class DocsView:
    """Everything the docs template uses, computed once."""

    header: str
    title: str
    version: str
    docs: Docs
    example: str | None  # the example payload as indented JSON
    fields: tuple[Field, ...]
    domains: tuple[DomainView, ...]
    events: tuple[Event, ...]
    fallback: NamedCode | None  # None: fallback: null (issue 30 §3)
    wrap: NamedCode
    changes: tuple[Change, ...]  # newest first
    #: Whether the code tables show a key column: some key differs from its wire
    #: code (``wire:`` given).  The wire code leads every row either way.
    wire_column: bool
    #: Markdown paragraphs opening the taxonomy's section: the builtins every
    #: class extends (top-level ``python_bases``), then ``docs.taxonomy``.
    taxonomy_intro: tuple[str, ...] = ()
    #: Markdown: the fallback and the wrap code, as the closing sentence names them.
    fallback_label: str = ""
    wrap_label: str = ""
    #: The Mermaid class diagram's lines (empty: none is drawn), and whether the
    #: codes were left out of it for being too many to draw.
    diagram: tuple[str, ...] = ()
    diagram_without_codes: bool = False
    #: The top-level details every code carries, listed once (issue 30 §7).
    shared: tuple[Field, ...] = ()
    #: Under ``docs: {layout: pages}``, every code's own page (pages.py).
    pages: tuple[CodePage, ...] = ()


#: The most edges Mermaid draws by default (its ``maxEdges``): above it, the
#: diagram shows the domains only.
MERMAID_MAX_EDGES = 500


def _diagram(names: Names) -> tuple[tuple[str, ...], bool]:
    """The class diagram (root → domains → codes) where some domain has a parent
    and ``docs.diagram`` is not false, and whether it leaves the codes out."""
    taxonomy = names.taxonomy
    if not taxonomy.nested or not taxonomy.docs.diagram:
        return (), False
    domains = [f"  {d.parent_class} <|-- {d.class_name}" for d in names.class_domains]
    codes = [
        f"  {c.parent} <|-- {c.class_name}"
        for d in names.class_domains
        for c in d.class_order
        if not c.is_domain_base
    ]
    left_out = len(domains) + len(codes) > MERMAID_MAX_EDGES
    return ("classDiagram", *domains, *(() if left_out else codes)), left_out


def _json_text(value: object) -> str:
    return json.dumps(value, ensure_ascii=False)


def shape_text(shape: Shape) -> str:
    """A field's type for people: ``integer, minimum 0``, ``one of "a", "b"``."""
    if shape.enum:
        text = "one of " + ", ".join(map(_json_text, shape.enum))
    elif shape.type == "array" and shape.items is not None:
        text = "array of " + shape_text(shape.items)
    else:
        text = shape.type
    for word, bound in (("minimum", shape.minimum), ("maximum", shape.maximum)):
        if bound is not None:
            text += f", {word} {model.placeholder_text(bound)}"
    return text


#: What the page says of the field a code's retry hint is read from (issue 30 §8).
RETRY_NOTE = "The retry hint: the seconds to wait before retrying"


def _field_row(f: model.Field, retry: str | None) -> Field:
    """A details field's row; ``retry``: it is the retry hint of the codes it
    names (Markdown), or ("") of every code that lists it where it stands."""
    note = f"{RETRY_NOTE[0].lower()}{RETRY_NOTE[1:]}"
    if retry:
        note = note.replace("retry hint", f"retry hint of {retry}", 1)
    return Field(
        name=f.name,
        type=shape_text(f.shape),
        required=f.required,
        description=(
            f.description
            if retry is None
            else (
                f"{f.description} ({note})"
                if f.description
                else note[0].upper() + note[1:]
            )
        ),
        default=_json_text(json_data(f.default)) if f.has_default else None,
        const=f.has_const,
    )


def _field_rows(f: model.Field, retry: str | None) -> tuple[Field, ...]:
    """A field's row, then a row for each member of a nested object it holds
    (issue 30 §7), named by its path: ``meta.region``, ``causes[].reason``."""
    return (_field_row(f, retry), *_member_rows(f.name, f.shape))


def _member_rows(path: str, shape: Shape) -> tuple[Field, ...]:
    if shape.items is not None:
        return _member_rows(f"{path}[]", shape.items)
    rows: list[Field] = []
    for member in shape.fields or ():
        named = dataclasses.replace(member, name=f"{path}.{member.name}")
        rows += _field_rows(named, None)
    return tuple(rows)


def _own(code: model.Code) -> tuple[model.Field, ...]:
    """The fields a code's own section lists (issue 30 §7): those it declares, the
    top level's and its domains' being listed once, where they are declared."""
    return tuple(f for f in code.fields if f.domain is None and not f.top)


def shared_rows(
    fields: tuple[model.Field, ...], taxonomy: model.Taxonomy
) -> tuple[Field, ...]:
    """The rows of the top level's or a domain's shared details table; a field
    that is the retry hint of every code carrying it says so, one that is the
    retry hint of some names them."""
    rows: list[Field] = []
    for f in fields:
        # The codes that carry this very declaration (not one of their own).
        carriers = [
            code
            for code in taxonomy.codes
            if (held := code.field(f.name)) is not None
            and (held.domain, held.top) == (f.domain, f.top)
        ]
        hinted = [c for c in carriers if taxonomy.retry_field(c) == f.name]
        retry = (
            None
            if not hinted
            else (
                ""
                if len(hinted) == len(carriers)
                else ", ".join(wire_label(c.code, c.wire) for c in hinted)
            )
        )
        rows += _field_rows(f, retry)
    return tuple(rows)


def _details(
    named: NamedCode, taxonomy: model.Taxonomy, every: bool = False
) -> CodeDetails:
    """A code's details as a page lists them: its own fields (the shared ones
    stand once above), or ``every`` field it carries, for its own page
    (layout: pages), which stands alone."""
    code = named.code
    retry = taxonomy.retry_field(code)
    return CodeDetails(
        code=wire_label(code.code, code.wire),
        template=code.message.text if code.message is not None else None,
        fields=tuple(
            row
            for f in (code.fields if every else _own(code))
            for row in _field_rows(f, "" if f.name == retry else None)
        ),
    )


def _row(named: NamedCode, taxonomy: model.Taxonomy) -> CodeRow:
    mapping = code_mapping(taxonomy, named.code)
    code = named.code
    replaced = code.deprecated.replaced_by if code.deprecated else None
    return CodeRow(
        named=named,
        throttling=mapping.throttling,
        # Every status a code may take, its default first ("400, 401").
        http_status=(
            ", ".join(map(str, mapping.http_statuses))
            or ("" if mapping.http_status is None else str(mapping.http_status))
        ),
        grpc_status=mapping.grpc_status or "",
        doc_url=mapping.doc_url or "",
        wire=wire_label(code.code, code.wire),
        key=key_label(code.code, code.wire),
        replaced_by="" if replaced is None else _replacement(taxonomy, replaced),
        aliases=", ".join(map(escape.md_code, code.aliases)),
        anchor=html.escape(anchor(taxonomy, code), quote=True),
        native=(
            "; ".join(
                f"{language} {', '.join(map(escape.md_code, listed))}"
                for language, listed in (
                    ("Python", code.python_bases),
                    ("Go", code.go_is),
                )
                if listed
            )
            if code.python_bases or code.go_is
            else ""  # most codes: no generator to run
        ),
    )


def _taxonomy_intro(taxonomy: model.Taxonomy) -> tuple[str, ...]:
    """The paragraphs opening the taxonomy's section."""
    intro = []
    if taxonomy.python_bases:
        intro.append(
            "In Python, every error class is also a builtin "
            f"{_builtins(taxonomy.python_bases)} (`python_bases`)."
        )
    if taxonomy.docs.taxonomy:
        intro.append(taxonomy.docs.taxonomy)
    return tuple(intro)


def _builtins(names: tuple[str, ...]) -> str:
    """Builtin exceptions as the page names them: ```OSError``` and ```X```."""
    spans = [escape.md_code(name) for name in names]
    return (
        " and ".join(filter(None, [", ".join(spans[:-1]), spans[-1]])) if spans else ""
    )


def anchor(taxonomy: model.Taxonomy, code: model.Code) -> str:
    """The id of a code's row on the page (issue 33 §6): the fragment its
    ``docs_url`` link ends in, decoded, when ``{code}`` stands in that
    fragment (``https://errors.example.com/#{code}``, ``errors.md#code-{code}``:
    the link lands on the row); else its wire code, else (the empty wire code)
    its key."""
    template = taxonomy.docs_url or ""
    fragment = template.partition("#")[2]
    if model.DOCS_URL_PLACEHOLDER in fragment:
        url = taxonomy.doc_url(code) or ""
        return urllib.parse.unquote(url.partition("#")[2])
    return code.wire_text or code.code


def wire_label(key: str, wire: str | int | None) -> str:
    """A code as the page names it (Markdown): its wire code, which is what
    payloads, logs and users see (``""`` for the empty one), else its key."""
    text = key if wire is None else str(wire)
    return escape.md_code(text if text else '""')


def key_label(key: str, wire: str | int | None) -> str:
    """A code's key as the page shows it beside its wire code (Markdown): only
    where it differs from the wire code, else ""."""
    return "" if wire is None or str(wire) == key else escape.md_code(key)


def _named(key: str, wire: str | int | None) -> str:
    """A code in prose: its wire code, then its key where that differs."""
    other = key_label(key, wire)
    return wire_label(key, wire) + (f" (key {other})" if other else "")


def _replacement(taxonomy: model.Taxonomy, key: str) -> str:
    """The wire code of the code that replaces a deprecated one (Markdown)."""
    try:
        return wire_label(key, taxonomy.code(key).wire)
    except KeyError:  # a replacement validation let through without a live code
        return escape.md_code(key)


def _domain(named: NamedDomain, taxonomy: model.Taxonomy, names: Names) -> DomainView:
    prefix = domain_prefix(named.domain.key, taxonomy.code_case)
    every = bool(named.codes) and all(
        c.code.code.startswith(prefix) for c in named.codes
    )
    rows = tuple(_row(c, taxonomy) for c in named.codes)
    return DomainView(
        named=named,
        prefix=prefix + "*" if every else None,
        details=tuple(
            _details(c, taxonomy) for c in named.codes if _own(c.code) or c.code.message
        ),
        shared=shared_rows(named.domain.fields, taxonomy),
        rows=rows,
        http_column=any(row.http_status for row in rows),
        grpc_column=any(row.grpc_status for row in rows),
        docs_column=any(row.doc_url for row in rows),
        native=_builtins(named.domain.python_bases),
        native_column=any(row.native for row in rows),
        parent=next(
            (d for d in names.domains if d.domain.key == named.domain.parent), None
        ),
        children=tuple(d for d in names.domains if d.domain.parent == named.domain.key),
        matches=(
            *(escape.md_code(prefix) for prefix in named.domain.prefixes),
            *(
                f"{low} to {high}" if low != high else str(low)
                for low, high in named.domain.ranges
            ),
        ),
    )


def _changes(names: Names) -> tuple[Change, ...]:
    """The changelog rows, newest version first: codes added, deprecated and removed."""
    # (version, rank within a version, row): removals, then deprecations, then additions
    rows: list[tuple[str, int, Change]] = []
    for code in names.taxonomy.codes:
        if code.since is not None:
            added = Change(
                version=code.since, what="added",
                code=wire_label(code.code, code.wire), text="",
                replaced_by=None,
            )  # fmt: skip
            rows.append((code.since, 2, added))
        if code.deprecated is not None:
            since = code.deprecated.since or ""
            deprecated = Change(
                version=since or "—",
                what="deprecated",
                code=wire_label(code.code, code.wire),
                text=code.deprecated.reason,
                replaced_by=(
                    None
                    if code.deprecated.replaced_by is None
                    else _replacement(names.taxonomy, code.deprecated.replaced_by)
                ),
            )
            rows.append((since, 1, deprecated))
    for tomb in names.taxonomy.removed:
        text = tomb.reason + (f" (it meant: {tomb.meaning})" if tomb.meaning else "")
        removed = Change(
            version=tomb.since, what="removed",
            code=wire_label(tomb.code, tomb.wire), text=text,
            replaced_by=None,
        )  # fmt: skip
        rows.append((tomb.since, 0, removed))
    # Newest first, then deprecations that record no version ("—").
    rows.sort(
        key=lambda row: (
            row[0] != "",
            version_key(row[0]),
            -row[1],
        ),
        reverse=True,
    )
    return tuple(change for _, _, change in rows)


def _example(names: Names) -> str | None:
    taxonomy = names.taxonomy
    example = taxonomy.docs.example
    if example is None:
        return None
    payload: dict[str, Any] = {
        "code": taxonomy.code(example.code).wire_code,
        "message": example.message,
        "retryable": taxonomy.code(example.code).retryable,
    }
    details = json_data(example.details)
    if details:
        payload["details"] = details
    if not taxonomy.payload.default:  # issue 14 §2: in the payload's members
        payload = wire_input(names, payload)
    return json.dumps(payload, indent=2, ensure_ascii=False)


def _mapped_fields(taxonomy: model.Taxonomy) -> tuple[Field, ...]:
    """The payload table of a payload other than today's: each field in its
    member (under the envelope), a problem's title and status, and what is
    not on the wire said so."""
    payload = taxonomy.payload
    docs = taxonomy.docs
    at = "" if payload.envelope is None else f"{payload.envelope}."
    rows: list[Field] = []

    def row(field: str, name: str, kind: str, required: bool, default: str) -> None:
        described = docs.field_description(field)
        rows.append(
            Field(
                name=name,
                type=kind,
                required=required,
                description=described or default,
                markdown=bool(described),
            )
        )

    defaults = {f: d for f, _, _, d in PAYLOAD_FIELDS}
    for name, value in payload.constants:
        kinds = {str: "string", bool: "boolean", int: "number", float: "number"}
        rows.append(
            Field(
                name=name,  # the payload's own member, beside any envelope
                type=kinds[type(value)],
                required=False,
                description=f"Always {constant_text(value)}, written on every "
                "payload; received, absent or the same (anything else is refused)",
            )
        )
    if payload.problem:
        row(
            "code",
            at + payload.code,
            "string (URI)",
            False,
            "The error code as a URI: docs_url with the code in place of {code}; "
            "any other URI (or none: about:blank) is the fallback's",
        )
        rows.append(
            Field(
                name=at + "title",
                type="string",
                required=False,
                description="A short summary: the code's meaning when written",
            )
        )
        rows.append(
            Field(
                name=at + "status",
                type="integer",
                required=False,
                description="The code's HTTP status, always written",
            )
        )
    else:
        row("code", at + payload.code, taxonomy.wire_type, True, defaults["code"])
    absent = ""
    if payload.exact_message:
        absent = (
            " (optional: absent, the code's message template over the details, "
            "else the meaning; written back absent)"
        )
    elif payload.optional_message:
        absent = " (absent: the title, or the meaning)"
    row(
        "message",
        at + payload.message,
        "string",
        not payload.optional_message,
        defaults["message"] + absent,
    )
    if payload.retryable is not None:
        row("retryable", at + payload.retryable, "boolean", True, defaults["retryable"])
    if payload.status is not None:  # issue 30 §2
        rows.append(
            Field(
                name=at + payload.status,
                type="integer",
                required=False,
                description="The error's HTTP status (100 to 599): the one it was "
                "received with, else its code's; left out when it has none",
            )
        )
    if payload.rest:
        row(
            "details",
            at + "*",
            "any",
            False,
            "Every other member: the error's details (extension members), kept",
        )
    elif payload.details is not None:
        kind = {"object": "object", "array": "array", "any": "any JSON value"}
        row(
            "details",
            at + payload.details,
            kind[payload.details_type],
            False,
            defaults["details"],
        )
    if payload.keeps_outside:
        rows.append(
            Field(
                name="*",
                type="any",
                required=False,
                description=(
                    "Every other member"
                    + (
                        ""
                        if payload.envelope is None
                        else f" beside {payload.envelope}"
                    )
                    + ": kept on the error as received and written back "
                    "(outside: keep)"
                ),
            )
        )
    return tuple(rows)


def view(names: Names, options: Options) -> DocsView:
    """The docs view of a named taxonomy."""
    taxonomy = names.taxonomy
    docs = taxonomy.docs
    diagram, without_codes = _diagram(names)
    return DocsView(
        header=" ".join(header_lines(taxonomy.source)),
        title=taxonomy.title,
        version=taxonomy.version,
        docs=docs,
        example=_example(names),
        fields=(
            _mapped_fields(taxonomy)
            if not taxonomy.payload.default
            else tuple(
                Field(
                    name=field,
                    # The code's type is the taxonomy's wire_type.
                    type=taxonomy.wire_type if field == "code" else kind,
                    required=required,
                    description=docs.field_description(field) or default,
                    markdown=bool(docs.field_description(field)),
                )
                for field, kind, required, default in PAYLOAD_FIELDS
            )
        ),
        domains=tuple(_domain(d, taxonomy, names) for d in names.domains),
        shared=shared_rows(taxonomy.fields, taxonomy),
        events=taxonomy.events,
        fallback=names.fallback,
        wrap=names.wrap,
        changes=_changes(names),
        wire_column=taxonomy.wire_declared,
        taxonomy_intro=_taxonomy_intro(taxonomy),
        fallback_label=(
            _unknown_text(taxonomy)
            if names.fallback is None
            else "handled as "
            + _named(names.fallback.code.code, names.fallback.code.wire)
        ),
        wrap_label=_named(names.wrap.code.code, names.wrap.code.wire),
        diagram=diagram,
        diagram_without_codes=without_codes,
        pages=pages(names, functools.partial(_details, every=True)),
    )


def _unknown_text(taxonomy: Taxonomy) -> str:
    """What the page says of an unknown code where there is no fallback (issue
    30 §3): its identity kept, and when it is retryable."""
    rule = {
        "false": "not retryable unless its payload says so",
        "true": "retryable unless its payload says otherwise",
        "by_status": "retryable when received with a 5xx status (not without "
        "one) unless its payload says",
    }[taxonomy.unknown_retryable]
    return (
        f"kept as it is: an error of `{taxonomy.base}` carrying that code, with "
        f"the HTTP status it was received with (if any), {rule}"
    )


def _md_yes_no(value: bool) -> str:
    return "yes" if value else "no"


TARGET = Target(
    name="docs",
    view=view,
    templates=(
        Template(template="docs/errors.md.j2", output="docs/errors.md"),
        Template(
            template="docs/code.md.j2", output="docs/errors/{slug}.md", each=each_page
        ),
        Template(
            template="docs/index.md.j2", output="docs/errors/index.md", each=index_once
        ),
    ),
    # A page's slug is its wire code percent-encoded (model.page_slug).
    placeholders={"slug": r"[A-Za-z0-9._~%-]+"},
    filters={
        "md_text": escape.md_text,
        "md_cell": escape.md_cell,
        "md_yes_no": _md_yes_no,
        "md_fence": escape.md_fence,
        "md_code": escape.md_code,
        "md_indent": escape.md_indent,
        "md_quote": escape.md_quote,
    },
)
#: This folder's targets (see target.toml).
TARGETS = (TARGET,)
