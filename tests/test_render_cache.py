"""The on-disk cache of compiled templates: the same bytes, and never a trap.

``render`` keeps Jinja's compiled templates like ``.pyc`` files.  A cached run
must render exactly what a compiling run renders, a damaged entry must only
mean compiling again, and nothing is written where Python writes no bytecode.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from generator import render
from tests.support import cases


@pytest.fixture
def cache_root(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Point the cache at ``tmp_path`` (as PYTHONPYCACHEPREFIX would) and allow
    writing.
    """
    monkeypatch.setattr(sys, "pycache_prefix", str(tmp_path))
    monkeypatch.setattr(sys, "dont_write_bytecode", False)
    return tmp_path


def _entries(root: Path) -> list[Path]:
    return sorted(root.rglob("*.jinja"))


def test_a_cached_render_is_byte_for_byte_a_compiled_one(cache_root: Path) -> None:
    (case,) = [c for c in cases() if c.name == "lazy_layout"]
    names = case.names
    first = render.render(names)  # compiles, and fills the cache
    entries = _entries(cache_root)
    assert len(entries) >= 8  # every template used, the partial included
    stamps = {p: p.stat().st_mtime_ns for p in entries}
    assert render.render(names) == first  # loads from the cache
    assert {
        p: p.stat().st_mtime_ns for p in _entries(cache_root)
    } == stamps  # read, not rewritten


def test_a_damaged_entry_is_compiled_again(cache_root: Path) -> None:
    names = cases()[0].names
    first = render.render(names)
    for entry in _entries(cache_root):
        entry.write_bytes(entry.read_bytes()[: len(entry.read_bytes()) // 2])
    assert render.render(names) == first
    for entry in _entries(cache_root):
        entry.write_bytes(b"not a cache entry")
    assert render.render(names) == first


def test_nothing_is_written_where_python_writes_no_bytecode(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys, "pycache_prefix", str(tmp_path))
    monkeypatch.setattr(sys, "dont_write_bytecode", True)
    render.render(cases()[0].names)
    assert _entries(tmp_path) == []
