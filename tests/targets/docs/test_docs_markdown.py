"""The docs page tells the truth (issue 14 §5): Markdown is rendered, text is text.

The README says the ``docs`` entries are Markdown and titles, meanings and
descriptions plain text.  A page is generated from a taxonomy written here,
parsed with markdown-it (CommonMark with GFM tables, as GitHub reads it) and
each piece held to what the README says it is: a ``docs.fields`` entry renders
as Markdown in its table cell (a line break as ``<br>``, a ``|`` kept inside
its cell), the other ``docs`` entries as Markdown blocks, and a meaning or a
title with Markdown in it shows that Markdown as written.  And for every case,
a domain's table has an HTTP, a gRPC and a Docs column exactly when one of its
codes maps to something there (read from the YAML, ``tests/spec_oracle.py``),
each cell saying what it maps to, and a throttling code says so.
"""

from __future__ import annotations

import re

from pathlib import Path

import pytest
from markdown_it import MarkdownIt
from markdown_it.token import Token

from taxogen.pipeline import build_plan
from tests.spec_oracle import read_spec
from tests.support import Case, case_ids, cases

MARKDOWN = MarkdownIt("commonmark").enable("table")

TAXONOMY = """\
format: 1
name: marked
title: "**Not bold** title"
version: 1.0.0
base: MarkedError
fallback: oops
wrap: oops
domains:
  misc:
    title: "_Not emphasised_ domain"
    description: "A `plain` description"
    codes:
      oops: {retryable: false, meaning: "**not bold**, [not a link](x)"}
docs:
  purpose: "The **purpose**, with [a link](https://example.com/p)."
  retryability: |-
    Retry:

    - **retryable** errors
    - never `oops`
  notes:
    - "A note with `code` and *emphasis*"
  fields:
    code: "A **stable** identifier: see [the list](https://example.com/codes)"
    message: "Shown as `a | b`, never parsed | split"
    retryable: |-
      First line,
      second line

      and a second paragraph
"""


def _page(tmp_path: Path, text: str = TAXONOMY) -> list[Token]:
    source = tmp_path / "taxonomy.yaml"
    source.write_text(text, encoding="utf-8")
    page = build_plan(source, ["docs"])["docs/errors.md"].decode("utf-8")
    return MARKDOWN.parse(page)


def _inline(token: Token) -> str:
    assert token.type == "inline" and token.children is not None
    return str(MARKDOWN.renderer.renderInline(token.children, MARKDOWN.options, {}))


def _cells(tokens: list[Token]) -> list[list[list[str]]]:
    """Every table as rows of rendered cells."""
    found: list[list[list[str]]] = []
    in_cell = False
    for token in tokens:
        if token.type == "table_open":
            found.append([])
        elif token.type == "tr_open":
            found[-1].append([])
        elif token.type in ("th_open", "td_open"):
            in_cell = True
        elif token.type in ("th_close", "td_close"):
            in_cell = False
        elif token.type == "inline" and in_cell:
            # A code's row opens with its anchor (test_docs_anchors.py): the
            # cell's text is what follows it.
            text = re.sub(r'^<a id="[^"]*"></a>', "", _inline(token))
            found[-1][-1].append(text)
    return found


def test_docs_fields_are_markdown_in_their_cells(tmp_path: Path) -> None:
    fields = _cells(_page(tmp_path))[0]
    assert [row[0] for row in fields] == [
        "Field",
        "<code>code</code>",
        "<code>message</code>",
        "<code>retryable</code>",
        "<code>details</code>",
    ]
    assert all(len(row) == 4 for row in fields)
    descriptions = [row[3] for row in fields[1:]]
    assert descriptions[0] == (
        'A <strong>stable</strong> identifier: see <a href="https://example.com/'
        'codes">the list</a>'
    )
    # A pipe stays in its cell, in a code span too.
    assert descriptions[1] == "Shown as <code>a | b</code>, never parsed | split"
    # A cell is one line: each line break is a <br>.
    assert descriptions[2] == (
        "First line,<br>second line<br><br>and a second paragraph"
    )
    # No docs.fields entry: the default description, plain text.
    assert descriptions[3] == "Context-specific error metadata"


def test_docs_prose_is_markdown_and_plain_text_is_text(tmp_path: Path) -> None:
    tokens = _page(tmp_path)
    html = MARKDOWN.renderer.render(tokens, MARKDOWN.options, {})
    assert "<h1>**Not bold** title</h1>" in html
    assert "<h3>_Not emphasised_ domain</h3>" in html
    assert "<p>A `plain` description</p>" in html
    assert (
        '<p>The <strong>purpose</strong>, with <a href="https://example.com/p">a '
        "link</a>.</p>" in html
    )
    assert (
        "<ul>\n<li><strong>retryable</strong> errors</li>\n<li>never <code>oops"
        "</code></li>\n</ul>" in html
    )
    assert "<li>A note with <code>code</code> and <em>emphasis</em></li>" in html
    codes = _cells(tokens)[1]
    assert codes[1][2] == "**not bold**, [not a link](x)"


