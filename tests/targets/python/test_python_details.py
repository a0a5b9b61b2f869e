"""typing_of: what each class states of its details beyond its parent's.

Each class's own fields and template are made once (as itself and as the parent
of the classes below it): every class must still state its own, never another's.
"""

from __future__ import annotations

from taxogen.pipeline import load_taxonomy
from taxogen.naming import name_taxonomy
from taxogen.targets.python.details import typing_of
from tests.support import REPO


def _own_fields(by_class: dict[str, tuple[str, ...]], name: str) -> tuple[str, ...]:
    return by_class.get(name, ())  # the root or a domain's own class: none


def test_each_class_states_its_own_fields_where_they_differ() -> None:
    path = REPO / "tests" / "cases" / "typed_details" / "taxonomy.yaml"
    names = name_taxonomy(load_taxonomy(path), str(path))
    by_class = {c.class_name: tuple(f.name for f in c.code.fields) for c in names.codes}
    typings, _ = typing_of(names)
    stated = 0
    for named in names.codes:
        own = _own_fields(by_class, named.class_name)
        typing = typings.get(named.class_name)
        if own == _own_fields(by_class, named.parent):
            assert typing is None or typing.fields is None, named.class_name
            continue
        stated += 1
        assert typing is not None and typing.fields is not None, named.class_name
        for field in own:
            assert f'"{field}"' in typing.fields, (named.class_name, field)
        assert [p.name for p in typing.params] == list(own)
    # The domain with details of its own: its base class and every code below.
    assert stated >= 6
