"""Validate: turn the node tree of a taxonomy file into the frozen model.

Every check is made here, against the source positions the loader kept, and
every problem is collected before anything is raised, so a user fixing a file
sees all of its mistakes at once.  Scalars are interpreted by the key they sit
under, strictly: a boolean is exactly ``true`` or ``false`` (never YAML 1.1's
``yes``/``on``/``"no"``), a key is always text, and an unknown key gets a
did-you-mean from the keys that are allowed there.  Checks that need the
per-language identifiers (collisions, reserved words) live in ``naming``; when
a taxonomy has other problems, they are run here over its valid parts, so the
name clashes are reported in the same run.  Parts of the file the loader refused
(an alias, a tagged value) were reported there and are skipped here in silence.
"""

from __future__ import annotations

import difflib
import math
import re
from collections.abc import Callable, Iterable
from typing import TypeVar

from generator.diagnostics import MAX_DIAGNOSTICS, Diagnostic, Position, TaxonomyError
from generator.model import (
    ANY_CASE,
    CASE_PATTERNS,
    CASE_RULES,
    CLASS_PATTERN,
    CODE_CASES,
    NAME_PATTERN,
    SEMVER,
    PAYLOAD_FIELDS,
    PYTHON_LAYOUTS,
    Code,
    Deprecation,
    Docs,
    Domain,
    Event,
    Example,
    JSONObject,
    JSONValue,
    Taxonomy,
    Tombstone,
    semver_guess,
)
from generator.naming import check_names, pascal_guess, snake_guess
from generator.source import MapNode, Node, ScalarNode, SeqNode

__all__ = ["CASE_PATTERNS", "CASE_RULES", "FORMAT", "MAX_NAME_LENGTH", "validate"]

#: The taxonomy format this version of taxogen reads.
FORMAT = 1
#: Identifiers longer than this are refused: they are typos or attacks, not names.
MAX_NAME_LENGTH = 100

_EVENT_TYPE = re.compile(r"[A-Za-z][A-Za-z0-9_-]*(?:\.[A-Za-z][A-Za-z0-9_-]*)*")
_LOCATION = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*")
_INT = re.compile(r"[-+]?[0-9]+")
_FLOAT = re.compile(r"[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?")

_TOP_KEYS = (
    "format",
    "name",
    "title",
    "version",
    "base",
    "fallback",
    "wrap",
    "code_case",
    "python_layout",
    "domains",
    "events",
    "docs",
)
_TOP_REQUIRED = (
    "format",
    "name",
    "title",
    "version",
    "base",
    "fallback",
    "wrap",
    "domains",
)
_DOMAIN_KEYS = ("title", "description", "class", "codes")
_CODE_KEYS = ("retryable", "meaning", "class", "since", "deprecated", "removed")
_DEPRECATED_KEYS = ("reason", "replaced_by", "since")
_REMOVED_KEYS = ("since", "reason")
_DOCS_KEYS = (
    "status",
    "purpose",
    "payload",
    "example",
    "fields",
    "taxonomy",
    "retryability",
    "propagation",
    "notes",
)
_EXAMPLE_KEYS = ("code", "message", "details")

T = TypeVar("T")

_NULLS = ("", "~", "null", "Null", "NULL")
# YAML 1.1 booleans that YAML 1.2 (and this loader) read as text, lowercased.
_YAML11_TRUE = ("y", "yes", "on")
_YAML11_FALSE = ("n", "no", "off")
_SHOWN = 60  # a value quoted in a message is cut to this many characters


class _TooMany(Exception):
    """Raised by the reader when it has collected MAX_DIAGNOSTICS problems."""


def _show(value: str) -> str:
    return repr(value if len(value) <= _SHOWN else value[: _SHOWN - 3] + "...")


def _describe(node: Node) -> str:
    if isinstance(node, MapNode):
        return "a mapping"
    if isinstance(node, SeqNode):
        return "a list"
    if node.plain and node.value in _NULLS:
        return "null"
    return _show(node.value)


