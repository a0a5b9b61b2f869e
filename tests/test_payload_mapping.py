"""Issue 14 §2: the payload the wire really carries, tested by hand.

Every case runs its conformance vectors in Python, TypeScript and Go (the
per-case suites); the suites that test today's payload by hand run on the cases
that keep it (``support.today_cases``).  Here the mapped decoders get the same
treatment: hypothesis payloads in each mapped case's shape, judged by the
oracle (``spec_oracle.read_mapped``, the YAML and the issue's words) and by the
JSON Schema; hostile values (subclasses, mappings whose methods raise, huge and
deep details).  The mappings of ``tests/mappings/`` (an envelope, renamed
members, details of each type, none, problems under an envelope) have no
golden files: each test that takes one generates it, and each runs its own
vectors in Python, TypeScript and Go.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from collections.abc import Callable
from typing import Any

import jsonschema
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from taxogen.pipeline import build_plan
from tests import spec_oracle as oracle
from tests.support import (
    REPO,
    Case,
    cases,
    examples,
    import_generated,
    MAPPINGS_DIR,
    mappings,
    require_typescript_tools,
)
from tests.targets.contract.test_conformance import run_vector
from tests.targets.go.test_go import go_env  # noqa: F401  (the fixture, used by name)
from tests.targets.go.test_go import (
    test_the_go_module_is_clean_vetted_and_passes_every_vector as _go_vectors,
)
from tests.targets.typescript.test_ts_conformance import (
    test_typescript_passes_every_vector as _ts_vectors,
)

MAPPED = [case for case in cases() if oracle.read_spec(case.taxonomy).mapped_payload]
#: Issue 14 §2's done-when: one case per preset, and an explicit field mapping.
assert {oracle.read_spec(c.taxonomy).payload["preset"] for c in MAPPED} >= {
    "json-rpc",
    "problem",
    "harmovela",  # grpc: today's preset, every field mapped
}


def _params() -> list[Any]:
    """The golden mapped cases, and the mappings of ``tests/mappings/`` (generated
    by the test that takes one: see :func:`realise`)."""
    return [pytest.param(case, id=case.name) for case in MAPPED] + [
        pytest.param(path, id=f"mappings/{path.stem}") for path in mappings()
    ]


Realise = Callable[[Case | Path], Case]


@pytest.fixture(scope="session")
def realise(tmp_path_factory: pytest.TempPathFactory) -> Realise:
    """A function: a golden case → itself; a mapping's path → that mapping
    generated once in this session, as a case.

    Once a session, not once a module: mutmut forks each mutant from the process
    that ran the clean tests, and runs a session of its own in it, so a module's
    cache would hand every mutant the unmutated packages."""
    made: dict[Path, Case] = {}

    def realised(case: Case | Path) -> Case:
        if isinstance(case, Case):
            return case
        if case not in made:
            out = tmp_path_factory.mktemp(f"mapping-{case.stem}")
            for name, data in build_plan(case).items():
                target = out / name
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_bytes(data)
            made[case] = Case(f"mappings-{case.stem}", case, out)
        return made[case]

    return realised


TEXT = st.text(max_size=12)
JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**60), 2**60) | st.floats() | TEXT,
    lambda children: st.lists(children, max_size=4)
    | st.dictionaries(TEXT, children, max_size=4),
    max_leaves=15,
)


@st.composite
def mapped_payloads(draw: st.DrawFn, spec: oracle.Spec) -> object:
    """A payload of the case's shape: valid, or with one member broken."""
    known = [c.wire for c in spec.codes.values()]
    code = draw(
        st.sampled_from(known)
        | (
            st.integers(-50, 50)
            if spec.integer
            else st.from_regex(spec.pattern, fullmatch=True)
        )
        | JSON
    )
    canonical: dict[str, Any] = {
        "code": code,
        "message": draw(TEXT | JSON),
        "retryable": draw(st.booleans() | JSON),
    }
    if draw(st.booleans()):
        canonical["details"] = draw(JSON)
    payload = oracle.to_wire(spec, canonical)
    body = (
        payload.get(spec.payload["envelope"]) if spec.payload["envelope"] else payload
    )
    if isinstance(body, dict) and draw(st.booleans()):
        body[draw(TEXT)] = draw(JSON)  # an extra member: ignored, or details
    if (
        isinstance(body, dict)
        and spec.payload["preset"] == "problem"
        and draw(st.booleans())
    ):
        body[spec.payload["code"]] = draw(
            st.sampled_from(["about:blank", "https://example.org/p", ""]) | JSON
        )
    return payload


