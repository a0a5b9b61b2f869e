"""Validate: turn the node tree of a taxonomy file into the frozen model.

Every check is made here, against the source positions the loader kept, and
every problem is collected before anything is raised, so a user fixing a file
sees all of its mistakes at once.  Scalars are interpreted by the key they sit
under, strictly: a boolean is exactly ``true`` or ``false`` (never YAML 1.1's
``yes``/``on``/``"no"``), a key is always text, and an unknown key gets a
did-you-mean from the keys that are allowed there.  Checks that need the
per-language identifiers (collisions, reserved words) live in ``naming``.
"""

from __future__ import annotations

import difflib
import math
import re
from collections.abc import Callable, Iterable
from typing import TypeVar

from generator.diagnostics import Diagnostic, Position, TaxonomyError
from generator.model import (
    CODE_CASES,
    PAYLOAD_FIELDS,
    Code,
    Docs,
    Domain,
    Event,
    Example,
    JSONObject,
    JSONValue,
    Taxonomy,
)
from generator.source import MapNode, Node, ScalarNode, SeqNode

__all__ = ["CASE_PATTERNS", "FORMAT", "MAX_NAME_LENGTH", "validate"]

#: The taxonomy format this version of taxogen reads.
FORMAT = 1
#: Identifiers longer than this are refused: they are typos or attacks, not names.
MAX_NAME_LENGTH = 100

CASE_PATTERNS = {
    "lower_snake": re.compile(r"[a-z][a-z0-9]*(?:_[a-z0-9]+)*"),
    "upper_snake": re.compile(r"[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*"),
}
_NAME = re.compile(r"[a-z][a-z0-9]*(?:_[a-z0-9]+)*")
_CLASS = re.compile(r"[A-Z][A-Za-z0-9]*")
_SEMVER = re.compile(
    r"(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)"
    r"(?:-[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*)?(?:\+[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*)?"
)
_EVENT_TYPE = re.compile(r"[A-Za-z][A-Za-z0-9_-]*(?:\.[A-Za-z][A-Za-z0-9_-]*)*")
_LOCATION = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*")
_INT = re.compile(r"[-+]?[0-9]+")
_FLOAT = re.compile(r"[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?")

_TOP_KEYS = ("format", "name", "title", "version", "base", "fallback", "wrap", "code_case", "domains", "events", "docs")
_TOP_REQUIRED = ("format", "name", "title", "version", "base", "fallback", "wrap", "domains")
_DOMAIN_KEYS = ("title", "description", "class", "codes")
_CODE_KEYS = ("retryable", "meaning", "class")
_DOCS_KEYS = ("status", "purpose", "payload", "example", "fields", "taxonomy", "retryability", "propagation", "notes")
_EXAMPLE_KEYS = ("code", "message", "details")

T = TypeVar("T")


def _describe(node: Node) -> str:
    if isinstance(node, MapNode):
        return "a mapping"
    if isinstance(node, SeqNode):
        return "a list"
    if node.plain and node.value in ("", "~", "null", "Null", "NULL"):
        return "null"
    return repr(node.value)


