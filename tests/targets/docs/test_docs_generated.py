"""The docs page names the files generated beside it, and only those (issue 33 §6).

The page named ``conformance/vectors.json`` when that target was off, and left
Go out when it was on.  Its "Generated With This Page" table lists the other
targets of the run, each by what its ``target.toml`` says it writes (read here
with tomllib, the folders' own words): no more, no fewer.
"""

from __future__ import annotations

import re
import tomllib

import pytest

from taxogen.pipeline import build_plan
from tests.support import REPO

TAXONOMY = REPO / "taxonomy.yaml"


def _writes() -> dict[str, str]:
    found = {}
    for manifest in (REPO / "generator" / "targets").glob("*/target.toml"):
        for entry in tomllib.loads(manifest.read_text("utf-8")).get("targets", []):
            found[entry["name"]] = entry["writes"]
    return found


def _listed(page: str) -> set[str]:
    section = page.split("## Generated With This Page", 1)
    if len(section) == 1:
        return set()
    body = section[1].split("\n## ", 1)[0]
    return set(re.findall(r"^\| `([^`]+)` \|", body, flags=re.M))


@pytest.mark.parametrize(
    "selection",
    [
        ["docs"],
        ["docs", "go"],
        ["python", "docs"],
        ["docs", "schema", "openapi"],
        ["python", "typescript", "docs", "schema", "conformance", "openapi", "go"],
    ],
)
def test_the_page_lists_exactly_the_other_targets_of_the_run(
    selection: list[str],
) -> None:
    page = build_plan(TAXONOMY, selection)["docs/errors.md"].decode("utf-8")
    writes = _writes()
    assert _listed(page) == {writes[name] for name in selection if name != "docs"}
    if "conformance" not in selection:
        assert "vectors.json" not in page
    if "go" in selection:
        assert writes["go"] in _listed(page)
