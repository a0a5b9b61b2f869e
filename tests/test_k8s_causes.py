"""Issue 30 §7: real Kubernetes Status bodies fit the catalogue's typed details.

``tests/catalogues/kubernetes/bodies/`` holds live API servers' answers (see
its SOURCES.md), two with ``details.causes``, an array of StatusCause objects.
The catalogue declares ``causes`` as ``items: {type: object, fields: {reason,
message, field}}``, and ``tests/cases/kubernetes`` is that catalogue: its
generated payload schema accepts every body as it is, and the oracle
(``tests/spec_oracle.py``, the YAML's own words) finds every declared member
fitting; a cause whose member misfits is refused by both, naming its path.
(The case's copies of the bodies round-trip through every package in
tests/test_real_bodies.py, ``metadata: {}`` kept by ``outside: keep``.)
"""

from __future__ import annotations

import json
from typing import Any

import jsonschema
import pytest

from tests import spec_oracle as oracle
from tests.support import REPO

CATALOGUE = REPO / "tests" / "catalogues" / "kubernetes"
CASE = REPO / "tests" / "cases" / "kubernetes"
INDEX = json.loads((CATALOGUE / "bodies" / "index.json").read_text(encoding="utf-8"))
SPEC = oracle.read_spec(CASE / "taxonomy.yaml")
SCHEMA = json.loads(
    (CASE / "expected" / "schema" / "error-payload.schema.json").read_text("utf-8")
)


def _body(entry: dict[str, Any]) -> Any:
    return json.loads((CATALOGUE / "bodies" / entry["file"]).read_text("utf-8"))


def test_the_case_is_the_catalogue() -> None:
    assert (CASE / "taxonomy.yaml").read_bytes() == (
        CATALOGUE / "taxonomy.yaml"
    ).read_bytes()


def test_some_bodies_carry_causes() -> None:
    causes = [_body(e)["details"].get("causes") for e in INDEX]
    assert sum(1 for c in causes if c) >= 2
    assert {item["reason"] for c in causes if c for item in c} >= {
        "FieldValueInvalid",
        "FieldValueRequired",
    }


@pytest.mark.parametrize("entry", INDEX, ids=lambda e: e["file"])
def test_every_body_fits(entry: dict[str, Any]) -> None:
    body = _body(entry)
    assert body["reason"] == entry["code"]
    assert oracle.fields_problem(SPEC, body["reason"], body["details"]) is None
    jsonschema.validate(body, SCHEMA, cls=jsonschema.Draft202012Validator)


@pytest.mark.parametrize("entry", [e for e in INDEX if "causes" in _body(e)["details"]])
def test_a_misfitting_cause_is_refused_by_its_path(entry: dict[str, Any]) -> None:
    body = _body(entry)
    last = len(body["details"]["causes"]) - 1
    body["details"]["causes"][last]["field"] = 7  # StatusCause.Field is a string
    where = oracle.fields_problem(SPEC, body["reason"], body["details"])
    assert where == f"details.causes[{last}].field"
    assert not jsonschema.Draft202012Validator(SCHEMA).is_valid(body)