class _Reader:
    """Typed accessors over nodes that record a diagnostic instead of raising."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.diagnostics: list[Diagnostic] = []

    def error(self, position: Position | None, key: str, message: str) -> None:
        self.diagnostics.append(Diagnostic(path=self.path, position=position, key=key, message=message))

    def mapping(
        self, node: Node, key: str, allowed: Iterable[str], required: Iterable[str] = ()
    ) -> dict[str, tuple[ScalarNode, Node]] | None:
        if not isinstance(node, MapNode):
            self.error(node.position, key, f"expected a mapping, got {_describe(node)}")
            return None
        allowed = tuple(allowed)
        found: dict[str, tuple[ScalarNode, Node]] = {}
        for name_node, value in node.items:
            name = name_node.value
            if name not in allowed:
                hint = difflib.get_close_matches(name, allowed, n=1, cutoff=0.6)
                more = f" (did you mean {hint[0]!r}?)" if hint else f" (expected one of: {', '.join(allowed)})"
                self.error(name_node.position, _join(key, name), f"unknown key {name!r}{more}")
                continue
            found[name] = (name_node, value)
        for name in required:
            if name not in found:
                self.error(node.position, _join(key, name), "required key is missing")
        return found

    def text(self, node: Node, key: str, *, allow_empty: bool = True) -> str | None:
        if not isinstance(node, ScalarNode):
            self.error(node.position, key, f"expected a string, got {_describe(node)}")
            return None
        if node.plain and node.value in ("", "~", "null", "Null", "NULL"):
            self.error(node.position, key, "expected a string, got null")
            return None
        if node.plain and node.value in ("true", "false", "True", "False", "TRUE", "FALSE"):
            self.error(node.position, key, f"expected a string, got boolean {node.value}; quote it to mean the text")
            return None
        bad = _first_surrogate(node.value)
        if bad is not None:
            self.error(node.position, key, f"text contains a lone surrogate U+{ord(bad):04X}")
            return None
        if not allow_empty and not node.value.strip():
            self.error(node.position, key, "must not be empty")
            return None
        return node.value

    def boolean(self, node: Node, key: str) -> bool | None:
        if isinstance(node, ScalarNode) and node.plain and node.value in ("true", "false"):
            return node.value == "true"
        self.error(node.position, key, f"expected true or false, got {_describe(node)}")
        return None

    def matching(self, node: Node, key: str, pattern: re.Pattern[str], what: str) -> str | None:
        value = self.text(node, key)
        if value is None:
            return None
        if len(value) > MAX_NAME_LENGTH:
            self.error(node.position, key, f"longer than {MAX_NAME_LENGTH} characters")
            return None
        if not pattern.fullmatch(value):
            self.error(node.position, key, f"expected {what}, got {value!r}")
            return None
        return value

    def name_key(self, node: ScalarNode, key: str, pattern: re.Pattern[str], what: str) -> bool:
        if len(node.value) > MAX_NAME_LENGTH:
            self.error(node.position, key, f"longer than {MAX_NAME_LENGTH} characters")
            return False
        if not pattern.fullmatch(node.value):
            self.error(node.position, key, f"{node.value!r} is not {what}")
            return False
        return True

    def json_value(self, node: Node, key: str) -> JSONValue:
        """Free-form data (docs.example.details), typed like YAML 1.2's core schema."""
        if isinstance(node, MapNode):
            return JSONObject(tuple((k.value, self.json_value(v, _join(key, k.value))) for k, v in node.items))
        if isinstance(node, SeqNode):
            return tuple(self.json_value(v, f"{key}[{i}]") for i, v in enumerate(node.items))
        value = node.value
        if not node.plain:
            return value
        if value in ("", "~", "null", "Null", "NULL"):
            return None
        if value in ("true", "false"):
            return value == "true"
        if _INT.fullmatch(value):
            return int(value)
        if _FLOAT.fullmatch(value):
            number = float(value)
            if not math.isfinite(number):
                self.error(node.position, key, f"{value!r} is not a finite number")
                return None
            return number
        return value


def _first_surrogate(text: str) -> str | None:
    for char in text:
        if "\ud800" <= char <= "\udfff":
            return char
    return None


def _join(key: str, name: str) -> str:
    return f"{key}.{name}" if key else name


def _get(
    found: dict[str, tuple[ScalarNode, Node]] | None,
    name: str,
    parse: Callable[[Node], T | None],
) -> T | None:
    if found is None or name not in found:
        return None
    return parse(found[name][1])


