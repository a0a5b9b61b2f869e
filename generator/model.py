"""Model: the taxonomy as frozen, validated data, with no YAML left in it.

Everything downstream of validation (naming, rendering, diffing) reads these
classes and nothing else.  They are keyword-only, frozen and slotted, hold
tuples rather than lists, and keep the source position of every named thing so
that later checks (such as two codes whose class names collide) can still point
at the line that caused them.  The format's lexical rules live here too, once:
what a name looks like in each code case, what a version is (semantic versions
and ISO dates, their order, and their PEP 440 and npm spellings), which HTTP and
gRPC statuses a code may map to and how its documentation link is built, for
validation, diff, lint and the targets alike.  So do the rules of inheritance:
:meth:`Taxonomy.mapped` is the one place that says which HTTP and gRPC status a
code carries when it declares none itself.

It is longer than 300 lines because it is the one home of those rules and of
every class of the model (codes, domains, typed details fields and message
templates, events, docs): split up, each rule would be imported back into the
others, and the model read in several places.
"""

from __future__ import annotations

import dataclasses
import datetime
import decimal
import json
import re
import urllib.parse
from typing import Any, NamedTuple, Union

from taxogen.diagnostics import Position

__all__ = [
    "ANY_CASE",
    "CASE_PATTERNS",
    "CASE_RULES",
    "constant_text",
    "CLASS_OVERRIDE",
    "CLASS_SUFFIX",
    "CLASS_PATTERN",
    "CODE_CASES",
    "Code",
    "DATE_VERSION",
    "DOCS_URL_PLACEHOLDER",
    "GRPC_STATUSES",
    "HTTP_STATUSES",
    "Mapped",
    "Deprecation",
    "Docs",
    "Domain",
    "Event",
    "Example",
    "FIELD_NAME",
    "FIELD_TYPES",
    "Field",
    "Piece",
    "SCALAR_TYPES",
    "Shape",
    "Template",
    "JSONObject",
    "JSONValue",
    "json_data",
    "MAX_NAME_LENGTH",
    "NAME_PATTERN",
    "PAYLOAD_FIELDS",
    "PAYLOAD_KEYS",
    "PAYLOAD_PRESETS",
    "OUTSIDE",
    "DETAILS_TYPES",
    "Payload",
    "preset_payload",
    "PYTHON_LAYOUTS",
    "SEMVER",
    "Taxonomy",
    "Tombstone",
    "VERSION",
    "Version",
    "MAX_CODE_LENGTH",
    "MAX_WIRE_INTEGER",
    "WIRE_PATTERN",
    "page_slug",
    "EMPTY_OR_WIRE_PATTERN",
    "WIRE_TYPES",
    "code_pattern",
    "doc_url",
    "npm_version",
    "parse_date_version",
    "parse_template",
    "placeholder_text",
    "parse_version",
    "pep440",
    "semver_guess",
    "version_guess",
    "version_key",
]


@dataclasses.dataclass(frozen=True, slots=True)
class JSONObject:
    """A JSON object kept frozen and in source order (free-form data such as example
    details).
    """

    items: tuple[tuple[str, "JSONValue"], ...]


#: Free-form JSON data: arrays are tuples, objects are JSONObject.
JSONValue = Union[None, bool, int, float, str, tuple["JSONValue", ...], JSONObject]


def json_data(value: JSONValue) -> Any:
    """The model's frozen JSON (tuples, JSONObject) as plain JSON data: lists and
    dicts, ready for ``json.dumps`` or a template."""
    if isinstance(value, JSONObject):
        return {key: json_data(item) for key, item in value.items}
    if isinstance(value, tuple):
        return [json_data(item) for item in value]
    return value


#: The spelling styles a taxonomy may declare for its codes (``code_case``).
CODE_CASES = ("lower_snake", "upper_snake", "as_written")

