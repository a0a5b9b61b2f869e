"""The openapi target: an OpenAPI 3.1 components document of the catalogue.

Issue 15, section 6.  For every case the document is what its golden says
(``tests/openapi/``, ``make golden``), a valid OpenAPI 3.1 document by
openapi-spec-validator, and says what the YAML says: a schema per code that
accepts that code's payloads (typed details included) and refuses others, and a
union discriminated on the code that maps every code, and only those.
"""

from __future__ import annotations

import json
from typing import Any

import jsonschema
import pytest
from openapi_spec_validator import validate as validate_openapi

from taxogen.pipeline import build_plan
from taxogen.targets.openapi import PATH
from tests import spec_oracle as oracle
from tests.support import REPO, Case, case_ids, cases

GOLDEN = REPO / "tests" / "openapi"


def _document(case: Case) -> dict[str, Any]:
    data = build_plan(case.taxonomy, ["openapi"])[PATH]
    assert data == (GOLDEN / f"{case.name}.json").read_bytes()
    document: dict[str, Any] = json.loads(data)
    return document


def _validator(document: dict[str, Any], name: str) -> jsonschema.Validator:
    """A JSON Schema validator of the component ``name`` (refs resolved in the
    document)."""
    schema = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "components": document["components"],
        "$ref": f"#/components/schemas/{name}",
    }
    return jsonschema.Draft202012Validator(schema)


def test_the_target_is_off_by_default() -> None:
    assert PATH not in build_plan(REPO / "taxonomy.yaml")


@pytest.mark.parametrize("case", cases(), ids=case_ids())
def test_the_document_is_valid_openapi(case: Case) -> None:
    document = _document(case)
    validate_openapi(document)  # raises on an invalid document
    assert document["openapi"].startswith("3.1.")


@pytest.mark.parametrize("case", cases(), ids=case_ids())
def test_each_code_has_its_schema_and_the_union_maps_every_code(case: Case) -> None:
    spec = oracle.read_spec(case.taxonomy)
    document = _document(case)
    schemas = document["components"]["schemas"]
    union = schemas[f"{spec.name}.KnownError"]
    p = spec.payload
    # Issue 14 §2: no discriminator where the code is no top-level string member.
    if spec.integer or p["envelope"] or p["preset"] == "problem":
        assert "discriminator" not in union
    else:
        assert union["discriminator"]["mapping"] == {
            entry.wire: f"#/components/schemas/{entry.class_name}"
            for entry in spec.codes.values()
        }
    assert len(union["oneOf"]) == len(spec.codes)
    for code, entry in spec.codes.items():
        schema = schemas[entry.class_name]
        body = schema["properties"][p["envelope"]] if p["envelope"] else schema
        const = (
            oracle.type_uri(spec, entry.wire)
            if p["preset"] == "problem"
            else entry.wire
        )
        assert body["properties"][p["code"]] == {"const": const}
        if p["retryable"]:
            assert body["properties"][p["retryable"]]["default"] is entry.retryable
        required = [n for n, f in entry.fields if f.get("required", True)]
        if p["details"] == "*":
            assert set(required) <= set(body["required"])
        elif p["details"]:
            assert body["properties"][p["details"]].get("required", []) == required


@pytest.mark.parametrize("case", cases(), ids=case_ids())
def test_the_schemas_accept_and_refuse_payloads_as_the_yaml_says(case: Case) -> None:
    spec = oracle.read_spec(case.taxonomy)
    document = _document(case)
    union = _validator(document, f"{spec.name}.KnownError")
    payload_schema = _validator(document, f"{spec.name}.Payload")
    for code, entry in spec.codes.items():
        own = _validator(document, entry.class_name)
        details = oracle.sample_details(spec, code, optional=True)
        canonical = {
            "code": entry.wire,
            "message": "m",
            "retryable": True,
            "details": details,
        }
        good = oracle.to_wire(spec, canonical)
        for validator in (own, union, payload_schema):
            assert validator.is_valid(good), (code, list(validator.iter_errors(good)))
        # Another code's payload is not this code's; a required field missing
        # is refused (docs "Typed details").
        other = {**canonical, "code": spec.other_wire("zz_other")}
        assert not own.is_valid(oracle.to_wire(spec, other))
        required = [n for n, f in entry.fields if f.get("required", True)]
        if required:
            missing = {k: v for k, v in details.items() if k != required[0]}
            wrong = oracle.to_wire(spec, {**canonical, "details": missing})
            assert not own.is_valid(wrong)
            assert not union.is_valid(wrong)
    unknown = {
        "code": spec.other_wire("zz_unknown"),
        "message": "m",
        "retryable": False,
    }
    # the fallback rule: still a payload, but no known error
    assert payload_schema.is_valid(oracle.to_wire(spec, unknown))
    assert not union.is_valid(oracle.to_wire(spec, unknown))
    if spec.payload["retryable"]:
        bad = oracle.to_wire(spec, {**unknown, "retryable": "no"})
        assert not payload_schema.is_valid(bad)
    else:  # issue 14 §2: not on the wire, so not checked
        assert payload_schema.is_valid({**oracle.to_wire(spec, unknown), "r": "no"})