class _Reader:
    """Typed accessors over nodes that record a diagnostic instead of raising.

    A node the loader refused (and reported) reads as missing, without a word.
    """

    def __init__(self, path: str) -> None:
        self.path = path
        self.diagnostics: list[Diagnostic] = []

    def error(self, position: Position | None, key: str, message: str) -> None:
        if len(self.diagnostics) >= MAX_DIAGNOSTICS:
            raise _TooMany
        self.diagnostics.append(
            Diagnostic(path=self.path, position=position, key=key, message=message)
        )

    def mapping(
        self,
        node: Node,
        key: str,
        allowed: Iterable[str],
        required: Iterable[str] = (),
        *,
        owner: Position | None = None,
    ) -> dict[str, tuple[ScalarNode, Node]] | None:
        """The allowed keys of a mapping; ``owner`` is where a missing key is reported."""
        if node.refused:
            return None
        if not isinstance(node, MapNode):
            self.error(node.position, key, f"expected a mapping, got {_describe(node)}")
            return None
        allowed = tuple(allowed)
        found: dict[str, tuple[ScalarNode, Node]] = {}
        suggested: set[str] = set()
        for name_node, value in node.items:
            name = name_node.value
            if name not in allowed:
                hint = difflib.get_close_matches(name, allowed, n=1, cutoff=0.6)
                if hint:
                    suggested.add(hint[0])
                    more = f" (did you mean {hint[0]!r}?)"
                else:
                    more = f" (expected one of: {', '.join(allowed)})"
                self.error(
                    name_node.position,
                    _join(key, name),
                    f"unknown key {_show(name)}{more}",
                )
                continue
            found[name] = (name_node, value)
        for name in required:
            # A misspelt key is reported once, as unknown with its did-you-mean;
            # a key the loader refused (a merge key...) may have been meant to give it.
            if name not in found and name not in suggested and not node.incomplete:
                self.error(
                    owner or node.position, _join(key, name), "required key is missing"
                )
        return found

    def text(
        self, node: Node, key: str, *, allow_empty: bool = True, lines: bool = False
    ) -> str | None:
        """The string at ``node``; ``lines``: it may hold line breaks and tabs (prose)."""
        if node.refused:
            return None
        if not isinstance(node, ScalarNode):
            self.error(node.position, key, f"expected a string, got {_describe(node)}")
            return None
        if node.plain and node.value in _NULLS:
            self.error(node.position, key, "expected a string, got null")
            return None
        if node.plain and node.value in (
            "true",
            "false",
            "True",
            "False",
            "TRUE",
            "FALSE",
        ):
            self.error(
                node.position,
                key,
                f"expected a string, got boolean {node.value}; quote it to mean the text",
            )
            return None
        bad = _first_surrogate(node.value)
        if bad is not None:
            self.error(
                node.position,
                key,
                f"text contains a lone surrogate U+{ord(bad):04X}, which is not a character",
            )
            return None
        if (
            not node.value.isprintable()
        ):  # else no control character: the usual case, in C
            control = (_CONTROL if lines else _CONTROL_LINE).search(node.value)
            if control is not None:
                allowed = (
                    "only line breaks and tabs are"
                    if lines
                    else "no control character is"
                )
                self.error(
                    node.position,
                    key,
                    f"text contains the control character U+{ord(control.group()):04X}"
                    f"{' (a bidirectional control)' if control.group() > chr(0x9F) else ''}; "
                    f"{allowed} allowed here",
                )
                return None
        if not allow_empty and not node.value.strip():
            self.error(node.position, key, "must not be empty")
            return None
        return node.value

    def one_of(self, node: Node, key: str, choices: tuple[str, ...]) -> str | None:
        """The text of ``node`` if it is one of ``choices``; else report it (with a close match) and None."""
        text = self.text(node, key)
        if text is None or text in choices:
            return text
        hint = difflib.get_close_matches(text.lower(), choices, n=1, cutoff=0.6)
        more = f"; did you mean {hint[0]!r}?" if hint else ""
        self.error(
            node.position,
            key,
            f"expected one of {', '.join(choices)}, got {_show(text)}{more}",
        )
        return None

    def boolean(self, node: Node, key: str) -> bool | None:
        if node.refused:
            return None
        if (
            isinstance(node, ScalarNode)
            and node.plain
            and node.value in ("true", "false")
        ):
            return node.value == "true"
        hint = "write true or false"
        if isinstance(node, ScalarNode):
            lower = node.value.lower()
            word = "true" if lower in ("true", *_YAML11_TRUE) else "false"
            if not node.plain and lower in (
                "true",
                "false",
                *_YAML11_TRUE,
                *_YAML11_FALSE,
            ):
                hint = f"quoted, it is text; write {word} without quotes"
            elif lower in ("true", "false"):
                hint = f"booleans are lowercase; write {lower}"
            elif lower in (*_YAML11_TRUE, *_YAML11_FALSE):
                hint = f"YAML 1.1's yes/no/on/off are not booleans here; write {word}"
            elif _INT.fullmatch(node.value) or _FLOAT.fullmatch(node.value):
                hint = "a number is not a boolean here; write true or false"
        self.error(
            node.position, key, f"expected true or false, got {_describe(node)}; {hint}"
        )
        return None

    def matching(
        self,
        node: Node,
        key: str,
        pattern: re.Pattern[str],
        what: str,
        suggest: Callable[[str], str] | None = None,
    ) -> str | None:
        value = self.text(node, key)
        if value is None:
            return None
        if len(value) > MAX_NAME_LENGTH:
            self.error(node.position, key, f"longer than {MAX_NAME_LENGTH} characters")
            return None
        if not pattern.fullmatch(value):
            self.error(
                node.position,
                key,
                f"expected {what}, got {_show(value)}{_did_you_mean(value, pattern, suggest)}",
            )
            return None
        return value

    def name_key(
        self, node: ScalarNode, key: str, pattern: re.Pattern[str], what: str
    ) -> bool:
        if len(node.value) > MAX_NAME_LENGTH:
            self.error(node.position, key, f"longer than {MAX_NAME_LENGTH} characters")
            return False
        if not pattern.fullmatch(node.value):
            self.error(node.position, key, f"{_show(node.value)} is not {what}")
            return False
        return True

    def case_key(
        self, node: ScalarNode, key: str, what: str, code_case: str | None
    ) -> bool:
        """Check a code or domain name against the taxonomy's ``code_case`` (``None``: invalid)."""
        if len(node.value) > MAX_NAME_LENGTH:
            self.error(node.position, key, f"longer than {MAX_NAME_LENGTH} characters")
            return False
        if code_case is None:
            if not ANY_CASE.fullmatch(node.value):
                self.error(
                    node.position,
                    key,
                    f"{what} {_show(node.value)} is neither lower_snake nor upper_snake",
                )
                return False
            return True
        pattern = CASE_PATTERNS[code_case]
        if pattern.fullmatch(node.value):
            return True
        convert = str.lower if code_case == "lower_snake" else str.upper
        hint = _did_you_mean(
            node.value, pattern, lambda text: convert(snake_guess(text))
        )
        self.error(
            node.position,
            key,
            f"{what} {_show(node.value)} does not follow code_case {code_case} ({CASE_RULES[code_case]}){hint}",
        )
        return False

    def json_value(self, node: Node, key: str) -> JSONValue:
        """Free-form data (docs.example.details), typed like YAML 1.2's core schema."""
        if node.refused:
            return None
        if isinstance(node, MapNode):
            return JSONObject(
                tuple(
                    (k.value, self.json_value(v, _join(key, k.value)))
                    for k, v in node.items
                )
            )
        if isinstance(node, SeqNode):
            return tuple(
                self.json_value(v, f"{key}[{i}]") for i, v in enumerate(node.items)
            )
        value = node.value
        if not node.plain:
            return value
        if value in _NULLS:
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


