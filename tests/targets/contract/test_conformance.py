"""Conformance: the generated runtimes, vectors and schema do what the taxonomy says.

The oracle is each case's ``taxonomy.yaml``, read with ``yaml.safe_load`` and the
README's rules (``tests/spec_oracle.py``), never the generator's model, names or
contract: a bug there (the fallback sent to the wrap code, an inverted retryable
flag, a code in the wrong domain, the wrong code pattern) would otherwise agree
with itself.  Here, for every case:

* the generated Python package answers every probe as the YAML says (every live
  code round-trips with its own code and retryable, unknown and removed codes
  give the fallback's class keeping the wire code, non-errors get the wrap code,
  lookup and is_retryable agree), and its classes carry the YAML's attributes,
  what each code maps to (HTTP and gRPC status, throttling, docs link) included;
* the vectors the generator makes (``conformance/vectors.json``, made here from
  the case's YAML, which test_golden holds to the committed copy) state the
  same expectations as the YAML, so a generator bug that corrupts them is
  caught too, and the Python package passes every vector;
* the JSON Schema accepts exactly the payloads the spec accepts (save the two
  limits on details it cannot state) and lists exactly the YAML's live codes.

The TypeScript side is tests/targets/typescript/test_ts_conformance.py.
"""

from __future__ import annotations

import json
import types
from typing import Any

import jsonschema
import pytest

from taxogen.pipeline import load_names
from taxogen.targets import contract
from tests import spec_oracle
from tests.spec_oracle import Spec, read_spec
from tests.support import Case, case_ids, cases, import_generated

#: Where the contract files sit in a generated folder (README "What is generated").
SCHEMA_PATH = "schema/error-payload.schema.json"
VECTORS_PATH = "conformance/vectors.json"


def _load(case: Case, path: str) -> Any:
    """The contract file at ``path`` as the generator makes it now for the case.

    Made in the test, not read from the case's committed golden copy (which
    test_golden holds byte for byte to what the generator makes): so a change
    of the contract's code that corrupts a vector or the schema is judged here
    by the Python package and the spec, not hidden behind the golden copy.
    """
    # Made afresh on every call, never cached: mutmut forks each mutant from
    # the process that ran the clean tests, and a cache filled there would
    # hand every mutant the unmutated contract.
    return json.loads(contract.files(load_names(case.taxonomy))[path])


#: docs "What a code maps to": what an expectation that does not say means.
NOTHING_MAPPED = {
    "http_status": None,
    "grpc_status": None,
    "throttling": False,
    "doc_url": None,
}


def _check_mapped(owner: Any, expect: dict[str, Any], vid: str) -> None:
    """The class attributes of what a code maps to, as the vector says (a vector
    that says none of them expects none)."""
    for attr, none in NOTHING_MAPPED.items():
        want = expect.get(attr, none)
        got = getattr(owner, attr)
        assert got == want and type(got) is type(want), (vid, attr, got, want)


def _check_accepted(
    mod: types.ModuleType, err: Any, expect: dict[str, Any], vid: str
) -> None:
    _check_mapped(err, expect, vid)
    assert type(err).__name__ == expect["class"], vid
    assert err.code == expect["code"], vid
    assert err.domain == expect["domain"], vid
    assert err.retryable is expect["retryable"], vid
    assert err.wire_code == expect["wire_code"], vid
    assert err.to_payload() == expect["payload"], vid
    if "message" in expect:  # issue 30 §1: received without its message
        assert err.message == expect["message"], vid
        assert err.message_absent is True, vid


