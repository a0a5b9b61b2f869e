"""The oracle of the conformance tests: a case's taxonomy.yaml and the README's words.

Nothing here imports the generator.  The taxonomy is read with ``yaml.safe_load``
and interpreted by the rules README.md states ("The taxonomy format", "Names",
"Python", "The generated runtimes"), written out again here, so a bug in
``taxogen.naming``, ``taxogen.model``, ``taxogen.validate`` or
``taxogen.targets.contract`` cannot agree with itself: the generated runtimes
and the generated vectors are both held to what the YAML says.

An *observation* is what a runtime did with one probe, as JSON (the same shape
from Python and from TypeScript, see ``tests/targets/typescript/ts/probe.mjs``);
``expected`` says
what the spec requires of it.
"""

from __future__ import annotations

import dataclasses
import datetime
import decimal
import json
import math
import re
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import yaml

#: README "Rules the loader enforces": the code pattern of each ``code_case``.
CODE_PATTERNS = {
    "lower_snake": re.compile(r"[a-z][a-z0-9]*(_[a-z0-9]+)*"),
    "upper_snake": re.compile(r"[A-Z][A-Z0-9]*(_[A-Z0-9]+)*"),
    # README "code_case: as_written": a key is a wire code as the protocol writes
    # it, printable ASCII without spaces, its first letter or digit a letter.
    "as_written": re.compile(r"[^A-Za-z0-9]*[A-Za-z][!-~]*"),
}
#: docs "Wire codes": once any code gives a ``wire:``, a string code is any
#: printable ASCII without spaces.
WIRE_PATTERN = re.compile(r"[!-~]+")
#: docs "Wire codes": integer codes are JavaScript's safe integers.
MAX_WIRE_INTEGER = 2**53 - 1
#: README "The generated runtimes": the limits, the same in every language.
MAX_CODE_LENGTH = 256
MAX_DETAILS_DEPTH = 64
MAX_DETAILS_NODES = 100_000
#: The payload fields ``InvalidPayloadError.field`` may name, in the order they are
#: read.
FIELDS = ("payload", "code", "message", "retryable", "details")


def _words(identifier: str) -> list[str]:
    """docs "Names": a snake key's words; a key written as on the wire
    (``NoSuchKey``, ``x-amz-Thing``) is split where a capitalised word, a run of
    capitals or a number starts, other characters only separating words."""
    if not re.fullmatch(
        r"[a-z][a-z0-9]*(_[a-z0-9]+)*|[A-Z][A-Z0-9]*(_[A-Z0-9]+)*", identifier
    ):
        found = re.findall(r"[A-Z]+(?![a-z])|[A-Z]?[a-z0-9]+|[0-9]+", identifier)
        return [w.lower() for w in found]
    return [w for w in identifier.lower().split("_") if w]


def readme_member(identifier: str) -> str:
    """docs "Names": the enum member, the key's words in capitals joined by _."""
    return "_".join(_words(identifier)).upper()


def readme_class_name(identifier: str, suffix: str = "Error") -> str:
    """docs "Names": PascalCase plus ``Error`` (or the ``class_suffix``, which
    may be empty), without doubling."""
    words = _words(identifier)
    if suffix and words[-1] == suffix.lower():
        words = words[:-1]
    return "".join(w.capitalize() for w in words) + suffix


