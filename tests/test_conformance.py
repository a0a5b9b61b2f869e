"""Conformance: the generated vectors and schema agree with each other and with Python.

``generated/conformance/vectors.json`` and ``generated/schema/error-payload.schema.json``
are computed from the taxonomy, not from a runtime.  Here every vector is run
through the generated Python package of every case, and every payload vector is
checked against the schema: valid ones validate, rejected ones do not.  The
TypeScript suite runs the same vectors (tests/ts/conformance.test.mjs).
"""

from __future__ import annotations

import json
import types
from typing import Any

import jsonschema
import pytest

from generator.contract import SCHEMA_PATH, VECTORS_PATH
from tests.support import Case, case_ids, cases, import_generated


def _load(case: Case, path: str) -> Any:
    return json.loads((case.expected / path).read_text(encoding="utf-8"))


def _check_accepted(
    mod: types.ModuleType, err: Any, expect: dict[str, Any], vid: str
) -> None:
    assert type(err).__name__ == expect["class"], vid
    assert err.code == expect["code"], vid
    assert err.domain == expect["domain"], vid
    assert err.retryable is expect["retryable"], vid
    assert err.wire_code == expect["wire_code"], vid
    assert err.to_payload() == expect["payload"], vid


def run_vector(mod: types.ModuleType, vector: dict[str, Any]) -> None:
    kind, given, expect, vid = (
        vector["kind"],
        vector["input"],
        vector["expect"],
        vector["id"],
    )
    if kind == "from_payload" or kind == "error_from_event":
        call = mod.from_payload if kind == "from_payload" else mod.error_from_event
        if not expect["ok"]:
            with pytest.raises(mod.InvalidPayloadError) as caught:
                call(given)
            assert caught.value.field == expect["field"], vid
            return
        result = call(given)
        if expect.get("none"):
            assert result is None, vid
        else:
            _check_accepted(mod, result, expect, vid)
    elif kind == "lookup":
        assert mod.lookup(given).__name__ == expect["class"], vid
        assert mod.is_retryable(given) is expect["retryable"], vid
    elif kind == "to_error":
        err = mod.to_error(given)
        assert type(err).__name__ == expect["class"], vid
        assert (err.code, err.domain, err.retryable) == (
            expect["code"],
            expect["domain"],
            expect["retryable"],
        ), vid
        assert err.original == given, vid
    else:
        pytest.fail(f"unknown vector kind {kind!r} in {vid}")


@pytest.mark.parametrize("case", cases(), ids=case_ids())
def test_python_passes_every_vector(case: Case) -> None:
    document = _load(case, VECTORS_PATH)
    mod = import_generated(case)
    kinds = {v["kind"] for v in document["vectors"]}
    assert kinds <= set(document["kinds"])
    for vector in document["vectors"]:
        run_vector(mod, vector)


@pytest.mark.parametrize("case", cases(), ids=case_ids())
def test_vectors_cover_every_code_event_and_rule(case: Case) -> None:
    names = case.names
    ids = {v["id"] for v in _load(case, VECTORS_PATH)["vectors"]}
    for named in names.codes:
        assert f"from_payload/code/{named.code.code}" in ids
        assert f"lookup/{named.code.code}" in ids
    for event in names.taxonomy.events:
        assert f"error_from_event/{event.type}/error" in ids
    for field in ("payload", "code", "message", "retryable", "details"):
        assert any(v.startswith(f"from_payload/{field}_") for v in ids), field
    assert "from_payload/unknown_code" in ids and "lookup/unknown" in ids
    assert any(v.startswith("to_error/") for v in ids)


@pytest.mark.parametrize("case", cases(), ids=case_ids())
def test_schema_accepts_exactly_the_accepted_payloads(case: Case) -> None:
    schema = _load(case, SCHEMA_PATH)
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)
    checked = 0
    for vector in _load(case, VECTORS_PATH)["vectors"]:
        if vector["kind"] != "from_payload":
            continue
        valid = validator.is_valid(vector["input"])
        # schema_valid marks the rules JSON Schema cannot state (see test_only_details_depth_is_beyond_the_schema).
        expected = vector.get("schema_valid", vector["expect"]["ok"])
        assert valid is expected, (
            vector["id"],
            list(validator.iter_errors(vector["input"])),
        )
        checked += 1
    assert checked > 30


@pytest.mark.parametrize("case", cases(), ids=case_ids())
def test_only_details_depth_is_beyond_the_schema(case: Case) -> None:
    """Issue 12: a code is at most 256 characters (the schema says maxLength), details at
    most 64 deep (the schema cannot say it, so that vector alone is marked)."""
    schema = _load(case, SCHEMA_PATH)
    document = _load(case, VECTORS_PATH)
    assert schema["properties"]["code"]["maxLength"] == 256
    assert "64" in schema["properties"]["details"]["description"]
    assert document["limits"]["max_code_length"] == 256
    assert document["limits"]["max_details_depth"] == 64
    marked = {
        v["id"]: v["schema_valid"] for v in document["vectors"] if "schema_valid" in v
    }
    assert marked == {"from_payload/details_depth_65": True}
    by_id = {v["id"]: v for v in document["vectors"]}
    for vid, ok, field, length in (
        ("code_length_256", True, None, 256),
        ("code_length_257", False, "code", 257),
    ):
        vector = by_id[f"from_payload/{vid}"]
        assert len(vector["input"]["code"]) == length and vector["expect"]["ok"] is ok
        assert vector["expect"].get("field") == field
    for vid, ok, depth in (
        ("details_depth_64", True, 64),
        ("details_depth_65", False, 65),
    ):
        vector = by_id[f"from_payload/{vid}"]
        assert (
            _depth(vector["input"]["details"]) == depth and vector["expect"]["ok"] is ok
        )
        if not ok:
            assert vector["expect"]["field"] == "details"


def _depth(value: object) -> int:
    """The issue's depth: the details object is 1, each object or array inside adds one."""
    if isinstance(value, dict):
        return 1 + max((_depth(v) for v in value.values()), default=0)
    if isinstance(value, list):
        return 1 + max((_depth(v) for v in value), default=0)
    return 0


@pytest.mark.parametrize("case", cases(), ids=case_ids())
def test_schema_lists_every_known_code_with_its_meaning(case: Case) -> None:
    schema = _load(case, SCHEMA_PATH)
    listed = {
        b["const"]: b["description"]
        for b in schema["properties"]["code"]["anyOf"]
        if "const" in b
    }
    assert listed == {c.code.code: c.code.meaning for c in case.names.codes}
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
