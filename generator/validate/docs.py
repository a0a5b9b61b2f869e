"""Docs: the ``docs`` section, the prose of the docs page and its example payload.

Every text is Markdown, copied as written (line breaks and tabs allowed); the
``fields`` override the payload fields' descriptions; the ``example`` must show
a live code, and its ``details`` are free-form data, typed like YAML 1.2's core
schema (null, booleans, integers, finite floats, strings, lists, mappings).
``layout: pages`` adds a page per code (:func:`check_pages`).
"""

from __future__ import annotations

import functools

from taxogen.model import PAYLOAD_FIELDS, Docs, Example, JSONValue, Taxonomy, page_slug
from taxogen.nodes import MapNode, Node, ScalarNode, SeqNode
from taxogen.validate.codes import Codes
from taxogen.validate.hints import name_hint
from taxogen.validate.reader import Reader, get, join
from taxogen.validate.text import describe, show
from taxogen.validate.values import json_value

__all__ = ["json_value", "read_docs"]

_DOCS_KEYS = (
    "status",
    "purpose",
    "payload",
    "example",
    "fields",
    "taxonomy",
    "retryability",
    "propagation",
    "notes",
    "diagram",
    "layout",
)
#: ``docs.layout``'s values (issue 33 §6).
LAYOUTS = ("page", "pages")
_EXAMPLE_KEYS = ("code", "message", "details")


def read_docs(r: Reader, item: tuple[ScalarNode, Node] | None, codes: Codes) -> Docs:
    if item is None:
        return Docs()
    found = r.mapping(item[1], "docs", _DOCS_KEYS, owner=item[0].position)
    if found is None:
        return Docs()
    texts: dict[str, str] = {}
    for name in (
        "status",
        "purpose",
        "payload",
        "taxonomy",
        "retryability",
        "propagation",
    ):
        key = join("docs", name)
        value = get(found, name, functools.partial(r.text, key=key, lines=True))
        if value is not None:
            texts[name] = value
    notes: list[str] = []
    if "notes" in found:
        notes_node = found["notes"][1]
        if notes_node.refused:
            pass
        elif not isinstance(notes_node, SeqNode):
            r.error(
                notes_node.position,
                "docs.notes",
                f"expected a list of texts, got {describe(notes_node)}",
            )
        else:
            for index, note_node in enumerate(notes_node.items):
                note = r.text(note_node, f"docs.notes[{index}]", lines=True)
                if note is not None:
                    notes.append(note)
    fields: list[tuple[str, str]] = []
    if "fields" in found:
        field_map = r.mapping(
            found["fields"][1], "docs.fields", [f[0] for f in PAYLOAD_FIELDS]
        )
        for field, (_, field_node) in (field_map or {}).items():
            field_text = r.text(field_node, join("docs.fields", field), lines=True)
            if field_text is not None:
                fields.append((field, field_text))
    example = None
    if "example" in found:
        example = read_example(r, found["example"], codes)
    # Whether the page draws the class hierarchy (where domains have parents).
    diagram = get(found, "diagram", lambda n: r.boolean(n, "docs.diagram"))
    layout = get(found, "layout", lambda n: r.one_of(n, "docs.layout", LAYOUTS))
    return Docs(
        example=example,
        diagram=diagram is not False,
        layout=layout or "page",
        layout_at=found["layout"][0].position if layout else None,
        fields=tuple(fields),
        notes=tuple(notes),
        **texts,
    )


def read_example(
    r: Reader, item: tuple[ScalarNode, Node], codes: Codes
) -> Example | None:
    key_node, node = item
    found = r.mapping(
        node,
        "docs.example",
        _EXAMPLE_KEYS,
        ("code", "message"),
        owner=key_node.position,
    )
    if found is None:
        return None
    code = get(found, "code", lambda n: r.text(n, "docs.example.code"))
    if code is not None and code in codes.removed:
        r.error(
            found["code"][1].position,
            "docs.example.code",
            f"{show(code)} is a removed code; show a live one",
        )
        code = None
    elif code is not None and code not in codes.valid:
        if codes.unknown(code):
            more = name_hint(code, codes.named)
            r.error(
                found["code"][1].position,
                "docs.example.code",
                f"no code {show(code)} is defined{more}",
            )
        code = None
    message = get(found, "message", lambda n: r.text(n, "docs.example.message"))
    details: JSONValue = None
    if "details" in found:
        details_node = found["details"][1]
        if details_node.refused:
            pass
        elif not isinstance(details_node, MapNode):
            r.error(
                details_node.position,
                "docs.example.details",
                f"expected a mapping, got {describe(details_node)}",
            )
        else:
            details = json_value(r, details_node, "docs.example.details")
    if code is None or message is None:
        return None
    return Example(code=code, message=message, details=details, position=node.position)


def check_pages(r: Reader, taxonomy: Taxonomy) -> None:
    """Under ``layout: pages`` each code, live or removed, has a file named for
    its wire code (:func:`taxogen.model.page_slug`); two whose names differ only
    in case would be one file where names ignore case (macOS, Windows), so the
    second is refused at ``docs.layout``, naming both."""
    if taxonomy.docs.layout != "pages" or taxonomy.docs.layout_at is None:
        return
    seen: dict[str, str] = {"index": "the index"}  # docs/errors/index.md
    wires = [code.wire_text for code in taxonomy.codes]
    wires += [str(tomb.wire_code) for tomb in taxonomy.removed]
    for wire in wires:
        slug = page_slug(wire)
        other = seen.setdefault(slug.casefold(), wire)
        if other != wire:
            them = (
                f"{other} and code {wire!r}"
                if other == "the index"
                else (f"codes {other!r} and {wire!r}")
            )
            r.error(
                taxonomy.docs.layout_at,
                "docs.layout",
                f"{them} would share the page {slug}.md (names that differ only"
                " in case are one file on macOS and Windows); give the code"
                " another wire code, or keep layout: page",
            )
