"""The Java target: its view model (the declaration, cheap to import, is target.py).

The sources are under ``java/src/main/java/<package as folders>/`` (Maven's
and Gradle's layout): a class per domain and code under the base class (the
root extends ``RuntimeException``), a details record per code that declares
fields, ``Code`` and ``Domain`` (a String constant per code and domain: a
class of constants, because an enum of 10,000 constants outgrows the JVM's
64 KB limit on a method and its constant pool), ``Errors`` (the package's
functions) and ``Registry`` (the tables, built in parts of at most
:data:`PART_WEIGHT` codes and fields each, for the same limit), and the
runtime, the same for every taxonomy, in the ``runtime`` subpackage (real Java
in ``runtime/``, compiled and tested as it is; only its ``package`` line is
the taxonomy's).  Strings reach Java through :func:`escape.java_str`, comments
through :func:`escape.java_comment`.

It runs past 300 lines because Java spells out here what the other runtimes
read from data: each code's table entry as a Java statement, its class and its
details record, and the Registry's parts.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping

from taxogen.model import DOCS_URL_PLACEHOLDER, Field, Shape, Taxonomy, code_pattern
from taxogen.model import constant_text
from taxogen.naming import NamedCode, Names
from taxogen.targets.base import Options, header_lines
from taxogen.targets.java.escape import java_comment, java_str
from taxogen.targets.java.naming import default_package, field_name, nested_name
from taxogen.targets.java.target import RUNTIME
from taxogen.targets.java.naming import nested_records, owner_prefix
from taxogen.targets.mapped import Mapping as Mapped
from taxogen.targets.mapped import class_mappings, code_mapping

__all__ = ["PART_WEIGHT", "JavaView", "view"]

#: The most codes plus declared fields one part of the Registry builds: each
#: part is a class of its own, well within the JVM's limits at any size.
PART_WEIGHT = 300

_BOXED = {"string": "String", "integer": "Long", "number": "Double"}
_BOXED["boolean"] = "Boolean"
_READ = {"string": "string", "integer": "integer", "number": "number"}
_READ["boolean"] = "bool"


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class JavaComponent:
    """A details record's component."""

    name: str
    key: str  # the details key, a Java string literal
    type: str
    read: str  # the expression reading it from ``details``
    write: str  # the expression writing it into the map (it is not null)
    required: bool
    doc: str


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class JavaRecord:
    """A code's details record, or a nested object's (issue 30 §7)."""

    name: str
    code: str  # for comments: the code, or the nested object's key path
    components: tuple[JavaComponent, ...]
    nested: bool = False
    doc: str = ""


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class JavaClass:
    """An error class: a domain's, a code's, or both (a domain's base code)."""

    name: str
    parent: str
    doc: str
    code: str | None  # its Code constant, if it is a code's
    details: str | None  # its details record
    accessor: str | None  # the method giving its details as the record
    deprecated: str | None


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class JavaView:
    """Everything the Java templates use, computed once."""

    header: tuple[str, str]
    package: str
    folder: str
    title: str
    version: str  # a Java string literal
    base: str
    codes: tuple[tuple[str, str, str, str | None], ...]  # member, literal, doc, dep
    domains: tuple[tuple[str, str], ...]  # member, literal
    classes: tuple[JavaClass, ...]
    records: tuple[JavaRecord, ...]
    parts: tuple[tuple[str, ...], ...]  # each part's Registry statements
    setup: tuple[str, ...]  # the Registry's other statements
    pattern: str  # a Java string literal, or null
    fallback: str  # its Code constant, or null (fallback: null)
    wrap: str
    runtime: tuple[tuple[str, str], ...]  # class name, source


def _number(value: int | float) -> str:
    return repr(float(value))


def _shape_calls(shape: Shape, rt: str) -> str:
    calls = ""
    if shape.enum:
        calls += ".oneOf(" + ", ".join(java_str(e) for e in shape.enum) + ")"
    if shape.minimum is not None:
        calls += f".min({_number(shape.minimum)})"
    if shape.maximum is not None:
        calls += f".max({_number(shape.maximum)})"
    if shape.items is not None:
        items = f"new {rt}.Taxonomy.Shape({java_str(shape.items.type)})"
        calls += f".items({items}{_shape_calls(shape.items, rt)})"
    if shape.fields is not None:  # issue 30 §7: a nested object's members
        calls += ".fields(" + ", ".join(_field(f, rt) for f in shape.fields) + ")"
    return calls


