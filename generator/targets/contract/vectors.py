"""The contract's conformance vectors: inputs, and what every implementation gives.

Computed from the model alone, never from a generated runtime, so they state
what every implementation must do: the Python and TypeScript suites run every
vector and must agree with it, and a team implementing the taxonomy in a third
language can run the same file.  The ``from_payload`` vectors are made in
:mod:`.payload_vectors`, those of typed details and ``construct`` in
:mod:`.details`, those of the number model in :mod:`.numbers`; ``lookup``,
``error_from_event`` and ``to_error`` here.  When the taxonomy maps any code to
an HTTP or gRPC status, marks one throttling or gives a ``docs_url``, every
expectation that names a class also says what that class carries
(:func:`add_mapped`); otherwise they say nothing of it, and an implementation
expects none (null, false).  Every expectation that names a class gives its
``code`` too (the wire code the error reports), so a language without classes,
as Go, runs the vectors by their codes (issue 31 §3).  It runs a few lines
past 300 because the document explains each of its keys (kinds, limits,
``schema_valid``, ``input_json``, ``code``) to a reader implementing it in
another language, here where they are written.
"""

from __future__ import annotations

from typing import Any

from taxogen.model import json_data
from taxogen.naming import Names
from taxogen.targets.mapped import class_mappings, declares_any
from taxogen.targets.contract.payload_vectors import (
    VectorList,
    accepted,
    add_from_payload,
    good_payload,
    matched_samples,
    plain_code,
    removed_on_the_wire,
    some_unknown,
    string_aliases,
    unknown_target,
)
from taxogen.targets.contract.details import add_construct, add_details_vectors
from taxogen.targets.contract.mapped_vectors import add_mapped_rules, remap
from taxogen.targets.contract import numbers
from taxogen.targets.contract.retry_vectors import (
    KIND as RETRY_KIND,
    add_retry_vectors,
    declares_retry,
)
from taxogen.targets.contract.schema import (
    MAX_CODE_LENGTH,
    MAX_DETAILS_DEPTH,
    MAX_DETAILS_NODES,
    code_pattern,
)

__all__ = ["vectors"]

_ABSENT = object()


def _event(event_type: str, location: str, value: Any = _ABSENT) -> dict[str, Any]:
    """An event of ``event_type`` holding ``value`` at the dotted ``location``.

    Without a value the path leading to the location is there, the last key not.
    """
    root: dict[str, Any] = {"type": event_type}
    node = root
    *parents, leaf = location.split(".")
    for part in parents:
        node[part] = {}
        node = node[part]
    if value is not _ABSENT:
        node[leaf] = value
    return root


_MAPPED = (
    "every expectation that names a class also gives its "
    "http_status (an integer, or null), grpc_status (a canonical gRPC status "
    "name, or null), throttling (a boolean) and doc_url (a URL, or null), what "
    "the class (and every error of it) carries"
)


def add_mapped(out: VectorList, names: Names) -> bool:
    """Give each expectation that names a class what that class maps to (HTTP
    and gRPC status, throttling, docs link), if the taxonomy declares any; say
    whether it did."""
    taxonomy = names.taxonomy
    if not declares_any(taxonomy):
        return False
    # Every class by name: the codes', and the domains' own (an unknown code a
    # domain's match claims is an error of its class).
    by_class = {name: mapping for name, (_, mapping) in class_mappings(names).items()}
    for vector in out.vectors:
        mapping = by_class.get(vector["expect"].get("class"))
        if mapping is not None:
            vector["expect"].update(
                # A status received (issue 30 §2) is the error's own.
                http_status=vector["expect"].get("http_status", mapping.http_status),
                grpc_status=mapping.grpc_status,
                throttling=mapping.throttling,
                doc_url=mapping.doc_url,
            )
    return True


def _looked_up(names: Names, wire: str | int) -> dict[str, Any]:
    """What ``lookup`` and ``is_retryable`` give for an unknown wire code."""
    class_name, code, _, retryable = unknown_target(names, wire)
    return {"class": class_name, "code": code, "retryable": retryable}