def run_vector(mod: types.ModuleType, vector: dict[str, Any]) -> None:
    kind, given, expect, vid = (
        vector["kind"],
        spec_oracle.vector_input(vector),
        vector["expect"],
        vector["id"],
    )
    if kind == "from_payload" or kind == "error_from_event":
        call = mod.from_payload if kind == "from_payload" else mod.error_from_event
        if not expect["ok"]:
            with pytest.raises(mod.InvalidPayloadError) as caught:
                call(given)
            assert caught.value.field == expect["field"], vid
            if "message" in expect:  # issue 30 §1: the same in every language
                assert str(caught.value) == expect["message"], vid
            return
        result = call(given)
        if expect.get("none"):
            assert result is None, vid
        else:
            _check_accepted(mod, result, expect, vid)
    elif kind == "lookup":
        assert mod.lookup(given).__name__ == expect["class"], vid
        assert mod.is_retryable(given) is expect["retryable"], vid
        _check_mapped(mod.lookup(given), expect, vid)
    elif kind == "to_error":
        err = mod.to_error(given)
        _check_mapped(err, expect, vid)
        assert type(err).__name__ == expect["class"], vid
        assert (err.code, err.domain, err.retryable) == (
            expect["code"],
            expect["domain"],
            expect["retryable"],
        ), vid
        assert err.original == given, vid
    elif kind == "construct":  # docs "Python": fields are keyword arguments
        err = mod.lookup(given["code"])(**given["details"])
        _check_mapped(err, expect, vid)
        assert type(err).__name__ == expect["class"], vid
        assert err.code == expect["code"], vid
        assert err.message == expect["message"], vid
        assert spec_oracle.same_json(
            json.loads(json.dumps(err.details)), expect["details"]
        ), vid
    elif kind == "retry_after":  # issue 30 §8: Python's err.retry_after
        err = mod.from_payload(given)
        assert type(err).__name__ == expect["class"], vid
        assert err.code == expect["code"], vid
        want = expect["retry_after"]
        assert err.retry_after == want, (vid, err.retry_after, want)
        assert want is None or type(err.retry_after) is float, vid
    else:
        pytest.fail(f"unknown vector kind {kind!r} in {vid}")


@pytest.mark.parametrize("case", cases(), ids=case_ids())
def test_python_passes_every_vector(case: Case) -> None:
    document = _load(case, VECTORS_PATH)
    mod = import_generated(case)
    kinds = {v["kind"] for v in document["vectors"]}
    assert kinds <= set(document["kinds"])
    ran = 0
    for vector in document["vectors"]:
        run_vector(mod, vector)
        ran += 1
    # Issue 31 §3: a runner that ran no vector, or fewer than the file holds,
    # proves nothing.
    assert ran == len(document["vectors"]) > 0


@pytest.mark.parametrize("case", cases(), ids=case_ids())
def test_vectors_cover_every_code_event_and_rule(case: Case) -> None:
    spec = read_spec(case.taxonomy)
    ids = {v["id"] for v in _load(case, VECTORS_PATH)["vectors"]}
    for code in spec.codes:
        assert f"from_payload/code/{code}" in ids
        assert f"lookup/code/{code}" in ids
    for code in spec.removed:
        assert f"from_payload/removed/{code}" in ids
        assert f"lookup/removed/{code}" in ids
    for event in spec.events:
        assert f"error_from_event/{event}/error" in ids
    # Issue 14 §2: a field the payload does not carry has no vectors.
    fields = ["payload", "code", "message", "retryable", "details"]
    if spec.payload["retryable"] is None:
        fields.remove("retryable")
    if spec.payload["details"] is None:
        fields.remove("details")
    for field in fields:
        assert any(v.startswith(f"from_payload/{field}_") for v in ids), field
    if spec.payload["envelope"]:
        assert {"from_payload/envelope_missing"} <= ids
    if spec.payload["preset"] == "problem":
        for vid in ("type_absent", "type_about_blank", "type_unknown_code"):
            assert f"from_payload/{vid}" in ids, vid
        assert "from_payload/instance_and_extensions" in ids
    assert "from_payload/unknown_code" in ids and "lookup/unknown" in ids
    # Issue 10: valid and invalid details of every code declaring fields, each
    # required field missing, each field of a wrong type, and the constructor.
    for code, entry in spec.codes.items():
        if not entry.fields:
            continue
        prefix = f"from_payload/details/{code}/"
        assert {prefix + "required_only", prefix + "every_field"} <= ids, code
        assert prefix + "extra_key" in ids, code
        for name, field in entry.fields:
            assert prefix + f"{name}/type" in ids, (code, name)
            if field.get("required", True):
                assert prefix + f"{name}/missing" in ids, (code, name)
                assert prefix + "absent" in ids, code
            for bound in ("minimum", "maximum"):
                if bound in field:
                    side = "below" if bound == "minimum" else "above"
                    assert prefix + f"{name}/{side}_{bound}" in ids, (code, name)
                    assert prefix + f"{name}/at_{bound}" in ids, (code, name)
            if field["type"] in ("integer", "number") and "maximum" not in field:
                assert prefix + f"{name}/not_finite" in ids, (code, name)
            if "enum" in field:
                assert prefix + f"{name}/not_in_enum" in ids, (code, name)
        assert f"construct/{code}/required_only" in ids, code
    assert any(v.startswith("to_error/") for v in ids)