def _weight(shape: Shape) -> int:
    """How many nested members the Registry states within ``shape``."""
    below = _weight(shape.items) if shape.items is not None else 0
    return below + sum(1 + _weight(f.shape) for f in shape.fields or ())


def _field(field: Field, rt: str) -> str:
    shape = field.shape
    required = "true" if field.required else "false"
    text = f"new {rt}.Taxonomy.Field({java_str(field.name)}, {java_str(shape.type)}, "
    text += required + ")" + _shape_calls(shape, rt)
    if field.has_default:
        default = json.dumps(field.default, ensure_ascii=False, separators=(",", ":"))
        text += f".defaultJson({java_str(default)})"
    if field.has_const:
        text += f".constant({java_str(constant_text(field.default))})"
    return text


def _spec(named: NamedCode, domain: str, mapping: Mapped, rt: str) -> str:
    code = named.code
    cls = named.class_name
    retryable = "true" if code.retryable else "false"
    text = (
        f"b.add(new {rt}.Taxonomy.Spec(Code.{named.member}, Domain.{domain}, "
        f"{retryable}, {java_str(code.meaning)}, {cls}.class, {cls}::new)"
    )
    if code.fields:
        text += ".fields(" + ", ".join(_field(f, rt) for f in code.fields) + ")"
    if code.message is not None:
        pieces = ", ".join(
            f"new {rt}.Taxonomy.Piece({java_str(p.text)}, "
            + (java_str(p.field) if p.field else "null")
            + ")"
            for p in code.message.pieces
        )
        text += f".template({pieces})"
    if mapping.http_status is not None:
        text += f".http({mapping.http_status})"
    if mapping.grpc_status is not None:
        text += f".grpc({java_str(mapping.grpc_status)})"
    if mapping.throttling:
        text += ".throttling()"
    if mapping.doc_url is not None:
        text += f".doc({java_str(mapping.doc_url)})"
    if mapping.retry_after_field is not None:
        text += f".retryAfter({java_str(mapping.retry_after_field)})"
    return text + ");"


def _parts(names: Names, rt: str) -> tuple[tuple[str, ...], ...]:
    taxonomy = names.taxonomy
    parts: list[list[str]] = [[]]
    weight = 0
    for domain in names.domains:
        for named in domain.codes:
            cost = 1 + sum(1 + _weight(f.shape) for f in named.code.fields)
            if weight + cost > PART_WEIGHT and parts[-1]:
                parts.append([])
                weight = 0
            weight += cost
            mapping = code_mapping(taxonomy, named.code)
            parts[-1].append(_spec(named, domain.member, mapping, rt))
            if taxonomy.wire_type == "string":  # each spelling reads as the code
                for alias in named.aliases:
                    parts[-1].append(
                        f"b.alias({java_str(alias.name)}, Code.{named.member});"
                    )
    return tuple(tuple(part) for part in parts)


