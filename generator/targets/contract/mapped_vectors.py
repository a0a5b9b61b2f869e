"""The ``from_payload`` vectors of a payload other than today's (``payload:``).

The vectors of today's payload are made first, in its terms (``code``,
``message``, ``retryable``, ``details``); :func:`remap` then writes each input
and each re-emitted payload in the members the mapping names, names the member
a rejection blames, and leaves out the vectors of a rule the mapping does not
have (``retryable`` not on the wire, details of another type, a problem's code
that travels as a URI); :func:`add_mapped_rules` adds the vectors of the rules
the mapping brings: details of its type, the envelope, a problem's type,
title, status and extension members, and a message that may be absent.

It is longer than 300 lines because it is one translation: every rule of
:mod:`.payload_vectors` said again in the mapping's members, and the rules only
a mapping has; split in two, each half would need the other's member tables.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from taxogen.model import Payload, constant_text, doc_url, json_data
from taxogen.naming import NamedCode, Names
from taxogen.targets.contract import samples
from taxogen.targets.contract.details import construct_expect
from taxogen.targets.contract.payload_vectors import (
    VectorList,
    plain_code,
    some_unknown,
    unknown_target,
)
from taxogen.targets.mapped import class_mappings, code_mapping

__all__ = ["add_mapped_rules", "remap", "wire_echo", "wire_field", "wire_input"]

_CANONICAL = ("code", "message", "retryable", "details")


def _type_uri(names: Names, code: object) -> object:
    """A problem's ``type`` for ``code``; a value that is no code stays as it is."""
    template = names.taxonomy.docs_url
    if template is None or isinstance(code, bool) or not isinstance(code, (str, int)):
        return code
    return doc_url(template, str(code))


def _as_type(details: object, kind: str) -> object:
    """Today's details (an object) as details of ``kind``: an array holds the
    object's values, in order, so depth and size stay the same."""
    if kind == "array" and isinstance(details, dict):
        return list(details.values())
    return details


def _empty(value: object) -> bool:
    return value is None or value == {} or value == []


def wire_input(names: Names, canonical: Any) -> Any:
    """A payload in today's terms, written as the mapping says (any other value as
    it is)."""
    if not isinstance(canonical, dict):
        return canonical
    payload = names.taxonomy.payload
    body: dict[str, Any] = {}
    if "code" in canonical:
        code = canonical["code"]
        body[payload.code] = _type_uri(names, code) if payload.problem else code
    if "message" in canonical:
        body[payload.message] = canonical["message"]
    if payload.retryable is not None and "retryable" in canonical:
        body[payload.retryable] = canonical["retryable"]
    if "details" in canonical:
        details = canonical["details"]
        if payload.rest:
            if isinstance(details, dict):
                body.update((k, v) for k, v in details.items() if k not in payload.own)
        elif payload.details is not None:
            body[payload.details] = _as_type(details, payload.details_type)
    for key, value in canonical.items():
        if key not in _CANONICAL:
            body[key] = value
    return body if payload.envelope is None else {payload.envelope: body}


class Facts(NamedTuple):
    """What an error of a class writes beyond what it was given: its
    retryability, meaning and HTTP status (a code's class: the code's; a
    domain's own class: the fallback's retryability, the domain's title and
    status, docs "Hierarchies")."""

    retryable: bool
    meaning: str
    http_status: int | None


def class_facts(names: Names) -> dict[str, Facts]:
    """The :class:`Facts` of every class below the base, by name."""
    taxonomy = names.taxonomy
    mapped = class_mappings(names)
    out = {
        c.class_name: Facts(
            c.code.retryable,
            c.code.meaning,
            code_mapping(taxonomy, c.code).http_status,
        )
        for c in names.codes
    }
    # With no fallback (issue 30 §3) an unknown code that keeps its identity is
    # retryable as unknown_retryable says where nothing else does (no status
    # received here: only "true" makes it so).
    unknown = (
        names.fallback.code.retryable
        if names.fallback is not None
        else taxonomy.unknown_retryable == "true"
    )
    for domain in names.domains:
        if domain.base_code is None:
            out[domain.class_name] = Facts(
                unknown,
                domain.domain.title,
                mapped[domain.class_name][1].http_status,
            )
    if names.fallback is None:
        out[names.base] = Facts(unknown, taxonomy.title, None)
    return out


