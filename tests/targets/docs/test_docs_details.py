"""The docs page shows each code's details fields and message template (issue 10).

The oracle is each case's taxonomy.yaml read with ``yaml.safe_load`` (a field
is a type name or a mapping; ``required`` defaults to true; a domain's fields
are every code's, its child domains' too, and the top level's every code's),
never the generator's model: the top level's fields and each domain's are in
one table each (issue 30 §7: shown once, not under every code), and every code
declaring fields of its own has a table of those; each table has one row per
field naming it, its type with enum values and bounds, whether it is required
(and its default) and its description; and the template as written.  A domain's
heading claims ``<prefix>_*`` exactly when every code of it has the prefix.
"""

from __future__ import annotations

import html
import json
import re
from typing import Any

import pytest
import yaml

from tests.spec_oracle import read_spec
from tests.support import Case, case_ids, cases


def _shape(raw: Any) -> dict[str, Any]:
    return {"type": raw} if isinstance(raw, str) else dict(raw)


def _plain(markdown: str) -> str:
    """Markdown table text with its backslash escapes and character
    references undone."""
    return html.unescape(re.sub(r"\\(.)", r"\1", markdown))


def _sections(page: str) -> dict[str, str]:
    """Each ``#### `code` details`` section's text, by code."""
    parts = re.split(r"^#### `([^`]+)` details$", page, flags=re.M)
    return {
        code: re.split(r"^#{1,3} ", body, flags=re.M)[0]
        for code, body in zip(parts[1::2], parts[2::2])
    }


def _rows(section: str) -> dict[str, list[str]]:
    rows = {}
    for line in section.splitlines():
        match = re.fullmatch(r"\| `([A-Za-z0-9_]+)` \|(.*)\|", line)
        if match:
            rows[match[1]] = [_plain(cell.strip()) for cell in match[2].split(" | ")]
    return rows


def _tables(page: str) -> dict[str, str]:
    """Issue 30 §7: each shared details table's text, by whose it is: the top
    level's (``""``, under ``### Details of every code``), or a domain's."""
    parts = re.split(r"^#{3,4} Details of every (?:`([^`]+)` )?code$", page, flags=re.M)
    return {
        key or "": re.split(r"^#{1,4} ", body, flags=re.M)[0]
        for key, body in zip(parts[1::2], parts[2::2])
    }


def _check_rows(
    rows: dict[str, list[str]],
    fields: dict[str, Any],
    hints: dict[str, list[str] | None],
    where: str,
) -> int:
    """Each row against its field as the YAML writes it; ``hints``: by field
    name, the codes whose retry hint it is (None: every code listing it)."""
    assert list(rows) == list(fields), where
    for name, spec in fields.items():
        spec = _shape(spec)
        kind, required, description = rows[name]
        items = _shape(spec.get("items", spec))
        assert (items.get("enum") and "one of" in kind) or (items["type"] in kind), (
            where,
            name,
            kind,
        )
        assert spec["type"] in kind or "enum" in spec, (where, name)
        for value in items.get("enum", []):
            assert f'"{value}"' in kind, (where, name, value)
        for bound in ("minimum", "maximum"):
            if bound in items:
                assert f"{bound} {items[bound]}" in kind, (where, name)
            else:
                assert bound not in kind, (where, name)
        yes = spec.get("required", True)
        assert required.startswith("yes" if yes else "no"), (where, name)
        if "default" in spec:
            shown = json.dumps(spec["default"])  # false, "text", 5
            assert required == f"no (default {shown})", (where, name)
        if name in hints:
            # Issue 30 §8: the field of a retry hint says so (and, shared,
            # whose hint it is when it is not every carrier's).
            assert description.startswith(spec.get("description", ""))
            assert "retry hint" in description, (where, name)
            for label in hints[name] or ():
                assert f"`{label}`" in description, (where, name, label)
        else:
            assert description == spec.get("description", ""), (where, name)
    return len(fields)