#: What a code or domain name must look like under each ``code_case``.
CASE_PATTERNS = {
    "lower_snake": re.compile(r"[a-z][a-z0-9]*(?:_[a-z0-9]+)*"),
    "upper_snake": re.compile(r"[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*"),
    # A wire code as the protocol writes it (NoSuchKey, NotFound, ENOENT): printable
    # ASCII without spaces whose first letter or digit is a letter, where every
    # language's identifiers start.  Domains keep a snake case.
    "as_written": re.compile(r"[!-/:-@\[-`{-~]*[A-Za-z][!-~]*"),
}
#: What each code case means, for people: follows "is not lower_snake (...)".
CASE_RULES = {
    "lower_snake": "lowercase letters and digits, words joined by single underscores,"
    " starting with a letter",
    "upper_snake": "uppercase letters and digits, words joined by single underscores,"
    " starting with a letter",
    "as_written": "printable ASCII without spaces, as the wire code is written, whose"
    " first letter or digit is a letter",
}
#: A name in either case: what is checked while the ``code_case`` is unreadable.
ANY_CASE = re.compile(
    f"{CASE_PATTERNS['lower_snake'].pattern}|{CASE_PATTERNS['upper_snake'].pattern}"
)
#: Names longer than this are refused: they are typos or attacks, not names.
MAX_NAME_LENGTH = 100
#: The taxonomy's own ``name``: always lower_snake, whatever its codes' case.
NAME_PATTERN = re.compile(r"[a-z][a-z0-9]*(?:_[a-z0-9]+)*")
#: What a taxonomy's ``class_suffix`` may be: the end of a class name, or nothing.
CLASS_SUFFIX = re.compile(r"[A-Za-z0-9_]*")
#: A class name (``base``): PascalCase.
CLASS_PATTERN = re.compile(r"[A-Z][A-Za-z0-9]*")
#: A ``class:`` a code or domain picks: any identifier starting with a capital,
#: underscores included (psycopg's ``InternalError_`` beside ``InternalError``).
CLASS_OVERRIDE = re.compile(r"[A-Z][A-Za-z0-9_]*")

#: A semantic version (semver.org 2.0.0); its groups are major, minor, patch,
#: pre-release and build.
SEMVER = re.compile(
    r"(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)"
    r"(?:-([0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*))?"
    r"(?:\+([0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*))?"
)
#: A date version, an ISO 8601 calendar date as date-versioned APIs name their
#: releases (``2024-06-20``); its groups are year, month and day.  Only a real
#: date is one (:func:`parse_date_version`).
DATE_VERSION = re.compile(r"([0-9]{4})-([0-9]{2})-([0-9]{2})")
#: What a taxonomy's ``version`` (and every ``since``) may look like: either kind.
VERSION = re.compile(f"{SEMVER.pattern}|{DATE_VERSION.pattern}")


class Version(NamedTuple):
    """A semantic version taken apart."""

    major: int
    minor: int
    patch: int
    pre: str | None  # the pre-release, without its "-"
    build: str | None  # the build metadata, without its "+"


def parse_version(text: str) -> Version | None:
    """``text`` as a :class:`Version`, or None when it is not a semantic version."""
    match = SEMVER.fullmatch(text)
    if match is None:
        return None
    major, minor, patch, pre, build = match.groups()
    return Version(int(major), int(minor), int(patch), pre, build)


def parse_date_version(text: str) -> datetime.date | None:
    """``text`` as a date, or None when it is not a date version (``2024-02-30``
    has the shape but is no date)."""
    match = DATE_VERSION.fullmatch(text)
    if match is None:
        return None
    try:
        return datetime.date(*(int(part) for part in match.groups()))
    except ValueError:
        return None


def version_key(text: str) -> tuple[int, int, int, int, int, str]:
    """A sort key putting versions in release order: a pre-release before its release.

    Date versions come after every semantic version (a taxonomy moves from one to
    the other, not back); pre-releases of one release sort by their text; text
    that is not a version sorts first.
    """
    date = parse_date_version(text)
    if date is not None:
        return (2, date.year, date.month, date.day, 1, "")
    version = parse_version(text)
    if version is None:
        return (0, 0, 0, 0, 0, text)
    major, minor, patch, pre, _ = version
    return (1, major, minor, patch, 0 if pre else 1, pre or "")


_PEP440_PRE = {"alpha": "a", "a": "a", "beta": "b", "b": "b", "rc": "rc", "c": "rc"}


def pep440(text: str) -> str:
    """A version spelled as PEP 440 wants it (pre-releases as a, b, rc).

    A pre-release PEP 440 has no word for becomes ``.dev0``; build metadata
    becomes a local version label; a date version is its numbers without leading
    zeros (``2024-06-20`` → ``2024.6.20``).  Text that is not a version is
    returned as is.
    """
    date = parse_date_version(text)
    if date is not None:
        return f"{date.year}.{date.month}.{date.day}"
    version = parse_version(text)
    if version is None:  # validation only lets versions through
        return text
    out = f"{version.major}.{version.minor}.{version.patch}"
    if version.pre is not None:
        pre = re.fullmatch(r"(alpha|a|beta|b|rc|c)[.-]?(\d*)", version.pre.lower())
        if pre is not None:
            out += f"{_PEP440_PRE[pre.group(1)]}{pre.group(2) or 0}"
        else:
            out += ".dev0"
    if version.build is not None:
        out += "+" + re.sub(r"[^0-9A-Za-z]+", ".", version.build).strip(".")
    return out


def npm_version(text: str) -> str:
    """A version as npm wants it, a semantic version: a date version becomes its
    numbers without leading zeros (``2024-06-20`` → ``2024.6.20``, which sorts
    as the dates do); a semantic version is itself."""
    date = parse_date_version(text)
    if date is not None:
        return f"{date.year}.{date.month}.{date.day}"
    return text


