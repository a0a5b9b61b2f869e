"""What changed between two versions of a taxonomy, and whether the version says so.

Every change is classified, with the rule that fired: *breaking* (a program
built against the old packages can stop compiling or behave otherwise: any
exported name removed or renamed in a generated package, so a code removed,
tombstoned or moved, a domain or event removed, any generated identifier
renamed; a code's retryability changed; the base, fallback or wrap code
changed; a details field removed, made required, given another shape or
another default, a required one added; an HTTP or gRPC status changed or
removed, throttling removed), *compatible* (only what keeps every existing
program compiling and behaving: something added, deprecated or undeprecated,
an optional details field added, a status or throttling added) or *docs*
(text a person reads, message templates and ``docs_url`` included; the details rules are
:mod:`taxogen.diff_details`, the status rules :mod:`taxogen.diff_status`).
A semantic version must then grow by semver: a breaking change needs a major
bump (a minor one while below 1.0), an addition at least a minor bump.  A date
version has no bump rule: it must only not go backwards, and the check says
whether the release is breaking, compatible or docs only; a switch between the
two kinds is said as such.

It is longer than 300 lines because :func:`diff` is one walk over both
taxonomies, rule after rule in the order they are reported; split, the rules
would lose the order a reader checks them in.  The version check stays beside
them: it reads their kinds.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterable

from taxogen.diagnostics import Position
from taxogen.diff_details import details_changes
from taxogen.diff_status import docs_url_change, mapping_changes
from taxogen.model import PAYLOAD_KEYS, Taxonomy, parse_date_version, parse_version
from taxogen.language import Rename
from taxogen.naming import NamedDomain, Names
from taxogen.targets import languages

__all__ = [
    "BREAKING",
    "COMPATIBLE",
    "DOCS",
    "RULES",
    "Change",
    "VersionCheck",
    "check_version",
    "diff",
]

BREAKING = "breaking"
COMPATIBLE = "compatible"
DOCS = "docs"
_ORDER = {BREAKING: 0, COMPATIBLE: 1, DOCS: 2}

#: Every rule diff can report, with the kind of change it is.
RULES = {
    "code-removed": BREAKING,
    "code-tombstoned": BREAKING,  # its class and member leave every package
    "code-moved": BREAKING,
    "retryable-changed": BREAKING,
    "domain-removed": BREAKING,
    "base-changed": BREAKING,
    "fallback-changed": BREAKING,
    # fallback: null (issue 30 §3): what a decoded unknown code's retryable is.
    "unknown-retryable-changed": BREAKING,
    "wrap-changed": BREAKING,
    "identifier-changed": BREAKING,
    "code-case-changed": BREAKING,
    "wire-code-changed": BREAKING,
    "wire-type-changed": BREAKING,
    "payload-changed": BREAKING,
    "event-removed": BREAKING,
    "event-location-changed": BREAKING,
    "required-field-added": BREAKING,
    "field-removed": BREAKING,
    "field-type-changed": BREAKING,
    "field-enum-changed": BREAKING,
    "field-bounds-changed": BREAKING,
    "field-required-changed": BREAKING,
    "field-default-changed": BREAKING,  # what an existing producer sends
    "http-status-changed": BREAKING,
    "http-status-removed": BREAKING,
    "grpc-status-changed": BREAKING,
    "grpc-status-removed": BREAKING,
    "throttling-removed": BREAKING,
    "retry-after-removed": BREAKING,  # issue 30 §8: a client waiting as told can't
    "retry-after-changed": BREAKING,
    "http-status-unlisted": BREAKING,  # issue 30 §2: one a code may take no longer
    "parent-changed": BREAKING,
    "match-changed": BREAKING,
    "alias-removed": BREAKING,
    "code-added": COMPATIBLE,
    "domain-added": COMPATIBLE,
    "event-added": COMPATIBLE,
    "code-deprecated": COMPATIBLE,
    "code-undeprecated": COMPATIBLE,
    "field-added": COMPATIBLE,
    "http-status-added": COMPATIBLE,
    "grpc-status-added": COMPATIBLE,
    "throttling-added": COMPATIBLE,
    "retry-after-added": COMPATIBLE,
    "http-status-listed": COMPATIBLE,  # issue 30 §2: one more a code may take
    "alias-added": COMPATIBLE,
    "meaning-changed": DOCS,
    "title-changed": DOCS,
    "description-changed": DOCS,
    "deprecation-changed": DOCS,
    "prose-changed": DOCS,
    "field-description-changed": DOCS,
    "template-changed": DOCS,
    "docs-url-changed": DOCS,  # see _docs_url_kind
}


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class Change:
    """One difference between the old and the new taxonomy."""

    kind: str  # BREAKING, COMPATIBLE or DOCS
    rule: str  # a stable id such as "code-removed"
    message: str
    position: Position | None  # in the new file (or None when the thing is gone)


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class VersionCheck:
    """Whether the new version is a large enough step from the old one."""

    old: str
    new: str
    required: str  # "major", "minor" or "none"
    ok: bool
    message: str


def _renames(old: Names, new: Names) -> list[Rename]:
    """Every target's package-level names that differ (each target says which
    of its renames break users: :class:`taxogen.language.Language`), the
    first each target lists, then the second...: the packages, then the guards."""
    listed = [
        (index, rename)
        for _target, names in languages()
        for index, rename in enumerate(names.renames(old, new))
    ]
    return [rename for _, rename in sorted(listed, key=lambda item: item[0])]


def _shown(value: str | None) -> str:
    return "null" if value is None else repr(value)


def _fallback_effect(key: str, before: str | None, after: str | None) -> str:
    """What a change to or from ``fallback: null`` (issue 30 §3) does beyond the
    unknown codes' class: the root class loses or gains a code of its own."""
    if key != "fallback" or (before is None) == (after is None):
        return ""
    if after is None:
        return (
            ": an unknown code keeps its identity as a root error, and a bare "
            "root error now needs its code (Python code=, TypeScript's code option)"
        )
    return f": unknown codes become {after!r}, no longer errors of their own code"


