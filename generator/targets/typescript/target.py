"""The TypeScript target: its view model, its templates, and where its files go.

The package is ``typescript/``: ``src/index.ts`` (the taxonomy: its code and
domain tables, its classes, and the public functions bound to them),
``src/runtime.ts`` (the code that is the same for every taxonomy: the root
class's machinery, payload decoding, the guard and wrapping, copied verbatim
from ``runtime/runtime.ts``, which is real, strict and tested source), a
``package.json`` and a strict ``tsconfig.json`` (the ES modules, ``dist/``)
with ``tsconfig.cjs.json`` beside it (the CommonJS build, ``cjs/``, whose
``package.json`` says so), a README and, with a license option, a LICENSE
(:mod:`taxogen.targets.metadata`).  Strings reach the module
through :func:`escape.ts_str`, JSDoc lines through :func:`escape.ts_doc`.

It runs past 300 lines because its view carries each class's statics (what a
code maps to) and the description of a mapped payload that the runtime reads.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

from taxogen.escape import json_str
from taxogen.model import (
    DOCS_URL_PLACEHOLDER,
    Deprecation,
    Event,
    Field,
    Taxonomy,
    code_pattern,
    constant_text,
    npm_version,
)
from taxogen.naming import NamedCode, NamedDomain, Names
from taxogen.targets.base import Options, Runtime, Target, Template, header_lines
from taxogen.targets.mapped import stated
from taxogen.targets.metadata import Package, licensed
from taxogen.targets.typescript import details, escape, naming
from taxogen.targets.typescript.details import (
    RECORD,
    Tree,
    TsCtor,
    TsDetails,
    TsKnown,
    TsNested,
    TsTyping,
)

__all__ = [
    "TARGET",
    "TARGETS",
    "TYPESCRIPT_RANGE",
    "TsClass",
    "TsStatic",
    "TypeScriptView",
    "view",
]

#: The TypeScript compiler the generated package is built with.
TYPESCRIPT_RANGE = "^7.0.2"


@dataclasses.dataclass(frozen=True, slots=True)
class TsStatic:
    """A static a class overrides: ``static override readonly name: type = value``."""

    name: str
    type: str
    value: str  # a TypeScript literal


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class TsClass:
    """A class below the root (a domain's or a code's), as ``index.ts`` declares it.

    Its text is ready to print: ``doc`` holds the lines of its JSDoc block (the
    taxonomy's prose escaped by :func:`escape.ts_doc`, "" for a blank line), and
    the value of each of ``statics`` is a literal (strings by :func:`escape.ts_str`).
    """

    name: str
    parent: str
    doc: tuple[str, ...]
    statics: tuple[TsStatic, ...]
    typing: TsTyping
    #: The names its code's ``aliases:`` export it under too.
    aliases: tuple[str, ...] = ()


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class TypeScriptView:
    """Everything the TypeScript templates use, computed once."""

    header: str
    name: str
    version: str
    npm_version: str  # package.json's: a semantic version (a date as 2024.6.20)
    description: str
    npm_package: str
    #: The package's metadata (``[tool.taxogen.typescript]``: name, license...).
    meta: Package
    typescript_range: str
    base: str
    brand: str
    ts_guard: str
    ts_options: str
    code_pattern: str | None  # None: codes are integers
    integer: bool  # whether codes are integers on the wire (``wire_type``)
    code_type: str  # the TypeScript type of a wire code: ``string`` or ``number``
    codes: tuple[NamedCode, ...]
    domains: tuple[NamedDomain, ...]
    events: tuple[Event, ...]
    #: None with ``fallback: null`` (issue 30 §3): unknown codes keep their own.
    fallback: NamedCode | None
    #: The code the README's example decodes: the fallback, else the wrap code.
    example: NamedCode
    #: The classes that need a constructor without a code (Names.own_constructors).
    own_constructors: frozenset[str]
    #: The class an unknown code gets where no match: claims it.
    unknown_class: str
    #: The root class's type arguments: its codes and domains (with no
    #: fallback, any wire code and no domain too), its meaning and the
    #: unknown codes' retryability then.
    root_code: str
    root_domain: str
    unknown_meaning: str
    unknown_retryable: str
    #: Whether any unknown code keeps its identity (a fallback: null anywhere).
    keeps_any: bool
    #: The classes of the domains that say fallback: null themselves.
    keeping: tuple[str, ...]
    #: ``match:``: each prefix or inclusive range, and the class of its domain.
    prefixes: tuple[tuple[str, str], ...]
    ranges: tuple[tuple[int, int, str], ...]
    wrap: NamedCode
    classes: tuple[TsClass, ...]  # every class below the root, parents first
    details: tuple[TsDetails, ...]  # of the codes with declared fields
    #: The interfaces of typed nested objects (issue 30 §7), before the details.
    interfaces: tuple[TsNested, ...]
    known: tuple[TsKnown, ...]  # every code
    typed_classes: tuple[str, ...]  # the classes with a typed constructor
    base_statics: tuple[TsStatic, ...]  # the root's statuses, if it states any
    #: The payload where it is not today's (issue 14 §2): the ``PayloadMap``
    #: object literal's entries, the members ``toPayload`` writes (a quoted name,
    #: optional, the type), the envelope (quoted) and whether every other member
    #: is details; None: today's.
    wire: tuple[tuple[str, str], ...] | None = None
    payload_members: tuple[tuple[str, bool, str], ...] = ()
    #: With an envelope, the payload's own members beside it (its constants).
    outer_members: tuple[tuple[str, bool, str], ...] = ()
    #: ``outside: keep``: every other member beside the envelope is kept.
    outer_rest: bool = False
    envelope: str | None = None
    rest: bool = False
    #: The root's details type (the runtime's default: "" for an object).
    details_type: str = ""


#: The static (and instance getter) of each mapped attribute, and its type.
_MAPPED = {
    "http_status": ("httpStatus", "number | undefined"),
    "grpc_status": ("grpcStatus", "string | undefined"),
    "throttling": ("throttling", "boolean"),
    "doc_url": ("docUrl", "string | undefined"),
    "retry_after_field": ("retryAfterField", "string | undefined"),
}


def _mapped(pairs: tuple[tuple[str, object], ...]) -> tuple[TsStatic, ...]:
    """The statics a class states of its HTTP and gRPC status, throttling and
    docs link (see :mod:`taxogen.targets.mapped`)."""
    if not pairs:  # most classes: all as their parent's
        return ()
    out = []
    for attr, value in pairs:
        name, kind = _MAPPED[attr]
        if isinstance(value, str):
            literal = escape.ts_str(value)
        elif isinstance(value, bool):
            literal = _ts_bool(value)
        else:
            literal = "undefined" if value is None else str(value)
        out.append(TsStatic(name, kind, literal))
    return tuple(out)


#: The retryable static, shared by every class stating it (a frozen value).
_RETRYABLE = {
    True: TsStatic("retryable", "boolean", "true"),
    False: TsStatic("retryable", "boolean", "false"),
}


def _code_class(
    named: NamedCode,
    domain: str,
    tree: Tree,
    mapped: tuple[TsStatic, ...],
    strings: bool = True,
) -> TsClass:
    code = named.code
    meaning = code.meaning
    retry = "retryable" if code.retryable else "not retryable"
    if named.is_domain_base:
        where = f", base of the `{domain}` domain"
        statics = [
            TsStatic("code", "ErrorCode", tree.literals[named.class_name]),
            TsStatic("domain", "Domain", escape.ts_str(code.domain)),
        ]
    else:
        where = ""
        statics = [TsStatic("code", "ErrorCode", tree.literals[named.class_name])]
    doc = [
        escape.ts_doc(meaning),
        "",
        f"Code `{escape.ts_doc(code.wire_text)}`{where}; {retry}.",
    ]
    statics.append(TsStatic("meaning", "string", escape.ts_str(meaning)))
    statics.append(_RETRYABLE[bool(code.retryable)])
    if mapped:
        statics.extend(mapped)
    if code.aliases and strings:  # integer codes' aliases are names only
        spellings = ", ".join(escape.ts_str(alias) for alias in code.aliases)
        statics.append(
            TsStatic("aliases", "readonly (string | number)[]", f"[{spellings}]")
        )
    if code.since:
        doc += ["", f"@since {code.since}"]
    if code.deprecated:
        _deprecated(code.deprecated, doc, statics)
    return TsClass(
        name=named.class_name,
        parent=named.parent,
        doc=tuple(doc),
        statics=tuple(statics),
        typing=tree.typing(named.class_name, named.parent),
        aliases=(
            tuple([alias.class_name for alias in named.aliases])
            if named.aliases
            else ()
        ),
    )


def _deprecated(
    deprecated: Deprecation, doc: list[str], statics: list[TsStatic]
) -> None:
    """A deprecated code's doc lines and statics, added to its class's."""
    instead = deprecated.replaced_by_wire
    use = f"; use `{escape.ts_doc(instead)}` instead." if instead else ""
    doc += ["", f"@deprecated {escape.ts_doc(deprecated.reason)}{use}"]
    reason = escape.ts_str(deprecated.reason)
    statics.append(TsStatic("deprecated", "string | undefined", reason))
    if instead:
        statics.append(
            TsStatic("replacedBy", "string | undefined", escape.ts_str(instead))
        )


def _classes(names: Names, tree: Tree) -> tuple[TsClass, ...]:
    """Each domain's class (one of its own if no code owns it), then its codes',
    parent domains first."""
    said = stated(names)
    strings = names.taxonomy.wire_type == "string"
    classes = []
    wire = "number" if names.taxonomy.wire_type == "integer" else "string"
    # Issue 30 §3: the class an unknown code keeps its identity in (a domain's
    # own class without a fallback, or a domain's saying fallback: null) holds
    # any code, and says so, as does every class above it.
    wide = names.any_code_classes
    for domain in names.class_domains:
        key = domain.domain.key
        if domain.base_code is None:
            statics = (
                TsStatic("domain", "Domain", escape.ts_str(key)),
                TsStatic("meaning", "string", escape.ts_str(domain.domain.title)),
                *_mapped(said[domain.class_name]),
            )
            doc = (f"The base of every error of the `{key}` domain.",)
            typing = tree.typing(domain.class_name, domain.parent_class)
            if domain.class_name in wide:
                typing = dataclasses.replace(
                    typing, code_type=f"{typing.code_type} | {wire}"
                )
            classes.append(
                TsClass(
                    name=domain.class_name,
                    parent=domain.parent_class,
                    doc=doc,
                    statics=statics,
                    typing=typing,
                )
            )
        for code in domain.class_order:
            made = _code_class(
                code,
                key,
                tree,
                _mapped(said[code.class_name]),
                strings,
            )
            if code.class_name in wide:
                made = dataclasses.replace(
                    made,
                    typing=dataclasses.replace(
                        made.typing, code_type=f"{made.typing.code_type} | {wire}"
                    ),
                )
            classes.append(made)
    return tuple(classes)


def view(names: Names, options: Options) -> TypeScriptView:
    """The TypeScript view of a named taxonomy."""
    taxonomy = names.taxonomy
    meta = Package.of(
        options,
        name=naming.package(names),
        description=f"{taxonomy.title}: error codes, generated by taxogen",
    )
    keeps_any = names.fallback is None or any(d.keeps_unknown for d in taxonomy.domains)
    tree = details.tree(names)
    classes = {d.domain.key: d.class_name for d in names.domains}
    untyped = "unknown" if taxonomy.payload.details_type != "object" else RECORD
    return TypeScriptView(
        header=" ".join(header_lines(taxonomy.source)),
        name=taxonomy.name,
        version=taxonomy.version,
        npm_version=npm_version(taxonomy.version),
        description=meta.description,
        npm_package=meta.name,
        meta=meta,
        typescript_range=TYPESCRIPT_RANGE,
        base=names.base,
        brand=naming.brand(names),
        ts_guard=naming.guard(names),
        ts_options=naming.options(names),
        code_pattern=code_pattern(taxonomy),
        integer=taxonomy.wire_type == "integer",
        code_type="number" if taxonomy.wire_type == "integer" else "string",
        codes=names.codes,
        domains=names.domains,
        events=taxonomy.events,
        fallback=names.fallback,
        example=names.fallback or names.wrap,
        own_constructors=names.own_constructors,
        unknown_class=(
            names.base if names.fallback is None else names.fallback.class_name
        ),
        keeps_any=keeps_any,
        keeping=tuple(d.class_name for d in names.domains if d.domain.keeps_unknown),
        root_code=(
            "ErrorCode"
            if not keeps_any
            else "ErrorCode | "
            + ("number" if taxonomy.wire_type == "integer" else "string")
        ),
        root_domain="Domain" if names.fallback is not None else "Domain | undefined",
        unknown_meaning=taxonomy.title,
        unknown_retryable=taxonomy.unknown_retryable,
        prefixes=names.prefixes,
        ranges=names.ranges,
        wrap=names.wrap,
        classes=_classes(names, tree),
        details=tuple(
            TsDetails(
                c.details_type, c.class_name, details.details_fields(names, c, classes)
            )
            for c in names.codes
            if c.details_type
        ),
        interfaces=details.interfaces(names),
        known=tuple(
            TsKnown(
                c.class_name, tree.literals[c.class_name], c.details_type or untyped
            )
            for c in names.codes
        ),
        typed_classes=tuple(c.class_name for c in names.codes if c.details_type),
        base_statics=_mapped(stated(names)[names.base]),
        **_payload(taxonomy),
    )


def _payload(taxonomy: Taxonomy) -> dict[str, Any]:
    """The view's parts of a payload other than today's (issue 14 §2)."""
    payload = taxonomy.payload
    if payload.default:
        return {}

    def text(value: str | None) -> str:
        return "null" if value is None else escape.ts_str(value)

    wire = [
        ("code", text(payload.code)),
        ("message", text(payload.message)),
        ("retryable", text(payload.retryable)),
        ("details", text(payload.details)),
        ("detailsType", text(payload.details_type)),
        ("envelope", text(payload.envelope)),
        ("alwaysDetails", _ts_bool(payload.always_details)),
    ]
    uri = "null"
    if payload.problem and taxonomy.docs_url is not None:
        prefix, suffix = taxonomy.docs_url.split(DOCS_URL_PLACEHOLDER)
        uri = f"[{escape.ts_str(prefix)}, {escape.ts_str(suffix)}]"
    wire.append(("uri", uri))
    wire.append(("messageRequired", _ts_bool(not payload.optional_message)))
    if payload.exact_message:
        wire.append(("exactMessage", "true"))
    if payload.constants:
        items = ", ".join(
            f"[{escape.ts_str(name)}, {_ts_value(value)}, "
            f"{escape.ts_str(constant_text(value))}]"
            for name, value in payload.constants
        )
        wire.append(("constants", f"[{items}]"))
    if payload.keeps_outside:
        wire.append(("outside", "true"))
    if payload.status is not None:
        wire.append(("status", text(payload.status)))
    code = "number" if taxonomy.wire_type == "integer" else "string"
    constants = [
        (name, False, escape.ts_str(value) if isinstance(value, str) else kind)
        for name, value in payload.constants
        for kind in ("boolean" if isinstance(value, bool) else "number",)
    ]
    # The constants are the payload's own members: beside the envelope, if any.
    members = [] if payload.envelope else constants
    outer = constants if payload.envelope else []
    members.append((payload.code, False, "string" if payload.problem else code))
    if payload.problem:
        members += [("title", False, "string"), ("status", False, "number | null")]
    members.append((payload.message, payload.exact_message, "string"))
    if payload.retryable is not None:
        members.append((payload.retryable, False, "boolean"))
    if payload.status is not None:  # left out while the error has no status
        members.append((payload.status, True, "number"))
    if payload.details is not None and not payload.rest:
        kind = {
            "object": "Record<string, unknown>",
            "array": "unknown[]",
            "any": "unknown",
        }[payload.details_type]
        members.append((payload.details, not payload.always_details, kind))
    return {
        "wire": tuple(wire),
        "payload_members": tuple(
            (escape.ts_str(name), optional, kind) for name, optional, kind in members
        ),
        "envelope": (
            None if payload.envelope is None else escape.ts_str(payload.envelope)
        ),
        "rest": payload.rest,
        "details_type": "unknown" if payload.details_type != "object" else "",
        "outer_members": tuple(
            (escape.ts_str(name), optional, kind) for name, optional, kind in outer
        ),
        "outer_rest": payload.keeps_outside,
    }


def _ts_value(value: object) -> str:
    """A payload constant as a TypeScript literal."""
    if isinstance(value, str):
        return escape.ts_str(value)
    if isinstance(value, bool):
        return _ts_bool(value)
    return json.dumps(value)


def _ts_bool(value: bool) -> str:
    return "true" if value else "false"


TARGET = Target(
    name="typescript",
    view=view,
    templates=(
        Template(
            template="typescript/package.json.j2", output="typescript/package.json"
        ),
        Template(
            template="typescript/tsconfig.json.j2", output="typescript/tsconfig.json"
        ),
        Template(
            template="typescript/tsconfig.cjs.json.j2",
            output="typescript/tsconfig.cjs.json",
        ),
        Template(
            template="typescript/cjs_package.json.j2",
            output="typescript/cjs/package.json",
        ),
        Template(template="typescript/index.ts.j2", output="typescript/src/index.ts"),
        Template(template="typescript/README.md.j2", output="typescript/README.md"),
        Template(
            template="typescript/LICENSE.j2", output="typescript/LICENSE", each=licensed
        ),
    ),
    runtime=(
        Runtime(source="runtime.ts", output="typescript/src/runtime.ts", comment="// "),
    ),
    runtime_dir=Path(__file__).resolve().parent / "runtime",
    filters={
        "ts_str": escape.ts_str,
        "ts_bool": _ts_bool,
        "ts_literal": escape.ts_literal,
        "ts_doc": escape.ts_doc,
        "json_str": json_str,
    },
)
#: This folder's targets (see target.toml).
TARGETS = (TARGET,)