def semver_guess(text: str) -> str:
    """The semantic version a mistyped one most likely meant: ``v1.2`` → ``1.2.0``.

    For did-you-mean hints; the result is only offered if it is a version.
    """
    parts = text.removeprefix("v").removeprefix("V").split(".")
    if all(part.isdigit() for part in parts) and 1 <= len(parts) < 3:
        parts += ["0"] * (3 - len(parts))
    return ".".join(str(int(part)) if part.isdigit() else part for part in parts)


#: What a code may be on the wire (``wire_type``): text, or an integer such as
#: JSON-RPC's ``-32601`` and gRPC's ``14``.
WIRE_TYPES = ("string", "integer")
#: ``unknown_retryable:`` (issue 30 §3): whether an unknown code that keeps its
#: identity is retryable where its payload does not say: never, always, or when
#: the HTTP status it was received with is 5xx.
UNKNOWN_RETRYABLE = ("false", "true", "by_status")
#: A string wire code: printable ASCII without spaces (``23505``, ``CardDeclined``,
#: ``UNAVAILABLE``), the same regular expression in every runtime and the schema.
WIRE_PATTERN = re.compile(r"[!-~]+")
#: The same, or the empty string: what a code is once ``wire: ""`` is one.
EMPTY_OR_WIRE_PATTERN = re.compile(r"[!-~]*")
#: The longest code a payload may carry, in characters (string codes are ASCII).
MAX_CODE_LENGTH = 256
#: The largest integer wire code, either sign: JavaScript's Number.MAX_SAFE_INTEGER,
#: beyond which a JSON number is no longer read exactly everywhere.
MAX_WIRE_INTEGER = 2**53 - 1
#: How deep domains may nest through ``parent:`` (a domain without a parent is
#: depth 1): far past any real catalogue (psycopg's is 3), and shallow enough
#: for every language's class machinery and a readable diagram.
MAX_PARENT_DEPTH = 64


def version_guess(text: str) -> str:
    """The version a mistyped one most likely meant: a date written with other
    separators or without zeros (``2024/6/20`` → ``2024-06-20``), else as
    :func:`semver_guess` guesses.  Only offered if it is a version."""
    date = re.fullmatch(r"([0-9]{4})[-/._]([0-9]{1,2})[-/._]([0-9]{1,2})", text)
    if date is None:
        date = re.fullmatch(r"([0-9]{4})([0-9]{2})([0-9]{2})", text)
    if date is not None:
        year, month, day = date.groups()
        guess = f"{year}-{int(month):02d}-{int(day):02d}"
        if parse_date_version(guess) is not None:
            return guess
    return semver_guess(text)


#: How the generated Python package lays out its classes (``python_layout``):
#: ``module`` defines every class in ``__init__.py``; ``lazy`` puts each domain's
#: classes in a module of its own, imported on first use; ``auto`` picks by size.
PYTHON_LAYOUTS = ("auto", "module", "lazy")

#: The wire payload every taxonomy shares: (field, type, required, default description).
PAYLOAD_FIELDS = (
    ("code", "string", True, "Machine-readable error code"),
    ("message", "string", True, "Human-readable description"),
    ("retryable", "boolean", True, "Whether the caller may retry after this error"),
    ("details", "object", False, "Context-specific error metadata"),
)


