"""The Python target: its view model, its templates, and where its files go.

The package is ``python/src/<package>/``: ``__init__.py`` (the taxonomy's
enums, classes and tables, and the public functions bound to them), the private
``_runtime.py`` (the code that is the same for every taxonomy, copied verbatim
from ``runtime/_runtime.py``, which is real, typed and tested source), one
lazily imported module per domain when the taxonomy is large (:func:`lazy`),
``py.typed``, and beside ``src/`` a ``pyproject.toml`` and a README.  Templates
print black-clean code with the helpers of :mod:`taxogen.targets.python.pysyntax`;
:func:`_finish` passes any file they could not keep within black's limits
through black itself.

It is longer than 300 lines because both layouts (``module`` and ``lazy``)
are built here from one view, the lazy one's per-domain modules included.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from taxogen.targets.python import pysyntax
from taxogen.model import (
    DOCS_URL_PLACEHOLDER,
    Event,
    Taxonomy,
    code_pattern,
    constant_text,
    pep440,
)
from taxogen.naming import NamedCode, NamedDomain, Names
from taxogen.targets.base import Options, Runtime, Target, Template, header_lines
from taxogen.targets.mapped import stated
from taxogen.targets.metadata import Package, licensed
from taxogen.targets.python import escape, naming
from taxogen.targets.python.nested import Nested, nested_types
from taxogen.targets.python.details import (
    PyDetails,
    PyTyping,
    typing_names,
    typing_of,
)

__all__ = ["LAZY_ABOVE", "TARGET", "TARGETS", "PythonView", "lazy", "view"]

#: Above this many codes, ``python_layout: auto`` chooses the lazy layout.  An
#: eager module costs about 25 µs a code to import (a class and an enum member);
#: at 256 codes that is some 6 ms, about what ``psycopg.errors`` costs for its
#: 258 classes, and below it one module is simpler to read and to ship.
LAZY_ABOVE = 256


def lazy(taxonomy: Taxonomy) -> bool:
    """Whether the Python package defines its classes in per-domain lazy modules."""
    if taxonomy.python_layout == "auto":
        return len(taxonomy.codes) > LAZY_ABOVE
    return taxonomy.python_layout == "lazy"


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class PythonView:
    """Everything the Python templates use, computed once."""

    header: str
    header_lines: tuple[str, str]
    name: str
    version: str
    py_version: str  # the taxonomy's semantic version spelled for PEP 440
    py_dist: str  # the distribution name (the package with dashes)
    description: str
    #: The project's metadata (``[tool.taxogen.python]``: name, license...).
    meta: Package
    package: str
    base: str
    py_guard: str
    code_pattern: str | None  # None: codes are integers
    integer: bool  # whether codes are integers on the wire (``wire_type``)
    code_type: str  # the Python type of a wire code: ``str`` or ``int``
    codes: tuple[NamedCode, ...]
    domains: tuple[NamedDomain, ...]
    class_domains: tuple[NamedDomain, ...]  # parents first (Names.class_domains)
    events: tuple[Event, ...]
    #: None with ``fallback: null`` (issue 30 §3): unknown codes keep their own.
    fallback: NamedCode | None
    wrap: NamedCode
    #: The code the README's example decodes: the fallback, else the wrap code.
    example: NamedCode
    #: The classes that need a constructor without a code (Names.own_constructors).
    own_constructors: frozenset[str]
    #: Whose class an unknown code gets, as the docstrings say it.
    unknown_label: str
    #: With no fallback: the root class's meaning (the title), and whether an
    #: unknown code is retryable where its payload does not say.
    unknown_meaning: str
    unknown_retryable: str
    #: Whether any unknown code keeps its identity (a fallback: null, at the top
    #: level or on a domain): ``code`` is then wider than ErrorCode somewhere.
    keeps_any: bool
    #: The classes whose errors may carry any code (Names.any_code_classes).
    any_code_classes: frozenset[str]
    #: ``match:``: each prefix (string codes) or inclusive range (integer codes)
    #: and the class of the domain an unknown code in it falls back to.
    prefixes: tuple[tuple[str, str], ...]
    ranges: tuple[tuple[int, int, str], ...]
    exports: tuple[str, ...]  # __all__, sorted
    lazy: bool
    module_domains: tuple[NamedDomain, ...]  # the domains with a module of their own
    #: What each class states of its details beyond its parent's, by class name.
    typings: Mapping[str, PyTyping]
    details_types: tuple[PyDetails, ...]  # a TypedDict per code with fields
    nested_types: tuple[Nested, ...]  # one per typed object (issue 30 §7)
    typing_import: str  # the ``from typing import ...`` of ``__init__.py``
    #: By class name, the ``http_status``, ``grpc_status``, ``throttling`` and
    #: ``doc_url`` it states (those that differ from its parent's): each
    #: annotated name, and its value as a literal.
    mapped: Mapping[str, tuple[tuple[str, str], ...]]
    #: The payload where it is not today's: the ``_runtime.Wire(...)`` arguments
    #: (each ``name=literal``), the ErrorPayload TypedDict's members (name
    #: literal, type) and, with an envelope, its member and the body's members.
    wire_args: tuple[str, ...] | None
    payload_members: tuple[tuple[str, str], ...]
    #: With an envelope, the payload's own members beside it (its constants).
    outer_members: tuple[tuple[str, str], ...]
    envelope: str | None
    #: The root's ``details`` type where details are not always an object.
    details_any: bool
    #: What its constructor's ``details=`` takes then (an array: a list or tuple).
    details_param: str
    #: ``python_bases`` (issue 30 §6): by class name, the builtins it also
    #: subclasses, as ``, builtins.X`` to follow its parent in its class line.
    native: Mapping[str, str]
    #: Each builtin a class names and that class's name, deepest classes first
    #: (what ``to_error`` matches a native exception against).
    natives: tuple[tuple[str, str], ...]
    #: Whether the module imports ``builtins``: a class has python_bases or takes
    #: a builtin exception's name (the module's own uses of builtins are of
    #: ``BaseException`` and non-exceptions, which no class may be named).
    builtins_import: bool


def _wire_args(taxonomy: Taxonomy) -> tuple[str, ...] | None:
    """The arguments of the package's ``_runtime.Wire``, or None: today's payload."""
    payload = taxonomy.payload
    if payload.default:
        return None
    args = [
        f"code={_py_literal(payload.code)}",
        f"message={_py_literal(payload.message)}",
        f"retryable={_py_literal(payload.retryable)}",
        f"details={_py_literal(payload.details)}",
        f"details_type={_py_literal(payload.details_type)}",
        f"envelope={_py_literal(payload.envelope)}",
        f"always_details={payload.always_details!r}",
    ]
    if payload.problem and taxonomy.docs_url is not None:
        prefix, suffix = taxonomy.docs_url.split(DOCS_URL_PLACEHOLDER)
        args.append(f"uri=({_py_literal(prefix)}, {_py_literal(suffix)})")
    args.append(f"message_required={not payload.optional_message!r}")
    if payload.exact_message:
        args.append("exact_message=True")
    if payload.constants:
        items = "".join(
            f"({_py_literal(name)}, {_py_literal(value)}, "
            f"{_py_literal(constant_text(value))}), "
            for name, value in payload.constants
        )
        args.append(f"constants=({items})")
    if payload.keeps_outside:
        args.append("outside=True")
    if payload.status is not None:
        args.append(f"status={_py_literal(payload.status)}")
    return tuple(args)


def _payload_members(taxonomy: Taxonomy) -> tuple[tuple[str, str], ...]:
    """The members ``to_payload`` writes, each with its Python type (``NotRequired``
    where it may be left out)."""
    payload = taxonomy.payload
    code = "int" if taxonomy.wire_type == "integer" else "str"
    members = [] if payload.envelope else _constant_members(taxonomy)
    members.append((payload.code, "str" if payload.problem else code))
    if payload.problem:
        members += [("title", "str"), ("status", "int")]
    members.append(
        (payload.message, "NotRequired[str]" if payload.exact_message else "str")
    )
    if payload.retryable is not None:
        members.append((payload.retryable, "bool"))
    if payload.status is not None:  # left out while the error has no status
        members.append((payload.status, "NotRequired[int]"))
    if payload.details is not None and not payload.rest:
        kind = {"object": "dict[str, Any]", "array": "list[Any]", "any": "Any"}[
            payload.details_type
        ]
        if not payload.always_details:
            kind = f"NotRequired[{kind}]"
        members.append((payload.details, kind))
    return tuple((_py_literal(name), kind) for name, kind in members)


def _exports(names: Names, nested: tuple[Nested, ...]) -> tuple[str, ...]:
    classes = [names.base]
    classes.extend(c.details_type for c in names.codes if c.details_type)
    classes.extend(t.name for t in nested)
    for domain in names.domains:
        if domain.base_code is None:
            classes.append(domain.class_name)
        classes.extend(code.class_name for code in domain.class_order)
        classes.extend(a.class_name for code in domain.codes for a in code.aliases)
    fixed = (
        "Domain",
        "ERROR_EVENTS",
        "ErrorCode",
        "ErrorPayload",
        "InvalidPayloadError",
        "MAX_CODE_LENGTH",
        "MAX_DETAILS_DEPTH",
        "MAX_DETAILS_NODES",
        "error_from_event",
        "from_payload",
        "is_retryable",
        "lookup",
        "to_error",
    )
    return tuple(sorted([*fixed, naming.guard(names), *classes]))


def view(names: Names, options: Options) -> PythonView:
    """The Python view of a named taxonomy."""
    taxonomy = names.taxonomy
    native, natives = _native(names)
    shadowing = {
        name for name in _class_names(names) if name in naming.PYTHON_EXCEPTIONS
    }
    is_lazy = lazy(taxonomy)
    typings, details_types = typing_of(names)
    nested = nested_types(names.base, names.domains)  # exported and typed
    meta = Package.of(
        options,
        name=naming.dist(names),
        description=f"{taxonomy.title}: error codes, generated by taxogen",
    )
    return PythonView(
        header=" ".join(header_lines(taxonomy.source)),
        header_lines=header_lines(taxonomy.source),
        name=taxonomy.name,
        version=taxonomy.version,
        py_version=pep440(taxonomy.version),
        py_dist=meta.name,
        description=meta.description,
        meta=meta,
        package=naming.package(names),
        base=names.base,
        py_guard=naming.guard(names),
        code_pattern=code_pattern(taxonomy),
        integer=taxonomy.wire_type == "integer",
        code_type="int" if taxonomy.wire_type == "integer" else "str",
        codes=names.codes,
        domains=names.domains,
        class_domains=names.class_domains,
        events=taxonomy.events,
        fallback=names.fallback,
        wrap=names.wrap,
        example=names.fallback or names.wrap,
        own_constructors=names.own_constructors,
        unknown_label="the fallback's" if names.fallback else "the root's",
        unknown_meaning=taxonomy.title,
        unknown_retryable=taxonomy.unknown_retryable,
        any_code_classes=names.any_code_classes,
        keeps_any=names.fallback is None
        or any(d.keeps_unknown for d in taxonomy.domains),
        prefixes=names.prefixes,
        ranges=names.ranges,
        exports=_exports(names, nested),
        lazy=is_lazy,
        module_domains=names.domains if is_lazy else (),
        typings=typings,
        details_types=details_types,
        nested_types=nested,
        typing_import=_typing_import(
            (
                "ClassVar",
                "Final",
                "TypeGuard",
                *typing_names(names.codes),
                # ErrorPayload and the root's to_payload.
                *("Any", "TypedDict", "cast"),
                *_payload_typing(taxonomy),
            ),
            is_lazy,
        ),
        mapped={
            name: (
                tuple(
                    (f"{attr}: {_PY_TYPES[attr]}", _py_literal(value))
                    for attr, value in pairs
                )
                if pairs
                else ()  # most classes state none: no generator for each
            )
            for name, pairs in stated(names).items()
        },
        wire_args=_wire_args(taxonomy),
        payload_members=_payload_members(taxonomy),
        outer_members=_outer_members(taxonomy),
        envelope=(
            None
            if taxonomy.payload.envelope is None
            else _py_literal(taxonomy.payload.envelope)
        ),
        details_any=taxonomy.payload.details_type != "object",
        details_param=(
            "list[Any] | tuple[Any, ...] | None"
            if taxonomy.payload.details_type == "array"
            else "Any"
        ),
        native=native,
        natives=natives,
        builtins_import=bool(natives or shadowing),
    )


def _class_names(names: Names) -> Iterable[str]:
    """Every class name of the package: the root, the domains', the codes' and
    their aliases'."""
    yield names.base
    for domain in names.domains:
        yield domain.class_name
        for code in domain.codes:
            yield code.class_name
            yield from (alias.class_name for alias in code.aliases)


