"""The contract's per-taxonomy facts: made once, and the shortcuts that skip them.

``_taken`` (every wire code, key and alias) is a memo on the names
(Names.derived), so it is tested as one: each names answers its own, asked in
either order, and a memo that left the names out is shown to fail the same
check.  ``declares_any`` and ``declares_retry`` answer False without walking
each code's lineage when nothing in the taxonomy declares what they look for,
and ``declares_nothing`` (the schema's every code mapping to NONE) True; on
every golden case and mapping, and on a taxonomy declaring each one thing in
one place, they answer what the full walk does.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from pathlib import Path

import pytest

from taxogen.naming import Names
from taxogen.pipeline import load_names
from taxogen.targets import mapped
from taxogen.targets.contract import payload_vectors, retry_vectors
from tests.support import cases, mappings

TAXONOMIES = [case.taxonomy for case in cases()] + mappings()
Taken = Callable[[Names], frozenset[str | int]]


def _each_answers_its_own(taken: Taken) -> bool:
    """Whether ``taken`` gives each of two taxonomies its own codes, asked in
    one order and then, on other names, in the other."""
    paths = [case.taxonomy for case in cases() if case.name in ("shipped", "jsonrpc")]
    expected = {path: payload_vectors._make_taken(load_names(path)) for path in paths}
    assert len(set(map(frozenset, expected.values()))) == 2
    for order in (paths, paths[::-1]):
        for path in order:
            if taken(load_names(path)) != expected[path]:
                return False
    return True


def test_taken_is_made_once_for_each_names() -> None:
    names = load_names(TAXONOMIES[0])
    assert payload_vectors._taken(names) is payload_vectors._taken(names)
    assert _each_answers_its_own(payload_vectors._taken)


def test_a_memo_that_leaves_out_the_names_fails() -> None:
    kept: list[frozenset[str | int]] = []

    def blind(names: Names) -> frozenset[str | int]:
        if not kept:
            kept.append(payload_vectors._make_taken(names))
        return kept[0]

    assert not _each_answers_its_own(blind)


def _declares_any(names: Names) -> bool:
    taxonomy = names.taxonomy
    return any(
        dataclasses.replace(mapped.code_mapping(taxonomy, code), retry_after_field=None)
        != mapped.NONE
        for code in taxonomy.codes
    )


def _declares_retry(names: Names) -> bool:
    taxonomy = names.taxonomy
    return any(taxonomy.retry_field(c.code) is not None for c in names.codes)


@pytest.mark.parametrize("path", TAXONOMIES, ids=lambda path: Path(path).parent.name)
def test_the_shortcuts_answer_as_the_full_walks(path: Path) -> None:
    names = load_names(path)
    assert mapped.declares_any(names.taxonomy) == _declares_any(names)
    assert retry_vectors.declares_retry(names) == _declares_retry(names)
    assert mapped.declares_nothing(names.taxonomy) == _maps_nothing(names)


def _maps_nothing(names: Names) -> bool:
    taxonomy = names.taxonomy
    return all(mapped.code_mapping(taxonomy, c) == mapped.NONE for c in taxonomy.codes)


def test_both_answers_are_met() -> None:
    # Cases that declare statuses and retry fields, and cases that declare none.
    answers = {
        (_declares_any(names), _declares_retry(names))
        for names in map(load_names, TAXONOMIES)
    }
    assert {a for a, _ in answers} == {True, False} == {r for _, r in answers}


_VARIANT = """\
format: 1
name: tiny
title: Tiny
version: 0.0.1
base: TinyError
fallback: oops
wrap: oops
{top}
details:
  wait: {{type: integer, required: false}}
domains:
  outer:
    title: Outer
    {outer}
  misc:
    title: Miscellaneous
    parent: outer
    {misc}
    codes:
      oops: {{retryable: true, meaning: Something went wrong{code}}}
"""
# One declaration, in one place, that the shortcuts must not miss: each is
# seen only through the lineage of a code (its parent domain's, the top's).
_ONE_THING = {
    "nothing": {},
    "top_http": {"top": "http_status: 500"},
    "top_grpc": {"top": "grpc_status: INTERNAL"},
    "docs_url": {"top": "docs_url: https://example.com/{code}"},
    "parent_http": {"outer": "http_status: 503"},
    "parent_grpc": {"outer": "grpc_status: UNAVAILABLE"},
    "domain_http": {"misc": "http_status: 502"},
    "code_grpc": {"code": ", grpc_status: ABORTED"},
    "throttling": {"code": ", throttling: true"},
    "top_retry": {"top": "retry_after: wait"},
    "parent_retry": {"outer": "retry_after: wait"},
    "domain_retry": {"misc": "retry_after: wait"},
    "code_retry": {"code": ", retry_after: wait"},
}


@pytest.mark.parametrize("where", sorted(_ONE_THING))
def test_the_shortcuts_miss_nothing_declared(where: str, tmp_path: Path) -> None:
    parts = {"top": "", "outer": "", "misc": "", "code": "", **_ONE_THING[where]}
    path = tmp_path / "taxonomy.yaml"
    path.write_text(_VARIANT.format(**parts), encoding="utf-8")
    names = load_names(path)
    assert mapped.declares_any(names.taxonomy) == _declares_any(names)
    assert retry_vectors.declares_retry(names) == _declares_retry(names)
    assert _declares_any(names) == (where not in ("nothing",) and "retry" not in where)
    assert mapped.declares_nothing(names.taxonomy) == _maps_nothing(names)
    assert _maps_nothing(names) == (where == "nothing")
    assert _declares_retry(names) == ("retry" in where)