def _did_you_mean(
    value: str, pattern: re.Pattern[str], suggest: Callable[[str], str] | None
) -> str:
    if suggest is None:
        return ""
    candidate = suggest(value)
    if (
        candidate == value
        or len(candidate) > MAX_NAME_LENGTH
        or not pattern.fullmatch(candidate)
    ):
        return ""
    return f"; did you mean {candidate!r}?"


_SURROGATE = re.compile("[\ud800-\udfff]")


# Characters that would reach the outputs invisibly or in altered form: C0 and
# C1 controls, DEL, and the bidirectional embeddings, overrides and isolates
# that make text read differently from what it is ("Trojan Source").
_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")
_CONTROL_LINE = re.compile("[\x00-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def _first_surrogate(text: str) -> str | None:
    if text.isascii():  # the usual case, known without reading the text
        return None
    found = _SURROGATE.search(text)
    return None if found is None else found.group()


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


def validate(
    root: Node, path: str, source: str, earlier: Iterable[Diagnostic] = ()
) -> Taxonomy:
    """Check ``root`` (parsed from ``path``) and build the model, or raise every problem.

    ``source`` is the file name generated files will say they were made from;
    ``earlier`` holds problems the loader found, reported along with these.
    Collecting stops after :data:`~generator.diagnostics.MAX_DIAGNOSTICS`.
    """
    r = _Reader(path)
    r.diagnostics.extend(earlier)
    try:
        taxonomy = _validate(r, root, source)
    except _TooMany:
        raise TaxonomyError(r.diagnostics, truncated=True) from None
    if taxonomy is None or r.diagnostics:
        raise TaxonomyError(r.diagnostics)
    return taxonomy


class _Codes:
    """The codes met so far: the valid ones by domain, and whether any could not be read."""

    def __init__(self) -> None:
        self.valid: dict[str, tuple[str, Position]] = {}
        self.removed: dict[str, Tombstone] = (
            {}
        )  # tombstones: names that may never come back
        self.named: set[str] = set()  # every code key written, valid or not
        self.complete = (
            True  # false when a domain or its codes could not be read at all
        )

    def unknown(self, code: str) -> bool:
        """Whether ``code`` is certainly not a code of the taxonomy (so naming it is an error)."""
        return self.complete and code not in self.named


def _validate(r: _Reader, root: Node, source: str) -> Taxonomy | None:
    path = r.path
    if root.refused:
        return None
    if not isinstance(root, MapNode):
        r.error(
            root.position,
            "",
            f"a taxonomy is a mapping of keys (format: 1, name: ..., domains: ...), got {_describe(root)}",
        )
        return None
    top = r.mapping(root, "", _TOP_KEYS, _TOP_REQUIRED)
    if top is None:
        return None

    fmt = _get(top, "format", lambda n: r.text(n, "format"))
    if fmt is not None and fmt != str(FORMAT):
        r.error(
            top["format"][1].position,
            "format",
            f"unsupported format {_show(fmt)} (this taxogen reads format {FORMAT})",
        )
    name = _get(
        top,
        "name",
        lambda n: r.matching(
            n,
            "name",
            NAME_PATTERN,
            "a lower_snake identifier such as 'acme'",
            snake_guess,
        ),
    )
    title = _get(top, "title", lambda n: r.text(n, "title", allow_empty=False))
    version = _get(
        top,
        "version",
        lambda n: r.matching(
            n, "version", SEMVER, "a semantic version such as '1.2.0'", semver_guess
        ),
    )
    base = _get(
        top,
        "base",
        lambda n: r.matching(
            n,
            "base",
            CLASS_PATTERN,
            "a PascalCase class name such as 'AcmeError'",
            pascal_guess,
        ),
    )
    # None when unreadable or unknown: names are then only checked to be one case or the other.
    code_case = (
        r.one_of(top["code_case"][1], "code_case", CODE_CASES)
        if "code_case" in top
        else "lower_snake"
    )
    python_layout = (
        r.one_of(top["python_layout"][1], "python_layout", PYTHON_LAYOUTS)
        if "python_layout" in top
        else "auto"
    )

    domains: list[Domain] = []
    partial: list[Domain] = []  # the valid parts of every domain, for the name checks
    codes = _Codes()
    if "domains" in top:
        domains_node = top["domains"][1]
        if domains_node.refused:
            codes.complete = False
        elif not isinstance(domains_node, MapNode):
            r.error(
                domains_node.position,
                "domains",
                f"expected a mapping of domains, got {_describe(domains_node)}",
            )
            codes.complete = False
        elif not domains_node.items:
            r.error(domains_node.position, "domains", "must define at least one domain")
        else:
            for key_node, value in domains_node.items:
                domain, part = _domain(r, key_node, value, code_case, codes)
                if domain is not None:
                    domains.append(domain)
                if part is not None:
                    partial.append(part)
    else:
        codes.complete = False

    for role in ("fallback", "wrap"):
        if role not in top:
            continue
        role_node = top[role][1]
        role_code = r.text(role_node, role)
        if role_code is not None and role_code in codes.removed:
            r.error(
                role_node.position,
                role,
                f"{_show(role_code)} is a removed code; name a live one",
            )
        elif role_code is not None and codes.unknown(role_code):
            hint = difflib.get_close_matches(role_code, list(codes.named), n=1)
            more = f" (did you mean {hint[0]!r}?)" if hint else ""
            r.error(
                role_node.position, role, f"no code {_show(role_code)} is defined{more}"
            )

    events = _events(r, top.get("events"))
    docs = _docs(r, top.get("docs"), codes)

    if (
        r.diagnostics
        or name is None
        or title is None
        or version is None
        or base is None
        or code_case is None
        or python_layout is None
    ):
        # Report the name clashes among the parts that are valid, in this same run.
        guess = code_case or _guess_case(partial)
        base_position = top["base"][1].position if "base" in top else None
        for problem in check_names(partial, base, base_position, guess, path):
            r.error(problem.position, problem.key, problem.message)
        return None
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
        key_positions=tuple(
            (key, key_node.position) for key, (key_node, _) in top.items()
        ),
        python_layout=python_layout,
    )