def diff(old: Names, new: Names) -> list[Change]:
    """Every change from ``old`` to ``new``, breaking first, then in taxonomy order."""
    changes: list[Change] = []
    add = changes.append
    ot, nt = old.taxonomy, new.taxonomy

    for key, rule in (
        ("base", "base-changed"),
        ("fallback", "fallback-changed"),
        ("wrap", "wrap-changed"),
    ):
        before, after = getattr(ot, key), getattr(nt, key)
        if before != after:
            add(
                Change(
                    kind=BREAKING,
                    rule=rule,
                    message=f"{key} changed from {_shown(before)} to "
                    f"{_shown(after)}" + _fallback_effect(key, before, after),
                    position=nt.position_of(key),
                )
            )
    if ot.fallback is None and nt.fallback is None:
        if ot.unknown_retryable != nt.unknown_retryable:
            add(
                Change(
                    kind=BREAKING,
                    rule="unknown-retryable-changed",
                    message=f"unknown_retryable changed from {ot.unknown_retryable} "
                    f"to {nt.unknown_retryable}: an unknown code decoded by the old "
                    "version is retried otherwise",
                    position=nt.position_of("unknown_retryable"),
                )
            )
    for label, before, after in _renames(old, new):
        if before != after:
            add(
                Change(
                    kind=BREAKING,
                    rule="identifier-changed",
                    message=f"the {label} is renamed from {before} to {after}",
                    position=nt.position_of("name"),
                )
            )
    if ot.wire_type != nt.wire_type:
        add(
            Change(
                kind=BREAKING,
                rule="wire-type-changed",
                message=f"wire_type changed from {ot.wire_type} to {nt.wire_type}",
                position=nt.position_of("wire_type"),
            )
        )
    if ot.code_case != nt.code_case:
        add(
            Change(
                kind=BREAKING,
                rule="code-case-changed",
                message=f"code_case changed from {ot.code_case} to {nt.code_case}",
                position=nt.position_of("code_case"),
            )
        )

    old_domains = {d.domain.key: d for d in old.domains}
    new_domains = {d.domain.key: d for d in new.domains}
    for key, domain in old_domains.items():
        if key not in new_domains:
            add(
                Change(
                    kind=BREAKING,
                    rule="domain-removed",
                    message=f"domain {key!r} was removed or renamed",
                    position=None,
                )
            )
    for key, domain in new_domains.items():
        before = old_domains.get(key)
        if before is None:
            add(
                Change(
                    kind=COMPATIBLE,
                    rule="domain-added",
                    message=f"domain {key!r} was added",
                    position=domain.domain.position,
                )
            )
            if _matches(domain):
                # Unknown codes that fell back to the fallback now become its.
                add(_match_changed(key, (), _matches(domain), domain))
            continue
        if before.domain.parent != domain.domain.parent:
            add(
                Change(
                    kind=BREAKING,
                    rule="parent-changed",
                    message=(
                        f"domain {key!r}: parent {_parent(before)} changed to "
                        f"{_parent(domain)} (its class {domain.class_name} now "
                        f"extends {domain.parent_class})"
                    ),
                    position=domain.domain.position,
                )
            )
        if _matches(before) != _matches(domain):
            add(_match_changed(key, _matches(before), _matches(domain), domain))
        if before.class_name != domain.class_name:
            add(
                Change(
                    kind=BREAKING,
                    rule="identifier-changed",
                    message=(
                        f"domain {key!r}: class {before.class_name} is renamed to"
                        f" {domain.class_name}"
                    ),
                    position=domain.domain.position,
                )
            )
        for field in ("title", "description"):
            if getattr(before.domain, field) != getattr(domain.domain, field):
                add(
                    Change(
                        kind=DOCS,
                        rule=f"{field}-changed",
                        message=f"domain {key!r}: {field} changed",
                        position=domain.domain.position,
                    )
                )

    for key, domain in old_domains.items():
        if key not in new_domains and _matches(domain):
            add(_match_changed(key, _matches(domain), (), None))

    old_codes = {c.code.code: c for c in old.codes}
    new_codes = {c.code.code: c for c in new.codes}
    new_tombs = {t.code: t for t in nt.removed}
    old_tombs = {t.code for t in ot.removed}
    for code, named in old_codes.items():
        if code in new_codes:
            continue
        tomb = new_tombs.get(code)
        if tomb is None:
            add(
                Change(
                    kind=BREAKING,
                    rule="code-removed",
                    message=(
                        f"code {code!r} was removed without a tombstone (keep it as"
                        " `removed: {since, reason}` so its name cannot come back)"
                    ),
                    position=(
                        new_domains[named.code.domain].domain.position
                        if named.code.domain in new_domains
                        else None
                    ),
                )
            )
        else:
            # A tombstone keeps the name from coming back, but the code's
            # class, enum member and Go constant leave every package all the
            # same: programs that name them stop compiling.
            add(
                Change(
                    kind=BREAKING,
                    rule="code-tombstoned",
                    message=(
                        f"code {code!r} was removed in {tomb.since}, leaving a"
                        f" tombstone (its class {named.class_name} and enum member"
                        f" {named.member} leave every generated package)"
                    ),
                    position=tomb.position,
                )
            )
    for code, named in new_codes.items():
        before = old_codes.get(code)
        position = named.code.position
        if before is None:
            add(
                Change(
                    kind=COMPATIBLE,
                    rule="code-added",
                    message=f"code {code!r} was added"
                    + (" (it revives a removed code)" if code in old_tombs else ""),
                    position=position,
                )
            )
            continue
        if before.code.wire_code != named.code.wire_code:
            add(
                Change(
                    kind=BREAKING,
                    rule="wire-code-changed",
                    message=f"code {code!r}: its wire code changed from "
                    f"{before.code.wire_code!r} to {named.code.wire_code!r}",
                    position=position,
                )
            )
        # An alias is an exported name (a member, a class, Go names) and, with
        # string codes, a wire code: removing one breaks whoever uses it.
        for alias in before.code.aliases:
            if alias not in named.code.aliases:
                add(
                    Change(
                        kind=BREAKING,
                        rule="alias-removed",
                        message=f"code {code!r}: its alias {alias!r} was removed",
                        position=position,
                    )
                )
        for alias in named.code.aliases:
            if alias not in before.code.aliases:
                add(
                    Change(
                        kind=COMPATIBLE,
                        rule="alias-added",
                        message=f"code {code!r}: alias {alias!r} added",
                        position=position,
                    )
                )
        if before.code.domain != named.code.domain:
            add(
                Change(
                    kind=BREAKING,
                    rule="code-moved",
                    message=(
                        f"code {code!r} moved from domain {before.code.domain!r} to"
                        f" {named.code.domain!r}"
                    ),
                    position=position,
                )
            )
        if before.code.retryable != named.code.retryable:
            add(
                Change(
                    kind=BREAKING,
                    rule="retryable-changed",
                    message=(
                        f"code {code!r}: retryable changed from"
                        f" {str(before.code.retryable).lower()} to"
                        f" {str(named.code.retryable).lower()}"
                    ),
                    position=position,
                )
            )
        for label, was, now in (
            ("class", before.class_name, named.class_name),
            ("enum member", before.member, named.member),
            ("base class", before.parent, named.parent),
        ):
            if was != now and not (
                label == "base class" and before.code.domain != named.code.domain
            ):
                add(
                    Change(
                        kind=BREAKING,
                        rule="identifier-changed",
                        message=f"code {code!r}: {label} {was} is renamed to {now}",
                        position=position,
                    )
                )
        was_dep, now_dep = before.code.deprecated, named.code.deprecated
        if was_dep is None and now_dep is not None:
            add(
                Change(
                    kind=COMPATIBLE,
                    rule="code-deprecated",
                    message=f"code {code!r} was deprecated",
                    position=now_dep.position,
                )
            )
        elif was_dep is not None and now_dep is None:
            add(
                Change(
                    kind=COMPATIBLE,
                    rule="code-undeprecated",
                    message=f"code {code!r} is no longer deprecated",
                    position=position,
                )
            )
        elif (
            was_dep is not None
            and now_dep is not None
            and (was_dep.reason, was_dep.replaced_by)
            != (now_dep.reason, now_dep.replaced_by)
        ):
            add(
                Change(
                    kind=DOCS,
                    rule="deprecation-changed",
                    message=f"code {code!r}: the deprecation note changed",
                    position=now_dep.position,
                )
            )
        if before.code.meaning != named.code.meaning:
            add(
                Change(
                    kind=DOCS,
                    rule="meaning-changed",
                    message=f"code {code!r}: meaning changed",
                    position=position,
                )
            )
        for rule, message, where in details_changes(before.code, named.code):
            add(Change(kind=RULES[rule], rule=rule, message=message, position=where))
        for rule, message, where in mapping_changes(ot, before.code, nt, named.code):
            add(Change(kind=RULES[rule], rule=rule, message=message, position=where))

    old_events = {e.type: e for e in ot.events}
    new_events = {e.type: e for e in nt.events}
    for kind, event in old_events.items():
        if kind not in new_events:
            add(
                Change(
                    kind=BREAKING,
                    rule="event-removed",
                    message=f"event {kind!r} was removed",
                    position=None,
                )
            )
    for kind, event in new_events.items():
        before_event = old_events.get(kind)
        if before_event is None:
            add(
                Change(
                    kind=COMPATIBLE,
                    rule="event-added",
                    message=f"event {kind!r} was added",
                    position=event.position,
                )
            )
        elif before_event.location != event.location:
            add(
                Change(
                    kind=BREAKING,
                    rule="event-location-changed",
                    message=(
                        f"event {kind!r}: the error moved from {before_event.location}"
                        f" to {event.location}"
                    ),
                    position=event.position,
                )
            )

    if ot.title != nt.title:
        add(
            Change(
                kind=DOCS,
                rule="title-changed",
                message="the taxonomy's title changed",
                position=nt.position_of("title"),
            )
        )
    url = docs_url_change(ot, nt)
    if url is not None:
        rule, message, where = url
        kind = _docs_url_kind(ot, nt)
        if kind == BREAKING:
            message += " (the problem preset's wire type of every code)"
        add(Change(kind=kind, rule=rule, message=message, position=where))
    payload = _payload_change(ot, nt)
    if payload is not None:
        add(payload)
    if _prose(ot) != _prose(nt):
        add(
            Change(
                kind=DOCS,
                rule="prose-changed",
                message="the docs prose changed",
                position=nt.position_of("docs"),
            )
        )

    changes.sort(key=lambda c: _ORDER[c.kind])  # stable: taxonomy order within a kind
    return changes