@pytest.mark.parametrize("case", cases(), ids=case_ids())
def test_schema_accepts_exactly_the_accepted_payloads(case: Case) -> None:
    spec = read_spec(case.taxonomy)
    schema = _load(case, SCHEMA_PATH)
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)
    checked = 0
    for vector in _load(case, VECTORS_PATH)["vectors"]:
        if vector["kind"] != "from_payload":
            continue
        given = spec_oracle.vector_input(vector)
        valid = validator.is_valid(given)
        # The spec's verdict, save the limits JSON Schema cannot state (README): the
        # vectors mark exactly those with schema_valid.
        problem = spec_oracle.payload_problem(spec, given)
        # Issue 14 §2: details in the member the payload mapping names.
        field, details = spec_oracle.details_member(spec, given)
        unsayable = problem == field and problem is not None and _unsayable(details)
        assert ("schema_valid" in vector) is unsayable, vector["id"]
        expected = problem is None or unsayable
        assert valid is expected, (
            vector["id"],
            list(validator.iter_errors(given)),
        )
        checked += 1
    assert checked > 30


def _unsayable(details: object) -> bool:
    """README: what JSON Schema cannot say of details, an object or any value:
    deeper than 64, more than 100,000 values, or a number a double cannot hold
    (JSON's grammar allows 1e400; issue 29 §5)."""
    depth, nodes = spec_oracle.details_size(details)
    return (
        depth > spec_oracle.MAX_DETAILS_DEPTH
        or nodes > spec_oracle.MAX_DETAILS_NODES
        or not spec_oracle.all_finite(details)
    )


@pytest.mark.parametrize("case", cases(), ids=case_ids())
def test_only_the_limits_and_the_number_model_are_beyond_the_schema(
    case: Case,
) -> None:
    """Issue 12: a code is at most 256 characters (the schema says maxLength),
    details at most 64 deep; issue 29: at most 100,000 values, numbers a double
    holds (the schema cannot say these, so exactly their vectors are marked)."""
    schema = _load(case, SCHEMA_PATH)
    document = _load(case, VECTORS_PATH)
    spec = read_spec(case.taxonomy)
    integer = spec.integer  # docs "Wire codes": no length
    p = spec.payload
    # Issue 14 §2: the payload's members, under its envelope.
    body = schema["properties"][p["envelope"]] if p["envelope"] else schema
    problem = p["preset"] == "problem"  # its type is a URI: any string
    if not integer and not problem:
        assert body["properties"][p["code"]]["maxLength"] == 256
    if p["details"] == "*":
        assert "64" in body["description"]
    elif p["details"]:
        assert "64" in body["properties"][p["details"]]["description"]
    assert document["limits"]["max_code_length"] == 256
    assert document["limits"]["max_details_depth"] == 64
    marked = {
        v["id"]: v["schema_valid"] for v in document["vectors"] if "schema_valid" in v
    }
    beyond = set()
    for v in document["vectors"]:
        if v["kind"] == "from_payload" and not v["expect"]["ok"]:
            member, details = spec_oracle.details_member(
                spec, spec_oracle.vector_input(v)
            )
            if v["expect"]["field"] == member and _unsayable(details):
                beyond.add(v["id"])
    assert marked == dict.fromkeys(beyond, True)
    # Issue 29 §5: a vector for each limit and each number no double holds.
    wanted = {
        "details_depth_65",
        "details_nodes_100001",
        "details_number_1e400",
        "details_number_minus_1e400",
        "details_number_integer_past_double",
        "details_number_5000_digits_past_double",
        "details_number_deep_1e400",
    }
    if spec.payload["details"] is not None:
        assert {f"from_payload/{vid}" for vid in wanted} <= beyond
    by_id = {v["id"]: v for v in document["vectors"]}
    if spec.payload["details"] is not None:
        # The node limit as the README counts it: the object, the array, its items.
        member, details = spec_oracle.details_member(
            spec, spec_oracle.vector_input(by_id["from_payload/details_nodes_100001"])
        )
        assert spec_oracle.details_size(details)[1] == 100_001
        for vid, value in (
            ("details_number_largest_double", 1.7976931348623157e308),
            ("details_number_5000_digits", 0.5),
        ):
            vector = by_id[f"from_payload/{vid}"]
            assert len(vector["input_json"]) > 300 and vector["expect"]["ok"]
            _, details = spec_oracle.details_member(
                spec, spec_oracle.vector_input(vector)
            )
            assert spec_oracle.same_json(details, {"n": value} if isinstance(
                details, dict) else [value]), vid  # fmt: skip
    lengths = (
        ("code_length_256", True, None, 256),
        ("code_length_257", False, "code", 257),
    )
    for vid, ok, field, length in () if integer or spec.mapped_payload else lengths:
        vector = by_id[f"from_payload/{vid}"]
        assert len(vector["input"]["code"]) == length and vector["expect"]["ok"] is ok
        assert vector["expect"].get("field") == field
    for vid, ok, depth in (
        ("details_depth_64", True, 64),
        ("details_depth_65", False, 65),
    ):
        vector = by_id[f"from_payload/{vid}"]
        member, details = spec_oracle.details_member(spec, vector["input"])
        assert _depth(details) == depth and vector["expect"]["ok"] is ok
        if not ok:
            assert vector["expect"]["field"] == member