def _guess_case(domains: list[Domain]) -> str:
    """The code case a taxonomy with an invalid ``code_case`` most likely meant."""
    for domain in domains:
        if CASE_PATTERNS["upper_snake"].fullmatch(domain.key):
            return "upper_snake"
        if CASE_PATTERNS["lower_snake"].fullmatch(domain.key):
            return "lower_snake"
    return "lower_snake"


def _scalar(node: Node) -> str:
    return node.value if isinstance(node, ScalarNode) else ""


def _domain(
    r: _Reader,
    key_node: ScalarNode,
    node: Node,
    code_case: str | None,
    codes: _Codes,
) -> tuple[Domain | None, Domain | None]:
    """The domain, and its valid parts (for the name checks), each ``None`` if unusable."""
    dkey = _join("domains", key_node.value)
    ok = r.case_key(key_node, dkey, "domain name", code_case)
    found = r.mapping(
        node, dkey, _DOMAIN_KEYS, ("title", "codes"), owner=key_node.position
    )
    if found is None:
        codes.complete = False
        return None, None
    title = _get(
        found, "title", lambda n: r.text(n, _join(dkey, "title"), allow_empty=False)
    )
    description = (
        _get(
            found,
            "description",
            lambda n: r.text(n, _join(dkey, "description"), lines=True),
        )
        or ""
    )
    class_name = _get(
        found,
        "class",
        lambda n: r.matching(
            n,
            _join(dkey, "class"),
            CLASS_PATTERN,
            "a PascalCase class name",
            pascal_guess,
        ),
    )
    class_ok = "class" not in found or class_name is not None
    valid: list[Code] = []
    partial: list[Code] = []
    removed: list[Tombstone] = []
    complete = ok and title is not None and class_ok
    if "codes" in found:
        codes_node = found["codes"][1]
        ckey = _join(dkey, "codes")
        if codes_node.refused:
            codes.complete = False
        elif not isinstance(codes_node, MapNode):
            r.error(
                codes_node.position,
                ckey,
                f"expected a mapping of codes, got {_describe(codes_node)}",
            )
            codes.complete = False
        elif not codes_node.items:
            r.error(codes_node.position, ckey, "a domain must have at least one code")
        for code_node, value in (
            codes_node.items if isinstance(codes_node, MapNode) else ()
        ):
            code, part = _code(
                r, key_node.value, ckey, code_node, value, code_case, codes
            )
            tomb = codes.removed.get(code_node.value)
            if (
                tomb is not None
                and tomb.domain == key_node.value
                and tomb.position == code_node.position
            ):
                removed.append(tomb)
            elif code is None:
                complete = False
            else:
                valid.append(code)
            if part is not None:
                partial.append(part)
    part_domain = None
    if ok and class_ok:
        part_domain = Domain(
            key=key_node.value,
            title=title or "",
            description=description,
            codes=tuple(partial),
            class_name=class_name,
            position=key_node.position,
        )
    if complete and not valid and removed:
        r.error(
            key_node.position,
            dkey,
            "every code of the domain is removed: a domain needs at least one live code",
        )
    if not complete or not valid or title is None:
        return None, part_domain
    domain = Domain(
        key=key_node.value,
        title=title,
        description=description,
        codes=tuple(valid),
        class_name=class_name,
        position=key_node.position,
        removed=tuple(removed),
    )
    return domain, part_domain


