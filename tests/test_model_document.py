"""``taxogen model``: the validated, named model as JSON, and its JSON Schema.

Issue 15: the document is the interface plugins and user templates read, so it
is held three ways: byte for byte against its golden (``tests/models/``, written
by ``make golden``), against its own schema made strict (no key the schema does
not name, none it requires missing), and against what each case's YAML says,
read by :mod:`tests.spec_oracle` without the generator.
"""

from __future__ import annotations

import json
import subprocess
import sys
import typing
from typing import Any

import jsonschema
import pytest

from taxogen.document import GrpcStatus
from taxogen.model import GRPC_STATUSES
from tests import spec_oracle as oracle
from tests.support import REPO, Case, case_ids, cases

MODELS = REPO / "tests" / "models"


def _taxogen(*args: str) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "taxogen", *args],
        cwd=REPO,
        capture_output=True,
        check=False,
    )


@pytest.fixture(scope="module")
def model_schema() -> dict[str, Any]:
    done = _taxogen("model", "--schema")
    assert done.returncode == 0, done.stderr.decode()
    schema: dict[str, Any] = json.loads(done.stdout)
    jsonschema.Draft202012Validator.check_schema(schema)
    return schema


def _strict(schema: Any) -> Any:
    """``schema`` with every object closed: a key it does not name is an error."""
    if isinstance(schema, list):
        return [_strict(item) for item in schema]
    if not isinstance(schema, dict):
        return schema
    out = {key: _strict(value) for key, value in schema.items()}
    if "properties" in schema:
        out["additionalProperties"] = False
    return out


@pytest.mark.parametrize("case", cases(), ids=case_ids())
def test_the_model_command_prints_the_golden_document(case: Case) -> None:
    done = _taxogen("model", "--taxonomy", str(case.taxonomy))
    assert done.returncode == 0, done.stderr.decode()
    assert done.stderr == b""
    assert done.stdout == (MODELS / f"{case.name}.json").read_bytes()


def test_every_case_has_a_golden_model_and_no_other() -> None:
    assert sorted(p.stem for p in MODELS.glob("*.json")) == sorted(case_ids())


@pytest.mark.parametrize("case", cases(), ids=case_ids())
def test_every_model_validates_against_its_schema_made_strict(
    case: Case, model_schema: dict[str, Any]
) -> None:
    model = json.loads((MODELS / f"{case.name}.json").read_bytes())
    jsonschema.validate(model, model_schema)  # as published: open to additions
    jsonschema.validate(model, _strict(model_schema))


def test_the_schema_refuses_a_wrong_document(model_schema: dict[str, Any]) -> None:
    """The schema says something: each damage below is refused."""
    model = json.loads((MODELS / "shipped.json").read_bytes())
    damages = [
        lambda m: m.pop("codes"),
        lambda m: m.update(model_format=2),
        lambda m: m["codes"][0].update(retryable="no"),
        lambda m: m["codes"][0]["names"]["python"].pop("class"),
        lambda m: m["domains"][0].update(fields=[{"name": "x"}]),
        lambda m: m["codes"][0].update(message={"text": "t", "pieces": [{}]}),
        lambda m: m.update(code_case="camel"),
    ]
    for damage in damages:
        broken = json.loads(json.dumps(model))
        damage(broken)
        with pytest.raises(jsonschema.ValidationError):
            jsonschema.validate(broken, model_schema)


@pytest.mark.parametrize("case", cases(), ids=case_ids())
def test_the_model_says_what_the_yaml_says(case: Case) -> None:
    spec = oracle.read_spec(case.taxonomy)
    model = json.loads((MODELS / f"{case.name}.json").read_bytes())
    assert model["model_format"] == 1
    assert (model["name"], model["base"]) == (spec.name, spec.base)
    assert (model["fallback"], model["wrap"]) == (spec.fallback, spec.wrap)
    assert model["code_case"] == spec.code_case
    assert model["names"]["python"]["package"] == spec.python_package
    # Live codes in file order, each as its YAML says, the wire code its key.
    assert [c["id"] for c in model["codes"]] == list(spec.codes)
    for code in model["codes"]:
        entry = spec.codes[code["id"]]
        assert code["wire"] == entry.wire
        assert (code["domain"], code["retryable"]) == (entry.domain, entry.retryable)
        assert code["meaning"] == entry.meaning
        assert (code["message"] or {}).get("text") == entry.message
        assert [(f["name"], f["required"], f["type"]) for f in code["fields"]] == [
            (name, field.get("required", True), field["type"])
            for name, field in entry.fields
        ]
        # docs "Aliases": listed where the code has any, absent otherwise.
        assert code.get("aliases", []) == list(entry.aliases)
        for language in ("python", "typescript"):
            assert code["names"][language]["class"] == entry.class_name
            assert code["names"][language]["member"] == oracle.readme_member(entry.code)
        # Issue 14 §4: what it maps to, inheritance applied (README).
        assert {key: code[key] for key in entry.mapped} == entry.mapped
        # Issue 30 §2: every status it may take, the default first.
        every = entry.http_statuses or [entry.http_status]
        assert code["http_statuses"] == [s for s in every if s is not None]
    # Domains in file order with their base classes; tombstones listed apart.
    assert [d["id"] for d in model["domains"]] == list(spec.domains)
    for domain in model["domains"]:
        assert domain["names"]["python"]["class"] == spec.domains[domain["id"]]
        statuses = (domain["http_status"], domain["grpc_status"])
        assert statuses == spec.domain_statuses[domain["id"]]
        assert domain["codes"] == [
            c for c, e in spec.codes.items() if e.domain == domain["id"]
        ]
    assert [r["id"] for r in model["removed"]] == list(spec.removed)
    assert {e["type"]: e["location"] for e in model["events"]} == spec.events
    # Issue 14 §2: the payload mapping, every part spelt out.
    assert model["payload"] == spec.payload


def test_a_template_s_pieces_rebuild_it() -> None:
    """README "Message templates": the pieces are the text with ``{{``/``}}``
    unescaped and each placeholder cut out, in order."""
    templated = 0
    for path in MODELS.glob("*.json"):
        for code in json.loads(path.read_bytes())["codes"]:
            if code["message"] is None:
                continue
            templated += 1
            rebuilt = "".join(
                piece["text"].replace("{", "{{").replace("}", "}}")
                + ("{" + piece["field"] + "}" if piece["field"] else "")
                for piece in code["message"]["pieces"]
            )
            assert rebuilt == code["message"]["text"]
    assert templated > 0


def test_a_bad_taxonomy_prints_its_errors_and_no_model() -> None:
    bad = REPO / "tests" / "bad" / "flow_mapping_comma.yaml"
    done = _taxogen("model", "--taxonomy", str(bad.relative_to(REPO)))
    assert done.returncode == 2
    assert done.stdout == b""
    first = done.stderr.decode().splitlines()[0]
    assert first.startswith("tests/bad/flow_mapping_comma.yaml:15:53: error: ")


def test_the_grpc_statuses_of_the_schema_are_the_models() -> None:
    """The document's schema lists the 16 names validation accepts, in order."""
    assert typing.get_args(GrpcStatus) == GRPC_STATUSES