@pytest.mark.parametrize("case", cases(), ids=case_ids())
def test_each_http_status_used_has_a_response_of_its_codes(case: Case) -> None:
    """Issue 14 §4: a status some code maps to (inheritance applied) gets a
    response whose body is one of those codes' payloads; each code's schema says
    what it maps to and links its documentation."""
    spec = oracle.read_spec(case.taxonomy)
    document = _document(case)
    schemas = document["components"]["schemas"]
    by_status: dict[int, list[str]] = {}
    for code, entry in spec.codes.items():
        # Issue 30 §2: "OpenAPI responses list them all", every status a code
        # may take (http_status: [400, 401]).
        for status in entry.http_statuses or [entry.http_status]:
            if status is not None:
                by_status.setdefault(status, []).append(code)
        schema = schemas[entry.class_name]
        assert schema.get("x-http-status") == entry.http_status
        assert schema.get("x-http-statuses") == entry.http_statuses
        assert schema.get("x-grpc-status") == entry.grpc_status
        assert schema.get("x-throttling", False) is entry.throttling
        assert schema.get("externalDocs", {}).get("url") == entry.doc_url
    responses = document["components"].get("responses", {})
    assert sorted(responses) == sorted(f"{spec.name}.HTTP{s}" for s in by_status)
    for status, codes in by_status.items():
        # RFC 9457: a problem document is application/problem+json.
        media = (
            "application/problem+json"
            if spec.payload["preset"] == "problem"
            else "application/json"
        )
        body = responses[f"{spec.name}.HTTP{status}"]["content"][media]
        schema = {
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "components": document["components"],
            **body["schema"],
        }
        validator = jsonschema.Draft202012Validator(schema)
        for code, entry in spec.codes.items():
            details = oracle.sample_details(spec, code, optional=True)
            payload = {"code": entry.wire, "message": "m", "retryable": True}
            payload["details"] = details
            payload = oracle.to_wire(spec, payload)  # issue 14 §2
            assert validator.is_valid(payload) is (code in codes), (status, code)


def test_a_code_listing_several_statuses_is_a_body_of_each_response() -> None:
    """Issue 30 §2: RFC 6749's invalid_client is a 400 or a 401
    (tests/cases/oauth_statuses): the response of each status accepts its body,
    beside the other codes of that status."""
    case = next(c for c in cases() if c.name == "oauth_statuses")
    spec = oracle.read_spec(case.taxonomy)
    assert spec.codes["invalid_client"].http_statuses == [400, 401]
    document = _document(case)
    responses = document["components"]["responses"]
    body = {"error": "invalid_client", "error_description": "m"}
    for status in (400, 401):
        schema = {
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "components": document["components"],
            **responses[f"oauth_statuses.HTTP{status}"]["content"]["application/json"][
                "schema"
            ],
        }
        assert jsonschema.Draft202012Validator(schema).is_valid(body), status
    # Not a body of a status it does not list.
    schema = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "components": document["components"],
        **responses["oauth_statuses.HTTP403"]["content"]["application/json"]["schema"],
    }
    assert not jsonschema.Draft202012Validator(schema).is_valid(body)


def test_the_status_member_is_in_every_code_s_body_schema() -> None:
    """Issue 30 §2: ``payload: {status: code}`` (tests/cases/k8s_status): each
    code's schema types the member that holds the HTTP status (an integer from
    100 to 599, or null), says its code's default, and does not require it."""
    case = next(c for c in cases() if c.name == "k8s_status")
    spec = oracle.read_spec(case.taxonomy)
    member = spec.payload["status"]
    assert member == "code"
    document = _document(case)
    for code, entry in spec.codes.items():
        schema = document["components"]["schemas"][entry.class_name]
        prop = schema["properties"][member]
        assert prop["default"] == entry.http_status, code
        assert member not in schema.get("required", []), code
        validator = _validator(document, entry.class_name)
        good = {"reason": entry.wire, "message": "m"}
        for status in (100, 404, 418, 599, None):
            assert validator.is_valid({**good, member: status}), (code, status)
        for status in (99, 600, "404", 404.5, True):
            assert not validator.is_valid({**good, member: status}), (code, status)