def _code(
    r: _Reader,
    domain: str,
    ckey: str,
    code_node: ScalarNode,
    node: Node,
    code_case: str | None,
    codes: _Codes,
) -> tuple[Code | None, Code | None]:
    """The code, and its name alone (for the name checks), each ``None`` if unusable."""
    key = _join(ckey, code_node.value)
    codes.named.add(code_node.value)
    ok = r.case_key(code_node, key, "code", code_case)
    if ok:
        earlier = codes.valid.get(code_node.value)
        tomb = codes.removed.get(code_node.value)
        if tomb is not None:
            r.error(
                code_node.position,
                key,
                f"code {code_node.value!r} was removed in {tomb.since} (line {tomb.position.line}); "
                "a removed code's name can never be used again, so old clients cannot misread it",
            )
            ok = False
        elif earlier is not None:
            r.error(
                code_node.position,
                key,
                f"code {code_node.value!r} is already defined in domain {earlier[0]!r} at line {earlier[1].line};"
                " a code belongs to one domain",
            )
            ok = False
        else:
            codes.valid[code_node.value] = (domain, code_node.position)
    removed = isinstance(node, MapNode) and any(
        k.value == "removed" for k, _ in node.items
    )
    required = () if removed else ("retryable", "meaning")
    found = r.mapping(node, key, _CODE_KEYS, required, owner=code_node.position)
    if found is None:
        name_only = Code(
            code=code_node.value,
            domain=domain,
            retryable=False,
            meaning="",
            class_name=None,
            position=code_node.position,
        )
        return None, name_only if ok and not node.refused else None
    if removed:
        tomb = _tombstone(r, domain, key, code_node, found)
        if tomb is not None and ok:
            codes.removed[code_node.value] = tomb
        return None, None
    retryable = _get(
        found, "retryable", lambda n: r.boolean(n, _join(key, "retryable"))
    )
    meaning = _get(
        found, "meaning", lambda n: r.text(n, _join(key, "meaning"), allow_empty=False)
    )
    class_name = _get(
        found,
        "class",
        lambda n: r.matching(
            n,
            _join(key, "class"),
            CLASS_PATTERN,
            "a PascalCase class name",
            pascal_guess,
        ),
    )
    since = _get(
        found,
        "since",
        lambda n: r.matching(
            n,
            _join(key, "since"),
            SEMVER,
            "a semantic version such as '1.2.0'",
            semver_guess,
        ),
    )
    deprecated = (
        _deprecation(r, key, found["deprecated"], code_case)
        if "deprecated" in found
        else None
    )
    broken = ("since" in found and since is None) or (
        "deprecated" in found and deprecated is None
    )
    if not ok or ("class" in found and class_name is None):
        return None, None
    part = Code(
        code=code_node.value,
        domain=domain,
        retryable=bool(retryable),
        meaning=meaning or "",
        class_name=class_name,
        position=code_node.position,
        since=since,
        deprecated=deprecated,
    )
    if retryable is None or meaning is None or broken:
        return None, part
    return part, part


