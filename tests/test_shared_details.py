"""Issue 30 §7: details shared by every code, and a domain's inherited below it.

"A top-level `details:` shared by every code; a domain's details inherited by
its child domains (`parent:`)".  The oracle is the issue's words and
tests/spec_oracle.py's reading of the YAML (the top level's fields first, then
each ancestor's, outermost first, then the domain's, then the code's own): a
code's fields, in that order, with who declares each; a parent written after its
child; a field declared again lower with the same shape (taken, the lower
declaration winning) or another (refused, tests/bad/details_*_redeclared); a
cycle of parents inheriting nothing, reported once by the hierarchy check.
What each generated package does with the fields is held by the golden case
tests/cases/s3_shared (its vectors, judged by the oracle, and real bodies).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from taxogen.diagnostics import TaxonomyError
from taxogen.model import Taxonomy
from taxogen.source import load_text
from taxogen.validate import validate
from tests import spec_oracle as oracle
from tests.support import REPO

HEAD = """\
format: 1
name: tiny
title: Tiny
version: 0.0.1
base: TinyError
fallback: internal
wrap: internal
"""

SHARED = HEAD + """\
details:
  request_id: {type: string, required: false, description: Every code's}
domains:
  leaf:
    title: Leaf
    parent: middle
    details:
      key: string
    codes:
      gone:
        retryable: false
        meaning: Gone
        details:
          version: integer
          region: {type: string, required: false, description: Said again}
  middle:
    title: Middle
    parent: root
    details:
      bucket: {type: string, required: false}
    codes:
      missing: {retryable: false, meaning: Missing}
  root:
    title: Root
    details:
      region: {type: string, required: true}
    codes:
      broken: {retryable: true, meaning: Broken}
  misc:
    title: Misc
    codes:
      internal: {retryable: true, meaning: Internal}
"""


def _model(text: str) -> Taxonomy:
    root, problems = load_text(text, "t.yaml")
    return validate(root, "t.yaml", "t.yaml", problems)


def _errors(text: str) -> list[str]:
    root, problems = load_text(text, "t.yaml")
    with pytest.raises(TaxonomyError) as caught:
        validate(root, "t.yaml", "t.yaml", problems)
    return [d.format() for d in caught.value.diagnostics]


def test_a_code_carries_the_top_levels_its_ancestors_and_its_domains_fields(
    tmp_path: Path,
) -> None:
    model = _model(SHARED.replace("required: true", "required: false"))
    owners = {
        code.code: [(f.name, "top" if f.top else f.domain) for f in code.fields]
        for code in model.codes
    }
    assert owners == {
        # The parents come after their child in the file: inherited all the same.
        "gone": [
            ("request_id", "top"),
            ("region", None),  # said again by the code, in root's place
            ("bucket", "middle"),
            ("key", "leaf"),
            ("version", None),
        ],
        "missing": [("request_id", "top"), ("region", "root"), ("bucket", "middle")],
        "broken": [("request_id", "top"), ("region", "root")],
        "internal": [("request_id", "top")],
    }
    gone = model.code("gone")
    assert gone.field("region") is not None
    assert gone.field("region").description == "Said again"  # type: ignore[union-attr]
    # Each domain lists only what it declares; the top level its own.
    assert [f.name for f in model.domain("leaf").fields] == ["key"]
    assert [f.name for f in model.fields] == ["request_id"]
    # The oracle reads the YAML to the same fields, in the same order.
    path = tmp_path / "taxonomy.yaml"
    path.write_text(SHARED.replace("required: true", "required: false"))
    spec = oracle.read_spec(path)
    for code in model.codes:
        assert [name for name, _ in spec.codes[code.code].fields] == [
            f.name for f in code.fields
        ]


def test_a_required_field_said_again_lower_may_become_optional() -> None:
    model = _model(SHARED)
    assert model.code("broken").field("region").required  # type: ignore[union-attr]
    region = model.code("gone").field("region")
    assert region is not None and not region.required


def test_without_top_level_details_no_field_is_the_top_levels() -> None:
    model = _model(HEAD + SHARED[SHARED.index("domains:") :])
    assert model.fields == ()
    assert all(not f.top for code in model.codes for f in code.fields)
    assert [f.name for f in model.code("internal").fields] == []


def test_a_cycle_of_parents_inherits_nothing_and_is_reported_once() -> None:
    cyclic = SHARED.replace("parent: root", "parent: leaf")
    errors = _errors(cyclic)
    assert errors and all("parent" in e and "cycle" in e for e in errors), errors


def test_the_model_document_gives_the_top_levels_fields() -> None:
    model = json.loads((REPO / "tests/models/s3_shared.json").read_text())
    assert [f["name"] for f in model["fields"]] == ["Resource", "RequestId", "HostId"]
    assert all(f["top"] is True and f["domain"] is None for f in model["fields"])
    policy = next(c for c in model["codes"] if c["id"] == "NoSuchBucketPolicy")
    # The child domain's code carries the top level's, then its parent's.
    assert [(f["name"], f["domain"]) for f in policy["fields"]] == [
        ("Resource", None),
        ("RequestId", None),
        ("HostId", None),
        ("BucketName", "bucket"),
    ]
    # A taxonomy without top-level details keeps its document as it was.
    plain = json.loads((REPO / "tests/models/typed_details.json").read_text())
    assert "fields" not in plain
    assert all("top" not in f for c in plain["codes"] for f in c["fields"])