#: The payload shapes ``payload.preset`` names: today's ``{code, message,
#: retryable, details}``, a JSON-RPC 2.0 error object and an RFC 9457 problem.
PAYLOAD_PRESETS = ("harmovela", "json-rpc", "problem")
#: What ``payload.outside`` may say of the members beside the envelope.
OUTSIDE = ("drop", "keep")
#: What a payload's details may be (``payload.details_type``).
DETAILS_TYPES = ("object", "array", "any")


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class Payload:
    """The payload the wire carries (``payload:``): the member that holds each of
    the error's fields, and the details' type.

    ``retryable`` None: not on the wire (an error's retryability is its code's);
    ``details`` None: none, ``"*"``: every member the mapping does not read
    (RFC 9457's extension members); ``envelope``: the error object sits under
    this member of the body.  Under the ``problem`` preset the code travels as a
    URI built from ``docs_url`` and ``status`` and ``title`` are written too.
    """

    preset: str = "harmovela"
    code: str = "code"
    message: str = "message"
    retryable: str | None = "retryable"
    details: str | None = "details"
    details_type: str = "object"
    envelope: str | None = None
    #: The member that holds the HTTP status (``status: code``), read into each
    #: error's own status and written from it; None: not on the wire.
    status: str | None = None
    #: ``message_required`` as the taxonomy gives it: None where it does not
    #: (the preset's: the problem's ``detail`` is optional, every other message
    #: is required), False where the message may be absent and a body received
    #: without it is written back without it (issue 30 §1).
    message_required: bool | None = None
    #: Members every payload carries with a fixed value (issue 30 §1), in the
    #: order given: members of the payload itself (beside the envelope, if
    #: any), written on every payload, and on decoding each absent (or null) or
    #: equal.  Each value a string, a number or a boolean.
    constants: tuple[tuple[str, JSONValue], ...] = ()
    #: What becomes of the members the error does not hold (issue 30 §1): those
    #: beside the envelope, or without one the members of the error object the
    #: mapping does not name (Kubernetes' ``metadata``): ``drop`` (the default)
    #: or ``keep``, on the error as received and written back.
    outside: str = "drop"

    @property
    def default(self) -> bool:
        """Whether this is today's payload exactly (every runtime's fast path)."""
        return self == _HARMOVELA

    @property
    def problem(self) -> bool:
        return self.preset == "problem"

    @property
    def rest(self) -> bool:
        """Whether the details are the members the mapping does not read."""
        return self.details == "*"

    @property
    def own(self) -> tuple[str, ...]:
        """The members the mapping reads as the code, the message, retryable and
        the HTTP status."""
        names = (self.code, self.message, self.retryable, self.status)
        return tuple(name for name in names if name is not None)

    @property
    def keeps_outside(self) -> bool:
        """Whether the members the error does not hold are kept (``outside:
        keep``): beside the envelope, or the error object's unnamed ones."""
        return self.outside == "keep"

    @property
    def fixed(self) -> tuple[str, ...]:
        """The members of the constants (never details, even under ``"*"``)."""
        return tuple(name for name, _ in self.constants)

    @property
    def optional_message(self) -> bool:
        """Whether a payload may leave the message out: where the taxonomy says
        ``message_required: false``, and under the problem preset (RFC 9457's
        ``detail`` is optional) unless it says ``true``."""
        if self.message_required is None:
            return self.problem
        return not self.message_required

    @property
    def exact_message(self) -> bool:
        """Whether a body received without the message is written back without it
        (``message_required: false`` given)."""
        return self.message_required is False

    @property
    def always_details(self) -> bool:
        """Whether the details member is written when there are none (``{}``): as
        today's payload does (an object's ``{}``); every other shape, and an array
        or any details, leave it out."""
        return self.preset == "harmovela" and self.details_type == "object"


#: The keys ``payload:`` may hold: the mapping's parts, in the order they are
#: shown (validation's allowed keys, and diff's parts).
PAYLOAD_KEYS = tuple(field.name for field in dataclasses.fields(Payload))


_HARMOVELA = Payload()
_PRESETS = {
    "harmovela": _HARMOVELA,
    "json-rpc": Payload(
        preset="json-rpc", retryable=None, details="data", details_type="any"
    ),
    "problem": Payload(
        preset="problem", code="type", message="detail", retryable=None, details="*"
    ),
}


def preset_payload(preset: str) -> Payload:
    """The mapping ``preset`` stands for, before any field overrides it."""
    return _PRESETS[preset]


#: The HTTP statuses a code may map to (``http_status``), inclusive.
HTTP_STATUSES = (100, 599)
#: The canonical gRPC status codes but ``OK`` (google.rpc.Code), by name, in the
#: order of their numbers (``CANCELLED`` is 1, ``UNAUTHENTICATED`` 16): what a
#: ``grpc_status`` may name.  The name is kept: generated code says
#: ``"UNAVAILABLE"``, never 14.
GRPC_STATUSES = (
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
)
#: What ``docs_url`` holds where each code's wire code goes, once.
DOCS_URL_PLACEHOLDER = "{code}"


def doc_url(template: str, wire: str) -> str:
    """The documentation link of the code ``wire``: ``template`` (a ``docs_url``)
    with the wire code put in place of ``{code}``, percent-encoded so that it is
    one URL component whatever it holds (every character but the unreserved
    ``A-Z a-z 0-9 - . _ ~``, as UTF-8 bytes)."""
    code = urllib.parse.quote(wire, safe="")
    return template.replace(DOCS_URL_PLACEHOLDER, code)


def page_slug(wire: str) -> str:
    """The name (without ``.md``) of a code's own docs page under ``docs:
    {layout: pages}`` (issue 33 §6): its wire code as :func:`doc_url` puts it in
    a link, so a ``docs_url`` ending in ``/{code}`` lands on the page; the
    empty wire code (whose link ends at the folder, the index) is ``_empty``."""
    return urllib.parse.quote(wire, safe="") or "_empty"


class Mapped(NamedTuple):
    """What a code (or a domain's own class) maps to in other protocols, inherited
    (see :meth:`Taxonomy.mapped`); None where nothing declares one."""

    http_status: int | None
    grpc_status: str | None
    #: Every status the code may take (``http_status: [400, 401]``), the default
    #: first; ``(http_status,)`` for one, ``()`` for none.
    http_statuses: tuple[int, ...] = ()