def _native(
    names: Names,
) -> tuple[dict[str, str], tuple[tuple[str, str], ...]]:
    """Each class's ``python_bases`` as the end of its class line, and the
    (builtin, class) pairs ``to_error`` matches against, deepest class first
    (then in file order): a code's class below its domain's, below the root."""
    taxonomy = names.taxonomy
    native: dict[str, str] = {}
    ranked: list[tuple[int, int, str, str]] = []

    def add(class_name: str, depth: int, bases: tuple[str, ...]) -> None:
        if bases:
            native[class_name] = "".join(f", builtins.{b}" for b in bases)
        for b in bases:
            ranked.append((-depth, len(ranked), b, class_name))

    add(names.base, 0, taxonomy.python_bases)
    for domain in names.class_domains:
        depth = 1 + len(taxonomy.ancestors(domain.domain))
        if domain.base_code is None:
            add(domain.class_name, depth, domain.domain.python_bases)
        for code in domain.class_order:
            own = code.code.python_bases
            if code.is_domain_base:  # its class is the domain's
                mine = domain.domain.python_bases
                own = (*mine, *(b for b in own if b not in mine))
            add(code.class_name, depth + (0 if code.is_domain_base else 1), own)
    return native, tuple((b, c) for _, _, b, c in sorted(ranked))