def _deprecation(
    r: _Reader, key: str, item: tuple[ScalarNode, Node], code_case: str | None
) -> Deprecation | None:
    key_node, node = item
    dkey = _join(key, "deprecated")
    found = r.mapping(
        node, dkey, _DEPRECATED_KEYS, ("reason",), owner=key_node.position
    )
    if found is None:
        return None
    reason = _get(
        found, "reason", lambda n: r.text(n, _join(dkey, "reason"), allow_empty=False)
    )
    pattern = CASE_PATTERNS[code_case or "lower_snake"] if code_case else ANY_CASE
    replaced_by = _get(
        found,
        "replaced_by",
        lambda n: r.matching(n, _join(dkey, "replaced_by"), pattern, "a code"),
    )
    since = _get(
        found,
        "since",
        lambda n: r.matching(
            n,
            _join(dkey, "since"),
            SEMVER,
            "a semantic version such as '1.2.0'",
            semver_guess,
        ),
    )
    if (
        reason is None
        or ("replaced_by" in found and replaced_by is None)
        or ("since" in found and since is None)
    ):
        return None
    return Deprecation(
        reason=reason, replaced_by=replaced_by, since=since, position=key_node.position
    )


def _tombstone(
    r: _Reader,
    domain: str,
    key: str,
    code_node: ScalarNode,
    found: dict[str, tuple[ScalarNode, Node]],
) -> Tombstone | None:
    """A removed code: ``removed: {since, reason}``, its old meaning optional."""
    key_node, node = found["removed"]
    rkey = _join(key, "removed")
    for extra in ("class", "deprecated", "since"):
        if extra in found:
            r.error(
                found[extra][0].position,
                _join(key, extra),
                f"a removed code takes no {extra!r} (it is no longer generated)",
            )
    if "retryable" in found:
        r.boolean(found["retryable"][1], _join(key, "retryable"))
    meaning = _get(found, "meaning", lambda n: r.text(n, _join(key, "meaning"))) or ""
    removed = r.mapping(
        node, rkey, _REMOVED_KEYS, _REMOVED_KEYS, owner=key_node.position
    )
    if removed is None:
        return None
    since = _get(
        removed,
        "since",
        lambda n: r.matching(
            n,
            _join(rkey, "since"),
            SEMVER,
            "a semantic version such as '1.2.0'",
            semver_guess,
        ),
    )
    reason = _get(
        removed, "reason", lambda n: r.text(n, _join(rkey, "reason"), allow_empty=False)
    )
    if since is None or reason is None:
        return None
    return Tombstone(
        code=code_node.value,
        domain=domain,
        since=since,
        reason=reason,
        meaning=meaning,
        position=code_node.position,
    )