def _setup(names: Names, rt: str) -> tuple[str, ...]:
    taxonomy = names.taxonomy
    out = [
        f"b.event({java_str(e.type)}, {java_str(e.location)});" for e in taxonomy.events
    ]
    classes = class_mappings(names)
    if names.fallback is None:  # issue 30 §3: an unknown code keeps its identity
        rule = java_str(taxonomy.unknown_retryable)
        out.append(
            f"b.withoutFallback({java_str(taxonomy.title)}, {rule}, "
            f"{names.base}.class, {names.base}::new);"
        )
    elif any(d.keeps_unknown for d in taxonomy.domains):
        out.append(f"b.unknownRetryable({java_str(taxonomy.unknown_retryable)});")
    for domain in names.domains:
        code = domain.base_code or names.fallback
        mapping = classes[domain.class_name][1]
        meaning = (
            domain.domain.title
            if domain.base_code is None
            else domain.base_code.code.meaning
        )
        # No code to borrow (no fallback either): the code keeps its identity.
        treated = "null" if code is None else f"Code.{code.member}"
        head = (
            f"b.match(new {rt}.Taxonomy.Match(Domain.{domain.member}, "
            f"{treated}, {domain.class_name}.class, "
            f"{domain.class_name}::new, {java_str(meaning)})"
        )
        # Issue 30 §3: a domain's fallback: null keeps an unknown code's identity.
        tail = ".keeps()" if code is not None and domain.domain.keeps_unknown else ""
        if mapping.http_status is not None:
            tail += f".http({mapping.http_status})"
        if mapping.grpc_status is not None:
            tail += f".grpc({java_str(mapping.grpc_status)})"
        for prefix in domain.domain.prefixes:
            out.append(f"{head}.prefix({java_str(prefix)}){tail});")
        for low, high in domain.domain.ranges:
            out.append(f"{head}.range({low}L, {high}L){tail});")
    payload = _payload(taxonomy, rt)
    if payload is not None:
        out.append(f"b.payload({payload});")
    return tuple(out)


def _payload(taxonomy: Taxonomy, rt: str) -> str | None:
    payload = taxonomy.payload
    if payload.default:
        return None
    args = [
        java_str(payload.code),
        java_str(payload.message),
        java_str(payload.retryable or ""),
        java_str(payload.details or ""),
        java_str(payload.details_type),
        java_str(payload.envelope or ""),
        "true" if payload.always_details else "false",
    ]
    text = f"new {rt}.Taxonomy.PayloadMap(" + ", ".join(args) + ")"
    if payload.problem and taxonomy.docs_url is not None:
        prefix, suffix = taxonomy.docs_url.split(DOCS_URL_PLACEHOLDER)
        text += f".uri({java_str(prefix)}, {java_str(suffix)})"
    if payload.optional_message:
        text += ".messageRequired(false)"
    if payload.exact_message:
        text += ".exactMessage()"
    for name, value in payload.constants:
        text += f".constant({java_str(name)}, {java_str(constant_text(value))})"
    if payload.keeps_outside:
        text += ".outside()"
    if payload.status is not None:
        text += f".status({java_str(payload.status)})"
    return text


def _component(field: Field, rt: str, prefix: str, member: bool) -> JavaComponent:
    """The component of ``field``; ``prefix``: what its nested records start
    with; ``member``: a nested object's (read at the path ``at``), not the
    details' own."""
    shape = field.shape
    name = field_name(field.name)
    key = java_str(field.name)
    at = "at" if member else '"details"'
    nested = nested_name(prefix, field)
    write = f"this.{name}"
    if nested is not None and shape.type == "array":
        type_ = f"java.util.List<{nested}>"
        read = f"{rt}.Fields.records(details, {at}, {key}, {nested}::from)"
        write = f"{rt}.Fields.maps(this.{name})"
    elif nested is not None:
        type_ = nested
        read = f"{rt}.Fields.record(details, {at}, {key}, {nested}::from)"
        write = f"this.{name}.toMap()"
    elif shape.type == "array":
        item = shape.items.type if shape.items else "object"
        kind = _BOXED.get(item, "Object")
        type_ = f"java.util.List<{kind}>"
        read = f"{rt}.Fields.list(details, {at}, {key}, {java_str(item)}, {kind}.class)"
    elif shape.type == "object":
        type_ = "java.util.Map<String, Object>"
        read = f"{rt}.Fields.object(details, {at}, {key})"
    else:
        type_ = _BOXED[shape.type]
        read = f"{rt}.Fields.{_READ[shape.type]}(details, {at}, {key})"
    return JavaComponent(
        name=name,
        key=key,
        type=type_,
        read=read,
        write=write,
        required=field.required,
        doc=java_comment(field.description),
    )


