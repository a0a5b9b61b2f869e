"""Model: the taxonomy as frozen, validated data, with no YAML left in it.

Everything downstream of validation (naming, rendering, diffing) reads these
classes and nothing else.  They are keyword-only, frozen and slotted, hold
tuples rather than lists, and keep the source position of every named thing so
that later checks (such as two codes whose class names collide) can still point
at the line that caused them.
"""

from __future__ import annotations

import dataclasses
from typing import Union

from generator.diagnostics import Position

__all__ = [
    "CODE_CASES",
    "Code",
    "Deprecation",
    "Docs",
    "Domain",
    "Event",
    "Example",
    "JSONObject",
    "JSONValue",
    "PAYLOAD_FIELDS",
    "PYTHON_LAYOUTS",
    "Taxonomy",
    "Tombstone",
]


@dataclasses.dataclass(frozen=True, slots=True)
class JSONObject:
    """A JSON object kept frozen and in source order (free-form data such as example details)."""

    items: tuple[tuple[str, "JSONValue"], ...]


#: Free-form JSON data: arrays are tuples, objects are JSONObject.
JSONValue = Union[None, bool, int, float, str, tuple["JSONValue", ...], JSONObject]

#: The spelling styles a taxonomy may declare for its codes (``code_case``).
CODE_CASES = ("lower_snake", "upper_snake")

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


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class Deprecation:
    """Why a code should no longer be used, and what to use instead."""

    reason: str
    replaced_by: str | None
    position: Position
    since: str | None = None  # the taxonomy version that deprecated the code


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class Code:
    """One error code."""

    code: str
    domain: str
    retryable: bool
    meaning: str
    class_name: str | None  # an explicit `class:` override, else derived by naming
    position: Position
    since: str | None = None  # the taxonomy version that added the code
    deprecated: Deprecation | None = None


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class Tombstone:
    """A removed code: no longer generated, its name never again given another meaning."""

    code: str
    domain: str
    since: str  # the taxonomy version that removed it
    reason: str
    meaning: str  # what it meant, for the changelog ("" when not recorded)
    position: Position


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class Domain:
    """A group of codes that share a prefix and a base class."""

    key: str
    title: str
    description: str
    codes: tuple[Code, ...]
    class_name: str | None
    position: Position
    removed: tuple[Tombstone, ...] = ()


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
    fallback: str
    wrap: str
    code_case: str
    domains: tuple[Domain, ...]
    events: tuple[Event, ...]
    docs: Docs
    base_position: Position
    # Where each top-level key sits (version, fallback...), for messages that point.
    key_positions: tuple[tuple[str, Position], ...] = ()
    python_layout: str = "auto"

    def position_of(self, key: str) -> Position | None:
        for name, position in self.key_positions:
            if name == key:
                return position
        return None

    @property
    def codes(self) -> tuple[Code, ...]:
        return tuple(code for domain in self.domains for code in domain.codes)

    @property
    def removed(self) -> tuple[Tombstone, ...]:
        return tuple(tomb for domain in self.domains for tomb in domain.removed)

    def code(self, code: str) -> Code:
        for candidate in self.codes:
            if candidate.code == code:
                return candidate
        raise KeyError(code)
