"""The docs page shows each code's details fields and message template (issue 10).

The oracle is each case's taxonomy.yaml read with ``yaml.safe_load`` (a field
is a type name or a mapping; ``required`` defaults to true; a domain's fields
are every code's), never the generator's model: for every code declaring
details (its own or its domain's), the page has a table with one row per field
naming it, its type with enum values and bounds, whether it is required (and
its default) and its description; and the template as written.  A domain's
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


@pytest.mark.parametrize("case", cases(), ids=case_ids())
def test_docs_list_every_details_field_and_template(case: Case) -> None:
    raw = yaml.safe_load(case.taxonomy.read_text(encoding="utf-8"))
    page = (case.expected / "docs/errors.md").read_text(encoding="utf-8")
    sections = _sections(page)
    retry = {c: e.retry_after for c, e in read_spec(case.taxonomy).codes.items()}
    checked = 0
    for domain in raw["domains"].values():
        shared = domain.get("details") or {}
        # docs "Hierarchies": a parent domain may have no codes.
        for code, entry in (domain.get("codes") or {}).items():
            if "removed" in entry:
                continue
            fields = {**shared, **(entry.get("details") or {})}
            # Issue 30 §4: the page names a code by its wire code, where given.
            label = (str(entry["wire"]) or '""') if "wire" in entry else code
            if not fields and "message" not in entry:
                assert label not in sections, code
                continue
            section = sections[label]
            if "message" in entry:
                assert f"Message template: {entry['message']}" in _plain(section)
            rows = _rows(section)
            assert list(rows) == list(fields), code
            for name, spec in fields.items():
                spec = _shape(spec)
                kind, required, description = rows[name]
                items = _shape(spec.get("items", spec))
                assert (items.get("enum") and "one of" in kind) or (
                    items["type"] in kind
                ), (code, name, kind)
                assert spec["type"] in kind or "enum" in spec, (code, name)
                for value in items.get("enum", []):
                    assert f'"{value}"' in kind, (code, name, value)
                for bound in ("minimum", "maximum"):
                    if bound in items:
                        assert f"{bound} {items[bound]}" in kind, (code, name)
                    else:
                        assert bound not in kind, (code, name)
                yes = spec.get("required", True)
                assert required.startswith("yes" if yes else "no"), (code, name)
                if "default" in spec:
                    default = spec["default"]
                    shown = json.dumps(default)  # false, "text", 5
                    assert required == f"no (default {shown})", (code, name)
                if name == retry.get(code):
                    # Issue 30 §8: the field of the code's retry hint says so.
                    assert description.startswith(spec.get("description", ""))
                    assert "retry hint" in description, (code, name)
                else:
                    assert description == spec.get("description", ""), (code, name)
                checked += 1
    declares = any(
        d.get("details") or any("details" in c for c in (d.get("codes") or {}).values())
        for d in raw["domains"].values()
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
