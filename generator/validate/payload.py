"""Payload: the shape of the error object the wire carries (``payload:``).

``preset`` names a whole shape (``harmovela``, today's and the default;
``json-rpc``; ``problem``, RFC 9457), and ``code``, ``message``, ``retryable``,
``details``, ``details_type`` and ``envelope`` each override one part of it
(``message_required: false`` lets the message be absent, and ``constants``
names members every payload carries with a fixed value):
the member that holds the field, ``null`` where the field is not on the wire
(``retryable``, ``details``, ``envelope``), ``"*"`` for details that are every
member the mapping does not read.  What the preset needs of the rest of the
taxonomy is checked once it is built (:func:`check_payload`): JSON-RPC codes
are integers, a problem's ``type`` is built from ``docs_url`` and its
``status`` is each code's HTTP status, and declared details fields need object
details.

``status`` (none by default) names the member that holds the HTTP status, read
into each error's own status and written from it (issue 30 §2).

It is longer than 300 lines because it is one mapping's rules: each part of
``payload:`` (members, constants, the message's presence) is checked against
the others it may clash with, which a split would have to pass back and forth.
"""

from __future__ import annotations

from taxogen.model import (
    DETAILS_TYPES,
    OUTSIDE,
    PAYLOAD_KEYS,
    PAYLOAD_PRESETS,
    Payload,
    Taxonomy,
    preset_payload,
)
from taxogen.model import JSONValue
from taxogen.nodes import MapNode, Node, ScalarNode, SeqNode
from taxogen.validate.reader import Reader, join
from taxogen.validate.text import NULLS, describe, show
from taxogen.validate.values import json_value

__all__ = ["MAX_MEMBER_LENGTH", "PAYLOAD_KEYS", "check_payload", "read_payload"]

#: The longest member name a mapping may give.
MAX_MEMBER_LENGTH = 64
#: The fields whose member may be ``null`` (not on the wire).
_NULLABLE = ("retryable", "details", "envelope", "status")


def _null(node: Node) -> bool:
    return isinstance(node, ScalarNode) and node.plain and node.value in NULLS


def _member(r: Reader, node: Node, key: str, field: str) -> str | None | bool:
    """The member name at ``node``: a name, None (``null``, where allowed), or
    False when it is wrong (reported)."""
    if node.refused:
        return False
    if _null(node):
        if field in _NULLABLE:
            return None
        more = (
            " (name it, and say message_required: false if a payload may leave "
            "it out)"
            if field == "message"
            else ""
        )
        r.error(
            node.position,
            key,
            f"expected the name of the payload member that holds the {field}, got "
            f"null; every payload carries its {field}{more}",
        )
        return False
    text = r.text(node, key, allow_empty=False)
    if text is None:
        return False
    if len(text) > MAX_MEMBER_LENGTH:
        r.error(node.position, key, f"longer than {MAX_MEMBER_LENGTH} characters")
        return False
    if text == "*" and field != "details":
        r.error(
            node.position,
            key,
            f'"*" (the members the mapping does not read) is for details only; '
            f"name the member that holds the {field}",
        )
        return False
    return text