@pytest.mark.parametrize("case", cases(), ids=case_ids())
def test_docs_list_every_details_field_and_template(case: Case) -> None:
    """Issue 10, and issue 30 §7: "the docs page shows a domain's shared fields
    once, not under every code": the top level's fields in one table, each
    domain's in one table under it, each code's section its own fields only."""
    raw = yaml.safe_load(case.taxonomy.read_text(encoding="utf-8"))
    page = (case.expected / "docs/errors.md").read_text(encoding="utf-8")
    sections = _sections(page)
    tables = _tables(page)
    spec = read_spec(case.taxonomy)
    retry = {c: e.retry_after for c, e in spec.codes.items()}
    domains = raw["domains"]
    label_of: dict[str, str] = {}
    # Who declares each field a code carries: (owner, name) with owner "" for
    # the top level, a domain key, or None for the code itself; the lowest wins.
    owners: dict[str, dict[str, str | None]] = {}
    for key, domain in domains.items():
        lineage = [key]
        while domains[lineage[-1]].get("parent") is not None:
            lineage.append(domains[lineage[-1]]["parent"])
        for code, entry in (domain.get("codes") or {}).items():
            if "removed" in entry:
                continue
            # Issue 30 §4: the page names a code by its wire code, where given.
            label_of[code] = (str(entry["wire"]) or '""') if "wire" in entry else code
            owner: dict[str, str | None] = {n: "" for n in raw.get("details") or {}}
            for above in reversed(lineage):
                owner.update({n: above for n in domains[above].get("details") or {}})
            owner.update({n: None for n in entry.get("details") or {}})
            owners[code] = owner

    def hints(who: str) -> dict[str, list[str] | None]:
        by_field: dict[str, list[str] | None] = {}
        for name in {n for o in owners.values() for n, w in o.items() if w == who}:
            carriers = [c for c, o in owners.items() if o.get(name) == who]
            hinted = [c for c in carriers if retry.get(c) == name]
            if hinted:
                full = len(hinted) == len(carriers)
                by_field[name] = None if full else [label_of[c] for c in hinted]
        return by_field

    checked = 0
    top = raw.get("details") or {}
    assert ("" in tables) is bool(top)
    if top:
        checked += _check_rows(_rows(tables[""]), top, hints(""), "top")
    for key, domain in domains.items():
        shared = domain.get("details") or {}
        assert (key in tables) is bool(shared), key
        if shared:
            checked += _check_rows(_rows(tables[key]), shared, hints(key), key)
        for code, entry in (domain.get("codes") or {}).items():
            if "removed" in entry:
                continue
            fields = entry.get("details") or {}
            label = label_of[code]
            if not fields and "message" not in entry:
                assert label not in sections, code
                continue
            section = sections[label]
            if "message" in entry:
                assert f"Message template: {entry['message']}" in _plain(section)
            own_hint = {retry[code]: None} if retry.get(code) in fields else {}
            checked += _check_rows(_rows(section), fields, own_hint, code)
    declares = bool(top) or any(
        d.get("details") or any("details" in c for c in (d.get("codes") or {}).values())
        for d in domains.values()
    )
    assert bool(checked) is declares


@pytest.mark.parametrize("case", cases(), ids=case_ids())
def test_domain_heading_claims_a_prefix_only_where_true(case: Case) -> None:
    raw = yaml.safe_load(case.taxonomy.read_text(encoding="utf-8"))
    upper = raw.get("code_case", "lower_snake") == "upper_snake"
    page = (case.expected / "docs/errors.md").read_text(encoding="utf-8")
    headings = re.findall(r"^### .*$", page, flags=re.M)
    for key, domain in raw["domains"].items():
        prefix = (key.upper() if upper else key.lower()) + "_"
        codes = domain.get("codes") or {}  # docs "Hierarchies": may be none
        live = [c for c, e in codes.items() if "removed" not in e]
        claimed = [h for h in headings if h.endswith(f"(`{prefix}*`)")]
        if live and all(code.startswith(prefix) for code in live):
            assert claimed, (key, prefix)
        else:
            assert not claimed, (key, prefix)


def test_harness_prefixes_are_spelt_in_the_code_case() -> None:
    """Issue 10: an UPPER_SNAKE taxonomy with domain ``llm`` has prefix ``LLM_``."""
    case = next(c for c in cases() if c.name == "harness")
    page = (case.expected / "docs/errors.md").read_text(encoding="utf-8")
    assert "### LLM Errors (`LLM_*`)" in page
    assert "### Tool Errors (`TOOL_*`)" in page
    assert "### General\n" in page  # UNKNOWN has no GENERAL_ prefix
