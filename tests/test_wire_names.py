"""Issue 30 §4: with ``code_case: as_written`` or a ``wire:``, the wire code leads.

The docs table's first column, the details headings, the changelog and every
deprecation message (Python's ``replaced_by``, TypeScript's ``@deprecated``,
Go's ``Deprecated:``) name a code by its wire code, what payloads carry and
users see; the key is shown beside it only where it differs.  The oracle is
the YAML (read with ``yaml.safe_load``) and the README's words.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from taxogen.pipeline import build_plan
from tests.spec_oracle import read_spec
from tests.support import Case, case_ids, cases, import_generated, unanchored

#: A deprecated code whose replacement has a wire code apart from its key.
_RENAMED = """\
format: 1
name: renamed
title: Renamed
version: 1.0.0
base: RenamedError
fallback: fresh
wrap: fresh
domains:
  misc:
    title: Misc
    codes:
      fresh: {wire: FreshCode, retryable: false, meaning: The new one}
      legacy:
        wire: LegacyCode
        retryable: false
        meaning: The old one
        deprecated: {reason: Superseded, replaced_by: fresh}
"""


def _md(text: str) -> str:
    return f"`{text}`" if text else '`""`'


@pytest.mark.parametrize("case", cases(), ids=case_ids())
def test_each_docs_row_starts_with_the_wire_code(case: Case) -> None:
    spec = read_spec(case.taxonomy)
    page = (case.expected / "docs" / "errors.md").read_text(encoding="utf-8")
    rows = [line for line in unanchored(page).splitlines() if line.startswith("| `")]
    for entry in spec.codes.values():
        wire = str(entry.wire)
        key = "" if wire == entry.code else f" {_md(entry.code)} |"
        if not spec.wire_declared:
            key = ""
        start = f"| {_md(wire)} |{key}"
        assert any(row.startswith(start) for row in rows), (entry.code, start)


def test_messages_name_the_replacement_by_its_wire_code(tmp_path: Path) -> None:
    path = tmp_path / "taxonomy.yaml"
    path.write_text(_RENAMED, encoding="utf-8")
    plan = build_plan(path, ["python", "typescript", "go", "docs"])
    text = {name: data.decode("utf-8") for name, data in plan.items()}

    def one(suffix: str) -> str:
        return next(body for name, body in text.items() if name.endswith(suffix))

    python = one("__init__.py")
    assert 'replaced_by = "FreshCode"' in python
    assert "use `FreshCode` instead" in one("src/index.ts")
    assert "use FreshCode instead" in one("errors.go")
    docs = unanchored(one("docs/errors.md"))
    assert "| `LegacyCode` | `legacy` |" in docs
    assert "use `FreshCode` instead" in docs
    assert "deprecated `LegacyCode`" in docs
    assert "handled as `FreshCode` (key `fresh`)" in docs


@pytest.mark.parametrize("case", cases(), ids=case_ids())
def test_each_alias_is_listed_on_its_code_s_row(case: Case) -> None:
    spec = read_spec(case.taxonomy)
    page = unanchored((case.expected / "docs" / "errors.md").read_text("utf-8"))
    for entry in spec.codes.values():
        if not entry.aliases:
            continue
        (row,) = [
            line
            for line in page.splitlines()
            if line.startswith(f"| {_md(str(entry.wire))} |")
        ]
        also = ", ".join(f"`{alias}`" for alias in entry.aliases)
        assert f"(also {also})" in row


@pytest.mark.parametrize("name", ["errno_node", "errno_numbers"])
def test_python_exports_each_alias_as_its_code_s_member_and_class(name: str) -> None:
    """docs "Aliases": ErrorCode.EWOULDBLOCK is ErrorCode.EAGAIN, and
    EwouldblockError is EagainError; with string codes the alias is read on the
    wire as EAGAIN, its spelling kept and written back."""
    (case,) = [c for c in cases() if c.name == name]
    mod = import_generated(case)
    assert mod.ErrorCode.EWOULDBLOCK is mod.ErrorCode.EAGAIN
    assert mod.EwouldblockError is mod.EagainError
    assert "EwouldblockError" in mod.__all__
    assert mod.lookup(mod.ErrorCode.EAGAIN.value) is mod.EagainError
    if name == "errno_node":
        body = {"code": "EWOULDBLOCK", "message": "m", "retryable": True, "details": {}}
        err = mod.from_payload(body)
        assert type(err) is mod.EagainError and err.code is mod.ErrorCode.EAGAIN
        assert err.wire_code == "EWOULDBLOCK" and err.to_payload() == body
        assert mod.lookup("EWOULDBLOCK") is mod.EagainError
    else:  # integer codes: an alias is a name, never a second wire code
        with pytest.raises(mod.InvalidPayloadError):
            mod.from_payload({"code": "EWOULDBLOCK", "message": "m", "retryable": True})