def _depth(value: object) -> int:
    """The issue's depth: the details object is 1, each object or array inside adds
    one.
    """
    if isinstance(value, dict):
        return 1 + max((_depth(v) for v in value.values()), default=0)
    if isinstance(value, list):
        return 1 + max((_depth(v) for v in value), default=0)
    return 0


@pytest.mark.parametrize("case", cases(), ids=case_ids())
def test_schema_lists_every_known_code_with_its_meaning(case: Case) -> None:
    schema = _load(case, SCHEMA_PATH)
    spec = read_spec(case.taxonomy)
    # Issue 14 §2: the code in the member the payload names, under its envelope;
    # a problem's type is docs_url with the code in it.
    p = spec.payload
    body = schema["properties"][p["envelope"]] if p["envelope"] else schema
    code_schema = body["properties"][p["code"]]
    problem = p["preset"] == "problem"

    def on_wire(entry: spec_oracle.SpecCode) -> object:
        return spec_oracle.type_uri(spec, entry.wire) if problem else entry.wire

    listed = {
        b["const"]: b["description"] for b in code_schema["anyOf"] if "const" in b
    }
    want = {on_wire(c): c.meaning for c in spec.codes.values()}
    # docs "Aliases": each alias a payload may carry (string codes), named so.
    for c in () if spec.integer else spec.codes.values():
        for alias in c.aliases:
            want[alias] = f"Another name of {c.wire}: {c.meaning}"
    assert listed == want
    # Issue 14 §4: each known code annotated with what it maps to, where it does.
    annotations = {
        b["const"]: {k: v for k, v in b.items() if k.startswith("x-")}
        for b in code_schema["anyOf"]
        if "const" in b
    }
    for code, entry in spec.codes.items():
        want = {
            "x-http-status": entry.http_status,
            "x-http-statuses": entry.http_statuses,  # issue 30 §2: several
            "x-grpc-status": entry.grpc_status,
            "x-throttling": entry.throttling or None,
            "x-doc-url": entry.doc_url,
            "x-retry-after": entry.retry_after,  # issue 30 §8: its hint's field
        }
        assert annotations[on_wire(entry)] == {k: v for k, v in want.items() if v}, code
    if problem:  # any string: a URI of no code of ours falls back
        assert code_schema["type"] == ["string", "null"]  # null: absent
        assert "pattern" not in code_schema
    elif spec.integer:  # docs "Wire codes": integer codes have no pattern
        assert code_schema["type"] == "integer"
    else:
        assert not spec_oracle.matches_like_the_spec(code_schema["pattern"], spec)
        assert code_schema["maxLength"] == spec_oracle.MAX_CODE_LENGTH
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"


# ------------------------------------------------- the YAML is the oracle


def _strip(want: dict[str, Any], *keys: str) -> dict[str, Any]:
    return {k: v for k, v in want.items() if k not in keys}


@pytest.mark.parametrize("case", cases(), ids=case_ids())
def test_python_answers_every_probe_as_the_yaml_says(case: Case) -> None:
    """Live codes round-trip, unknown and removed ones fall back, non-errors are
    wrapped.
    """
    spec = read_spec(case.taxonomy)
    mod = import_generated(case)
    probes = spec_oracle.probes(spec)
    assert len(probes) > 4 * len(spec.codes)
    observed = (
        (op, given, spec_oracle.observe_python(mod, op, given)) for op, given in probes
    )
    wrong = spec_oracle.disagreements(spec, observed)
    assert not wrong, "\n".join(wrong[:10])