def _events(r: _Reader, item: tuple[ScalarNode, Node] | None) -> tuple[Event, ...]:
    if item is None or item[1].refused:
        return ()
    node = item[1]
    if not isinstance(node, MapNode):
        r.error(
            node.position,
            "events",
            f"expected a mapping of event type to error location, got {_describe(node)}",
        )
        return ()
    events: list[Event] = []
    for type_node, value in node.items:
        key = _join("events", type_node.value)
        ok = r.name_key(
            type_node, key, _EVENT_TYPE, "an event type such as 'task.failed'"
        )
        location = r.matching(
            value, key, _LOCATION, "a dotted path such as 'payload.error'"
        )
        if ok and location is not None:
            events.append(
                Event(
                    type=type_node.value, location=location, position=type_node.position
                )
            )
    return tuple(events)


def _docs(r: _Reader, item: tuple[ScalarNode, Node] | None, codes: _Codes) -> Docs:
    if item is None:
        return Docs()
    found = r.mapping(item[1], "docs", _DOCS_KEYS, owner=item[0].position)
    if found is None:
        return Docs()
    texts: dict[str, str] = {}
    for name in (
        "status",
        "purpose",
        "payload",
        "taxonomy",
        "retryability",
        "propagation",
    ):
        value = _get(found, name, lambda n, name=name: r.text(n, _join("docs", name), lines=True))  # type: ignore[misc]
        if value is not None:
            texts[name] = value
    notes: list[str] = []
    if "notes" in found:
        notes_node = found["notes"][1]
        if notes_node.refused:
            pass
        elif not isinstance(notes_node, SeqNode):
            r.error(
                notes_node.position,
                "docs.notes",
                f"expected a list of texts, got {_describe(notes_node)}",
            )
        else:
            for index, note_node in enumerate(notes_node.items):
                note = r.text(note_node, f"docs.notes[{index}]", lines=True)
                if note is not None:
                    notes.append(note)
    fields: list[tuple[str, str]] = []
    if "fields" in found:
        field_map = r.mapping(
            found["fields"][1], "docs.fields", [f[0] for f in PAYLOAD_FIELDS]
        )
        for field, (_, field_node) in (field_map or {}).items():
            field_text = r.text(field_node, _join("docs.fields", field), lines=True)
            if field_text is not None:
                fields.append((field, field_text))
    example = None
    if "example" in found:
        example = _example(r, found["example"], codes)
    return Docs(
        example=example,
        fields=tuple(fields),
        notes=tuple(notes),
        **texts,
    )