#: The types a declared details field may have (``details: {f: {type: ...}}``).
FIELD_TYPES = ("string", "integer", "number", "boolean", "array", "object")
#: The types an array's ``items`` and a message placeholder may have.
SCALAR_TYPES = ("string", "integer", "number", "boolean")
#: A details field's name: the key on the wire, a keyword argument in Python and a
#: property in TypeScript, so a plain identifier in both.
FIELD_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_]*")


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class Shape:
    """What values a details field (or an array's item) may take.

    ``enum`` lists the allowed strings of a ``string`` (empty: any string);
    ``minimum`` and ``maximum`` bound an ``integer`` or ``number`` (inclusive);
    ``items`` is the shape of an ``array``'s items, a scalar or an object;
    ``fields`` the declared members of an ``object`` (issue 30 §7: a nested typed
    object), or None for a free-form one.  A nested object keeps any member it
    does not declare, as the details themselves do.
    """

    type: str
    enum: tuple[str, ...] = ()
    minimum: int | float | None = None
    maximum: int | float | None = None
    items: Shape | None = None
    fields: tuple[Field, ...] | None = None

    def accepts(self, value: JSONValue) -> bool:
        """Whether ``value`` (JSON data as the model holds it) has this shape.

        An ``integer`` is any number without a fractional part, ``3.0`` too, as
        JSON Schema says and as JavaScript (which cannot tell them apart) must.
        """
        if self.type == "string":
            return isinstance(value, str) and (not self.enum or value in self.enum)
        if self.type == "boolean":
            return isinstance(value, bool)
        if self.type in ("integer", "number"):
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                return False
            if self.type == "integer" and isinstance(value, float):
                if not value.is_integer():
                    return False
            if self.minimum is not None and value < self.minimum:
                return False
            return self.maximum is None or value <= self.maximum
        if self.type == "array":
            items = self.items
            return isinstance(value, tuple) and (
                items is None or all(items.accepts(item) for item in value)
            )
        if not isinstance(value, JSONObject):
            return False
        given = dict(value.items)
        return all(
            (
                not field.required
                if field.name not in given
                else field.shape.accepts(given[field.name])
            )
            for field in self.fields or ()
        )


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class Field:
    """One declared details field of a code (or of every code of a domain)."""

    name: str
    shape: Shape
    required: bool = True
    description: str = ""
    #: The value the constructor gives an omitted optional field (``has_default``).
    default: JSONValue = None
    has_default: bool = False
    #: The domain that declares the field for all its codes (and its child
    #: domains' codes), or None: the code or the top level does.
    domain: str | None = None
    #: Whether the top-level ``details:`` declares it, for every code (issue 30 §7).
    top: bool = False
    #: ``const:``: the value fixed for the code (issue 30 §7), also its
    #: ``default`` (a constant field is optional on the wire, and filled in).
    has_const: bool = False
    #: Where it is declared: not part of what the field is, so two declarations of
    #: one shape are equal wherever they stand.
    position: Position = dataclasses.field(compare=False)


class Piece(NamedTuple):
    """A run of a message template: literal text, then the field it names (if any)."""

    text: str
    field: str | None


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class Template:
    """A code's ``message:`` template: literal text and ``{field}`` placeholders."""

    text: str  # as written, ``{{`` and ``}}`` included
    pieces: tuple[Piece, ...]
    position: Position

    @property
    def fields(self) -> tuple[str, ...]:
        """The fields the template names, in order, each once."""
        return tuple(dict.fromkeys(p.field for p in self.pieces if p.field))


def parse_template(text: str) -> tuple[Piece, ...] | str:
    """``text`` cut into pieces, or what is wrong with it (a message for people).

    ``{name}`` is a placeholder, ``{{`` and ``}}`` are literal braces; any other
    brace is an error, so a template means the same in every language.
    """
    pieces: list[Piece] = []
    literal: list[str] = []
    index = 0
    while index < len(text):
        char = text[index]
        if char in "{}" and text.startswith(char * 2, index):
            literal.append(char)
            index += 2
        elif char == "}":
            return f"unmatched '}}' at character {index + 1}; write '}}}}' for a brace"
        elif char == "{":
            end = text.find("}", index)
            name = text[index + 1 : end] if end >= 0 else ""
            if end < 0 or "{" in name:
                return (
                    f"unmatched '{{' at character {index + 1}; write '{{{{' for a brace"
                )
            if not FIELD_NAME.fullmatch(name):
                return (
                    f"placeholder {{{name}}} at character {index + 1} is not a field "
                    "name"
                )
            pieces.append(Piece("".join(literal), name))
            literal = []
            index = end + 1
        else:
            literal.append(char)
            index += 1
    if literal or not pieces:
        pieces.append(Piece("".join(literal), None))
    return tuple(pieces)