@pytest.mark.parametrize("case", cases(), ids=case_ids())
def test_python_classes_carry_the_yaml_attributes(case: Case) -> None:
    spec = read_spec(case.taxonomy)
    mod = import_generated(case)
    # docs "Wire codes": members are named by the key, valued by the wire code.
    assert [(m.name, m.value) for m in mod.ErrorCode] == [
        (spec_oracle.readme_member(c.code), c.wire) for c in spec.codes.values()
    ]
    assert all(type(m.value) is (int if spec.integer else str) for m in mod.ErrorCode)
    assert [m.value for m in mod.Domain] == list(spec.domains)
    base = getattr(mod, spec.base)
    if spec.fallback is None:
        # Issue 30 §3: "no real code is borrowed": the base class has no code,
        # no domain and maps to nothing; its meaning is the title (README).
        fallback = spec.target(spec.other_wire("zz_unknown"))
        assert not hasattr(base, "code") and base.domain is None
        assert base.meaning == spec.title
    else:
        # README: a bare base class carries the fallback code.
        fallback = spec.codes[spec.fallback]
        assert base.code == spec.wire_of(spec.fallback)
    assert base.retryable is fallback.retryable
    _check_mapped(base, fallback.mapped, spec.base)
    for entry in spec.codes.values():
        cls = getattr(mod, entry.class_name)
        assert (cls.code, cls.domain, cls.retryable, cls.meaning) == (
            entry.wire,
            entry.domain,
            entry.retryable,
            entry.meaning,
        ), entry.code
        _check_mapped(cls, entry.mapped, entry.code)
        assert issubclass(cls, getattr(mod, spec.domains[entry.domain]))
        assert issubclass(cls, base)
        assert mod.lookup(entry.wire) is cls
        made = cls(**spec_oracle.sample_details(spec, entry.code))
        # Issue 14 §2: the code in the member the payload names.
        sent = made.to_payload()
        p = spec.payload
        sent = sent[p["envelope"]] if p["envelope"] else sent
        if p["preset"] == "problem":
            assert sent[p["code"]] == spec_oracle.type_uri(spec, entry.wire)
            assert sent["status"] == entry.http_status
            assert sent["title"] == entry.meaning
        else:
            assert sent[p["code"]] == entry.wire
    fallback_cls = getattr(mod, fallback.class_name)
    for wire in spec.removed_wires:
        assert wire not in {m.value for m in mod.ErrorCode}
        if not (spec.integer and isinstance(wire, str)):
            assert mod.lookup(wire) is fallback_cls
    # A key that is not its own wire code is no code on the wire.
    for entry in spec.codes.values():
        if entry.wire != entry.code and not spec.integer:
            if spec.known(entry.code) is None:
                assert mod.lookup(entry.code) is fallback_cls
    # docs "What a code maps to": a domain's own class (no <domain>_error code
    # owns it) carries the domain's statuses, and the root's throttling and link.
    owned = {entry.class_name for entry in spec.codes.values()}
    for key, name in spec.domains.items():
        if name in owned:
            continue
        http, grpc = spec.domain_statuses[key]
        own = {**fallback.mapped, "http_status": http, "grpc_status": grpc}
        _check_mapped(getattr(mod, name), own, name)


@pytest.mark.parametrize("case", cases(), ids=case_ids())
def test_vectors_state_what_the_yaml_says(case: Case) -> None:
    """Each vector's expectation is the YAML's: a bug that corrupts the vectors is
    caught.
    """
    spec = read_spec(case.taxonomy)
    document = _load(case, VECTORS_PATH)
    assert document["taxonomy"]["fallback"] == (
        None if spec.fallback is None else spec.wire_of(spec.fallback)
    )
    assert document["taxonomy"]["wrap"] == spec.wire_of(spec.wrap)
    assert document["taxonomy"]["base"] == spec.base
    if spec.integer:
        assert document["taxonomy"]["code_pattern"] is None
    else:
        assert not spec_oracle.matches_like_the_spec(
            document["taxonomy"]["code_pattern"], spec
        )
    checked = 0
    for vector in document["vectors"]:
        expect = vector["expect"]
        want = _strip(
            spec_oracle.expected(
                spec, vector["kind"], spec_oracle.vector_input(vector)
            ),
            "ancestors",
        )
        if vector["kind"] == "to_error":
            want = _strip(want, "ok")
        if not spec.declares_mapped:  # README: then the vectors say nothing of it
            assert not set(NOTHING_MAPPED) & set(expect), vector["id"]
        missing = set(want) - set(expect)
        assert not missing, (vector["id"], missing)
        assert spec_oracle.agrees(expect, want), (vector["id"], expect, want)
        checked += 1
    assert checked == len(document["vectors"]) > 40
