"""The docs page reads the same in every Markdown renderer people publish it with.

Issue 33 §6: MkDocs showed stray backslashes (``Class 08\\: ...``, ``slow down
\\&amp; retry \\~1s``): the page escaped characters CommonMark can escape and
Python-Markdown cannot.  Each case's page is rendered with CommonMark
(markdown-it-py, tables on), GitHub-flavoured Markdown (markdown-it-py's
``gfm-like``: tables, strikethrough, autolinks) and MkDocs' Python-Markdown
(with MkDocs' default extensions), and the visible text of the three must be
one text: no renderer may show a backslash or an entity the others hide.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser

import markdown
import pytest
from markdown_it import MarkdownIt

from tests.support import Case, case_ids, cases, package


class _Text(HTMLParser):
    """The visible text of an HTML fragment, entities decoded."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []

    def handle_data(self, data: str) -> None:
        self.parts.append(data)


def visible(html: str) -> str:
    parser = _Text()
    parser.feed(html)
    parser.close()
    return re.sub(r"\s+", " ", "".join(parser.parts)).strip()


#: The renderers, each as its users run it.
RENDERERS = {
    "commonmark": MarkdownIt("commonmark").enable("table").render,
    "gfm": MarkdownIt("gfm-like").render,
    # MkDocs' defaults: toc, tables, fenced_code.
    "mkdocs": lambda text: markdown.markdown(
        text, extensions=["toc", "tables", "fenced_code"]
    ),
}


@pytest.mark.parametrize("case", cases(), ids=case_ids())
def test_every_renderer_shows_the_same_text(case: Case) -> None:
    page = (package(case) / "docs" / "errors.md").read_text("utf-8")
    texts = {name: visible(render(page)) for name, render in RENDERERS.items()}
    assert texts["gfm"] == texts["commonmark"]
    assert texts["mkdocs"] == texts["commonmark"]