def _check(mod: Any, spec: oracle.Spec, schema: Any, payload: object) -> None:
    """Python's from_payload, the oracle and the schema agree on ``payload``."""
    problem = oracle.payload_problem(spec, payload)
    try:
        error = mod.from_payload(payload)
    except mod.InvalidPayloadError as exc:
        assert exc.field == problem, (exc.field, problem, payload)
        str(exc)
    else:
        assert problem is None, (problem, payload)
        want = oracle.mapped_accepted(spec, payload)
        assert type(error).__name__ == want["class"]
        assert error.retryable is want["retryable"]
        assert oracle.same_json(error.wire_code, want["wire_code"])
        sent = error.to_payload()
        assert oracle.same_json(sent, want["payload"]), (sent, want["payload"])
        text = json.dumps(sent, allow_nan=False)  # a strict encoder writes it
        assert oracle.same_json(mod.from_payload(json.loads(text)).to_payload(), sent)
    if _is_json(payload):
        field, details = oracle.details_member(spec, payload)
        beyond = problem == field and oracle.details_size(details)[0] > 64
        assert schema.is_valid(payload) is (problem is None or beyond), payload


def _is_json(value: object) -> bool:
    try:
        json.dumps(value, allow_nan=False)
    except (ValueError, TypeError):
        return False
    return True