def validate(root: Node, path: str, source: str, earlier: Iterable[Diagnostic] = ()) -> Taxonomy:
    """Check ``root`` (parsed from ``path``) and build the model, or raise every problem.

    ``source`` is the file name generated files will say they were made from;
    ``earlier`` holds problems the loader found, reported along with these.
    """
    r = _Reader(path)
    r.diagnostics.extend(earlier)
    top = r.mapping(root, "", _TOP_KEYS, _TOP_REQUIRED)
    if top is None:
        raise TaxonomyError(r.diagnostics)

    fmt = _get(top, "format", lambda n: r.text(n, "format"))
    if fmt is not None and fmt != str(FORMAT):
        r.error(top["format"][1].position, "format", f"unsupported format {fmt!r} (this taxogen reads format {FORMAT})")
    name = _get(top, "name", lambda n: r.matching(n, "name", _NAME, "a lower_snake identifier such as 'acme'"))
    title = _get(top, "title", lambda n: r.text(n, "title", allow_empty=False))
    version = _get(top, "version", lambda n: r.matching(n, "version", _SEMVER, "a semantic version such as '1.2.0'"))
    base = _get(top, "base", lambda n: r.matching(n, "base", _CLASS, "a PascalCase class name such as 'AcmeError'"))
    code_case = "lower_snake"
    if "code_case" in top:
        case_node = top["code_case"][1]
        case = r.text(case_node, "code_case")
        if case is not None and case not in CODE_CASES:
            r.error(case_node.position, "code_case", f"expected one of {', '.join(CODE_CASES)}, got {case!r}")
        elif case is not None:
            code_case = case
    case_pattern = CASE_PATTERNS[code_case]
    case_what = f"{code_case} ({case_pattern.pattern})"

    domains: list[Domain] = []
    seen_codes: dict[str, tuple[str, Position]] = {}
    if "domains" in top:
        domains_node = top["domains"][1]
        if not isinstance(domains_node, MapNode):
            r.error(domains_node.position, "domains", f"expected a mapping of domains, got {_describe(domains_node)}")
        elif not domains_node.items:
            r.error(domains_node.position, "domains", "must define at least one domain")
        else:
            for key_node, value in domains_node.items:
                domain = _domain(r, key_node, value, case_pattern, case_what, seen_codes)
                if domain is not None:
                    domains.append(domain)

    for role in ("fallback", "wrap"):
        if role not in top:
            continue
        role_node = top[role][1]
        role_code = r.text(role_node, role)
        if role_code is not None and role_code not in seen_codes:
            hint = difflib.get_close_matches(role_code, list(seen_codes), n=1)
            more = f" (did you mean {hint[0]!r}?)" if hint else ""
            r.error(role_node.position, role, f"no code {role_code!r} is defined{more}")

    events = _events(r, top.get("events"))
    docs = _docs(r, top.get("docs"), seen_codes)

    if r.diagnostics or name is None or title is None or version is None or base is None:
        raise TaxonomyError(r.diagnostics)
    return Taxonomy(
        source=source,
        name=name,
        title=title,
        version=version,
        base=base,
        # Both were checked above to name a defined code (so they are plain text).
        fallback=_scalar(top["fallback"][1]),
        wrap=_scalar(top["wrap"][1]),
        code_case=code_case,
        domains=tuple(domains),
        events=events,
        docs=docs,
        base_position=top["base"][1].position,
    )


def _scalar(node: Node) -> str:
    return node.value if isinstance(node, ScalarNode) else ""


def _domain(
    r: _Reader,
    key_node: ScalarNode,
    node: Node,
    case_pattern: re.Pattern[str],
    case_what: str,
    seen_codes: dict[str, tuple[str, Position]],
) -> Domain | None:
    dkey = _join("domains", key_node.value)
    ok = r.name_key(key_node, dkey, case_pattern, f"a domain name in {case_what}")
    found = r.mapping(node, dkey, _DOMAIN_KEYS, ("title", "codes"))
    if found is None:
        return None
    title = _get(found, "title", lambda n: r.text(n, _join(dkey, "title"), allow_empty=False))
    description = _get(found, "description", lambda n: r.text(n, _join(dkey, "description"))) or ""
    class_name = _get(found, "class", lambda n: r.matching(n, _join(dkey, "class"), _CLASS, "a PascalCase class name"))
    codes: list[Code] = []
    complete = ok and title is not None
    if "codes" in found:
        codes_node = found["codes"][1]
        ckey = _join(dkey, "codes")
        if not isinstance(codes_node, MapNode):
            r.error(codes_node.position, ckey, f"expected a mapping of codes, got {_describe(codes_node)}")
        elif not codes_node.items:
            r.error(codes_node.position, ckey, "a domain must have at least one code")
        for code_node, value in codes_node.items if isinstance(codes_node, MapNode) else ():
            code = _code(r, key_node.value, ckey, code_node, value, case_pattern, case_what, seen_codes)
            if code is None:
                complete = False
            else:
                codes.append(code)
    if not complete or not codes or title is None:
        return None
    return Domain(
        key=key_node.value,
        title=title,
        description=description,
        codes=tuple(codes),
        class_name=class_name,
        position=key_node.position,
    )