def python_guard(spec: Spec) -> str:
    """docs "Names": ``is_`` + the base class in snake case, each capitalised
    word, run of capitals or number a word (``DBAPIError`` → ``is_dbapi_error``)."""
    words = re.findall(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[0-9]+", spec.base)
    return "is_" + "_".join(word.lower() for word in words)


def _go_initialisms() -> frozenset[str]:
    """docs/go.md "Names": the words Go names spell in capitals, read from the
    page (the backquoted list after "the initialisms")."""
    page = (Path(__file__).parent.parent / "docs" / "go.md").read_text("utf-8")
    found = re.search(r"initialisms `([A-Z0-9 \n]+)`", page)
    if found is None:
        raise LookupError("docs/go.md lists no initialisms")
    return frozenset(found.group(1).split())


GO_INITIALISMS = _go_initialisms()


def readme_go_name(text: str, *, key: bool = False) -> str:
    """docs "Go": the words of a class name (or, ``key``, of a snake_case key
    or field name) each capitalised, an initialism in capitals."""
    if key:
        words = [w for w in re.split(r"_+", text) if w]
        words = [w.lower() if w.isupper() else w for w in words]
        words = [p for w in words for p in re.findall(r"[A-Z]?[a-z0-9]+|[A-Z]+", w)]
    else:
        words = re.findall(r"[A-Z]+(?![a-z])|[A-Z]?[a-z0-9]+|[0-9]+", text)
    return "".join(
        w.upper() if w.upper() in GO_INITIALISMS else w[:1].upper() + w[1:]
        for w in words
    )


#: README "Java": the words a details field may not be as a record component
#: (JLS 17 §3.9 keywords and contextual keywords, §3.10.3 and §3.10.8 literals,
#: the methods every record has and the details record's own toMap and from).
JAVA_TAKEN = frozenset(
    """abstract assert boolean break byte case catch char class const continue
    default do double else enum extends final finally float for goto if implements
    import instanceof int interface long native new package private protected public
    return short static strictfp super switch synchronized this throw throws
    transient try void volatile while _ exports module non-sealed open opens permits
    provides record requires sealed to transitive uses var with yield true false null
    toMap from equals hashCode toString getClass notify notifyAll wait clone
    finalize""".split()
)


def readme_java_field(name: str) -> str:
    """README "Java": a details field's record component, its words in
    lowerCamelCase (``task_id`` → ``taskId``), a trailing ``_`` on a taken word."""
    words = re.findall(r"[A-Z]+(?![a-z])|[A-Z]?[a-z0-9]+|[0-9]+", name)
    text = words[0].lower() + "".join(w[:1].upper() + w[1:] for w in words[1:])
    return text + "_" if text in JAVA_TAKEN else text


@dataclasses.dataclass(frozen=True)
class SpecCode:
    code: str
    #: None: no domain (issue 30 §3, an unknown code kept as a root error).
    domain: str | None
    retryable: bool
    meaning: str
    class_name: str
    #: docs "Wire codes": the code on the wire, ``wire:`` or else the key.
    wire: str | int
    #: docs "Typed details": the domain's fields first, then the code's own (a
    #: code's redeclaration wins), each as a mapping ``{type: ..., ...}``.
    fields: tuple[tuple[str, dict[str, Any]], ...] = ()
    #: Issue 30 §7: where each field is declared, by name: None for the top
    #: level, a domain's key, or "" for the code itself.
    declared_by: dict[str, str | None] = dataclasses.field(default_factory=dict)
    message: str | None = None  # the ``message:`` template
    #: docs "What a code maps to": its own status, else its domain's, else the
    #: top level's (None: none of them says); throttling only its own; its docs
    #: link the top's docs_url with the code percent-encoded in place of {code}.
    http_status: int | None = None
    grpc_status: str | None = None
    throttling: bool = False
    doc_url: str | None = None
    #: README "Deprecation and tombstones": the version it arrived in, and its
    #: ``deprecated:`` as ``{reason, replaced_by, since}`` (None: not deprecated).
    since: str | None = None
    deprecated: dict[str, str | None] | None = None
    #: Issue 30 §2: ``http_status: [400, 401]``, the statuses it may take (None
    #: where it gives one or none).
    http_statuses: list[int] | None = None
    #: Issue 30 §8: "retry_after: FIELD on a code, a domain or the top level
    #: names the details field (seconds ...) that says when to retry": its own,
    #: else its domain's (or a parent's), else the top level's; None: none.
    retry_after: str | None = None
    #: docs "Aliases": other names of the code; with string wire codes a
    #: payload may carry each, as this code.
    aliases: tuple[str, ...] = ()
    #: docs "Aliases": each alias's class name, by the rules of "Names".
    alias_classes: tuple[str, ...] = ()
    #: docs "Native errors": the builtins its class names itself, and the Go
    #: sentinels its error answers errors.Is for.
    python_bases: tuple[str, ...] = ()
    go_is: tuple[str, ...] = ()

    @property
    def details_type(self) -> str | None:
        """docs "Python": a code with fields has a details type named for its
        class, ``Error`` made ``Details`` (a class not ending in ``Error`` keeps
        its whole name); None without fields."""
        if not self.fields:
            return None
        return self.class_name.removesuffix("Error") + "Details"

    @property
    def mapped(self) -> dict[str, Any]:
        """What an error of this code carries, as the vectors and probes say it."""
        return {
            "http_status": self.http_status,
            "grpc_status": self.grpc_status,
            "throttling": self.throttling,
            "doc_url": self.doc_url,
        }


@dataclasses.dataclass(frozen=True)
class Spec:
    """What a taxonomy.yaml says, read independently of the generator."""

    name: str
    base: str
    #: Issue 30 §3: None (``fallback: null``): "no real code is borrowed".
    fallback: str | None
    wrap: str
    code_case: str
    codes: dict[str, SpecCode]  # live codes, in file order
    domains: dict[str, str]  # domain key → its base class name, in file order
    removed: tuple[str, ...]  # tombstones
    events: dict[str, str]  # event type → dotted location
    wire_type: str = "string"  # docs "Wire codes": string (default) or integer
    removed_wires: tuple[str | int, ...] = ()  # the tombstones' wire codes
    #: docs "Hierarchies": each domain's ``parent:`` (None: the base's child).
    parents: dict[str, str | None] = dataclasses.field(default_factory=dict)
    #: docs "Hierarchies": each domain's ``match:``, as prefixes or ranges.
    prefixes: dict[str, tuple[str, ...]] = dataclasses.field(default_factory=dict)
    ranges: dict[str, tuple[tuple[int, int], ...]] = dataclasses.field(
        default_factory=dict
    )
    #: docs "Names": the domains whose class is their <domain>_error code's.
    domain_codes: dict[str, str] = dataclasses.field(default_factory=dict)
    #: Each domain's title, its own class's meaning (docs "Hierarchies").
    domain_titles: dict[str, str] = dataclasses.field(default_factory=dict)

    @property
    def integer(self) -> bool:
        return self.wire_type == "integer"

    @property
    def first(self) -> SpecCode:
        """The first live code the YAML gives."""
        return next(iter(self.codes.values()))

    @property
    def plain(self) -> SpecCode:
        """The code the vectors of the wire rules carry, so that any details
        pass: the first live code without declared fields, else the fallback
        (else the wrap code; neither has required ones), as where every code
        carries the top level's fields (issue 30 §7)."""
        role = self.fallback if self.fallback is not None else self.wrap
        return next((c for c in self.codes.values() if not c.fields), self.codes[role])

    @property
    def by_wire(self) -> dict[str | int, SpecCode]:
        """The live codes by their wire code."""
        return {c.wire: c for c in self.codes.values()}

    #: README: the statuses of a domain's own class (when no <domain>_error code
    #: owns it): the domain's, else the top level's.
    domain_statuses: dict[str, tuple[int | None, str | None]] = dataclasses.field(
        default_factory=dict
    )
    version: str = ""
    #: Issue 14 §2: the payload the wire carries, each part spelt out (the
    #: preset's, then each field the YAML gives); today's by default.
    payload: dict[str, Any] = dataclasses.field(
        default_factory=lambda: dict(PRESETS["harmovela"])
    )
    docs_url: str | None = None
    #: The taxonomy.yaml read (None: a spec built by hand).
    path: Path | None = None
    #: docs "Wire codes": whether any live code gives a ``wire:``.
    wire_declared: bool = False
    #: README "Deprecation and tombstones": each tombstone's ``since``, in the
    #: order of ``removed``.
    removed_since: tuple[str, ...] = ()
    #: Issue 30 §3: ``unknown_retryable`` ("false", "true", "by_status").
    unknown_retryable: str = "false"
    title: str = ""
    #: Issue 30 §3: the domains that say ``fallback: null`` (with a match).
    keeping: frozenset[str] = frozenset()

    def keeps(self, code: object) -> bool:
        """Issue 30 §3: whether a received code keeps its identity: unknown, no
        fallback ("no real code is borrowed"), and no ``<domain>_error`` code of
        a domain whose match claims it to lend (README "Hierarchies")."""
        if self.known(code) is not None:
            return False
        domain = self.matched(code)
        if domain is not None and domain in self.keeping:
            return True  # "fallback: null on a domain with match:"
        if self.fallback is not None:
            return False
        return domain is None or domain not in self.domain_codes

    def unknown_retryable_at(self, status: int | None) -> bool:
        """Issue 30 §3: an unknown code kept is "not retryable unless the payload
        says so (or unknown_retryable: by_status: retryable for 5xx statuses
        received)"; true: always (README); no status received: not 5xx."""
        if self.unknown_retryable == "by_status":
            return status is not None and 500 <= status <= 599
        return self.unknown_retryable == "true"

    @property
    def mapped_payload(self) -> bool:
        """Whether the payload is other than today's ``{code, message, retryable,
        details}``."""
        return self.payload != PRESETS["harmovela"]

    def mapped(self, code: SpecCode) -> dict[str, Any]:
        """docs "What a code maps to": what an outcome of ``code`` says of it,
        which is nothing when no code of the taxonomy maps to anything."""
        return code.mapped if self.declares_mapped else {}

    @property
    def declares_mapped(self) -> bool:
        """Whether any code maps to something (README: else the outputs say none)."""
        return any(
            code.mapped != SpecCode("", "", False, "", "", "").mapped
            for code in self.codes.values()
        )

    @property
    def pattern(self) -> re.Pattern[str]:
        """What a well-formed string code is: the code case while no live code
        gives a ``wire:``, any printable ASCII once one does."""
        if "" in self.by_wire:  # README "code_case: as_written": wire: ""
            return re.compile(r"[!-~]*")
        if self.wire_declared or self.code_case == "as_written":
            return WIRE_PATTERN
        return CODE_PATTERNS[self.code_case]

    def well_formed(self, code: object) -> bool:
        """docs "Wire codes": whether ``code`` (JSON data) is a well-formed code."""
        if self.integer:
            # A whole number: NaN and the infinities are none (int() of them
            # raises, which made this oracle crash where the runtime refused).
            whole = type(code) is int or (
                type(code) is float and math.isfinite(code) and code.is_integer()
            )
            return whole and abs(code) <= MAX_WIRE_INTEGER  # type: ignore[arg-type]
        if code == "" and "" in self.by_wire:
            return True  # README "code_case: as_written": "" may be a wire code
        return (
            isinstance(code, str)
            and len(code) <= MAX_CODE_LENGTH
            and self.pattern.fullmatch(code) is not None
        )

    @property
    def python_package(self) -> str:
        """docs "The format": ``<name>_errors``."""
        return f"{self.name}_errors"

    @property
    def python_dist(self) -> str:
        """docs "The format": the package's name with dashes."""
        return self.python_package.replace("_", "-")

    @property
    def npm_package(self) -> str:
        """docs "The format": ``<name>-errors``, with dashes."""
        return f"{self.name}-errors".replace("_", "-")

    def known(self, code: object) -> SpecCode | None:
        """The live code whose wire code ``code`` (JSON data) is, if any: an
        integer code written 5.0 is 5; a boolean is no code."""
        if self.integer and type(code) is float and code.is_integer():
            code = int(code)
        if type(code) not in (str, int):
            return None
        found = self.by_wire.get(code)  # type: ignore[arg-type]
        if found is None and not self.integer:  # docs "Aliases"
            found = next((c for c in self.codes.values() if code in c.aliases), None)
        return found

    def target(self, code: object) -> SpecCode:
        """What a received (well-formed) wire code is treated as: its own code if
        live; else, docs "Hierarchies", the class of the domain whose match
        claims it, carrying that domain's <domain>_error code if it has one, else
        the fallback's code; else the fallback."""
        known = self.known(code)
        if known is not None:
            return known
        domain = self.matched(code)
        keeps = self.keeps(code)
        if domain is not None and domain in self.domain_codes:
            lender = self.codes[self.domain_codes[domain]]
            if not keeps:
                return lender
            # Issue 30 §3: "an unknown code claimed by that domain's match becomes
            # that DOMAIN's class (not a borrowed code's class)": the class of its
            # <domain>_error code (README "Names"), reporting the received code.
            assert isinstance(code, (str, int)), code
            return dataclasses.replace(
                lender,
                code=str(code),
                wire=int(code) if self.integer and not isinstance(code, str) else code,
                retryable=self.unknown_retryable_at(None),
                aliases=(),
            )
        if keeps and self.fallback is not None and domain is not None:
            assert isinstance(code, (str, int)), code
            http, grpc = self.domain_statuses[domain]
            return dataclasses.replace(
                self.codes[self.fallback],
                code=str(code),
                wire=int(code) if self.integer and not isinstance(code, str) else code,
                retryable=self.unknown_retryable_at(None),
                domain=domain,
                meaning=self.domain_titles[domain],
                class_name=self.domains[domain],
                http_status=_default_status(http),
                grpc_status=grpc,
                http_statuses=None,
                aliases=(),
            )
        if self.fallback is None:
            # Issue 30 §3: "becomes the base class (or the class of the domain
            # whose match: claims it), reports the received code as its code",
            # "has the status it was received with or none": the root maps to
            # nothing; a domain's own class keeps its statuses (README).
            assert isinstance(code, (str, int)), code
            kept = SpecCode(
                code=str(code),
                domain=None,
                retryable=self.unknown_retryable_at(None),
                meaning=self.title,
                class_name=self.base,
                wire=int(code) if self.integer and not isinstance(code, str) else code,
            )
            if domain is None:
                return kept
            http, grpc = self.domain_statuses[domain]
            return dataclasses.replace(
                kept,
                domain=domain,
                meaning=self.domain_titles[domain],
                class_name=self.domains[domain],
                http_status=_default_status(http),
                grpc_status=grpc,
            )
        fallback = self.codes[self.fallback]
        if domain is None:
            return fallback
        http, grpc = self.domain_statuses[domain]
        return dataclasses.replace(
            fallback,
            domain=domain,
            meaning=self.domain_titles[domain],
            class_name=self.domains[domain],
            http_status=_default_status(http),
            grpc_status=grpc,
            http_statuses=None,
        )

    def matched(self, code: object) -> str | None:
        """docs "Hierarchies": the domain whose match claims an unknown code:
        the longest prefix it starts with, or the narrowest range it is in."""
        if self.integer and type(code) is float and code.is_integer():
            code = int(code)
        best: str | None = None
        size = -1
        for domain in self.domains:
            if isinstance(code, str):
                for prefix in self.prefixes.get(domain, ()):
                    if code.startswith(prefix) and len(prefix) > size:
                        best, size = domain, len(prefix)
            elif type(code) is int:
                for low, high in self.ranges.get(domain, ()):
                    if low <= code <= high and (best is None or high - low < size):
                        best, size = domain, high - low
        return best

    def lineage(self, domain: str) -> list[str]:
        """docs "Hierarchies": the domain, then its parents, nearest first."""
        out = [domain]
        while self.parents.get(out[-1]) is not None:
            out.append(self.parents[out[-1]])  # type: ignore[arg-type]
        return out

    def wire_of(self, key: str) -> str | int:
        """The wire code of the live code ``key``."""
        return self.codes[key].wire

    def other_wire(self, stem: str) -> str | int:
        """A well-formed wire code the taxonomy neither defines nor removed."""
        if not self.integer:
            return self.other_code(stem)
        taken = {*self.by_wire, *self.removed_wires}
        candidate = 1000 + len(stem)
        while candidate in taken:
            candidate += 1
        return candidate

    def other_code(self, stem: str) -> str:
        """A well-formed code in this case that the taxonomy neither defines nor
        removed.
        """
        candidate = stem.upper() if self.code_case == "upper_snake" else stem
        taken = {*self.codes, *self.removed, *self.by_wire, *self.removed_wires}
        taken |= {alias for code in self.codes.values() for alias in code.aliases}
        while candidate in taken:
            candidate += "_X" if self.code_case == "upper_snake" else "_x"
        return candidate


def _default_status(value: Any) -> Any:
    """Issue 30 §2: ``http_status: [400, 401]`` lists the statuses a code may
    take, "the first is the default"; a single integer is itself."""
    return value[0] if isinstance(value, list) else value


def _every_status(value: Any) -> list[int] | None:
    """Issue 30 §2: every status a code may take, where a list gives several."""
    return list(value) if isinstance(value, list) and len(value) > 1 else None


def _shape(raw: Any) -> dict[str, Any]:
    """docs "The format": a field (or ``items``) is a type name or a mapping;
    issue 30 §7: a `const:` field is "checked on decoding (absent or equal)",
    so never required."""
    shape = {"type": raw} if isinstance(raw, str) else dict(raw)
    if "const" in shape:
        shape["required"] = False
    return shape


def _fields(raw: Any) -> dict[str, dict[str, Any]]:
    return {name: _shape(spec) for name, spec in (raw or {}).items()}


#: docs "What a code maps to": the characters a docs link keeps as they are.
UNRESERVED = frozenset(
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~"
)


def percent_encoded(text: str) -> str:
    """RFC 3986: every UTF-8 byte of ``text`` that is not unreserved as ``%XX``."""
    return "".join(
        chr(byte) if chr(byte) in UNRESERVED else f"%{byte:02X}"
        for byte in text.encode("utf-8")
    )


def python_version(version: str) -> str:
    """README "Rules the loader enforces": a date version's numbers without
    leading zeros; a semantic version without pre-release or build is itself."""
    if re.fullmatch(r"\d{4}-\d{2}-\d{2}", version):
        day = datetime.date.fromisoformat(version)
        return f"{day.year}.{day.month}.{day.day}"
    return version


def _text(value: Any) -> Any:
    """A version or a reason as the YAML wrote it: YAML reads an unquoted
    ``2024-01-31`` as a date, which is its ISO text; None stays None."""
    return value if value is None or isinstance(value, str) else str(value)


def read_spec(path: Path) -> Spec:
    """``yaml.safe_load`` of a taxonomy, with the README's defaults and naming rules."""
    raw = yaml.safe_load(path.read_text(encoding="utf-8"))
    code_case = raw.get("code_case", "lower_snake")  # README: lower_snake (default)
    suffix = raw.get("class_suffix", "Error")  # docs "Names"

    def generic(domain: str) -> str:
        """docs "Names": <domain>_error in the code case, whatever the domain
        key's own (`llm` → `LLM_ERROR` under upper_snake)."""
        text = f"{domain.lower()}_error"
        return text.upper() if code_case == "upper_snake" else text

    codes: dict[str, SpecCode] = {}
    domains: dict[str, str] = {}
    removed: list[str] = []
    removed_wires: list[str | int] = []
    removed_since: list[str] = []
    wire_declared = False
    statuses: dict[str, tuple[int | None, str | None]] = {}
    docs_url = raw.get("docs_url")
    parents = {key: domain.get("parent") for key, domain in raw["domains"].items()}
    prefixes: dict[str, tuple[str, ...]] = {}
    ranges: dict[str, tuple[tuple[int, int], ...]] = {}
    domain_codes: dict[str, str] = {}

    def inherited(key: str, name: str) -> Any:
        """docs "What a code maps to": the domain's, its parents', the top's."""
        while key is not None:
            if name in raw["domains"][key]:
                return raw["domains"][key][name]
            key = parents[key]
        return raw.get(name)

    for key, domain in raw["domains"].items():
        http = inherited(key, "http_status")
        grpc = inherited(key, "grpc_status")
        statuses[key] = (http, grpc)
        assert isinstance(key, str)
        # docs "Hierarchies": a string or a list of strings; a range [low,
        # high] or a list of them.
        match = domain.get("match")
        if isinstance(match, str):
            prefixes[key] = (match,)
        elif match and isinstance(match[0], list):
            ranges[key] = tuple((low, high) for low, high in match)
        elif match and isinstance(match[0], int):
            ranges[key] = ((match[0], match[1]),)
        elif match:
            prefixes[key] = tuple(match)
        entries = domain.get("codes") or {}
        live = {
            code: entry for code, entry in entries.items() if "removed" not in entry
        }
        removed += [code for code in entries if code not in live]
        removed_wires += [
            entry.get("wire", code)
            for code, entry in entries.items()
            if code not in live
        ]
        removed_since += [
            _text(entry["removed"].get("since"))
            for code, entry in entries.items()
            if code not in live
        ]
        wire_declared = wire_declared or any("wire" in e for e in live.values())
        # docs "Names": a domain's base class is the class of its <domain>_error code
        # when it has one, else PascalCase(domain) + Error (or the domain's `class:`).
        own = live.get(generic(key))
        if own is not None:
            domain_codes[key] = generic(key)
            domains[key] = own.get("class") or readme_class_name(generic(key), suffix)
        else:
            domains[key] = domain.get("class") or (
                "".join(w.capitalize() for w in _words(key)) + suffix
            )
        # Issue 30 §7: "a top-level `details:` shared by every code; a domain's
        # details inherited by its child domains (`parent:`)": the top level's
        # first, then each ancestor's, outermost first, then the domain's own.
        lineage, above = [key], parents[key]
        while above is not None and above not in lineage:
            lineage.append(above)
            above = parents.get(above)
        shared = _fields(raw.get("details"))
        by: dict[str, str | None] = dict.fromkeys(shared)
        for ancestor in reversed(lineage):
            shared.update(_fields(raw["domains"][ancestor].get("details")))
            by.update(
                dict.fromkeys(raw["domains"][ancestor].get("details") or {}, ancestor)
            )
        for code, entry in live.items():
            assert isinstance(code, str) and type(entry["retryable"]) is bool
            fields = {**shared, **_fields(entry.get("details"))}
            own_by = {**by, **dict.fromkeys(entry.get("details") or {}, "")}
            codes[code] = SpecCode(
                code=code,
                domain=key,
                retryable=entry["retryable"],
                meaning=entry["meaning"],
                class_name=entry.get("class") or readme_class_name(code, suffix),
                wire=entry.get("wire", code),
                aliases=tuple(entry.get("aliases", ())),
                python_bases=tuple(entry.get("python_bases", ())),
                go_is=tuple(entry.get("go_is", ())),
                alias_classes=tuple(
                    readme_class_name(a, suffix) for a in entry.get("aliases", ())
                ),
                fields=tuple(fields.items()),
                declared_by=own_by,
                message=entry.get("message"),
                http_status=_default_status(entry.get("http_status", http)),
                http_statuses=_every_status(entry.get("http_status", http)),
                retry_after=entry.get("retry_after", inherited(key, "retry_after")),
                grpc_status=entry.get("grpc_status", grpc),
                throttling=entry.get("throttling", False),
                doc_url=(
                    None
                    if docs_url is None
                    # README: the wire code fills {code} ("Wire codes").
                    else docs_url.replace(
                        "{code}", percent_encoded(str(entry.get("wire", code)))
                    )
                ),
                since=_text(entry.get("since")),
                deprecated=(
                    None
                    if entry.get("deprecated") is None
                    else {
                        part: _text(entry["deprecated"].get(part))
                        for part in ("reason", "replaced_by", "since")
                    }
                ),
            )
    return Spec(
        name=raw["name"],
        base=raw["base"],
        fallback=raw["fallback"],
        wrap=raw["wrap"],
        # Issue 30 §3: false (the default), true or by_status.
        unknown_retryable=str(raw.get("unknown_retryable", False)).lower(),
        title=raw["title"],
        keeping=frozenset(
            key
            for key, domain in raw["domains"].items()
            if "fallback" in domain and domain["fallback"] is None
        ),
        code_case=code_case,
        codes=codes,
        domains=domains,
        removed=tuple(removed),
        events=dict(raw.get("events") or {}),
        wire_type=raw.get("wire_type", "string"),
        removed_wires=tuple(removed_wires),
        parents=parents,
        prefixes=prefixes,
        ranges=ranges,
        domain_codes=domain_codes,
        domain_titles={key: d["title"] for key, d in raw["domains"].items()},
        domain_statuses=statuses,
        version=str(raw["version"]),
        payload=read_payload(raw.get("payload")),
        docs_url=docs_url,
        path=path,
        wire_declared=wire_declared,
        removed_since=tuple(removed_since),
    )


def pattern_samples(spec: Spec) -> list[str]:
    """Strings that tell code patterns apart: the codes, and each near miss of them."""
    out = ["", "a", "A", "a1", "A1", "1a", "_a", "a_", "a__b", "a_1", "A_1", "aB", "é"]
    for code in [*spec.codes, *spec.removed]:
        out += [code, code.swapcase(), code.lower(), code.upper(), "1" + code]
        out += [code + "_", code + "__x", code + "-x", " " + code, code + "\n"]
    return out


def matches_like_the_spec(pattern: str, spec: Spec) -> list[str]:
    """The samples on which ``pattern`` (searched, as JSON Schema does) disagrees with
    the spec.
    """
    compiled = re.compile(pattern)
    return [
        s
        for s in pattern_samples(spec)
        if (compiled.search(s) is not None and "\n" not in s)
        is not (spec.pattern.fullmatch(s) is not None)
    ]


# ------------------------------------------------------------ what a payload is


def details_size(value: object) -> tuple[int, int]:
    """(depth, values) of details: the object is depth 1, each object or array adds
    one.
    """
    depth, nodes = 0, 0
    stack: list[tuple[object, int]] = [(value, 1)]
    while stack:
        node, level = stack.pop()
        nodes += 1
        if isinstance(node, dict):
            depth = max(depth, level)
            stack.extend((item, level + 1) for item in node.values())
        elif isinstance(node, list):
            depth = max(depth, level)
            stack.extend((item, level + 1) for item in node)
    return depth, nodes


def finite_number(value: object) -> bool:
    """Issue 29 §5: whether a number is one every runtime reads alike, a finite
    double (an integer a double cannot hold is Infinity in JavaScript)."""
    try:
        return math.isfinite(float(value))  # type: ignore[arg-type]
    except OverflowError:
        return False


def all_finite(value: object) -> bool:
    """Whether every number in ``value`` is a :func:`finite_number`."""
    stack = [value]
    while stack:
        node = stack.pop()
        if isinstance(node, (int, float)) and not isinstance(node, bool):
            if not finite_number(node):
                return False
        elif isinstance(node, dict):
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
    return True


def beyond_limits(details: object) -> bool:
    """Details past the limits JSON Schema cannot state (README: depth and values,
    and numbers a double cannot hold: JSON's grammar allows 1e400)."""
    if not isinstance(details, dict):
        return False
    depth, nodes = details_size(details)
    return (
        depth > MAX_DETAILS_DEPTH
        or nodes > MAX_DETAILS_NODES
        or not all_finite(details)
    )


def payload_problem(spec: Spec, payload: object) -> str | None:
    """The field ``from_payload`` must name for a JSON ``payload``, or None when valid.

    docs "Python": ``code`` a string in the taxonomy's case of at most 256
    characters, ``message`` a string, ``retryable`` a real boolean, ``details``
    an object or null within the limits; extra fields are ignored.
    """
    if spec.mapped_payload:
        read = read_mapped(spec, payload)
        return read if isinstance(read, str) else None
    if not isinstance(payload, dict):
        return "payload"
    code = payload.get("code")
    if not spec.well_formed(code):
        return "code"
    if not isinstance(payload.get("message"), str):
        return "message"
    if type(payload.get("retryable")) is not bool:
        return "retryable"
    details = payload.get("details")
    if details is not None and (
        not isinstance(details, dict) or beyond_limits(details)
    ):
        return "details"
    return fields_problem(spec, code, details)


def fields_problem(spec: Spec, code: object, details: object) -> str | None:
    """docs "Typed details": ``details.<name>`` of a known ``code``'s first declared
    field that ``details`` (an object or null) lacks though required, or holds
    misfitting; None when every field fits.  Unknown codes are not checked."""
    entry = spec.known(code)
    given = details if isinstance(details, dict) else {}
    for name, field in entry.fields if entry is not None else ():
        if name not in given:
            # Issue 30 §7: a `const:` field is "checked on decoding (absent or
            # equal)": never missing.
            if field.get("required", True) and "const" not in field:
                return f"details.{name}"
        elif "const" in field:
            if not same_constant(given[name], field["const"]):
                return f"details.{name}"
        else:
            below = misfit(field, given[name])
            if below is not None:
                return f"details.{name}{below}"
    return None


def misfit(shape: dict[str, Any], value: object) -> str | None:
    """None where ``value`` fits the shape; else where it misfits, below the field
    (issue 30 §7, docs "Nested objects"): the deepest member of a nested object
    that is missing or misfits (``.reason``, ``[1].reason``), or ``""`` where
    the value itself does (a bad item of scalars names its array)."""
    members = shape.get("fields")
    if shape["type"] == "object" and members is not None and isinstance(value, dict):
        for name, member in _fields(members).items():
            if name not in value:
                if member.get("required", True):
                    return f".{name}"
            else:
                below = misfit(member, value[name])
                if below is not None:
                    return f".{name}{below}"
        return None
    items = _shape(shape.get("items", {"type": "any"}))
    if shape["type"] == "array" and isinstance(value, list) and "fields" in items:
        for index, item in enumerate(value):
            below = misfit(items, item)
            if below:
                return f"[{index}]{below}"
            if below is not None:
                return ""
        return None
    return None if fits(shape, value) else ""


def python_nested_types(spec: Spec) -> set[str]:
    """docs/python.md "Nested objects": each typed object's TypedDict, named by
    where its field is declared (the top level: the base class; a domain: its
    class; a code: its own), ``Error`` made ``Details``, then each step of its
    path in PascalCase, ``Item`` for an array's items."""

    def stem(cls: str) -> str:
        return cls.removesuffix("Error") + "Details"

    def pascal(name: str) -> str:
        return "".join(w.capitalize() for w in _words(name))

    def walk(shape: dict[str, Any], name: str) -> set[str]:
        items = _shape(shape["items"]) if "items" in shape else None
        if items is not None:
            return walk(items, name + "Item")
        members = _fields(shape.get("fields"))
        below = {t for m, f in members.items() for t in walk(f, name + pascal(m))}
        return below | ({name} if "fields" in shape else set())

    found: set[str] = set()
    for code in spec.codes.values():
        for name, field in code.fields:
            owner = code.declared_by[name]
            cls = (
                spec.base
                if owner is None
                else code.class_name if owner == "" else spec.domains[owner]
            )
            found |= walk(field, stem(cls) + pascal(name))
    return found


def member_paths(path: str, shape: dict[str, Any]) -> set[str]:
    """Issue 30 §7: where below a field of ``shape`` at ``path`` a rejection may
    point, each member of its nested objects (an array's second item stands for
    its items, as the vectors give ``[good, bad]``)."""
    items = _shape(shape["items"]) if "items" in shape else None
    if items is not None and "fields" in items:
        return member_paths(f"{path}[1]", items)
    return {
        found
        for name, member in _fields(shape.get("fields")).items()
        for found in (f"{path}.{name}", *member_paths(f"{path}.{name}", member))
    }


def same_constant(found: object, const: object) -> bool:
    """JSON's equality of scalars: numbers by value (2 is 2.0), a boolean
    only itself, a string only itself."""
    if isinstance(const, bool) or isinstance(found, bool):
        return found is const
    if isinstance(const, (int, float)):
        return isinstance(found, (int, float)) and found == const
    return found == const


def with_constants(spec: Spec, code: object, details: Any) -> Any:
    """Issue 30 §7: a known code's `const:` fields are "filled in ... written on
    every payload": received details with each one they lack added."""
    entry = spec.known(code)
    consts = {n: f["const"] for n, f in entry.fields if "const" in f} if entry else {}
    missing = {n: v for n, v in consts.items() if n not in (details or {})}
    return {**(details or {}), **missing} if missing else details


def fits(shape: dict[str, Any], value: object) -> bool:
    """docs "The format": whether ``value`` is of the field's (or item's) shape.

    An integer is a number without a fraction (3.0 too); booleans are not numbers.
    """
    kind = shape["type"]
    if kind == "string":
        return isinstance(value, str) and value in shape.get("enum", [value])
    if kind == "boolean":
        return type(value) is bool
    if kind == "object":
        return isinstance(value, dict) and (
            "fields" not in shape or misfit(shape, value) is None
        )
    if kind == "array":
        items = _shape(shape.get("items", {"type": "any"}))
        return isinstance(value, list) and all(
            items["type"] == "any" or fits(items, item) for item in value
        )
    if type(value) not in (int, float):
        return False
    if kind == "integer" and value != int(value):  # type: ignore[call-overload]
        return False
    low, high = shape.get("minimum"), shape.get("maximum")
    return (low is None or value >= low) and (high is None or value <= high)


def sample(shape: dict[str, Any]) -> Any:
    """A value that fits a field's (or an item's) shape as its YAML declares it:
    the first enum value, a number within its bounds, an array of one item."""
    kind = shape["type"]
    low, high = shape.get("minimum"), shape.get("maximum")
    if kind == "string":
        return shape["enum"][0] if "enum" in shape else "s"
    if kind == "boolean":
        return True
    if kind == "integer":
        return (
            math.ceil(low)
            if low is not None
            else (math.floor(high) if high is not None else 3)
        )
    if kind == "number":
        return low if low is not None else (high if high is not None else 2.5)
    if kind == "array":
        items = shape.get("items")
        return [sample(_shape(items))] if items is not None else [1, "a"]
    if "fields" in shape:  # issue 30 §7: a nested object, every member given
        return {
            name: sample(member) for name, member in _fields(shape["fields"]).items()
        }
    return {"k": [1]}


def sample_details(spec: Spec, code: str, *, optional: bool = False) -> dict[str, Any]:
    """Details a typed constructor of ``code`` accepts: every required field (and,
    with ``optional``, every optional one), each a :func:`sample` of its shape."""
    entry = spec.codes[code]
    return {
        name: field["const"] if "const" in field else sample(field)
        for name, field in entry.fields
        if optional or (field.get("required", True) and "const" not in field)
    }


def shown(value: object) -> str:
    """README "Message templates": a placeholder's text, as JavaScript's String() has
    it (booleans true/false, 3.0 as 3, exponents past 1e21 and below 1e-6)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return value
    if isinstance(value, int):
        return str(value)
    assert isinstance(value, float)
    if value == 0:
        return "0"  # String(-0) is "0"
    mantissa, _, exponent = repr(value).partition("e")
    if not exponent:
        return mantissa.removesuffix(".0")
    power = int(exponent)
    if -7 < power < 21:
        return format(decimal.Decimal(repr(value)), "f")
    return f"{mantissa.removesuffix('.0')}e{'+' if power > 0 else '-'}{abs(power)}"


def rendered(template: str, details: dict[str, Any]) -> str:
    """README "Message templates": ``{field}`` replaced, ``{{`` and ``}}`` literal."""
    return re.sub(
        r"\{\{|\}\}|\{([A-Za-z][A-Za-z0-9_]*)\}",
        lambda m: shown(details[m[1]]) if m[1] else m[0][0],
        template,
    )


def constructed(spec: Spec, code: str, details: dict[str, Any]) -> dict[str, Any]:
    """README: a typed constructor fills in defaults and renders the template."""
    entry = spec.codes[code]
    filled = dict(details)
    for name, field in entry.fields:
        if name not in filled and "default" in field:
            filled[name] = field["default"]
        if name not in filled and "const" in field:  # issue 30 §7: "filled in"
            filled[name] = field["const"]
    message = (
        entry.meaning if entry.message is None else rendered(entry.message, filled)
    )
    return {
        "class": entry.class_name,
        "message": message,
        "details": filled,
        **spec.mapped(entry),
    }


def vector_input(vector: dict[str, Any]) -> Any:
    """A conformance vector's input: ``input``, or its ``input_json`` text read by
    the language's own JSON parser, here Python's (README "Schema, vectors and
    docs": 1e400 reads as inf, 309 digits as an exact integer)."""
    if "input_json" in vector:
        assert "input" not in vector, vector["id"]
        return json.loads(vector["input_json"])
    return vector["input"]


def expected(spec: Spec, op: str, given: Any) -> dict[str, Any]:
    """What the spec says a runtime must observe for one probe (see
    ``observe_python``).
    """
    if op == "from_payload":
        problem = payload_problem(spec, given)
        if problem is not None:
            return {"ok": False, "field": problem, **_constant_message(spec, problem)}
        return _accepted(spec, given)
    if op == "error_from_event":
        if not isinstance(given, dict):
            return {"ok": False, "field": "event"}
        location = spec.events.get(given.get("type"))  # type: ignore[arg-type]
        found: object = given if location is not None else None
        for part in (location or "").split("."):
            found = found.get(part) if isinstance(found, dict) else None
        if found is None:
            return {"ok": True, "none": True}
        return expected(spec, "from_payload", found)
    if op == "retry_after":
        return retry_hint(spec, given)
    if op == "lookup":
        target = spec.target(given)
        return {
            "class": target.class_name,
            "retryable": target.retryable,
            **spec.mapped(target),
        }
    if op == "construct":
        # docs "Wire codes": the vectors name the class by its wire code.
        entry = spec.known(given["code"])
        assert entry is not None, given
        return constructed(spec, entry.code, given["details"])
    if op == "to_error":  # README: anything that is not an error gets the wrap code
        wrap = spec.codes[spec.wrap]
        return {
            "ok": True,
            "class": wrap.class_name,
            "code": wrap.wire,
            "domain": wrap.domain,
            "retryable": wrap.retryable,
            **spec.mapped(wrap),
            "ancestors": _ancestors(spec, wrap),
        }
    raise AssertionError(f"no oracle for {op!r}")


def _constant_message(spec: Spec, field: str) -> dict[str, Any]:
    """docs "The payload on the wire": a payload constant's rejection states its
    message, the same in every language: ``<member>: expected <the constant as
    JSON>, the constant every payload carries, or none`` (a number or a boolean
    as a placeholder shows it)."""
    p = spec.payload
    for name, value in (p.get("constants") or {}).items():
        if field == name:
            text = json.dumps(value, ensure_ascii=False)
            if not isinstance(value, str):
                text = shown(value)
            return {
                "message": f"{field}: expected {text}, the constant every payload "
                "carries, or none"
            }
    return {}


def _ancestors(spec: Spec, code: SpecCode) -> list[str]:
    """The classes an error of ``code`` must be an instance of: its domain's, its
    parent domains' (docs "Hierarchies") and the base.
    """
    if code.domain is None:  # issue 30 §3: an unknown code kept, the base's
        return [spec.base]
    return sorted({*(spec.domains[d] for d in spec.lineage(code.domain)), spec.base})


def _accepted(spec: Spec, payload: dict[str, Any]) -> dict[str, Any]:
    if spec.mapped_payload:
        return mapped_accepted(spec, payload)
    code = payload["code"]
    target = spec.target(code)
    return {
        "ok": True,
        "class": target.class_name,
        "code": target.wire,
        "domain": target.domain,
        "retryable": payload["retryable"],  # the payload's, not the class default
        "wire_code": code,
        "payload": {
            "code": code,
            "message": payload["message"],
            "retryable": payload["retryable"],
            "details": with_constants(spec, code, payload.get("details")) or {},
        },
        **spec.mapped(target),
        "ancestors": _ancestors(spec, target),
    }


def agrees(observed: dict[str, Any], want: dict[str, Any]) -> bool:
    """Whether an observation has every key the oracle states, with that value.

    Values are compared as JSON (see ``same_json``), ``ancestors`` as a subset: an error
    may have more classes than the spec names.
    """
    for key, value in want.items():
        if key == "ancestors":
            if not set(value) <= set(observed.get(key, ())):
                return False
        elif key not in observed or not same_json(observed[key], value):
            return False
    return True


def same_json(a: object, b: object) -> bool:
    """JSON equality: numbers as the doubles JavaScript holds (``1 == 1.0``),
    booleans apart from numbers, objects whatever their key order."""
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        # As doubles: JavaScript writes 3.612571934612378e16 as 36125719346123780,
        # which reads back in Python as an int a few units off the float's exact value.
        return a == b or float(a) == float(b)
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same_json(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(map(same_json, a, b))
    return type(a) is type(b) and a == b


# -------------------------------------------------------------------- the probes


NOT_ERRORS: tuple[Any, ...] = ("boom", 42, None, {"code": "x"}, [1, 2], False, 0.5)


def probes(spec: Spec) -> list[tuple[str, Any]]:
    """Calls that cover what the YAML decides: every live, removed and unknown code,
    events, wraps.
    """
    out: list[tuple[str, Any]] = []
    unknowns = [spec.other_code("zz_unknown"), spec.other_code("a")]
    unknowns += [spec.other_code(code.lower() + "_zz") for code in spec.codes]
    # docs "Hierarchies": unknown codes each domain's match claims.
    for domain_prefixes in spec.prefixes.values():
        for prefix in domain_prefixes:
            unknowns += [prefix + tail for tail in ("zz", "ZZ", "_zz", "9", "")]
    for domain_ranges in spec.ranges.values():
        for low, high in domain_ranges:
            unknowns += [low, high, (low + high) // 2, low - 1, high + 1]
    unknowns = [u for u in dict.fromkeys(unknowns) if spec.known(u) is None]
    for code, entry in spec.codes.items():
        for retryable in (entry.retryable, not entry.retryable):
            payload = {"code": code, "message": f"m {code}", "retryable": retryable}
            out.append(("from_payload", {**payload, "details": {"k": [1, "x"]}}))
            out.append(("from_payload", {**payload, "details": None}))
        swapped = {"code": code.swapcase(), "message": "m", "retryable": True}
        out.append(("from_payload", swapped))
        out.append(("lookup", code))
        for alias in (() if spec.integer else entry.aliases):  # docs "Aliases"
            said = {"code": alias, "message": "m", "retryable": not entry.retryable}
            out.append(("from_payload", said))
            out.append(("lookup", alias))
    for code in (*spec.removed, *unknowns):
        out.append(("from_payload", {"code": code, "message": "m", "retryable": True}))
        out.append(("from_payload", {"code": code, "message": "", "retryable": False}))
        out.append(("lookup", code))
    for kind, location in spec.events.items():
        first = next(iter(spec.codes))
        for value in ({"code": first, "message": "e", "retryable": False}, None):
            event: dict[str, Any] = {"type": kind}
            node = event
            *parents, leaf = location.split(".")
            for part in parents:
                node[part] = node = {}
            node[leaf] = value
            out.append(("error_from_event", event))
    out.extend(("to_error", value) for value in NOT_ERRORS)
    if spec.payload.get("message_required") is False:
        # Issue 30 §1: every code, and an unknown one, received without a message.
        wires = [entry.wire for entry in spec.codes.values()] + unknowns[:1]
        for wire in wires:
            out.append(("from_payload", to_wire(spec, {"code": wire})))
    return out


def observe_python(mod: Any, op: str, given: Any) -> dict[str, Any]:
    """What the generated Python package does with one probe, as JSON."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        if op == "lookup":
            cls = mod.lookup(given)
            return {
                "class": cls.__name__,
                "retryable": mod.is_retryable(given),
                **_python_mapped(cls),
            }
        call = {
            "from_payload": mod.from_payload,
            "error_from_event": mod.error_from_event,
            "to_error": mod.to_error,
        }[op]
        try:
            err = call(given)
        except mod.InvalidPayloadError as exc:
            return {"ok": False, "field": exc.field}
        if err is None:
            return {"ok": True, "none": True}
        return {
            "ok": True,
            "class": type(err).__name__,
            # The plain value an ErrorCode member holds (a str or an int).
            "code": err.code.value if hasattr(err.code, "value") else err.code,
            "domain": None if err.domain is None else str(err.domain),
            "retryable": err.retryable,
            "wire_code": err.wire_code,
            "payload": json.loads(json.dumps(err.to_payload())),
            "message": err.message,
            "message_absent": err.message_absent,
            **_python_mapped(err),
            "ancestors": sorted(cls.__name__ for cls in type(err).__mro__),
        }


def _python_mapped(owner: Any) -> dict[str, Any]:
    """docs "Python": the class attributes of what a code maps to."""
    return {
        "http_status": owner.http_status,
        "grpc_status": owner.grpc_status,
        "throttling": owner.throttling,
        "doc_url": owner.doc_url,
    }


def disagreements(
    spec: Spec, observations: Iterator[tuple[str, Any, dict[str, Any]]]
) -> list[str]:
    """Every probe whose observation the oracle does not accept, described."""
    found = []
    for op, given, observed in observations:
        want = expected(spec, op, given)
        if not agrees(observed, want):
            found.append(f"{op}({given!r}): observed {observed}, the spec says {want}")
    return found


# ------------------------------------------ issue 14 §2: the payload on the wire

#: The presets, as issue 14 §2 words them: harmovela "exactly today's payload";
#: json-rpc "{code: int, message, data?} with details_type: any ... retryable
#: not on the wire"; problem (RFC 9457) "type ... detail is the message ...
#: every extension member" (details "*": "the other top-level members").
PRESETS: dict[str, dict[str, Any]] = {
    "harmovela": {
        "preset": "harmovela",
        "code": "code",
        "message": "message",
        "retryable": "retryable",
        "details": "details",
        "details_type": "object",
        "envelope": None,
        "status": None,
    },
    "json-rpc": {
        "preset": "json-rpc",
        "code": "code",
        "message": "message",
        "retryable": None,
        "details": "data",
        "details_type": "any",
        "envelope": None,
        "status": None,
    },
    "problem": {
        "preset": "problem",
        "code": "type",
        "message": "detail",
        "retryable": None,
        "details": "*",
        "details_type": "object",
        "envelope": None,
        "status": None,
    },
}


def read_payload(raw: Any) -> dict[str, Any]:
    """The issue's ``payload:``: the preset (default harmovela), each field given
    overriding it."""
    raw = dict(raw or {})
    preset = raw.pop("preset", "harmovela")
    out = dict(PRESETS[preset])
    # Issue 30 §1: "message_required: false: the message member may be absent";
    # true is every shape's own but the problem's (RFC 9457: detail optional).
    if raw.get("message_required") is True and preset != "problem":
        del raw["message_required"]
    out.update(raw)
    return out


def _members(spec: Spec) -> tuple[str, ...]:
    """The members the mapping reads as code, message, retryable and (issue 30
    §2) the HTTP status."""
    p = spec.payload
    own = tuple(m for m in (p["code"], p["message"], p["retryable"], p["status"]) if m)
    if p["envelope"]:  # the constants sit beside the envelope
        return own
    return own + tuple(p.get("constants") or {})  # issue 30 §1: never details


def type_uri(spec: Spec, code: str | int) -> str:
    """Issue 14 §2: a problem's type, "a URI built from docs_url" (README: the
    wire code percent-encoded in place of {code})."""
    assert spec.docs_url is not None
    return spec.docs_url.replace("{code}", percent_encoded(str(code)))


def code_in_uri(spec: Spec, text: str) -> str | int | None:
    """The code a problem type names, "parsed back to the code": None for
    about:blank and every URI docs_url would not write for a well-formed code."""
    assert spec.docs_url is not None
    prefix, suffix = spec.docs_url.split("{code}")
    if len(text) < len(prefix) + len(suffix):
        return None
    if not (text.startswith(prefix) and text.endswith(suffix)):
        return None
    middle = text[len(prefix) : len(text) - len(suffix)]
    try:
        decoded = bytes(
            int(middle[i + 1 : i + 3], 16) if middle[i] == "%" else ord(middle[i])
            for i in _escapes(middle)
        ).decode("utf-8")
    except (ValueError, UnicodeDecodeError):
        return None
    if not decoded or percent_encoded(decoded) != middle:
        return None  # spelt otherwise than docs_url spells a code
    if spec.integer:
        if not re.fullmatch(r"-?(0|[1-9][0-9]*)", decoded):
            return None
        number = int(decoded)
        return number if abs(number) <= MAX_WIRE_INTEGER else None
    return decoded if spec.well_formed(decoded) else None


def _escapes(text: str) -> Iterator[int]:
    """The index of each character of ``text``, a %XX escape counted once."""
    index = 0
    while index < len(text):
        yield index
        if text[index] == "%":
            if len(text) < index + 3:
                raise ValueError(text)
            index += 3
        else:
            if ord(text[index]) > 127:
                raise ValueError(text)
            index += 1


def _size_ok(value: object) -> bool:
    """Within the limits (README), and JSON: no NaN or infinity (issue 12)."""
    depth, nodes = details_size(value)
    if depth > MAX_DETAILS_DEPTH or nodes > MAX_DETAILS_NODES:
        return False
    return all_finite(value)


def read_mapped(spec: Spec, payload: object) -> str | dict[str, Any]:
    """Issue 14 §2's reading of a payload: the field to blame (a member, with
    its envelope: ``error.code``), or what was read (code None: a problem whose
    type names none of ours)."""
    p = spec.payload
    envelope = p["envelope"]
    at = f"{envelope}." if envelope else ""
    if not isinstance(payload, dict):
        return "payload"
    # Issue 30 §1: "members every payload carries": the payload's own (beside
    # the envelope); "on decoding each must be absent or equal (anything else is
    # InvalidPayloadError naming the member)"; null counts as absent.
    for name, value in (p.get("constants") or {}).items():
        if payload.get(name) is not None and not same_json(payload[name], value):
            return name
    body: object = payload
    if envelope:
        body = payload.get(envelope)
        if not isinstance(body, dict):
            return envelope
    assert isinstance(body, dict)
    raw = body.get(p["code"])
    code: str | int | None
    kept = None
    if p["preset"] == "problem":
        if raw is None:
            code = None
        elif not isinstance(raw, str):
            return at + p["code"]
        else:
            code = code_in_uri(spec, raw)
            if code is None:
                kept = raw
    else:
        if not spec.well_formed(raw):
            return at + p["code"]
        code = int(raw) if spec.integer else raw
    message = body.get(p["message"])
    # RFC 9457: detail optional; issue 30 §1: "message_required: false: the
    # message member may be absent" (null counts as absent, as for details).
    required = p.get("message_required", p["preset"] != "problem")
    if not isinstance(message, str) and not (message is None and not required):
        return at + p["message"]
    retryable = None
    if p["retryable"]:
        retryable = body.get(p["retryable"])
        if type(retryable) is not bool:
            return at + p["retryable"]
    # Issue 30 §2: "validated: an integer 100..599, else InvalidPayloadError
    # naming the member"; absent (or null), the error's status is its code's.
    status = body.get(p["status"]) if p["status"] else None
    if status is not None:
        integral = (type(status) is int) or (
            type(status) is float and status.is_integer()
        )
        if not integral or not 100 <= status <= 599:
            return at + p["status"]
        status = int(status)
    details: Any
    if p["details"] == "*":
        details = {k: v for k, v in body.items() if k not in _members(spec)}
        if not _size_ok(details):
            return envelope or "payload"
        if kept is not None:
            details[p["code"]] = kept
    elif p["details"]:
        details = body.get(p["details"])
        kind = p["details_type"]
        if details is not None and (
            (kind == "object" and not isinstance(details, dict))
            or (kind == "array" and not isinstance(details, list))
            or not _size_ok(details)
        ):
            return at + p["details"]
    else:
        details = None
    if details is None and p["details_type"] != "any":
        details = [] if p["details_type"] == "array" else {}
    problem = fields_problem(spec, code, details)
    if problem is not None:
        return problem
    details = with_constants(spec, code, details)
    # Issue 30 §1: "outside: keep (with envelope:): members beside the envelope
    # ... are kept on the error as received and written back" (the constants
    # are checked and written as constants); within the limits, as details are.
    # Without an envelope, docs "Payload": "the members of the error object the
    # mapping does not name" (Kubernetes' metadata).
    around = {}
    if p.get("outside") == "keep":
        constants = p.get("constants") or {}
        named = (
            {envelope}
            if envelope
            else {p[m] for m in ("code", "message", "retryable", "status", "details")}
        )
        around = {k: v for k, v in payload.items() if k not in named}
        around = {k: v for k, v in around.items() if k not in constants}
        if not _size_ok(around):
            return "payload"
    target = spec.codes[spec.fallback] if code is None else spec.target(code)
    absent = message is None and p.get("message_required") is False
    if absent:
        # Issue 30 §1: "the message is then the code's message template rendered
        # from the details when it can be, else its meaning".
        known = spec.known(code) if code is not None else None
        message = target.meaning
        if known is not None and known.message is not None:
            filled = {n: f["default"] for n, f in known.fields if "default" in f}
            filled.update(details)
            message = rendered(known.message, filled)
    elif message is None:
        title = details.get("title") if isinstance(details, dict) else None
        message = title if isinstance(title, str) else target.meaning
    return {
        "target": target,
        "wire_code": target.wire if code is None else code,
        "message": message,
        "absent": absent,
        "around": around,
        "retryable": (
            retryable
            if retryable is not None
            # Issue 30 §3: "retryable for 5xx statuses received" (by_status).
            else (
                spec.unknown_retryable_at(status)
                if code is not None and spec.keeps(code)
                else target.retryable
            )
        ),
        "details": details,
        "http_status": target.http_status if status is None else status,
    }


def written(spec: Spec, target: SpecCode, read: dict[str, Any]) -> dict[str, Any]:
    """Issue 14 §2: what to_payload writes of an error so read.  JSON-RPC: "no
    data is written when there are no details"; problem: "status is the code's
    HTTP status (always written)", "title is kept when received and written as
    the meaning otherwise", every extension member kept."""
    p = spec.payload
    details = read["details"]
    body: dict[str, Any] = {}
    if p["preset"] == "problem":
        kept = details.get(p["code"])
        body[p["code"]] = (
            kept if kept is not None else type_uri(spec, read["wire_code"])
        )
        body["title"] = target.meaning
        body["status"] = target.http_status
    else:
        body[p["code"]] = read["wire_code"]
    if not read.get("absent"):  # issue 30 §1: "written back without it"
        body[p["message"]] = read["message"]
    if p["retryable"]:
        body[p["retryable"]] = read["retryable"]
    if p["status"] and read["http_status"] is not None:
        body[p["status"]] = read["http_status"]  # issue 30 §2: "written from it"
    if p["details"] == "*":
        body.update((k, v) for k, v in details.items() if k not in _members(spec))
    elif p["details"]:
        # Today's shape writes {} for no details; the others leave none out.
        always = p["preset"] == "harmovela" and p["details_type"] == "object"
        if always or details not in (None, {}, []):
            body[p["details"]] = details
    # Issue 30 §1: constants are "written on every payload", its own members.
    constants = dict(p.get("constants") or {})
    inner = body if not p["envelope"] else {p["envelope"]: body}
    return {**read.get("around", {}), **constants, **inner}


def mapped_accepted(spec: Spec, payload: Any) -> dict[str, Any]:
    read = read_mapped(spec, payload)
    assert not isinstance(read, str), read
    target = read["target"]
    return {
        "ok": True,
        "class": target.class_name,
        "code": target.wire,
        "domain": target.domain,
        "retryable": read["retryable"],
        "wire_code": read["wire_code"],
        "payload": written(spec, target, read),
        **spec.mapped(target),
        # Issue 30 §2: a status received is the error's own; its class keeps
        # its code's.
        **(
            {"http_status": read["http_status"]}
            if spec.declares_mapped or read["http_status"] != target.http_status
            else {}
        ),
        **(
            {"class_http_status": target.http_status}
            if read["http_status"] != target.http_status
            else {}
        ),
        "ancestors": _ancestors(spec, target),
        # Issue 30 §1: received without its message (the vectors' "message").
        **({"message": read["message"]} if read["absent"] else {}),
    }


def retry_hint(spec: Spec, payload: Any) -> dict[str, Any]:
    """Issue 30 §8: the retry hint of the error a payload gives, "absent where
    the field is": the number its class's retry field holds in the details."""
    accepted = expected(spec, "from_payload", payload)
    assert accepted["ok"] and not accepted.get("none"), accepted
    entry = spec.known(accepted["code"])
    assert entry is not None, accepted
    _, details = details_member(spec, payload)
    value = (
        details.get(entry.retry_after)
        if entry.retry_after is not None and isinstance(details, dict)
        else None
    )
    number = type(value) in (int, float)
    return {
        "class": accepted["class"],
        "code": accepted["code"],
        "retry_after": value if number else None,
    }


def details_member(spec: Spec, payload: object) -> tuple[str, object]:
    """The field that blames details, and the details a payload holds (for the
    limits the schema cannot state)."""
    p = spec.payload
    if not spec.mapped_payload:
        given = payload.get("details") if isinstance(payload, dict) else None
        return "details", given
    envelope = p["envelope"]
    body = payload.get(envelope) if envelope and isinstance(payload, dict) else payload
    if not isinstance(body, dict):
        return "", None
    if p["details"] == "*":
        rest = {k: v for k, v in body.items() if k not in _members(spec)}
        return envelope or "payload", rest
    at = f"{envelope}." if envelope else ""
    return at + str(p["details"]), body.get(p["details"])


def view(spec: Spec, payload: Any) -> Any:
    """A mapped payload seen in today's terms (code, message, retryable, details:
    present where the payload has them), for tests that look at vectors' inputs;
    a problem's type as the code it names (else as it is).  Today's payloads and
    non-objects are themselves."""
    p = spec.payload
    if not spec.mapped_payload or not isinstance(payload, dict):
        return payload
    body = payload.get(p["envelope"]) if p["envelope"] else payload
    if not isinstance(body, dict):
        return payload
    out: dict[str, Any] = {}
    if p["code"] in body:
        code = body[p["code"]]
        if p["preset"] == "problem" and isinstance(code, str):
            named = code_in_uri(spec, code)
            code = code if named is None else named
        out["code"] = code
    if p["message"] in body:
        out["message"] = body[p["message"]]
    if p["retryable"] and p["retryable"] in body:
        out["retryable"] = body[p["retryable"]]
    if p["details"] == "*":
        rest = {k: v for k, v in body.items() if k not in _members(spec)}
        if rest:
            out["details"] = rest
    elif p["details"] and p["details"] in body:
        out["details"] = body[p["details"]]
    return out


def blamed_fields(spec: Spec) -> set[str]:
    """docs "Python" and issue 14 §2: the fields a rejection may name, each the
    member the payload mapping gives it (under its envelope)."""
    p = spec.payload
    if not spec.mapped_payload:
        return set(FIELDS)
    at = f"{p['envelope']}." if p["envelope"] else ""
    out = {"payload", at + p["code"], at + p["message"]}
    out |= set(p.get("constants") or {})
    if p["retryable"]:
        out.add(at + p["retryable"])
    if p["status"]:
        out.add(at + p["status"])
    if p["details"] == "*":
        out.add(p["envelope"] or "payload")
    elif p["details"]:
        out.add(at + p["details"])
    if p["envelope"]:
        out.add(p["envelope"])
    return out


def to_wire(spec: Spec, canonical: dict[str, Any]) -> dict[str, Any]:
    """A payload in today's terms written in the YAML's mapping (issue 14 §2):
    each field in its member (none where the mapping has none), details of an
    array type as the object's values, a problem's code as docs_url spells it,
    the envelope around.  Today's payloads are themselves."""
    if not spec.mapped_payload:
        return dict(canonical)
    p = spec.payload
    body: dict[str, Any] = {}
    for field in ("code", "message", "retryable"):
        if field in canonical and p[field]:
            value = canonical[field]
            if field == "code" and p["preset"] == "problem":
                if isinstance(value, (str, int)) and not isinstance(value, bool):
                    value = type_uri(spec, value)
            body[p[field]] = value
    if "details" in canonical:
        details = canonical["details"]
        if p["details"] == "*" and isinstance(details, dict):
            body.update(details)
        elif p["details"] not in (None, "*"):
            if p["details_type"] == "array" and isinstance(details, dict):
                details = list(details.values())
            body[p["details"]] = details
    return {p["envelope"]: body} if p["envelope"] else body