def _payload(names: Names) -> dict[str, Any]:
    """The payload mapping, as the taxonomy gives it (every part spelt out)."""
    taxonomy = names.taxonomy
    payload = taxonomy.payload
    out: dict[str, Any] = {
        "preset": payload.preset,
        "code": payload.code,
        "message": payload.message,
        "retryable": payload.retryable,
        "details": payload.details,
        "details_type": payload.details_type,
        "envelope": payload.envelope,
    }
    if payload.problem:
        out["type_template"] = taxonomy.docs_url
    if payload.status is not None:
        out["status"] = payload.status
    if payload.message_required is not None:
        out["message_required"] = payload.message_required
    if payload.constants:
        out["constants"] = {name: json_data(value) for name, value in payload.constants}
    if payload.keeps_outside:
        out["outside"] = "keep"
    return out


#: Issue 30 §3: what the vectors of a taxonomy without a fallback say.
_UNKNOWN = (
    "taxonomy.fallback is null (fallback: null): an unknown code keeps its "
    "identity. Its expectation's class is the base's (or that of the domain whose "
    "match claims it, where the domain has no <domain>_error code), its code the "
    'received code, its domain null (none: Go\'s Domain() is "") or the '
    "claiming domain's, its retryable the payload's, else as unknown_retryable "
    "says (false, true, or by_status: true for a 5xx received), and its "
    "http_status the status received, or null; a lookup expectation is an "
    "unknown code's without a status"
)


#: Issue 30 §1: what a from_payload expectation's ``message`` says.
_MESSAGE = (
    "present on a from_payload expectation of a payload received without its "
    "message (message_required: false): the error's message, which to_payload() "
    "leaves out as received"
)


#: Issue 30 §1: a rejection that states its message.
_REJECTION = (
    "a rejection may give message, the InvalidPayloadError's whole message, the "
    "same in every language (a payload constant's)"
)