@pytest.mark.parametrize("case", _params())
@settings(
    max_examples=examples(300),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(data=st.data())
def test_python_the_schema_and_the_oracle_agree_on_mapped_payloads(
    case: Case | Path, data: st.DataObject, realise: Realise
) -> None:
    case = realise(case)
    spec = oracle.read_spec(case.taxonomy)
    mod = import_generated(case)
    schema = jsonschema.Draft202012Validator(
        json.loads((case.expected / "schema/error-payload.schema.json").read_text())
    )
    _check(mod, spec, schema, data.draw(mapped_payloads(spec) | JSON))


class _Text(str):
    """A str subclass whose own methods lie: read as the string it holds."""

    def __eq__(self, other: object) -> bool:
        return False

    def __hash__(self) -> int:
        return 1

    def __str__(self) -> str:
        return "lie"


class _Raising(dict[str, Any]):
    pass


class _Getter:
    """A mapping that is no dict whose get raises."""

    def __init__(self, boom: str) -> None:
        self.boom = boom

    def get(self, key: str, default: Any = None) -> Any:
        raise RuntimeError(self.boom)


def _good(spec: oracle.Spec) -> dict[str, Any]:
    entry = spec.first
    canonical: dict[str, Any] = {
        "code": entry.wire,
        "message": "m",
        "retryable": entry.retryable,
        "details": oracle.sample_details(spec, entry.code) or None,
    }
    return oracle.to_wire(spec, canonical)


@pytest.mark.parametrize("case", _params())
def test_hostile_values_never_break_a_mapped_decoder(
    case: Case | Path, realise: Realise
) -> None:
    case = realise(case)
    spec = oracle.read_spec(case.taxonomy)
    mod = import_generated(case)
    p = spec.payload
    good = _good(spec)
    body = good[p["envelope"]] if p["envelope"] else good
    # A str subclass is read as the string it holds, whatever its methods say.
    texted = dict(body)
    texted[p["message"]] = _Text("held")
    wrap = (lambda b: {p["envelope"]: b}) if p["envelope"] else (lambda b: b)
    assert mod.from_payload(wrap(texted)).message == "held"
    # A dict subclass is read as stored; a mapping whose get raises is invalid.
    assert type(mod.from_payload(_Raising(good))) is type(mod.from_payload(good))
    with pytest.raises(mod.InvalidPayloadError):
        mod.from_payload(_Getter("boom"))
    # Details past the limits: refused, in bounded time, naming the member.
    deep: Any = "x"
    for _ in range(100_000):
        deep = [deep]
    huge = list(range(200_000))
    for value in (deep, huge, {"d": deep}):
        payload = dict(body)
        if p["details"] == "*":
            payload["zz"] = value
        elif p["details"]:
            payload[p["details"]] = value
        else:
            continue
        field = oracle.payload_problem(spec, wrap(payload))
        assert field is not None
        with pytest.raises(mod.InvalidPayloadError) as caught:
            mod.from_payload(wrap(payload))
        assert caught.value.field == field
    # Nothing but InvalidPayloadError, whatever the value.
    for value in (None, 1, "x", [good], object(), float("nan")):
        with pytest.raises(mod.InvalidPayloadError):
            mod.from_payload(value)


def _problem_params() -> list[Any]:
    return [
        param
        for param in _params()
        if oracle.read_spec(
            param.values[0] if isinstance(param.values[0], Path)
            else param.values[0].taxonomy
        ).payload["preset"] == "problem"
    ]  # fmt: skip


@pytest.mark.parametrize("case", _problem_params())
def test_a_hostile_key_cannot_give_a_problem_another_code_s_type(
    case: Case | Path, realise: Realise
) -> None:
    """Issue 29: a str subclass as a details key, whose own ``__eq__``,
    ``__hash__`` and ``__str__`` say it is ``type`` (or ``detail``), is read as
    the text it holds: ``to_payload`` writes the error's own type and message,
    and the member under its real name."""
    case = realise(case)
    spec = oracle.read_spec(case.taxonomy)
    mod = import_generated(case)
    p = spec.payload
    entry = spec.first
    other = next(c for c in spec.codes.values() if c.code != entry.code)

    def liar(text: str, claims: str) -> str:
        class Liar(str):
            def __eq__(self, value: object) -> bool:
                return True

            def __hash__(self) -> int:
                return hash(claims)

            def __str__(self) -> str:
                return claims

        return Liar(text)

    for claims in (p["code"], p["message"]):
        error = mod.lookup(entry.wire)(**oracle.sample_details(spec, entry.code))
        error.details = {
            **error.details,
            liar("zz_note", claims): oracle.type_uri(spec, other.wire),
        }
        sent = error.to_payload()
        body = sent[p["envelope"]] if p["envelope"] else sent
        assert body[p["code"]] == oracle.type_uri(spec, entry.wire), body
        assert body[p["message"]] == error.message, body
        assert body["zz_note"] == oracle.type_uri(spec, other.wire), body
        assert all(type(key) is str for key in body), body


@pytest.mark.parametrize("path", mappings(), ids=lambda p: p.stem)
def test_a_mapping_s_package_passes_its_own_vectors(
    path: Path, realise: Realise
) -> None:
    """Each mapping of ``tests/mappings/``, generated here: its Python package
    passes its own vectors, which the oracle agrees with, and its schema takes
    every payload the vectors accept."""
    case = realise(path)
    spec = oracle.read_spec(path)
    document = json.loads((case.expected / "conformance/vectors.json").read_text())
    mod = import_generated(case)
    schema = jsonschema.Draft202012Validator(
        json.loads((case.expected / "schema/error-payload.schema.json").read_text())
    )
    for vector in document["vectors"]:
        run_vector(mod, vector)
        if vector["kind"] == "from_payload":
            given = oracle.vector_input(vector)
            want = oracle.expected(spec, "from_payload", given)
            want.pop("ancestors", None)  # a class's ancestors: not in the vectors
            assert oracle.agrees(vector["expect"], want), vector["id"]
            if want["ok"]:
                assert schema.is_valid(given), vector["id"]
                assert schema.is_valid(vector["expect"]["payload"]), vector["id"]


def test_an_envelope_and_renamed_members_write_and_refuse_by_their_names(
    realise: Realise,
) -> None:
    """tests/mappings/enveloped.yaml: every member renamed, under an envelope."""
    case = realise(MAPPINGS_DIR / "enveloped.yaml")
    mod = import_generated(case)
    schema = jsonschema.Draft202012Validator(
        json.loads((case.expected / "schema/error-payload.schema.json").read_text())
    )
    sent = mod.BadParamError(param="p", retryable=True).to_payload()
    assert sent == {
        "error": {
            "error_code": "bad_param",
            "msg": "A parameter is wrong",
            "may_retry": True,
            "context": {"param": "p"},
        }
    }
    assert schema.is_valid(sent)
    assert not schema.is_valid(sent["error"])
    with pytest.raises(mod.InvalidPayloadError) as caught:
        mod.from_payload({"error": {**sent["error"], "context": {}}})
    assert caught.value.field == "details.param"
    with pytest.raises(mod.InvalidPayloadError) as caught:
        mod.from_payload({"error": {**sent["error"], "may_retry": "yes"}})
    assert caught.value.field == "error.may_retry"


NODE_MAPPED = (
    REPO / "tests" / "targets" / "typescript" / "ts" / "mapped_hostile.test.mjs"
)


@pytest.mark.parametrize("case", _params())
def test_typescript_mapped_decoder_no_payload_can_break(
    case: Case | Path, compiled_ts: Any, realise: Realise
) -> None:
    node = require_typescript_tools()
    case = realise(case)
    spec = oracle.read_spec(case.taxonomy)
    p = spec.payload
    members = [m for m in (p["code"], p["message"], p["retryable"]) if m]
    if p["details"] not in (None, "*"):
        members.append(p["details"])
    env = {
        **os.environ,
        "TAXOGEN_MODULE": str(compiled_ts(case)),
        "TAXOGEN_GOOD": json.dumps(_good(spec)),
        "TAXOGEN_ENVELOPE": p["envelope"] or "",
        "TAXOGEN_MEMBERS": json.dumps(members),
        "NODE_OPTIONS": "",
    }
    run = subprocess.run(
        [node, "--max-old-space-size=256", "--test", "--test-reporter=spec",
         str(NODE_MAPPED)],
        capture_output=True, text=True, env=env, check=False, timeout=300,
    )  # fmt: skip
    assert run.returncode == 0, run.stdout[-6000:] + run.stderr[-3000:]
    assert re.search(r"\bfail 0\b", run.stdout) and not re.search(
        r"\bpass 0\b", run.stdout
    ), run.stdout[-2000:]


@pytest.mark.parametrize("path", mappings(), ids=lambda p: p.stem)
def test_an_envelope_runs_its_vectors_in_typescript_and_go(
    path: Path,
    tmp_path: Path,
    compiled_ts: Any,
    go_env: dict[str, str],
    realise: Realise,
) -> None:
    """Each mapping of ``tests/mappings/`` through the TypeScript and Go runners
    of every golden case (their conformance runners, on its own vectors)."""
    case = realise(path)
    _ts_vectors(case, compiled_ts)
    go_folder = tmp_path / "go"
    go_folder.mkdir()
    _go_vectors(case, go_folder, go_env)