def _constant_members(taxonomy: Taxonomy) -> list[tuple[str, str]]:
    """The payload's constants, each with its Python type (str, int, float or
    bool)."""
    constants = taxonomy.payload.constants
    return [(name, type(value).__name__) for name, value in constants]


def _outer_members(taxonomy: Taxonomy) -> tuple[tuple[str, str], ...]:
    """With an envelope, the members written beside it, each with its type."""
    if taxonomy.payload.envelope is None:
        return ()
    members = _constant_members(taxonomy)
    return tuple((_py_literal(name), kind) for name, kind in members)


def _payload_typing(taxonomy: Taxonomy) -> tuple[str, ...]:
    """What the ErrorPayload of a payload other than today's imports from typing."""
    payload = taxonomy.payload
    if payload.exact_message:
        return ("NotRequired",)
    if payload.status is None and (
        payload.details is None or payload.rest or payload.always_details
    ):
        return ()
    return ("NotRequired",)


#: The declared type of each mapped attribute (the runtime's): stated again on
#: every class that sets one, or mypy would take a str for the type of all below.
_PY_TYPES = {
    "http_status": "int | None",
    "grpc_status": "ClassVar[str | None]",
    "throttling": "ClassVar[bool]",
    "doc_url": "ClassVar[str | None]",
    "retry_after_field": "ClassVar[str | None]",
}