def vectors(names: Names, header: str) -> dict[str, Any]:
    """Inputs and the outcome every implementation of the taxonomy must produce."""
    taxonomy = names.taxonomy
    first = plain_code(names)
    fallback = names.fallback
    wrap = names.wrap
    out = VectorList()
    add_from_payload(out, names)
    numbers.add_number_vectors(out, names)
    add_details_vectors(out, names)
    good = good_payload(names)
    unknown = some_unknown(names)

    # lookup: every code and an unknown one (a code's id under code/, like
    # from_payload's: a code may be called "unknown").
    claims = (
        " (or, if a domain's match claims it, that domain's)"
        if names.prefixes or names.ranges
        else ""
    )
    for named in names.codes:
        key, wire = named.code.code, named.code.wire_code
        out.add(
            "lookup",
            f"code/{key}",
            f"the class of {key}",
            wire,
            {
                "class": named.class_name,
                "code": wire,
                "retryable": named.code.retryable,
            },
        )
    for named, alias in string_aliases(names):
        out.add(
            "lookup",
            f"alias/{alias}",
            f"the alias {alias} gets the class of {named.code.code}",
            alias,
            {
                "class": named.class_name,
                "code": named.code.wire_code,
                "retryable": named.code.retryable,
            },
        )
    out.add(
        "lookup",
        "unknown",
        (
            "an unknown code gets the fallback's class"
            if fallback is not None
            else "an unknown code keeps its identity, an error of the root class"
        )
        + claims,
        unknown,
        _looked_up(names, unknown),
    )
    for key, code in matched_samples(names):
        out.add(
            "lookup",
            f"matched/{key}/{code}",
            f"an unknown code in the match of domain {key} gets its class",
            code,
            _looked_up(names, code),
        )
    for tomb in removed_on_the_wire(names):
        out.add(
            "lookup",
            f"removed/{tomb.code}",
            (
                "a removed code gets the fallback's class"
                if fallback is not None
                else "a removed code keeps its identity, an error of the root class"
            )
            + claims,
            tomb.wire_code,
            _looked_up(names, tomb.wire_code),
        )

    # error_from_event: every event type of the propagation table.
    invalid_error: dict[str, Any] = {"code": first.code.wire_code}
    if not taxonomy.payload.default:
        invalid_error["message"] = 5  # a problem's detail may be absent: not a 5
    for event in taxonomy.events:
        error: dict[str, Any] = {
            "code": first.code.wire_code,
            "message": f"failed in {event.type}",
            "retryable": first.code.retryable,
            "details": {},
        }
        out.add(
            "error_from_event",
            f"{event.type}/error",
            f"{event.type} carries its error at {event.location}",
            _event(event.type, event.location, error),
            accepted(first, error),
        )
        out.add(
            "error_from_event",
            f"{event.type}/null",
            "a null error means none",
            _event(event.type, event.location, None),
            {"ok": True, "none": True},
        )
        out.add(
            "error_from_event",
            f"{event.type}/absent",
            "no error at the location means none",
            _event(event.type, event.location),
            {"ok": True, "none": True},
        )
        out.add(
            "error_from_event",
            f"{event.type}/invalid",
            "an invalid error payload is rejected",
            _event(event.type, event.location, invalid_error),
            {"ok": False, "field": "message"},
        )
    out.add(
        "error_from_event",
        "unknown_type",
        "an event type the table lacks carries no error",
        {"type": "zz.not.an.event", "payload": {"error": good}},
        {"ok": True, "none": True},
    )
    out.add(
        "error_from_event",
        "no_type",
        "an event without a type carries no error",
        {"payload": {"error": good}},
        {"ok": True, "none": True},
    )
    out.add(
        "error_from_event",
        "not_an_object",
        "an event must be an object",
        ["x"],
        {"ok": False, "field": "event"},
    )

    # to_error: values that are not errors are wrapped with the wrap code.
    for vid, given in (
        ("string", "boom"),
        ("number", 42),
        ("null", None),
        ("object", {"code": first.code.wire_code}),
        ("array", [1, 2]),
        ("boolean", False),
    ):
        out.add(
            "to_error",
            vid,
            f"a {vid} is wrapped as {wrap.code.code}, the value kept",
            given,
            {
                "class": wrap.class_name,
                "code": wrap.code.wire_code,
                "domain": wrap.code.domain,
                "retryable": wrap.code.retryable,
            },
        )

    add_construct(out, names)
    if not taxonomy.payload.default:
        # Issue 14 §2: the payload as the wire really carries it.
        out.vectors = remap(names, out.vectors)
        add_mapped_rules(out, names)
    mapped = add_mapped(out, names)
    add_retry_vectors(out, names)  # issue 30 §8, in the payload as it travels
    out.vectors = numbers.raw_inputs(out.vectors)

    return {
        "//": header,
        "taxonomy": {
            "name": taxonomy.name,
            "version": taxonomy.version,
            "base": names.base,
            # null: fallback: null (issue 30 §3), unknown codes keep their own
            "fallback": None if fallback is None else fallback.code.wire_code,
            "wrap": wrap.code.wire_code,
            "wire_type": taxonomy.wire_type,
            "code_pattern": code_pattern(names),
            **({} if taxonomy.payload.default else {"payload": _payload(names)}),
        },
        "limits": {
            "max_code_length": MAX_CODE_LENGTH,
            "max_details_depth": MAX_DETAILS_DEPTH,
            "max_details_nodes": MAX_DETAILS_NODES,
            "depth": "the details object is depth 1; each object or array inside adds "
            "one; scalars add nothing",
            "nodes": "every object, array, string, number, boolean and null in "
            "details, the details object included",
        },
        "kinds": {
            "from_payload": "input is a payload; expect ok with the class, code, "
            "domain, retryable, wire_code and the "
            "payload to_payload() re-emits, or ok false with the bad field",
            "lookup": "input is a code; expect the class lookup() returns, the "
            "code its errors report, and is_retryable()",
            "error_from_event": "input is an event; expect the error (as "
            "from_payload), none, or a rejection",
            "to_error": "input is a value that is not an error; expect the wrapper's "
            "class, code, domain and retryable",
            "construct": "input is a code and the details fields as a constructor is "
            "given them (no defaults); expect the class, its code, the message it "
            "renders from its template (else its meaning) and its details, defaults "
            "filled in",
            **(dict([RETRY_KIND]) if declares_retry(names) else {}),
        },
        "code": "every expectation that names a class also gives code, the wire "
        "code its error reports (an unknown code's: the code it is treated as), so "
        "a language without classes runs every vector by its codes",
        "schema_valid": "present on a vector whose input the JSON Schema judges "
        "otherwise than expect.ok says, "
        "because the schema cannot state that rule (details depth, the number of "
        "values, a number a double cannot hold): implementations follow expect",
        "input_json": numbers.INPUT_JSON,
        **({"mapped": _MAPPED} if mapped else {}),
        **({"message": _MESSAGE} if taxonomy.payload.exact_message else {}),
        **({"rejection": _REJECTION} if taxonomy.payload.constants else {}),
        **({"unknown": _UNKNOWN} if fallback is None else {}),
        "vectors": out.vectors,
    }