def _example(
    r: _Reader, item: tuple[ScalarNode, Node], codes: _Codes
) -> Example | None:
    key_node, node = item
    found = r.mapping(
        node,
        "docs.example",
        _EXAMPLE_KEYS,
        ("code", "message"),
        owner=key_node.position,
    )
    if found is None:
        return None
    code = _get(found, "code", lambda n: r.text(n, "docs.example.code"))
    if code is not None and code in codes.removed:
        r.error(
            found["code"][1].position,
            "docs.example.code",
            f"{_show(code)} is a removed code; show a live one",
        )
        code = None
    elif code is not None and code not in codes.valid:
        if codes.unknown(code):
            hint = difflib.get_close_matches(code, list(codes.named), n=1)
            more = f" (did you mean {hint[0]!r}?)" if hint else ""
            r.error(
                found["code"][1].position,
                "docs.example.code",
                f"no code {_show(code)} is defined{more}",
            )
        code = None
    message = _get(found, "message", lambda n: r.text(n, "docs.example.message"))
    details: JSONValue = None
    if "details" in found:
        details_node = found["details"][1]
        if details_node.refused:
            pass
        elif not isinstance(details_node, MapNode):
            r.error(
                details_node.position,
                "docs.example.details",
                f"expected a mapping, got {_describe(details_node)}",
            )
        else:
            details = r.json_value(details_node, "docs.example.details")
    if code is None or message is None:
        return None
    return Example(code=code, message=message, details=details, position=node.position)
