"""A page per code that outlives the code (issue 33 §6, ``docs: {layout: pages}``).

The issue's words are the oracle: one page per code "at a stable slug (its wire
code)" plus an index, and "a page for every tombstoned code saying what
replaced it, so a link printed in an old payload never dies".  So: each page's
name, percent-decoded as a browser decodes a link, is a wire code of the YAML
(live or removed) and every such code has one; the link ``docs_url`` gives a
code ends in its page's name; every link of every page lands on a file of the
output, in each Markdown renderer; removing a code keeps every page the
previous version had; the default layout writes no page.
"""

from __future__ import annotations

import re
import shutil
import urllib.parse
from pathlib import Path

import pytest
import yaml
from hypothesis import given
from hypothesis import strategies as st

from taxogen import model
from taxogen.cli import main
from tests.support import REPO, cases, package
from tests.targets.docs.test_docs_renderers import RENDERERS

EVOLVING = REPO / "tests" / "cases" / "evolving"


def _wires(taxonomy: Path) -> dict[str, dict[str, object]]:
    """Every code of the YAML, live and removed, by its wire code (its ``wire:``,
    else its key): the code's own mapping."""
    data = yaml.safe_load(taxonomy.read_text("utf-8"))
    found = {}
    for domain in data["domains"].values():
        for key, code in (domain.get("codes") or {}).items():
            found[str(code.get("wire", key))] = {"key": key, **code}
    return found


def _pages(out: Path) -> dict[str, Path]:
    """The output's code pages by the wire code their name decodes to."""
    folder = out / "docs" / "errors"
    return {
        urllib.parse.unquote(page.stem): page
        for page in folder.glob("*.md")
        if page.name != "index.md"
    }


def _generate(taxonomy: Path, out: Path) -> Path:
    code = main(["generate", "-q", "--taxonomy", str(taxonomy), "--out", str(out)])
    assert code == 0
    return out


def test_every_code_live_or_removed_has_its_page() -> None:
    out = package(next(c for c in cases() if c.name == "evolving"))
    wires = _wires(EVOLVING / "taxonomy.yaml")
    assert any("removed" in code for code in wires.values())
    pages = _pages(out)
    assert set(pages) == set(wires)
    for wire, page in pages.items():
        heading = page.read_text("utf-8").split("\n# ", 1)[1].splitlines()[0]
        assert f"`{wire}`" in heading
        assert heading.endswith("(removed)") == ("removed" in wires[wire])


def test_the_docs_link_of_each_code_ends_in_its_page() -> None:
    taxonomy = yaml.safe_load((EVOLVING / "taxonomy.yaml").read_text("utf-8"))
    template = taxonomy["docs_url"]
    out = package(next(c for c in cases() if c.name == "evolving"))
    for wire in _wires(EVOLVING / "taxonomy.yaml"):
        # RFC 3986: the code is one path segment, everything but the unreserved
        # characters percent-encoded.
        link = template.replace("{code}", urllib.parse.quote(wire, safe=""))
        name = urllib.parse.urlsplit(link).path.rsplit("/", 1)[1]
        assert (out / "docs" / "errors" / f"{name}.md").is_file(), link


def test_a_removed_code_says_what_replaced_it_and_links_there() -> None:
    out = package(next(c for c in cases() if c.name == "evolving"))
    wires = _wires(EVOLVING / "taxonomy.yaml")
    replaced = {
        wire: code["removed"]["replaced_by"]  # type: ignore[index]
        for wire, code in wires.items()
        if "replaced_by" in (code.get("removed") or {})  # type: ignore[operator]
    }
    assert replaced
    for wire, by in replaced.items():
        text = _pages(out)[wire].read_text("utf-8")
        assert re.search(rf"Use \[`{by}`\]\({by}\.md\) instead", text), text


@pytest.mark.parametrize("renderer", sorted(RENDERERS))
def test_every_link_of_every_page_lands_on_a_file(renderer: str) -> None:
    out = package(next(c for c in cases() if c.name == "evolving"))
    folder = out / "docs" / "errors"
    index = (folder / "index.md").read_text("utf-8")
    linked = set()
    for page in folder.glob("*.md"):
        rendered = RENDERERS[renderer](page.read_text("utf-8"))
        for href in re.findall(r'href="([^"]+)"', rendered):
            target = (folder / urllib.parse.unquote(href)).resolve()
            assert target.is_file(), (page.name, href)
            linked.add(target)
    for page in _pages(out).values():
        assert f"]({page.name})" in index
        assert page.resolve() in linked


def test_removing_a_code_keeps_every_page(tmp_path: Path) -> None:
    text = (EVOLVING / "taxonomy.yaml").read_text("utf-8")
    alive = text.replace(
        "      account_suspended:\n"
        "        removed: {since: 2.1.0, reason: Merged into account_closed,"
        " replaced_by: account_closed}\n",
        "      account_suspended: {retryable: false, meaning: Suspended}\n",
    )
    assert alive != text
    before, after = tmp_path / "before", tmp_path / "after"
    for folder, source in ((before, alive), (after, text)):
        folder.mkdir()
        (folder / "taxonomy.yaml").write_text(source, "utf-8")
        _generate(folder / "taxonomy.yaml", folder / "out")
    old = set(_pages(before / "out"))
    assert "account_suspended" in old
    assert old <= set(_pages(after / "out"))


def test_the_default_layout_writes_no_page() -> None:
    for case in cases():
        data = yaml.safe_load(case.taxonomy.read_text("utf-8"))
        if (data.get("docs") or {}).get("layout") != "pages":
            assert not (package(case) / "docs" / "errors").exists(), case.name


@given(st.text(max_size=20))
def test_a_slug_is_one_file_name_that_decodes_to_its_wire_code(wire: str) -> None:
    slug = model.page_slug(wire)
    assert "/" not in slug and "\\" not in slug and slug not in {"", ".", ".."}
    assert urllib.parse.unquote(slug) == (wire or "_empty")


def test_codes_of_every_shape_get_pages(tmp_path: Path) -> None:
    source = (REPO / "tests" / "cases" / "minimal" / "taxonomy.yaml").read_text()
    data = yaml.safe_load(source)
    domain = next(iter(data["domains"].values()))
    odd = {"a/b": "slash", "..": "dots", "": "empty", "NoSuchKey": "as written"}
    for number, (wire, meaning) in enumerate(odd.items()):
        domain["codes"][f"odd_{number}"] = {
            "retryable": False,
            "meaning": meaning,
            "wire": wire,
        }
    data["docs"] = {"layout": "pages"}
    (tmp_path / "taxonomy.yaml").write_text(yaml.safe_dump(data), "utf-8")
    out = _generate(tmp_path / "taxonomy.yaml", tmp_path / "out")
    pages = _pages(out)
    for wire in odd:
        assert (wire or "_empty") in pages, sorted(pages)
    assert {p.parent for p in pages.values()} == {out / "docs" / "errors"}
    shutil.rmtree(out)