def wire_echo(names: Names, named: Facts, echo: dict[str, Any]) -> dict[str, Any]:
    """What ``to_payload`` writes of an error of a class with these facts, given
    in today's terms: the issue's words for each preset."""
    payload = names.taxonomy.payload
    details = echo["details"]
    body: dict[str, Any] = {}
    if payload.problem:
        kept = details.get(payload.code) if isinstance(details, dict) else None
        body[payload.code] = (
            kept if kept is not None else _type_uri(names, echo["code"])
        )
        body["title"] = named.meaning
        body["status"] = named.http_status
    else:
        body[payload.code] = echo["code"]
    body[payload.message] = echo["message"]
    if payload.retryable is not None:
        body[payload.retryable] = echo["retryable"]
    if payload.status is not None and named.http_status is not None:
        body[payload.status] = named.http_status  # the class's: none received
    if payload.rest:
        body.update(
            (k, v)
            for k, v in details.items()
            if k not in payload.own and k not in _beside(payload)
        )
    elif payload.details is not None:
        value = _as_type(details, payload.details_type)
        if payload.always_details or not _empty(value):
            body[payload.details] = value
    return _written(payload, body)


def wire_field(payload: Payload, field: str) -> str:
    """The member a rejection of today's ``field`` blames under ``payload``."""
    if field == "payload" or field.startswith("details."):
        return field
    at = "" if payload.envelope is None else f"{payload.envelope}."
    if field == "details":
        if payload.rest:
            return payload.envelope or "payload"
        return at + (payload.details or "details")
    member = getattr(payload, field)
    return at + str(member)


#: The vectors of the limits and the number model: details of every type hold them.
_LIMITS = ("details_depth_", "details_nodes_", "details_number_")


def _dropped(names: Names, vid: str, given: Any, ok: bool) -> bool:
    """Whether the mapping has no such rule, or gives it another outcome (its own
    vectors say which)."""
    payload = names.taxonomy.payload
    if payload.retryable is None and vid.startswith("retryable_"):
        return True
    if vid.startswith("details_") and not vid.startswith(_LIMITS):
        if payload.details is None or payload.rest:
            return vid not in ("details_absent",)
        if payload.details_type == "array" and vid == "details_array":
            return True
        if payload.details_type == "any" and vid in (
            "details_array",
            "details_string",
            "details_number",
            "details_boolean",
        ):
            return True
    if payload.details is None and vid.startswith("details"):
        return True
    if payload.exact_message and vid in ("message_missing", "message_null"):
        return True  # the message may be absent: its own vectors say so
    if payload.problem:
        if vid in ("message_missing", "message_null", "code_missing", "code_null"):
            return True  # a problem's detail and type may be absent
        if vid.startswith("code_") and isinstance(given, dict):
            code = given.get("code")
            if isinstance(code, bool) or not isinstance(code, (str, int, float)):
                return False  # a type that is no string: rejected as before
            if isinstance(code, float):
                return ok  # a float is no string: rejected, never read as a code
            # A code spelt in a URI is read back or falls back: never rejected.
            return not ok
    return False