def _records(names: Names, rt: str) -> tuple[JavaRecord, ...]:
    """Each code's details record, then each nested object's, once each."""
    classes = {d.domain.key: d.class_name for d in names.domains}
    out = [
        JavaRecord(
            name=c.details_type,
            code=java_comment(c.code.wire_text),
            components=tuple(
                _component(f, rt, owner_prefix(f, c, names.base, classes), False)
                for f in c.code.fields
            ),
        )
        for c in names.codes
        if c.details_type
    ]
    for record in nested_records(names.base, names.domains):
        out.append(
            JavaRecord(
                name=record.name,
                code=java_comment(record.shown),
                components=tuple(
                    _component(f, rt, record.name, True) for f in record.fields
                ),
                nested=True,
                doc=java_comment(record.description),
            )
        )
    return tuple(out)


def _accessor(record: str) -> str:
    return record[:1].lower() + record[1:]


def _deprecated(named: NamedCode) -> str | None:
    deprecated = named.code.deprecated
    if deprecated is None:
        return None
    instead = deprecated.replaced_by_wire
    use = f"; use {instead} instead" if instead else ""
    return java_comment(deprecated.reason + use)


def _code_doc(named: NamedCode) -> str:
    code = named.code
    retry = "retryable" if code.retryable else "not retryable"
    return java_comment(f"{code.wire_text}: {code.meaning} ({retry}).")


def _classes(names: Names) -> tuple[JavaClass, ...]:
    out = []
    for domain in names.class_domains:
        base = domain.base_code
        title = java_comment(f"An error of the domain {domain.domain.key}.")
        out.append(
            JavaClass(
                name=domain.class_name,
                parent=domain.parent_class or names.base,
                doc=title if base is None else title + " " + _code_doc(base),
                code=None if base is None else base.member,
                details=None if base is None else base.details_type,
                accessor=(
                    _accessor(base.details_type)
                    if base is not None and base.details_type
                    else None
                ),
                deprecated=None if base is None else _deprecated(base),
            )
        )
        for named in domain.codes:
            if named.is_domain_base:
                continue
            details = named.details_type
            out.append(
                JavaClass(
                    name=named.class_name,
                    parent=named.parent,
                    doc=_code_doc(named),
                    code=named.member,
                    details=details,
                    accessor=_accessor(details) if details else None,
                    deprecated=_deprecated(named),
                )
            )
    return tuple(out)


def java_package(names: Names, options: Options) -> str:
    """The option ``package`` if set, else ``<name>.errors``."""
    package = options.get("package")
    return package if isinstance(package, str) else default_package(names.taxonomy.name)


def _runtime(package: str) -> tuple[tuple[str, str], ...]:
    out = []
    for path in sorted(RUNTIME.glob("*.java")):
        text = path.read_text(encoding="utf-8")
        text = text.replace(
            "package taxogen.runtime;", f"package {package}.runtime;", 1
        )
        out.append((path.stem, text))
    return tuple(out)


def view(names: Names, options: Options) -> JavaView:
    """The Java view of a named taxonomy."""
    taxonomy = names.taxonomy
    package = java_package(names, options)
    rt = package + ".runtime"  # named in full: a class may be called State
    codes = []
    for domain in names.domains:
        for named in domain.codes:
            literal = java_str(named.code.wire_text)
            codes.append((named.member, literal, _code_doc(named), _deprecated(named)))
            for alias in named.aliases:
                doc = java_comment(f"{alias.name}: another name of {named.member}.")
                codes.append((alias.member, f"Code.{named.member}", doc, None))
    pattern = code_pattern(taxonomy)
    return JavaView(
        header=header_lines(taxonomy.source),
        package=package,
        folder=package.replace(".", "/"),
        title=java_comment(taxonomy.title),
        version=java_str(taxonomy.version),
        base=names.base,
        codes=tuple(codes),
        domains=tuple((d.member, java_str(d.domain.key)) for d in names.domains),
        classes=_classes(names),
        records=_records(names, rt),
        parts=_parts(names, rt),
        setup=_setup(names, rt),
        pattern="null" if pattern is None else java_str(pattern),
        fallback=(
            "null" if names.fallback is None else f"Code.{names.fallback.member}"
        ),
        wrap=names.wrap.member,
        runtime=_runtime(package),
    )