def _docs_url_kind(old: Taxonomy, new: Taxonomy) -> str:
    """The kind of a ``docs_url`` change: docs only, a link people follow; but
    breaking under the ``problem`` payload preset (before or after), where the
    URL is each error's wire ``type``: old peers would not know the new one."""
    if old.payload.problem or new.payload.problem:
        return BREAKING
    return RULES["docs-url-changed"]


def _payload_change(old: Taxonomy, new: Taxonomy) -> Change | None:
    """A changed payload mapping: breaking, since old peers read the old shape."""
    parts = [
        f"{part} {_member(getattr(old.payload, part))} -> "
        f"{_member(getattr(new.payload, part))}"
        for part in PAYLOAD_KEYS
        if getattr(old.payload, part) != getattr(new.payload, part)
    ]
    if not parts:
        return None
    return Change(
        kind=RULES["payload-changed"],
        rule="payload-changed",
        message=f"the payload mapping changed ({', '.join(parts)}): peers of the "
        "old version read another shape",
        position=new.position_of("payload") or new.position_of("name"),
    )


def _member(value: object) -> str:
    """A part of a payload mapping as the message shows it: a member name quoted,
    ``null``, ``true``/``false``, and a table of members as ``{name: value}``."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, tuple):
        return "{" + ", ".join(f"{k}: {json.dumps(v)}" for k, v in value) + "}"
    return repr(value)


def _prose(taxonomy: Taxonomy) -> tuple[object, ...]:
    """The docs prose without source positions (moving a line is not a change)."""
    docs = taxonomy.docs
    example = docs.example
    return (
        docs.status,
        docs.purpose,
        docs.payload,
        docs.fields,
        docs.taxonomy,
        docs.retryability,
        docs.propagation,
        docs.notes,
        None if example is None else (example.code, example.message, example.details),
    )


def _required(changes: Iterable[Change], old_major: int) -> str:
    kinds = {c.kind for c in changes}
    if BREAKING in kinds:
        return "major" if old_major >= 1 else "minor"
    if COMPATIBLE in kinds:
        return "minor"
    return "none"


def check_version(
    old_version: str, new_version: str, changes: list[Change]
) -> VersionCheck:
    """Whether ``new_version`` is a large enough step from ``old_version`` for
    ``changes``.
    """
    if parse_date_version(old_version) or parse_date_version(new_version):
        return _check_date(old_version, new_version, changes)
    old, new = parse_version(old_version), parse_version(new_version)
    if old is None or new is None:
        return VersionCheck(
            old=old_version,
            new=new_version,
            required="none",
            ok=False,
            message=f"cannot compare versions {old_version!r} and {new_version!r}",
        )
    required = _required(changes, old[0])
    if required == "major":
        ok = new[0] > old[0]
        need = f"{old[0] + 1}.0.0"
    elif required == "minor":
        ok = new[0] > old[0] or (new[0] == old[0] and new[1] > old[1])
        need = f"{old[0]}.{old[1] + 1}.0"
    else:
        ok = new[:3] >= old[:3]
        need = old_version
    breaking = any(c.kind == BREAKING for c in changes)
    why = {
        "major": "breaking changes need a major bump",
        "minor": (
            "breaking changes need a minor bump while below 1.0"
            if breaking
            else "additions need a minor bump"
        ),
        "none": "the version must not go backwards",
    }[required]
    if ok:
        message = (
            f"version {old_version} → {new_version}: ok ({why})"
            if required != "none"
            else (f"version {old_version} → {new_version}: ok")
        )
    else:
        message = (
            f"version {old_version} → {new_version} is too small: {why} (at least"
            f" {need})"
        )
    return VersionCheck(
        old=old_version, new=new_version, required=required, ok=ok, message=message
    )


def _check_date(
    old_version: str, new_version: str, changes: list[Change]
) -> VersionCheck:
    """The check when either version is a date: no bump rule, only that a date
    does not go backwards; the message says what the release is."""
    kinds = {c.kind for c in changes}
    what = (
        "breaking"
        if BREAKING in kinds
        else (
            "compatible"
            if COMPATIBLE in kinds
            else "docs only" if DOCS in kinds else "unchanged"
        )
    )
    step = f"version {old_version} → {new_version}"
    old, new = parse_date_version(old_version), parse_date_version(new_version)
    ok = True
    if old is not None and new is not None:
        ok = new >= old
        why = "a date version has no bump rule, it only must not go backwards"
    elif new is not None:
        why = (
            "the taxonomy moves from semantic to date versions, which have no bump rule"
        )
    else:
        why = (
            "the taxonomy moves from date to semantic versions; bump rules apply"
            f" from {new_version} on"
        )
    if ok:
        message = f"{step}: ok ({why}); this release is {what}"
    else:
        message = (
            f"{step} goes backwards: a date version must not be earlier than the"
            f" one before (this release is {what})"
        )
    return VersionCheck(
        old=old_version, new=new_version, required="none", ok=ok, message=message
    )


def _parent(domain: NamedDomain) -> str:
    return "none" if domain.domain.parent is None else repr(domain.domain.parent)


def _matches(domain: NamedDomain) -> tuple[str, ...]:
    """A domain's ``match:`` as text, sorted: its prefixes, or its ranges."""
    return tuple(
        sorted(
            [repr(prefix) for prefix in domain.domain.prefixes]
            + [f"[{low}, {high}]" for low, high in domain.domain.ranges]
        )
    )


def _match_changed(
    key: str,
    before: tuple[str, ...],
    after: tuple[str, ...],
    domain: NamedDomain | None,
) -> Change:
    """A domain's ``match:`` changed: some unknown codes fall back elsewhere."""
    return Change(
        kind=BREAKING,
        rule="match-changed",
        message=(
            f"domain {key!r}: match {', '.join(before) or 'none'} changed to "
            f"{', '.join(after) or 'none'} (unknown codes now fall back "
            "differently)"
        ),
        position=None if domain is None else domain.domain.position,
    )
