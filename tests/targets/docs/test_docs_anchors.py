"""Every code has an anchor on the page where its docs link lands (issue 33 §6).

A code's ``docs_url`` ending in ``#card_declined`` landed nowhere: the page
had no anchor per code.  Each code's row now carries an element whose id is
the fragment of its docs link (percent-decoded, as a browser matches it), or
its wire code when the link has no fragment of its own; the id must survive
CommonMark, GitHub's Markdown and MkDocs' Python-Markdown.  The oracle is the
link as ``tests/spec_oracle.py`` builds it from the YAML (README "What a code
maps to").
"""

from __future__ import annotations

import html
import re
import urllib.parse
from pathlib import Path

import pytest
import yaml

from taxogen.pipeline import build_plan
from tests import spec_oracle as oracle
from tests.support import REPO, Case, case_ids, cases, package
from tests.targets.docs.test_docs_renderers import RENDERERS

MINIMAL = REPO / "tests" / "cases" / "minimal" / "taxonomy.yaml"


def _ids(rendered: str) -> set[str]:
    return {html.unescape(found) for found in re.findall(r'id="([^"]*)"', rendered)}


def _expected(spec: oracle.Spec) -> dict[str, str]:
    """Each code's anchor: its link's fragment, decoded, else its wire code."""
    found = {}
    for code in spec.codes.values():
        fragment = urllib.parse.urlsplit(code.doc_url or "").fragment
        found[code.code] = urllib.parse.unquote(fragment) or str(code.wire)
    return found


@pytest.mark.parametrize("case", cases(), ids=case_ids())
def test_every_code_of_every_case_has_its_anchor_in_every_renderer(
    case: Case,
) -> None:
    page = (package(case) / "docs" / "errors.md").read_text("utf-8")
    anchors = _expected(oracle.read_spec(case.taxonomy))
    for name, render in RENDERERS.items():
        ids = _ids(render(page))
        missing = {c: a for c, a in anchors.items() if a and a not in ids}
        assert not missing, (name, missing)


@pytest.mark.parametrize(
    "docs_url",
    [
        "https://errors.example.com/errors.md#{code}",
        "https://errors.example.com/errors.md#code-{code}",
        "https://errors.example.com/{code}#details",  # a fragment of its own
    ],
)
def test_a_docs_url_fragment_lands_on_its_row(docs_url: str, tmp_path: Path) -> None:
    document = yaml.safe_load(MINIMAL.read_text("utf-8"))
    document["docs_url"] = docs_url
    taxonomy = tmp_path / "taxonomy.yaml"
    taxonomy.write_text(yaml.safe_dump(document, sort_keys=False), "utf-8")
    page = build_plan(taxonomy, ["docs"])["docs/errors.md"].decode("utf-8")
    spec = oracle.read_spec(taxonomy)
    for name, render in RENDERERS.items():
        ids = _ids(render(page))
        for code in spec.codes.values():
            assert code.doc_url is not None
            fragment = urllib.parse.unquote(
                urllib.parse.urlsplit(code.doc_url).fragment
            )
            if "{code}" in docs_url.partition("#")[2]:
                assert fragment in ids, (name, code.code)
            else:
                assert str(code.wire) in ids, (name, code.code)