def _remap_expect(
    names: Names, by_class: dict[str, Facts], canonical: Any, expect: Any
) -> dict[str, Any]:
    payload = names.taxonomy.payload
    if not expect.get("ok", True) and "field" in expect:
        return {**expect, "field": wire_field(payload, expect["field"])}
    if "payload" not in expect:
        return dict(expect)
    named = by_class[expect["class"]]
    echo = dict(expect["payload"])
    if payload.retryable is None:
        echo["retryable"] = named.retryable
        if expect.get("code") == expect.get("wire_code") and expect.get(
            "wire_code"
        ) not in _known_wires(names):
            # Issue 30 §3: an unknown code that keeps its identity (no status
            # received in these vectors): only unknown_retryable: true retries.
            echo["retryable"] = names.taxonomy.unknown_retryable == "true"
    if payload.rest and isinstance(canonical, dict):
        extras = {k: v for k, v in canonical.items() if k not in _CANONICAL}
        echo["details"] = {**echo["details"], **extras}
    written = wire_echo(names, named, echo)
    if (
        payload.keeps_outside
        and payload.envelope is None
        and isinstance(canonical, dict)
    ):
        # Issue 30 §1: the members the mapping does not name are kept and
        # written back (wire_input writes the canonical extras as they are).
        named_members = (*payload.own, payload.details, *payload.fixed)
        kept = {
            k: v
            for k, v in wire_input(names, canonical).items()
            if k not in named_members
        }
        written = {**kept, **written}
    return {**expect, "retryable": echo["retryable"], "payload": written}


def _known_wires(names: Names) -> set[Any]:
    """Every wire code (and string alias) the taxonomy defines."""
    out: set[Any] = {c.code.wire_code for c in names.codes}
    out |= {a.name for c in names.codes for a in c.aliases}
    return out


