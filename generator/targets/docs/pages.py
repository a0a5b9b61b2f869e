"""The docs target's pages per code (issue 33 §6): ``docs: {layout: pages}``.

Besides ``docs/errors.md``, each code gets a page of its own at
``docs/errors/<slug>.md``, the slug its wire code as a ``docs_url`` puts it in
a link (:func:`taxogen.model.page_slug`), so ``docs_url:
"https://errors.example.com/errors/{code}"`` served by MkDocs or any static
site lands on it; ``docs/errors/index.md`` lists them all.  A removed code
keeps its page, saying when it went, why, and what replaced it, so a link
printed in an old payload or log never dies.  Nothing here is written under
the default layout.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from taxogen import escape, model
from taxogen.naming import NamedCode, NamedDomain, Names

__all__ = ["CodePage", "each_page", "index_once", "pages"]


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class CodePage:
    """One code's page: a live code (``named``) or a removed one (``tomb``)."""

    slug: str
    #: Markdown: the code as the page names it (its wire code), and its key
    #: where that differs ("" otherwise).
    label: str
    key: str
    domain: str  # the domain's title, plain text
    meaning: str  # plain text ("" for a removed code that recorded none)
    named: NamedCode | None = None
    tomb: model.Tombstone | None = None
    #: Markdown: a link to the page of the code that replaces it ("" for none).
    replaced_by: str = ""
    #: Markdown: each alias a code span, joined ("" for none).
    aliases: str = ""
    http_statuses: str = ""  # "400, 401"
    retry_field: str | None = None
    doc_url: str | None = None
    #: Its details fields and message template, as the main page lists them.
    details: Any = None


def _link(taxonomy: model.Taxonomy, key: str) -> str:
    """Markdown: a link to the page of the code named ``key`` (live or removed),
    labelled with its wire code; the name alone when no code has it."""
    wire: str | None = None
    for code in taxonomy.codes:
        if code.code == key or code.wire_text == key:
            wire = code.wire_text
    for tomb in taxonomy.removed:
        if tomb.code == key or str(tomb.wire_code) == key:
            wire = str(tomb.wire_code)
    if wire is None:
        return escape.md_code(key)
    label = escape.md_code(wire if wire else '""')
    return f"[{label}]({model.page_slug(wire)}.md)"


#: The main page's view of a code's details (target.py's ``_details``).
Details = Callable[[NamedCode, model.Taxonomy], Any]


def _live(
    names: Names, domain: NamedDomain, named: NamedCode, details: Details
) -> CodePage:
    taxonomy, code = names.taxonomy, named.code
    mapped = taxonomy.mapped(code)
    replaced = None if code.deprecated is None else code.deprecated.replaced_by
    return CodePage(
        slug=model.page_slug(code.wire_text),
        label=escape.md_code(code.wire_text if code.wire_text else '""'),
        key="" if code.wire_text == code.code else escape.md_code(code.code),
        domain=domain.domain.title,
        meaning=code.meaning,
        named=named,
        replaced_by="" if replaced is None else _link(taxonomy, replaced),
        aliases=", ".join(escape.md_code(alias) for alias in code.aliases),
        http_statuses=", ".join(str(s) for s in mapped.http_statuses),
        retry_field=taxonomy.retry_field(code),
        doc_url=taxonomy.doc_url(code),
        details=(details(named, taxonomy) if code.fields or code.message else None),
    )


def _removed(names: Names, tomb: model.Tombstone) -> CodePage:
    taxonomy = names.taxonomy
    wire = str(tomb.wire_code)
    title = next(
        (d.domain.title for d in names.domains if d.domain.key == tomb.domain), ""
    )
    return CodePage(
        slug=model.page_slug(wire),
        label=escape.md_code(wire if wire else '""'),
        key="" if wire == tomb.code else escape.md_code(tomb.code),
        domain=title,
        meaning=tomb.meaning,
        tomb=tomb,
        replaced_by=(
            "" if tomb.replaced_by is None else _link(taxonomy, tomb.replaced_by)
        ),
    )


def pages(names: Names, details: Details) -> tuple[CodePage, ...]:
    """Every code's page, live codes by domain in source order, then the removed
    ones; none unless the layout is ``pages``."""
    if names.taxonomy.docs.layout != "pages":
        return ()
    live = [_live(names, d, c, details) for d in names.domains for c in d.codes]
    return (*live, *(_removed(names, t) for t in names.taxonomy.removed))


def each_page(view: Any) -> Iterable[tuple[Mapping[str, str], Mapping[str, Any]]]:
    """The docs template ``docs/code.md.j2``, once per page."""
    for page in view.pages:
        yield {"slug": page.slug}, {"page": page}


def index_once(view: Any) -> Iterable[tuple[Mapping[str, str], Mapping[str, Any]]]:
    """The index ``docs/errors/index.md``, under the ``pages`` layout only."""
    if view.pages:
        yield {}, {}