def read_payload(r: Reader, node: Node | None) -> Payload | None:
    """The payload mapping at ``node`` (absent: today's), or None where there is
    no mapping to read (reported).  A mapping read with errors is returned as
    read: ``validate`` stops at any error before it checks the rest of the file
    against the payload (``check_payload``), so each mistake is reported once."""
    if node is None:
        return Payload()
    if node.refused:
        return None
    if not isinstance(node, MapNode):
        r.error(
            node.position,
            "payload",
            "expected a mapping such as {preset: json-rpc} or {code: code, "
            f"message: message, ...}}, got {describe(node)}",
        )
        return None
    found = r.mapping(node, "payload", PAYLOAD_KEYS)
    if found is None:
        return None
    preset = "harmovela"
    if "preset" in found:
        chosen = r.one_of(found["preset"][1], "payload.preset", PAYLOAD_PRESETS)
        if chosen is not None:  # else the fields are checked against today's shape
            preset = chosen
    base = preset_payload(preset)
    values: dict[str, object] = {
        "preset": preset,
        "code": base.code,
        "message": base.message,
        "retryable": base.retryable,
        "details": base.details,
        "details_type": base.details_type,
        "envelope": base.envelope,
        "status": base.status,
    }
    where: dict[str, Node] = {}
    for field in ("code", "message", "retryable", "details", "envelope", "status"):
        if field not in found:
            continue
        value_node = found[field][1]
        member = _member(r, value_node, join("payload", field), field)
        if member is False:
            continue
        values[field] = member
        where[field] = value_node
    if "details_type" in found:
        kind = r.one_of(found["details_type"][1], "payload.details_type", DETAILS_TYPES)
        if kind is not None:
            values["details_type"] = kind
            where["details_type"] = found["details_type"][1]
    message_required: bool | None = None
    if "message_required" in found:
        given = r.boolean(found["message_required"][1], "payload.message_required")
        # true is every shape's own but the problem's: today's payload, unchanged.
        if given is False or (given is True and preset == "problem"):
            message_required = given
    constants = _constants(r, found["constants"][1]) if "constants" in found else ()
    outside = "drop"
    if "outside" in found:
        outside = r.one_of(found["outside"][1], "payload.outside", OUTSIDE) or "drop"
    payload = Payload(
        preset=preset,
        code=str(values["code"]),
        message=str(values["message"]),
        retryable=_optional(values["retryable"]),
        details=_optional(values["details"]),
        details_type=str(values["details_type"]),
        envelope=_optional(values["envelope"]),
        status=_optional(values["status"]),
        message_required=message_required,
        constants=tuple((name, value) for name, value, _ in constants),
        outside=outside,
    )
    if payload.keeps_outside and payload.envelope is None and payload.rest:
        r.error(
            found["outside"][1].position,
            "payload.outside",
            "keep keeps the members the mapping does not name, and details "
            '"*" reads every one of them as the details: name a details member, '
            "give envelope: (the member the error object sits under), or leave "
            "outside out",
        )
    # Two fields in one member could not both be read back.
    seen: dict[str, str] = {}
    for field in ("code", "message", "retryable", "details", "status"):
        member = getattr(payload, field)
        if member is None or member == "*":
            continue
        if member in seen:
            other = seen[member]
            r.error(
                (where.get(field) or where.get(other) or node).position,
                join("payload", field),
                f"the {field} and the {other} are both the member {show(member)}; "
                "each field needs a member of its own",
            )
        seen[member] = field
    # A constant is a member of the payload itself, of its own: beside the
    # envelope if there is one, else beside the code and every other field.
    taken = {
        member: field
        for field in ("code", "message", "retryable", "details", "status", "envelope")
        if (member := getattr(payload, field)) not in (None, "*")
    }
    if payload.problem:
        taken.update(title="title", status="status")
    if payload.envelope is not None:
        taken = {payload.envelope: "envelope"}
    for name, _, at in constants:
        if name in taken:
            r.error(
                at.position,
                join("payload.constants", name),
                f"{show(name)} is the payload's member of the {taken[name]}; a "
                "constant needs a member of its own",
            )
    if payload.rest and payload.details_type != "object":
        r.error(
            (where.get("details_type") or where.get("details") or node).position,
            "payload.details_type",
            f'details "*" are the members the mapping does not read, an object; '
            f"got details_type: {payload.details_type}",
        )
    if payload.problem and payload.status is not None:
        # The problem preset writes its own status member (RFC 9457's).
        r.error(
            where["status"].position,
            "payload.status",
            "the problem preset writes the HTTP status as its own member "
            "'status'; remove payload.status",
        )
    if payload.details is None and "details_type" in where:
        # Accepted, it would read as a promise about details that never come.
        r.error(
            where["details_type"].position,
            "payload.details_type",
            "the payload has no details (details: null), so details_type describes "
            "nothing: remove it, or name the details member",
        )
    return payload