def _py_literal(value: object) -> str:
    """A value as Python source (a string escaped): a class attribute, a wire
    code, or None."""
    if isinstance(value, str):
        return escape.python_str(value)
    return repr(value)  # None, a bool or an int


def _typing_import(names: Iterable[str], type_checking: bool = False) -> str:
    """``from typing import ...`` of ``names``, spelt as isort and black would:
    the constant first, then the rest sorted, exploded when too long."""
    ordered = (["TYPE_CHECKING"] if type_checking else []) + sorted(set(names))
    if not ordered:
        return ""
    line = f"from typing import {', '.join(ordered)}"
    if pysyntax.fits(line):
        return line
    return "from typing import (\n" + "".join(f"    {n},\n" for n in ordered) + ")"


def _module_imports(
    view: PythonView, domain: NamedDomain, parent: NamedDomain | None
) -> dict[str, Any]:
    """What the lazy module of ``domain`` imports: for its classes' details, and
    its ``parent`` domain's class from that domain's module."""
    order = domain.class_order
    typed = [view.typings[c.class_name] for c in order if c.class_name in view.typings]
    used = [
        n for n in typing_names(domain.codes, deep=False) if n in ("Any", "Literal")
    ]
    classes = [c.class_name for c in order]
    # Whether a class or alias of the domain takes a builtin exception's name.
    shadowing = not naming.PYTHON_EXCEPTIONS.keys().isdisjoint(classes) or any(
        a.class_name in naming.PYTHON_EXCEPTIONS for c in order for a in c.aliases
    )
    if domain.base_code is None:
        classes.append(domain.class_name)
    if any(view.mapped[name] for name in classes):
        used.append("ClassVar")  # a class states its statuses or docs link
    return {
        "builtins_import": shadowing
        or any(name in view.native for name in classes)
        or domain.class_name in naming.PYTHON_EXCEPTIONS,
        "typing_import": _typing_import(used),
        "details_imports": sorted(
            {name for t in typed if t.details for name in t.details.split(" | ")}
            | {name for t in typed for p in t.params for name in p.nested}
        ),
        "has_init": any(t.fields is not None for t in typed),
        "parent_import": (
            None
            if parent is None
            else (naming.domain_module(parent), parent.class_name)
        ),
    }


