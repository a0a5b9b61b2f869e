"""Issue 30 §7 in Go on real bodies: the Kubernetes catalogue's Status bodies
with ``details.causes`` (tests/catalogues/kubernetes/bodies/, quoted from live
API servers) go through the Go package of tests/cases/kubernetes (the
catalogue's taxonomy): ``k8s_causes_test.go`` receives each, reads its causes
as the generated structs (``Causes[i].Reason``), writes it back as it came
(``metadata`` included: ``outside: keep``), and finds a cause whose ``field``
is no string refused at ``details.causes[i].field``.  The oracle is the
bodies themselves.  And the nested structs of the cases that nest are named
and tagged as docs "Go", Nested objects says, read from the YAML here, not
from the generator.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
import yaml

from taxogen.pipeline import build_plan
from tests.spec_oracle import read_spec, readme_go_name
from tests.support import REPO, cases
from tests.targets.go.test_go import _add_test, _go, _write
from tests.targets.go.test_go import go_env  # noqa: F401  (the fixture, by name)

CASE = next(case for case in cases() if case.name == "kubernetes")
BODIES = REPO / "tests" / "catalogues" / "kubernetes" / "bodies"
CAUSES_TEST = REPO / "tests" / "targets" / "go" / "k8s_causes_test.go"


def _bodies() -> list[object]:
    index = json.loads((BODIES / "index.json").read_text(encoding="utf-8"))
    found = [json.loads((BODIES / e["file"]).read_text("utf-8")) for e in index]
    return [body for body in found if body["details"].get("causes")]


def test_real_causes_round_trip_through_the_go_structs(
    tmp_path: Path, go_env: dict[str, str]  # noqa: F811
) -> None:
    bodies = _bodies()
    assert len(bodies) >= 2
    module = _write(CASE, tmp_path)
    _add_test(module, CAUSES_TEST, "causes")
    env = {**go_env, "TAXOGEN_BODIES": json.dumps(bodies)}
    done = _go(["go", "test", "-count=1", "-v", "./causes"], module, env)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.count("--- PASS") == 2, done.stdout


def _shape(raw: Any) -> dict[str, Any]:
    return {"type": raw} if isinstance(raw, str) else dict(raw)


def _declared(
    raw: dict[str, Any], domain: str, code: str, class_name: str, field: str
) -> str:
    """docs "Go", Nested objects: the stem of a field's structs, by where the
    field is declared: the code (its details struct), a domain (the innermost
    of the code's domain and its ancestors that declares it) or the top level."""
    domains = raw["domains"]
    entry = domains[domain]["codes"][code]
    if field in (entry.get("details") or {}):
        go_class = readme_go_name(class_name)
        return (go_class.removesuffix("Error") or go_class) + "Details"
    above: str | None = domain
    while above is not None:
        if field in (domains[above].get("details") or {}):
            return readme_go_name(above, key=True) + "Details"
        above = domains[above].get("parent")
    assert field in raw["details"]
    return "Details"


def _check_struct(text: str, name: str, fields: dict[str, Any]) -> int:
    """That ``type name struct`` declares each member with its tag and type
    (a nested object its struct, by docs "Go"); how many structs it checked."""
    body = text.split(f"\ntype {name} struct {{\n")[1].split("\n}\n")[0]
    checked = 1
    for member, raw in fields.items():
        shape = _shape(raw)
        required = shape.get("required", True)
        tag = f'`json:"{member}{"" if required else ",omitempty"}"`'
        go = readme_go_name(member, key=True)
        items = _shape(shape.get("items", "string"))
        if shape["type"] == "object" and "fields" in shape:
            kind = re.escape(("" if required else "*") + name + go)
            checked += _check_struct(text, name + go, shape["fields"])
        elif shape["type"] == "array" and "fields" in items:
            kind = re.escape(f"[]{name}{go}Item")
            checked += _check_struct(text, f"{name}{go}Item", items["fields"])
        else:
            kind = r"\S+"
        assert re.search(rf"^\t{go} {kind} {re.escape(tag)}$", body, re.M), (
            name,
            member,
        )
    return checked


@pytest.mark.parametrize("name", ["nested_details", "kubernetes"])
def test_the_nested_structs_follow_the_yaml(name: str) -> None:
    """docs "Go", Nested objects: each nested typed object is a struct named by
    where it is declared and the members on the way, its members tagged with
    their wire names; a shared field's struct is declared once."""
    case = next(case for case in cases() if case.name == name)
    raw = yaml.safe_load(case.taxonomy.read_text(encoding="utf-8"))
    text = build_plan(case.taxonomy, ["go"])["go/errors.go"].decode()
    seen = set()
    spec = read_spec(case.taxonomy)
    for domain, entry in raw["domains"].items():
        for code in entry["codes"]:
            known = spec.codes[code]
            for field, shape in known.fields:
                stem = _declared(raw, domain, code, known.class_name, field)
                stem += readme_go_name(field, key=True)
                items = _shape(shape.get("items", "string"))
                if shape["type"] == "object" and "fields" in shape:
                    struct, members = stem, shape["fields"]
                elif shape["type"] == "array" and "fields" in items:
                    struct, members = stem + "Item", items["fields"]
                else:
                    continue
                if struct not in seen:
                    seen.add(struct)
                    assert text.count(f"\ntype {struct} struct {{\n") == 1, struct
                    _check_struct(text, struct, members)
    assert seen