def _code(
    r: _Reader,
    domain: str,
    ckey: str,
    code_node: ScalarNode,
    node: Node,
    case_pattern: re.Pattern[str],
    case_what: str,
    seen_codes: dict[str, tuple[str, Position]],
) -> Code | None:
    key = _join(ckey, code_node.value)
    ok = r.name_key(code_node, key, case_pattern, f"a code in {case_what}")
    if ok:
        earlier = seen_codes.get(code_node.value)
        if earlier is not None:
            r.error(
                code_node.position,
                key,
                f"code {code_node.value!r} is already defined in domain {earlier[0]!r} at line {earlier[1].line}",
            )
            ok = False
        else:
            seen_codes[code_node.value] = (domain, code_node.position)
    found = r.mapping(node, key, _CODE_KEYS, ("retryable", "meaning"))
    if found is None:
        return None
    retryable = _get(found, "retryable", lambda n: r.boolean(n, _join(key, "retryable")))
    meaning = _get(found, "meaning", lambda n: r.text(n, _join(key, "meaning"), allow_empty=False))
    class_name = _get(found, "class", lambda n: r.matching(n, _join(key, "class"), _CLASS, "a PascalCase class name"))
    if not ok or retryable is None or meaning is None:
        return None
    return Code(
        code=code_node.value,
        domain=domain,
        retryable=retryable,
        meaning=meaning,
        class_name=class_name,
        position=code_node.position,
    )


def _events(r: _Reader, item: tuple[ScalarNode, Node] | None) -> tuple[Event, ...]:
    if item is None:
        return ()
    node = item[1]
    if not isinstance(node, MapNode):
        r.error(node.position, "events", f"expected a mapping of event type to error location, got {_describe(node)}")
        return ()
    events: list[Event] = []
    for type_node, value in node.items:
        key = _join("events", type_node.value)
        ok = r.name_key(type_node, key, _EVENT_TYPE, "an event type such as 'task.failed'")
        location = r.matching(value, key, _LOCATION, "a dotted path such as 'payload.error'")
        if ok and location is not None:
            events.append(Event(type=type_node.value, location=location, position=type_node.position))
    return tuple(events)


def _docs(
    r: _Reader, item: tuple[ScalarNode, Node] | None, codes: dict[str, tuple[str, Position]]
) -> Docs:
    if item is None:
        return Docs()
    found = r.mapping(item[1], "docs", _DOCS_KEYS)
    if found is None:
        return Docs()
    texts: dict[str, str] = {}
    for name in ("status", "purpose", "payload", "taxonomy", "retryability", "propagation"):
        value = _get(found, name, lambda n, name=name: r.text(n, _join("docs", name)))  # type: ignore[misc]
        if value is not None:
            texts[name] = value
    notes: list[str] = []
    if "notes" in found:
        notes_node = found["notes"][1]
        if not isinstance(notes_node, SeqNode):
            r.error(notes_node.position, "docs.notes", f"expected a list of texts, got {_describe(notes_node)}")
        else:
            for index, note_node in enumerate(notes_node.items):
                note = r.text(note_node, f"docs.notes[{index}]")
                if note is not None:
                    notes.append(note)
    fields: list[tuple[str, str]] = []
    if "fields" in found:
        field_map = r.mapping(found["fields"][1], "docs.fields", [f[0] for f in PAYLOAD_FIELDS])
        for field, (_, field_node) in (field_map or {}).items():
            field_text = r.text(field_node, _join("docs.fields", field))
            if field_text is not None:
                fields.append((field, field_text))
    example = None
    if "example" in found:
        example = _example(r, found["example"][1], codes)
    return Docs(
        example=example,
        fields=tuple(fields),
        notes=tuple(notes),
        **texts,
    )


def _example(r: _Reader, node: Node, codes: dict[str, tuple[str, Position]]) -> Example | None:
    found = r.mapping(node, "docs.example", _EXAMPLE_KEYS, ("code", "message"))
    if found is None:
        return None
    code = _get(found, "code", lambda n: r.text(n, "docs.example.code"))
    if code is not None and code not in codes:
        r.error(found["code"][1].position, "docs.example.code", f"no code {code!r} is defined")
        code = None
    message = _get(found, "message", lambda n: r.text(n, "docs.example.message"))
    details: JSONValue = None
    if "details" in found:
        details_node = found["details"][1]
        if not isinstance(details_node, MapNode):
            r.error(details_node.position, "docs.example.details", f"expected a mapping, got {_describe(details_node)}")
        else:
            details = r.json_value(details_node, "docs.example.details")
    if code is None or message is None:
        return None
    return Example(code=code, message=message, details=details, position=node.position)