def constant_text(value: JSONValue) -> str:
    """A payload constant as error messages show it, the same in every language:
    a string JSON-quoted, a number or a boolean as a placeholder shows it."""
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    assert isinstance(value, (bool, int, float)), value
    return placeholder_text(value)


def placeholder_text(value: str | int | float | bool) -> str:
    """What a placeholder shows for ``value``, the same in every language.

    Strings are copied; booleans are ``true``/``false`` and numbers are written
    as JavaScript's ``String(number)`` writes them (``3`` for 3.0, ``1e+21``),
    the one spelling every runtime can reproduce.
    """
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return value
    if value == 0:
        return "0"
    sign = "-" if value < 0 else ""
    # The shortest digits that round-trip (what repr and JavaScript both find),
    # and the exponent n with value = 0.d1d2...dk x 10**n.
    digits = repr(abs(value)).lower()
    shortest = decimal.Decimal(digits).normalize().as_tuple()
    text = "".join(map(str, shortest.digits))
    k = len(text)
    n = int(shortest.exponent) + k
    if k <= n <= 21:
        return sign + text + "0" * (n - k)
    if 0 < n <= 21:
        return sign + text[:n] + "." + text[n:]
    if -6 < n <= 0:
        return sign + "0." + "0" * -n + text
    e = n - 1
    head = text[0] + ("." + text[1:] if k > 1 else "")
    return f"{sign}{head}e{'+' if e >= 0 else '-'}{abs(e)}"


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class Deprecation:
    """Why a code should no longer be used, and what to use instead."""

    reason: str
    replaced_by: str | None
    position: Position
    since: str | None = None  # the taxonomy version that deprecated the code
    #: How messages name the replacement: its wire code as text (what users see
    #: on the wire), or ``replaced_by`` itself where no code has that key.
    replaced_by_wire: str | None = None


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class Code:
    """One error code."""

    code: str  # its key: the identifier the enum member and the class come from
    domain: str
    retryable: bool
    meaning: str
    class_name: str | None  # an explicit `class:` override, else derived by naming
    position: Position
    #: The code on the wire when ``wire:`` gives one apart from the key.
    wire: str | int | None = None
    since: str | None = None  # the taxonomy version that added the code
    deprecated: Deprecation | None = None
    #: Every declared details field: the top level's first, then its domain's
    #: parents' (outermost first), its domain's, then the code's own.
    fields: tuple[Field, ...] = ()
    message: Template | None = None  # the ``message:`` template, if declared
    #: The statuses the code itself declares (see Taxonomy.mapped for inheritance).
    http_status: int | None = None
    grpc_status: str | None = None
    #: Every HTTP status ``http_status: [..]`` lists, the default first (() where
    #: it gives one integer, or none).
    http_statuses: tuple[int, ...] = ()
    #: A retryable code whose callers should back off (Smithy's throttling).
    throttling: bool = False
    #: ``retry_after:``, the details field that says when to retry, in seconds
    #: (issue 30 §8), as the code itself declares it (see Taxonomy.retry_field),
    #: and where its value stands.
    retry_after: str | None = None
    retry_after_at: Position | None = None
    #: ``aliases:``: other names of the same code (errno's ``EWOULDBLOCK`` for
    #: ``EAGAIN``), each exported as an alias of its member and class; with
    #: string wire codes each is also accepted on the wire as this code.
    aliases: tuple[str, ...] = ()
    #: ``python_bases:`` (issue 30 §6): builtin exceptions its Python class also
    #: subclasses (``FileNotFoundError``), and where the list stands.
    python_bases: tuple[str, ...] = ()
    python_bases_at: Position | None = None
    #: ``go_is:``: the Go standard library's sentinel errors (``fs.ErrNotExist``)
    #: its Go error answers ``errors.Is`` for.
    go_is: tuple[str, ...] = ()

    @property
    def wire_code(self) -> str | int:
        """The code on the wire: ``wire:`` if given, else the key."""
        return self.code if self.wire is None else self.wire

    @property
    def wire_text(self) -> str:
        """The wire code as text (``-32601``), for URLs and prose."""
        return str(self.wire_code)

    def field(self, name: str) -> Field | None:
        for candidate in self.fields:
            if candidate.name == name:
                return candidate
        return None


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class Tombstone:
    """A removed code: no longer generated, its name never given another meaning."""

    code: str
    domain: str
    since: str  # the taxonomy version that removed it
    reason: str
    meaning: str  # what it meant, for the changelog ("" when not recorded)
    position: Position
    wire: str | int | None = None  # its wire code, when it was not its key
    #: ``removed.replaced_by``: the code to use instead, as written (issue 33 §6:
    #: its docs page says so), or None.
    replaced_by: str | None = None

    @property
    def wire_code(self) -> str | int:
        """The code it had on the wire: ``wire:`` if given, else the key."""
        return self.code if self.wire is None else self.wire


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class Domain:
    """A group of codes sharing a base class, which may extend a parent domain's
    (a domain that is a parent may have no codes of its own)."""

    key: str
    title: str
    description: str
    codes: tuple[Code, ...]
    class_name: str | None
    position: Position
    removed: tuple[Tombstone, ...] = ()
    #: The details fields it declares for all its codes and its child domains'
    #: (those it inherits from its parents and the top level are theirs).
    fields: tuple[Field, ...] = ()
    #: The statuses the domain declares for its codes (see Taxonomy.mapped).
    http_status: int | None = None
    grpc_status: str | None = None
    http_statuses: tuple[int, ...] = ()  # as Code.http_statuses
    retry_after: str | None = None  # as Code.retry_after, for its codes
    retry_after_at: Position | None = None
    python_bases: tuple[str, ...] = ()  # as Code.python_bases, for its class
    python_bases_at: Position | None = None
    #: The domain whose class this domain's class extends (``parent:``), if any.
    parent: str | None = None
    #: ``match:``: the wire-code prefixes (string codes) or inclusive ranges
    #: (integer codes) of the unknown codes that fall back to this domain.
    prefixes: tuple[str, ...] = ()
    ranges: tuple[tuple[int, int], ...] = ()
    #: ``fallback: null`` on the domain (issue 30 §3): an unknown code its match
    #: claims keeps its identity, as an error of the domain's class.
    keeps_unknown: bool = False


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class Event:
    """An event type that carries an error, and where in the event it sits."""

    type: str
    location: str
    position: Position


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class Example:
    """The example payload shown on the docs page."""

    code: str
    message: str
    details: JSONValue
    position: Position


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class Docs:
    """The prose of the docs page; each text is Markdown, copied as written."""

    status: str = ""
    purpose: str = ""
    payload: str = ""
    example: Example | None = None
    fields: tuple[tuple[str, str], ...] = ()
    taxonomy: str = ""
    retryability: str = ""
    propagation: str = ""
    notes: tuple[str, ...] = ()
    #: Whether the page opens with a class diagram where domains have parents.
    diagram: bool = True
    #: ``docs.layout`` (issue 33 §6): "page", the one page; "pages", also a page
    #: per code, removed ones included, and their index.
    layout: str = "page"
    layout_at: Position | None = None

    def field_description(self, field: str) -> str:
        for name, text in self.fields:
            if name == field:
                return text
        return ""


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class Taxonomy:
    """A whole, valid taxonomy."""

    source: str  # the file name generated files say they come from
    name: str
    title: str
    version: str
    base: str
    #: The code an unknown wire code is treated as; None (``fallback: null``,
    #: issue 30 §3): none, an unknown code keeps its identity as a base error.
    fallback: str | None
    wrap: str
    code_case: str
    domains: tuple[Domain, ...]
    events: tuple[Event, ...]
    docs: Docs
    base_position: Position
    # Where each top-level key sits (version, fallback...), for messages that point.
    key_positions: tuple[tuple[str, Position], ...] = ()
    python_layout: str = "auto"
    wire_type: str = "string"  # one of WIRE_TYPES
    class_suffix: str = "Error"  # what a derived class name ends with
    #: The statuses of every code that declares none, nor its domain.
    http_status: int | None = None
    grpc_status: str | None = None
    http_statuses: tuple[int, ...] = ()  # as Code.http_statuses
    #: ``retry_after:`` of every code that declares none, nor its domain.
    retry_after: str | None = None
    #: ``python_bases:`` of the root class (so of every class).
    python_bases: tuple[str, ...] = ()
    #: Each code's documentation link, ``{code}`` standing for its wire code.
    docs_url: str | None = None
    #: The top-level ``details:``: fields every code carries (issue 30 §7).
    fields: tuple[Field, ...] = ()
    #: The payload the wire carries (``payload:``); today's by default.
    payload: Payload = _HARMOVELA
    #: Whether an unknown code that keeps its identity is retryable when its
    #: payload does not say: one of UNKNOWN_RETRYABLE (issue 30 §3).
    unknown_retryable: str = "false"
    #: The domains by key (built once: every code's inherited values read it).
    _by_key: dict[str, Domain] = dataclasses.field(
        init=False, repr=False, compare=False
    )
    #: Every live code in file order (built once: every target asks for it).
    _codes: tuple[Code, ...] = dataclasses.field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_by_key", {d.key: d for d in self.domains})
        codes = tuple(code for domain in self.domains for code in domain.codes)
        object.__setattr__(self, "_codes", codes)

    @property
    def class_domains(self) -> tuple[Domain, ...]:
        """The domains in the order their classes must be defined: each after its
        parent, else in file order (validation has refused cycles)."""
        placed: dict[str, Domain] = {}
        for domain in self.domains:
            # Its unplaced ancestors, then itself, outermost first (a loop, not
            # recursion: a chain of parents may be thousands deep).
            chain = [domain]
            while chain[-1].parent is not None and chain[-1].parent not in placed:
                chain.append(self._by_key[chain[-1].parent])
            for above in reversed(chain):
                placed.setdefault(above.key, above)
        return tuple(placed.values())

    def ancestors(self, domain: Domain) -> tuple[Domain, ...]:
        """The parents of ``domain``, nearest first."""
        found: list[Domain] = []
        while domain.parent is not None:
            domain = self._by_key[domain.parent]
            found.append(domain)
        return tuple(found)

    @property
    def nested(self) -> bool:
        """Whether any domain has a parent: the hierarchy is deeper than
        root → domain → code."""
        return any(domain.parent is not None for domain in self.domains)

    def matched(self, wire: str | int) -> Domain | None:
        """The domain an unknown wire code falls back to by ``match:``, or None:
        the longest matching prefix, or the innermost matching range (validation
        has refused a prefix in two domains, and ranges that cross)."""
        best: Domain | None = None
        size = 0
        for domain in self.domains:
            if isinstance(wire, str):
                for prefix in domain.prefixes:
                    if wire.startswith(prefix) and len(prefix) > size:
                        best, size = domain, len(prefix)
            else:
                for low, high in domain.ranges:
                    span = high - low + 1
                    if low <= wire <= high and (best is None or span < size):
                        best, size = domain, span
        return best

    def position_of(self, key: str) -> Position | None:
        for name, position in self.key_positions:
            if name == key:
                return position
        return None

    @property
    def codes(self) -> tuple[Code, ...]:
        return self._codes

    @property
    def removed(self) -> tuple[Tombstone, ...]:
        return tuple(tomb for domain in self.domains for tomb in domain.removed)

    def code(self, code: str) -> Code:
        for candidate in self.codes:
            if candidate.code == code:
                return candidate
        raise KeyError(code)

    @property
    def wire_declared(self) -> bool:
        """Whether any code's wire code differs from its key (``wire:`` given)."""
        return any(code.wire is not None for code in self.codes)

    def domain(self, key: str) -> Domain:
        return self._by_key[key]

    def lineage(self, item: Code | Domain) -> tuple[Code | Domain | Taxonomy, ...]:
        """Where the values ``item`` inherits are looked up, nearest first: the
        code itself, its domain, the domain's parents, then the top level."""
        domain = self.domain(item.domain) if isinstance(item, Code) else item
        own: tuple[Code | Domain, ...] = (item,) if isinstance(item, Code) else ()
        return (*own, domain, *self.ancestors(domain), self)

    def mapped(self, item: Code | Domain) -> Mapped:
        """The HTTP and gRPC status of a code, or of a domain's own class: the
        nearest of :meth:`lineage` that declares one, else None."""
        chain = self.lineage(item)
        http = next((x for x in chain if x.http_status is not None), None)
        return Mapped(
            http_status=None if http is None else http.http_status,
            grpc_status=next(
                (x.grpc_status for x in chain if x.grpc_status is not None), None
            ),
            http_statuses=(
                ()
                if http is None or http.http_status is None
                else http.http_statuses or (http.http_status,)
            ),
        )

    def retry_field(self, code: Code) -> str | None:
        """The details field that says when to retry an error of ``code``
        (issue 30 §8): the nearest ``retry_after`` of :meth:`lineage`, else None."""
        return next(
            (x.retry_after for x in self.lineage(code) if x.retry_after is not None),
            None,
        )

    def doc_url(self, code: Code) -> str | None:
        """The documentation link of ``code``: ``docs_url`` with its wire code
        filled in, or None when the taxonomy gives no ``docs_url``."""
        if self.docs_url is None:
            return None
        return doc_url(self.docs_url, code.wire_text)


def code_pattern(taxonomy: Taxonomy) -> str | None:
    """What a well-formed string code on the wire looks like (a regular expression
    without anchors, the same in every language), or None: codes are integers.

    While every wire code is its key, an unknown code must look like a key (the
    code case); once ``wire:`` gives other spellings, any printable text will do.
    """
    if taxonomy.wire_type == "integer":
        return None
    if any(code.wire == "" for code in taxonomy.codes):
        return EMPTY_OR_WIRE_PATTERN.pattern  # "" is a code (Kubernetes' Unknown)
    if taxonomy.wire_declared or taxonomy.code_case == "as_written":
        return WIRE_PATTERN.pattern
    return CASE_PATTERNS[taxonomy.code_case].pattern