def _constants(r: Reader, node: Node) -> tuple[tuple[str, JSONValue, Node], ...]:
    """``payload.constants``: member names and the scalar each payload carries
    there, each with its name's node; what is wrong is reported and left out."""
    key = "payload.constants"
    if node.refused:
        return ()
    if not isinstance(node, MapNode) or not node.items:
        r.error(
            node.position,
            key,
            "expected a mapping of members to the value every payload carries "
            f"there, such as {{kind: Status, apiVersion: v1}}, got {describe(node)}",
        )
        return ()
    out: list[tuple[str, JSONValue, Node]] = []
    for name_node, value_node in node.items:
        name = name_node.value
        at = join(key, name)
        if not name or name == "*" or len(name) > MAX_MEMBER_LENGTH:
            r.error(
                name_node.position,
                at,
                f"a member name is 1 to {MAX_MEMBER_LENGTH} characters, not "
                f'"*"; got {show(name)}',
            )
            continue
        if value_node.refused:
            continue
        value = (
            None
            if isinstance(value_node, (MapNode, SeqNode))
            else json_value(r, value_node, at)
        )
        if value is None:
            if not isinstance(value_node, ScalarNode) or value_node.value in NULLS:
                r.error(
                    value_node.position,
                    at,
                    "expected the string, number or boolean every payload carries "
                    f"in {show(name)}, got {describe(value_node)}",
                )
            continue  # (a number json_value refused is reported)
        out.append((name, value, name_node))
    return tuple(out)


def _optional(value: object) -> str | None:
    return None if value is None else str(value)


def check_payload(r: Reader, taxonomy: Taxonomy, node: Node) -> None:
    """What the payload mapping needs of the rest of ``taxonomy``, reported at
    ``node`` (the ``payload:`` value) or at the codes concerned."""
    payload = taxonomy.payload
    found = (
        dict((key.value, value) for key, value in node.items)
        if isinstance(node, MapNode)
        else {}
    )
    at = found.get("preset", node).position
    if payload.preset == "json-rpc" and taxonomy.wire_type != "integer":
        r.error(
            at,
            "payload.preset",
            "JSON-RPC error codes are integers: give wire_type: integer and every "
            "code an integer wire:, or map the fields of another shape",
        )
    if payload.problem:
        if taxonomy.docs_url is None:
            r.error(
                at,
                "payload.preset",
                "the problem preset writes each code as a type URI built from "
                "docs_url: give docs_url (such as "
                "'https://errors.example.com/{code}')",
            )
        for code in taxonomy.codes:
            if taxonomy.mapped(code).http_status is None:
                r.error(
                    code.position,
                    f"domains.{code.domain}.codes.{code.code}",
                    "has no http_status, which the problem preset writes as its "
                    "status: give it one, or its domain or the top level",
                )
    typed = next((code for code in taxonomy.codes if code.fields), None)
    if typed is not None and (
        payload.details is None or payload.details_type != "object"
    ):
        what = (
            "no details (details: null)"
            if payload.details is None
            else f"details_type: {payload.details_type}"
        )
        r.error(
            found.get("details_type", found.get("details", node)).position,
            "payload.details" if payload.details is None else "payload.details_type",
            f"code {typed.code!r} (line {typed.position.line}) declares details "
            f"fields, which need object details; the payload has {what}",
        )
    for code in taxonomy.codes:
        for field in code.fields:
            if (
                payload.rest
                and payload.envelope is None
                and field.name in payload.fixed
            ):
                r.error(
                    code.position,
                    f"domains.{code.domain}.codes.{code.code}",
                    f"declares the details field {field.name!r}, but the "
                    f"payload's member {field.name!r} is a constant "
                    f'(payload.constants): details "*" cannot hold it',
                )
    if payload.rest:
        for code in taxonomy.codes:
            for field in code.fields:
                if field.name in payload.own:
                    r.error(
                        code.position,
                        f"domains.{code.domain}.codes.{code.code}",
                        f"declares the details field {field.name!r}, but the "
                        f"payload's member {field.name!r} is its "
                        f'{_role(payload, field.name)}: details "*" cannot '
                        "hold it",
                    )


def _role(payload: Payload, member: str) -> str:
    """Which of the payload's own fields ``member`` holds (one of them does)."""
    (role,) = [
        f
        for f in ("code", "message", "retryable", "status")
        if getattr(payload, f) == member
    ]
    return role
