"""The docs page's class diagram (issue 14 §5, docs "Hierarchies").

Where some domain of the YAML has a ``parent:``, the page opens with a Mermaid
``classDiagram`` of every class from the base down: each domain's class under
its parent domain's (else the base), each code's class under its domain's.  Its
edges are checked against the YAML, read by the oracle, never against naming.
``docs: {diagram: false}`` leaves it out, and past Mermaid's default of 500 edges
it draws the domains only.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from taxogen.pipeline import build_plan
from tests.spec_oracle import Spec, read_spec
from tests.support import REPO, Case, case_ids, cases

_BLOCK = re.compile(r"^```mermaid\n(.*?)^```\n", re.M | re.S)
_EDGE = re.compile(r"  ([A-Za-z0-9_]+) <\|-- ([A-Za-z0-9_]+)")


def _diagram(page: str) -> list[str] | None:
    """The diagram's lines after ``classDiagram``, or None when there is none."""
    found = _BLOCK.findall(page)
    if not found:
        return None
    (block,) = found
    first, *lines = block.splitlines()
    assert first == "classDiagram"
    return lines


def _edges(spec: Spec, *, codes: bool = True) -> set[tuple[str, str]]:
    """docs "Hierarchies": (parent class, class) for every class below the base."""
    edges = set()
    for key, name in spec.domains.items():
        parent = spec.parents.get(key)
        edges.add((spec.base if parent is None else spec.domains[parent], name))
    if codes:
        for code in spec.codes.values():
            if code.class_name != spec.domains[code.domain]:
                edges.add((spec.domains[code.domain], code.class_name))
    return edges


@pytest.mark.parametrize("case", cases(), ids=case_ids())
def test_the_diagram_is_drawn_where_domains_nest_and_only_then(case: Case) -> None:
    spec = read_spec(case.taxonomy)
    # The page as the generator makes it now (the golden one is held to it byte for
    # byte elsewhere), so the rule is judged on the code, not on a file.
    page = build_plan(case.taxonomy, ["docs"])["docs/errors.md"].decode("utf-8")
    lines = _diagram(page)
    if not any(spec.parents.values()):
        assert lines is None
        return
    assert lines is not None
    edges = [_EDGE.fullmatch(line) for line in lines]
    assert all(edges), lines
    drawn = [(m[1], m[2]) for m in edges if m]
    assert len(drawn) == len(set(drawn))  # each class once
    assert set(drawn) == _edges(spec)
    # It opens the page: before the payload and the taxonomy sections.
    assert page.index("```mermaid") < page.index("## Standard Error Payload")


def test_diagram_false_leaves_it_out(tmp_path: Path) -> None:
    text = (REPO / "tests/cases/sqlstate/taxonomy.yaml").read_text(encoding="utf-8")
    path = tmp_path / "taxonomy.yaml"
    path.write_text(text + "docs:\n  diagram: false\n", encoding="utf-8")
    page = build_plan(path, ["docs"])["docs/errors.md"].decode("utf-8")
    assert _diagram(page) is None
    assert "### Class 23" in page  # the rest of the page is there


def test_a_docs_section_without_diagram_keeps_it(tmp_path: Path) -> None:
    # README: only `diagram: false` leaves it out; other docs keys change nothing.
    text = (REPO / "tests/cases/sqlstate/taxonomy.yaml").read_text(encoding="utf-8")
    path = tmp_path / "taxonomy.yaml"
    path.write_text(text + "docs:\n  notes: [A note]\n", encoding="utf-8")
    page = build_plan(path, ["docs"])["docs/errors.md"].decode("utf-8")
    lines = _diagram(page)
    assert lines is not None
    drawn = {(m[1], m[2]) for m in map(_EDGE.fullmatch, lines) if m}
    assert drawn == _edges(read_spec(path))


def test_past_500_edges_the_diagram_draws_the_domains_only(tmp_path: Path) -> None:
    many = "".join(
        f"      c{n}_failed: {{retryable: false, meaning: m}}\n" for n in range(520)
    )
    text = (
        "format: 1\nname: big\ntitle: Big\nversion: 1.0.0\nbase: BigError\n"
        "fallback: top_error\nwrap: top_error\ndomains:\n"
        "  top:\n    title: Top\n    codes:\n"
        "      top_error: {retryable: false, meaning: m}\n"
        "  many:\n    title: Many\n    parent: top\n    codes:\n" + many
    )
    path = tmp_path / "taxonomy.yaml"
    path.write_text(text, encoding="utf-8")
    page = build_plan(path, ["docs"])["docs/errors.md"].decode("utf-8")
    lines = _diagram(page)
    assert lines is not None
    drawn = {(m[1], m[2]) for m in map(_EDGE.fullmatch, lines) if m}
    assert drawn == _edges(read_spec(path), codes=False)
    assert len(drawn) + 520 > 500  # the whole would have been past the limit