def _per_domain(
    view: PythonView,
) -> Iterable[tuple[Mapping[str, str], Mapping[str, Any]]]:
    # Each domain by its key, the first of a key kept: a module imports its
    # parent's class (looked up once, not by a walk of every domain for each).
    by_key: dict[str | None, NamedDomain] = {}
    for domain in view.domains:
        by_key.setdefault(domain.domain.key, domain)
    for domain in view.module_domains:
        parent = by_key.get(domain.domain.parent)
        yield {"module": naming.domain_module(domain)}, {
            "d": domain,
            **_module_imports(view, domain, parent),
        }


def _finish(path: str, text: str) -> str:
    return pysyntax.finish(text) if path.endswith(".py") else text


def _py_bool(value: bool) -> str:
    return "True" if value else "False"


def _py_assign(target: str, value: str, indent: int) -> str:
    line = f"{' ' * indent}{target} = {value}"
    if len(line) <= pysyntax.LINE_LENGTH and line.isascii():
        return line  # the usual line, answered here: 30,000 calls at 10,000 codes
    return pysyntax.assign(indent, target, value)


def _code_doc(named: NamedCode) -> str:
    """A code's class docstring: its meaning first (what an editor's hover
    shows), then its code and retryability, and its deprecation."""
    code = named.code
    retry = "retryable" if code.retryable else "not retryable"
    role = (
        f"The error of code ``{code.wire_text}`` and the base of every error "
        f"of its domain; {retry}."
        if named.is_domain_base
        else f"The error of code ``{code.wire_text}``; {retry}."
    )
    paragraphs = [code.meaning, role]
    if code.deprecated is not None:
        paragraphs.append(f"Deprecated: {code.deprecated.reason}")
        if code.deprecated.replaced_by is not None:
            paragraphs.append(
                f"Use the ``{code.deprecated.replaced_by}`` code instead."
            )
    return pysyntax.docstring(4, tuple(paragraphs))


def _domain_doc(named: NamedDomain) -> str:
    """A domain class's docstring: its title and description."""
    domain = named.domain
    paragraphs = [domain.title]
    if domain.description:
        paragraphs.append(domain.description)
    paragraphs.append(f"The base of every error of the ``{domain.key}`` domain.")
    return pysyntax.docstring(4, tuple(paragraphs))


TARGET = Target(
    name="python",
    view=view,
    templates=(
        Template(template="python/pyproject.toml.j2", output="python/pyproject.toml"),
        Template(template="python/README.md.j2", output="python/README.md"),
        Template(
            template="python/__init__.py.j2",
            output="python/src/{package}/__init__.py",
        ),
        Template(template="python/py.typed.j2", output="python/src/{package}/py.typed"),
        Template(template="python/LICENSE.j2", output="python/LICENSE", each=licensed),
        Template(
            template="python/domain.py.j2",
            output="python/src/{package}/{module}.py",
            each=_per_domain,
        ),
    ),
    runtime=(
        Runtime(
            source="_runtime.py",
            output="python/src/{package}/_runtime.py",
            comment="# ",
        ),
    ),
    runtime_dir=Path(__file__).resolve().parent / "runtime",
    filters={
        "py_module": naming.domain_module,
        "py_str": escape.python_str,
        "py_assign": _py_assign,
        "py_class": pysyntax.class_header,
        "py_code_doc": _code_doc,
        "py_domain_doc": _domain_doc,
        "py_bool": _py_bool,
        "py_literal": _py_literal,
        "toml_str": escape.toml_str,
    },
    paths=lambda names: {"package": naming.package(names)},
    # A package is the taxonomy's name plus _errors; a domain's module is its
    # member in lower case behind _domain_ (naming.domain_module).
    placeholders={"package": "[a-z][a-z0-9_]*", "module": "_domain_[a-z0-9_]+"},
    finish=_finish,
)
#: This folder's targets (see target.toml).
TARGETS = (TARGET,)
