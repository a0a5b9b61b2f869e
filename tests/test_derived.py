"""Names.derived: the data of a whole taxonomy made once, for those names only.

A memo (issue 34: "work done per taxonomy is done once"), so it is tested as
one: with the memo on, what it answers is what making it afresh gives, for
each of two taxonomies (an answer that ignored which names it was asked for
would hand the second the first's), and a copy of the names starts afresh.
The oracle is the function made afresh on names no one asked before.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

from taxogen.naming import Names
from taxogen.pipeline import load_names
from taxogen.targets import mapped
from tests.support import REPO

CASES = REPO / "tests" / "cases"


def _names(case: str) -> Names:
    return load_names(Path(CASES / case / "taxonomy.yaml"))


def test_made_once_per_names() -> None:
    names = _names("http_api")
    calls: list[Names] = []

    def make(given: Names) -> int:
        calls.append(given)
        return len(given.codes)

    assert names.derived(make) == names.derived(make) == len(names.codes)
    assert calls == [names]


def test_each_names_has_its_own() -> None:
    # Two taxonomies whose classes map to different statuses, asked in one
    # order and then, on other names, in the other: each answers its own.
    cases = ("http_api", "oauth_statuses")
    expected = {case: mapped.stated(_names(case)) for case in cases}
    assert expected["http_api"] != expected["oauth_statuses"]
    for case in reversed(cases):
        names = _names(case)
        assert mapped.stated(names) == expected[case]
        # class_mappings against the function that makes it, with no memo.
        assert mapped.class_mappings(names) == mapped._class_mappings(names)
        assert names.codes == tuple(c for d in names.domains for c in d.codes)


def test_a_copy_of_the_names_starts_afresh() -> None:
    names = _names("http_api")
    mapped.stated(names)
    other = _names("oauth_statuses")
    # The same names but another taxonomy's domains: nothing of the first kept.
    copy = dataclasses.replace(
        names,
        taxonomy=other.taxonomy,
        base=other.base,
        domains=other.domains,
        fallback=other.fallback,
        wrap=other.wrap,
        class_domains=other.class_domains,
    )
    assert mapped.stated(copy) == mapped.stated(other)
    assert mapped.stated(copy) != mapped.stated(names)


def test_what_is_handed_out_is_a_copy() -> None:
    names = _names("http_api")
    mapped.stated(names).clear()
    mapped.class_mappings(names).clear()
    assert mapped.stated(names) == mapped.stated(_names("http_api"))
    assert mapped.class_mappings(names) == mapped._class_mappings(names)


def test_what_each_class_states_is_each_attribute_its_parent_maps_otherwise() -> None:
    # The oracle: every attribute but http_statuses compared one by one (where
    # _stated answers a class equal to its parent in every field at once).
    attributes = [f.name for f in dataclasses.fields(mapped.Mapping)]
    for case in sorted(path.name for path in CASES.iterdir()):
        names = _names(case)
        classes = mapped.class_mappings(names)
        for name, pairs in mapped.stated(names).items():
            parent, mapping = classes[name]
            inherited = classes[parent][1] if parent in classes else mapped.NONE
            assert pairs == tuple(
                (attribute, getattr(mapping, attribute))
                for attribute in attributes
                if attribute != "http_statuses"
                and getattr(mapping, attribute) != getattr(inherited, attribute)
            ), (case, name)