@pytest.mark.parametrize("case", cases(), ids=case_ids())
def test_statuses_and_links_are_columns_where_declared_and_only_then(
    case: Case,
) -> None:
    spec = read_spec(case.taxonomy)
    page = (case.expected / "docs" / "errors.md").read_text(encoding="utf-8")
    # The domains' tables, in order (details tables between them start "Field").
    domain_tables = [t for t in _cells(MARKDOWN.parse(page)) if t[0][0] == "Code"]
    # docs "Hierarchies": a domain without codes of its own has no table.
    tabled = [
        k for k in spec.domains if any(c.domain == k for c in spec.codes.values())
    ]
    for key, rows in zip(tabled, domain_tables, strict=True):
        codes = [entry for entry in spec.codes.values() if entry.domain == key]
        columns = ["Code"]
        # docs "Wire codes": the wire code leads; a Key column once any code
        # gives a wire:, showing the key only where it differs.
        wired = any(c.wire != c.code for c in spec.codes.values())
        if wired:
            columns.append("Key")
        columns.append("Retryable")
        if any(c.http_status is not None for c in codes):
            columns.append("HTTP")
        if any(c.grpc_status is not None for c in codes):
            columns.append("gRPC")
        columns.append("Meaning")
        if any(c.doc_url is not None for c in codes):
            columns.append("Docs")
        assert rows[0] == columns, key
        for row, entry in zip(rows[1:], codes, strict=True):
            cell = dict(zip(columns, row, strict=True))
            wire = str(entry.wire) or "&quot;&quot;"  # README: "" shows as ""
            assert cell["Code"] == f"<code>{wire}</code>"
            if wired:
                key = (
                    ""
                    if str(entry.wire) == entry.code
                    else f"<code>{entry.code}</code>"
                )
                assert cell["Key"] == key
            retryable = "yes" if entry.retryable else "no"
            throttling = " (throttling)" if entry.throttling else ""
            assert cell["Retryable"] == retryable + throttling
            if "HTTP" in cell:
                # Issue 30 §2: every status a code may take, its default first.
                every = entry.http_statuses or [entry.http_status or ""]
                assert cell["HTTP"] == ", ".join(str(status) for status in every)
            if "gRPC" in cell:
                grpc = entry.grpc_status
                assert cell["gRPC"] == (f"<code>{grpc}</code>" if grpc else "")
            if "Docs" in cell:
                link = entry.doc_url
                assert cell["Docs"] == (f'<a href="{link}">docs</a>' if link else "")


STATUS_MEMBER = """\
format: 1
name: kube
title: Kube
version: 1.0.0
base: KubeError
fallback: internal_error
wrap: internal_error
payload: {code: reason, message: message, retryable: null, details: "*", status: code}
domains:
  misc:
    title: Misc
    codes:
      internal_error: {retryable: false, meaning: Internal, http_status: 500}
      invalid_client: {retryable: false, meaning: Bad client, http_status: [400, 401]}
"""


def test_the_status_member_and_every_listed_status_are_on_the_page(
    tmp_path: Path,
) -> None:
    # Issue 30 §2: the member that holds the HTTP status is said to hold it, and
    # a code's table cell lists every status it may take, its default first.
    payload, codes = _cells(_page(tmp_path, STATUS_MEMBER))
    rows = {row[0]: row for row in payload[1:]}
    assert list(rows) == [
        "<code>reason</code>",
        "<code>message</code>",
        "<code>code</code>",
        "<code>*</code>",
    ]
    name, kind, required, description = rows["<code>code</code>"]
    assert (kind, required) == ("integer", "no")
    assert "HTTP status" in description and "received" in description
    cells = {row[0]: dict(zip(codes[0], row, strict=True)) for row in codes[1:]}
    assert cells["<code>invalid_client</code>"]["HTTP"] == "400, 401"
    assert cells["<code>internal_error</code>"]["HTTP"] == "500"


@pytest.mark.parametrize("case", cases(), ids=case_ids())
def test_the_field_of_a_retry_hint_says_so(case: Case) -> None:
    """Issue 30 §8: a code's retry_after field is named as its retry hint in its
    details table, and no other field is."""
    spec = read_spec(case.taxonomy)
    page = (case.expected / "docs" / "errors.md").read_text(encoding="utf-8")
    tables = [t for t in _cells(MARKDOWN.parse(page)) if t[0][0] == "Field"][1:]
    said = {
        row[0].removeprefix("<code>").removesuffix("</code>")
        for table in tables
        for row in table[1:]
        if "retry hint" in row[3]
    }
    named = {c.retry_after for c in spec.codes.values() if c.retry_after}
    assert said == named