def remap(names: Names, vectors: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """``vectors`` of today's payload (from_payload and error_from_event), in the
    mapping's terms; the others unchanged."""
    by_class = class_facts(names)
    out: list[dict[str, Any]] = []
    for vector in vectors:
        kind = vector["kind"]
        vid = vector["id"].split("/", 1)[1]
        if kind == "from_payload":
            given = vector["input"]
            if _dropped(names, vid, given, vector["expect"].get("ok", True)):
                continue
            expect = _remap_expect(names, by_class, given, vector["expect"])
            description = vector["description"]
            if description.startswith("rejected: bad "):
                description = f"rejected: bad {expect['field']}"
            vector = {
                **vector,
                "description": description,
                "input": wire_input(names, given),
                "expect": expect,
            }
        elif kind == "error_from_event":
            location = names.taxonomy.events
            where = (
                next(e.location for e in location if vid.startswith(f"{e.type}/"))
                if not vid.startswith(("unknown_type", "no_type", "not_an"))
                else None
            )
            if where is not None:
                event = vector["input"]
                holder = event
                *parents, leaf = where.split(".")
                for part in parents:
                    holder = holder[part]
                if holder.get(leaf) is not None:
                    given = holder[leaf]
                    holder[leaf] = wire_input(names, given)
                    vector = {
                        **vector,
                        "expect": _remap_expect(
                            names, by_class, given, vector["expect"]
                        ),
                    }
        out.append(vector)
    return out


def _accepted(
    names: Names,
    named: NamedCode,
    message: str,
    details: Any,
    wire_code: str | int | None = None,
    status: int | None = None,
    absent: bool = False,
    around: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """What an accepted mapped payload gives, its re-emitted payload in the
    mapping's terms (``details`` as the error holds them; ``status`` an HTTP
    status received in the status member, else the class's); ``absent``:
    received without its message, which the expectation states and the payload
    leaves out."""
    code = named.code.wire_code if wire_code is None else wire_code
    payload = names.taxonomy.payload
    if code == named.code.wire_code or code in named.code.aliases:
        # A known code's constant fields are filled in (issue 30 §7).
        consts = {
            f.name: json_data(f.default)
            for f in named.code.fields
            if f.has_const and not (isinstance(details, dict) and f.name in details)
        }
        if consts and (details is None or isinstance(details, dict)):
            details = {**(details or {}), **consts}
    own_status = code_mapping(names.taxonomy, named.code).http_status
    if status is None:
        status = own_status
    body: dict[str, Any] = {}
    if payload.problem:
        kept = details.get(payload.code) if isinstance(details, dict) else None
        body[payload.code] = kept if kept is not None else _type_uri(names, code)
        body["title"] = named.code.meaning
        body["status"] = code_mapping(names.taxonomy, named.code).http_status
    else:
        body[payload.code] = code
    if not absent:
        body[payload.message] = message
    if payload.retryable is not None:
        body[payload.retryable] = named.code.retryable
    if payload.status is not None and status is not None:
        body[payload.status] = status
    if payload.rest:
        body.update(
            (k, v)
            for k, v in details.items()
            if k not in payload.own and k not in _beside(payload)
        )
    elif payload.details is not None and (
        payload.always_details or not _empty(details)
    ):
        body[payload.details] = details
    # A status received is the error's own; its class keeps its code's.
    extra = (
        {}
        if status == own_status
        else {"http_status": status, "class_http_status": own_status}
    )
    return {
        **extra,
        "ok": True,
        "class": named.class_name,
        "code": named.code.wire_code,
        "domain": named.code.domain,
        "retryable": named.code.retryable,
        "wire_code": code,
        **({"message": message} if absent else {}),
        "payload": _written(payload, body, around),
    }


def add_mapped_rules(out: VectorList, names: Names) -> None:
    """The vectors of the rules a payload mapping brings."""
    taxonomy = names.taxonomy
    payload = taxonomy.payload
    first = plain_code(names)
    fallback = names.fallback
    at = "" if payload.envelope is None else f"{payload.envelope}."

    def wrapped(body: dict[str, Any]) -> dict[str, Any]:
        return body if payload.envelope is None else {payload.envelope: body}

    good: dict[str, Any] = {
        payload.code: (
            _type_uri(names, first.code.wire_code)
            if payload.problem
            else first.code.wire_code
        ),
        payload.message: "m",
    }
    if payload.retryable is not None:
        good[payload.retryable] = first.code.retryable

    if payload.envelope is not None:
        out.add(
            "from_payload",
            "envelope_missing",
            f"rejected: the error object sits under {payload.envelope}",
            good,
            {"ok": False, "field": payload.envelope},
        )
        out.add(
            "from_payload",
            "envelope_not_an_object",
            f"rejected: {payload.envelope} must hold an object",
            {payload.envelope: [good]},
            {"ok": False, "field": payload.envelope},
        )
    if payload.details is not None and not payload.rest:
        member = payload.details
        if payload.details_type == "any":
            anything: tuple[tuple[str, Any], ...] = (
                ("details_string", "x"),
                ("details_array", [1, "x"]),
                ("details_number", 0),
                ("details_boolean", False),
            )
            for vid, value in anything:
                body = {**good, member: value}
                out.add(
                    "from_payload",
                    vid,
                    f"{member} may be any JSON value",
                    wrapped(body),
                    _accepted(names, first, "m", value),
                )
        if payload.details_type == "array":
            body = {**good, member: [{"@type": "t", "v": 1}]}
            out.add(
                "from_payload",
                "details_array",
                f"{member} is an array",
                wrapped(body),
                _accepted(names, first, "m", body[member]),
            )
            # (a string, a number, a boolean: today's vectors, remapped)
            wrong: tuple[tuple[str, Any], ...] = (("details_object", {"a": 1}),)
            for vid, value in wrong:
                out.add(
                    "from_payload",
                    vid,
                    f"rejected: bad {at + member}",
                    wrapped({**good, member: value}),
                    {"ok": False, "field": at + member},
                )
    if payload.problem:
        # (validation refuses fallback: null with the problem preset)
        assert fallback is not None, "a problem's unknown type needs a fallback"
        _problem_rules(out, names, first, fallback, good, wrapped)
    if payload.exact_message:
        _absent_message_rules(out, names, first, good, wrapped)
    if payload.constants:
        _constant_rules(out, names, first, good, wrapped)
    if payload.keeps_outside:
        _outside_rules(out, names, first, good, wrapped)
    if payload.status is not None:
        _status_rules(out, names, first, good, wrapped)


def _status_rules(
    out: VectorList, names: Names, first: NamedCode, good: dict[str, Any], wrapped: Any
) -> None:
    """Issue 30 §2: the status member is read into the error's own HTTP status
    (an integer from 100 to 599; absent or null: the code's) and written back."""
    payload = names.taxonomy.payload
    member = str(payload.status)
    at = "" if payload.envelope is None else f"{payload.envelope}."
    own = code_mapping(names.taxonomy, first.code).http_status
    # A status the code does not declare: what a server may well send.
    other = 418 if own != 418 else 503
    for vid, status in (("status_received", other), ("status_lowest", 100)):
        out.add(
            "from_payload",
            vid,
            f"{member} {status} received: the error's own HTTP status, written back",
            wrapped({**good, member: status}),
            _accepted(names, first, "m", _details_of(names), status=status),
        )
    out.add(
        "from_payload",
        "status_null",
        f"{member} null: the error's HTTP status is its code's",
        wrapped({**good, member: None}),
        _accepted(names, first, "m", _details_of(names)),
    )
    if names.fallback is None:
        _unknown_status_rules(out, names, good, wrapped)
    for vid, value in (
        ("status_text", "401"),
        ("status_fraction", 401.5),
        ("status_low", 99),
        ("status_high", 600),
        ("status_boolean", True),
    ):
        out.add(
            "from_payload",
            vid,
            f"rejected: {member} must be an HTTP status (an integer from 100 to 599)",
            wrapped({**good, member: value}),
            {"ok": False, "field": at + member},
        )


def _unknown_status_rules(
    out: VectorList, names: Names, good: dict[str, Any], wrapped: Any
) -> None:
    """Issue 30 §3: with no fallback, an unknown code received with a status keeps
    both, and (where the payload has no retryable member) is retryable as
    ``unknown_retryable`` says: ``by_status`` for a 5xx only."""
    taxonomy = names.taxonomy
    payload = taxonomy.payload
    member = str(payload.status)
    code = some_unknown(names)
    class_name, _, domain, _ = unknown_target(names, code)
    rule = taxonomy.unknown_retryable
    for vid, status in (("unknown_status_5xx", 503), ("unknown_status_4xx", 404)):
        body = {**good, payload.code: code, member: status}
        if payload.retryable is not None:
            retryable = bool(body[payload.retryable])
        else:
            retryable = rule == "true" or (rule == "by_status" and status >= 500)
        written = dict(body)
        if payload.details is not None and not payload.rest and payload.always_details:
            written[payload.details] = _details_of(names)
        out.add(
            "from_payload",
            vid,
            f"an unknown code received with {member} {status} keeps both (no "
            f"fallback); unknown_retryable: {rule}",
            wrapped(body),
            {
                "ok": True,
                "class": class_name,
                "code": code,
                "domain": domain,
                "retryable": retryable,
                "wire_code": code,
                "http_status": status,
                "class_http_status": None,
                "payload": _written(payload, written, None),
            },
        )


def _details_of(names: Names) -> Any:
    """The details an error holds when its payload carries none."""
    payload = names.taxonomy.payload
    if payload.details_type == "array":
        return []
    return None if payload.details_type == "any" else {}


def _outside_rules(
    out: VectorList,
    names: Names,
    first: NamedCode,
    good: dict[str, Any],
    wrapped: Any,
) -> None:
    """Issue 30 §1, ``outside: keep``: the members beside the envelope are kept
    as received (JSON-RPC's id, null included) and written back."""
    for vid, why, around in (
        (
            "outside_kept",
            "members beside the envelope are kept and written back",
            {"id": 7, "meta": {"a": [1, "x"], "b": None}},
        ),
        ("outside_null", "a null member beside the envelope is kept", {"id": None}),
    ):
        out.add(
            "from_payload",
            vid,
            why,
            {**around, **wrapped(good)},
            _accepted(names, first, "m", {}, around=around),
        )


def _constants(payload: Payload) -> dict[str, Any]:
    """The members every payload carries, as to_payload writes them first."""
    return {name: json_data(value) for name, value in payload.constants}


def _written(
    payload: Payload, body: dict[str, Any], around: dict[str, Any] | None = None
) -> dict[str, Any]:
    """The error object ``body`` as to_payload writes it: under its envelope, and
    the constants beside it (first), and what was kept ``around`` it."""
    inner = body if payload.envelope is None else {payload.envelope: body}
    return {**(around or {}), **_constants(payload), **inner}


def _beside(payload: Payload) -> tuple[str, ...]:
    """The constants' members among the error object's (none with an envelope:
    they sit beside it)."""
    return payload.fixed if payload.envelope is None else ()


def _other(value: Any) -> list[tuple[str, Any]]:
    """Values a constant's member may not hold: another of its type, and one of
    another type (a string for a number or a boolean, a number for a string)."""
    if isinstance(value, bool):
        return [("other", not value), ("type", "true" if value else "false")]
    if isinstance(value, (int, float)):
        return [("other", value + 1), ("type", str(value))]
    other = [("other", value + "x"), ("type", 1)]
    if value.swapcase() != value:
        other.append(("case", value.swapcase()))
    return other


def _constant_rules(
    out: VectorList,
    names: Names,
    first: NamedCode,
    good: dict[str, Any],
    wrapped: Any,
) -> None:
    """Issue 30 §1, ``constants``: members every payload carries, written on
    every payload; received, each absent (or null) or equal, anything else an
    InvalidPayloadError naming the member."""
    payload = names.taxonomy.payload
    fixed = _constants(payload)
    texts = {name: constant_text(value) for name, value in payload.constants}

    def beside(constants: dict[str, Any]) -> dict[str, Any]:
        """The good payload with these members of its own (beside the envelope)."""
        return {**constants, **wrapped(good)}

    out.add(
        "from_payload",
        "constants_present",
        "every constant as it is: accepted, written back",
        beside(fixed),
        _accepted(names, first, "m", {}),
    )
    out.add(
        "from_payload",
        "constants_null",
        "a null constant counts as absent: accepted, written as the constant",
        beside({name: None for name in fixed}),
        _accepted(names, first, "m", {}),
    )
    for name, value in fixed.items():
        same: int | float | None
        if isinstance(value, float) and value.is_integer():
            same = int(value)
        elif isinstance(value, int) and not isinstance(value, bool):
            same = float(value)
        else:
            same = None
        if same is not None:
            out.add(
                "from_payload",
                f"constant/{name}/same_number",
                f"{same!r} is the number {texts[name]}, as JSON compares them",
                beside({**fixed, name: same}),
                _accepted(names, first, "m", {}),
            )
        for kind, wrong in _other(value):
            out.add(
                "from_payload",
                f"constant/{name}/{kind}",
                f"rejected: bad {name}",
                beside({**fixed, name: wrong}),
                {
                    "ok": False,
                    "field": name,
                    "message": f"{name}: expected {texts[name]}, the constant "
                    "every payload carries, or none",
                },
            )


def _absent_message_rules(
    out: VectorList,
    names: Names,
    first: NamedCode,
    good: dict[str, Any],
    wrapped: Any,
) -> None:
    """Issue 30 §1, ``message_required: false``: a payload without the message
    (or with null) is accepted, its message is the code's template rendered from
    the details (an omitted field's default in its place), else its meaning, and
    it is written back without the member."""
    payload = names.taxonomy.payload
    bare = {k: v for k, v in good.items() if k != payload.message}
    # Its template where every field it names has a value without details (a
    # default, or a constant: issue 30 §7), else its meaning.
    template = first.code.message
    given = {f.name for f in first.code.fields if f.has_default}
    alone = template is not None and all(
        p.field is None or p.field in given for p in template.pieces
    )
    text = construct_expect(first, {})["message"] if alone else first.code.meaning
    cases: list[tuple[str, str, dict[str, Any], NamedCode, str, dict[str, Any]]] = [
        (
            "message_absent",
            "no message: the meaning, and written back without it",
            bare,
            first,
            text,
            {},
        ),
        (
            "message_null",
            "a null message counts as absent: written back without it",
            {**bare, payload.message: None},
            first,
            text,
            {},
        ),
    ]
    for named in names.codes:
        if named.code.message is None:
            continue
        for kind, details in (
            ("required_only", samples.required_only(named)),
            ("every_field", samples.every(named)),
        ):
            if kind == "every_field" and details == samples.required_only(named):
                continue
            body = {**bare, payload.code: named.code.wire_code, **details}
            if payload.retryable is not None:
                body[payload.retryable] = named.code.retryable
            if not payload.rest:
                body = {k: v for k, v in body.items() if k in payload.own}
                if payload.details is not None:
                    body[payload.details] = details
            cases.append(
                (
                    f"message_absent/{named.code.code}/{kind}",
                    "no message: the template rendered from the details"
                    + (", defaults in place" if kind == "required_only" else ""),
                    body,
                    named,
                    construct_expect(named, details)["message"],
                    details,
                )
            )
    for vid, why, body, named, message, details in cases:
        out.add(
            "from_payload",
            vid,
            why,
            wrapped(body),
            _accepted(names, named, message, details, absent=True),
        )


def _problem_rules(
    out: VectorList,
    names: Names,
    first: NamedCode,
    fallback: NamedCode,
    good: dict[str, Any],
    wrapped: Any,
) -> None:
    """RFC 9457: type (a URI of the taxonomy, or kept), title, status, detail,
    instance and extension members."""
    payload = names.taxonomy.payload
    kind, detail = payload.code, payload.message
    unknown = some_unknown(names)
    cases: list[tuple[str, str, dict[str, Any], NamedCode, str, Any, Any]] = [
        # (id, why, body, class, message, details, wire code)
    ]
    cases.append(
        (
            "type_absent",
            f"no type (about:blank): treated as {fallback.code.code}, its own type "
            "written back",
            {detail: "m"},
            fallback,
            "m",
            {},
            None,
        )
    )
    for vid, uri in (
        ("type_about_blank", "about:blank"),
        ("type_other_uri", "https://example.org/problems/out-of-credit"),
    ):
        body = {kind: uri, "title": "Some title", "status": 403, detail: "m"}
        cases.append(
            (
                vid,
                f"{uri}, a type of no code here: treated as {fallback.code.code}, "
                "the type kept",
                body,
                fallback,
                "m",
                {kind: uri, "title": "Some title", "status": 403},
                None,
            )
        )
    code_text = str(first.code.wire_code)
    if code_text[0].isalnum() or code_text[0] in "-._~":
        template = names.taxonomy.docs_url or ""
        other = template.replace("{code}", f"%{ord(code_text[0]):02X}{code_text[1:]}")
        cases.append(
            (
                "type_other_spelling",
                "a type that spells a code otherwise than docs_url does is no code "
                f"of ours: treated as {fallback.code.code}, the type kept",
                {kind: other, detail: "m"},
                fallback,
                "m",
                {kind: other},
                None,
            )
        )
    cases.append(
        (
            "type_unknown_code",
            "a type of docs_url holding an unknown code: treated as "
            f"{fallback.code.code}, that code kept",
            {kind: _type_uri(names, unknown), detail: "m"},
            fallback,
            "m",
            {},
            unknown,
        )
    )
    uri = good[kind]
    cases += [
        (
            "detail_absent",
            "no detail: the message is the meaning",
            {kind: uri},
            first,
            first.code.meaning,
            {},
            None,
        ),
        (
            "detail_absent_title",
            "no detail: the message is the title received",
            {kind: uri, "title": "A title"},
            first,
            "A title",
            {"title": "A title"},
            None,
        ),
        (
            "instance_and_extensions",
            "instance, status, title and extension members are kept",
            {
                kind: uri,
                "title": "T",
                "status": 599,
                detail: "m",
                "instance": "/account/12345/msgs/abc",
                "balance": 30,
                "accounts": ["/account/12345"],
            },
            first,
            "m",
            {
                "title": "T",
                "status": 599,
                "instance": "/account/12345/msgs/abc",
                "balance": 30,
                "accounts": ["/account/12345"],
            },
            None,
        ),
    ]
    for vid, why, body, named, message, details, wire_code in cases:
        out.add(
            "from_payload",
            vid,
            why,
            wrapped(body),
            _accepted(names, named, message, details, wire_code),
        )
