"""Nested details in Java (issue 30 §7, docs/java.md "Nested objects").

``NestedCheck.java`` (compiled with every case, ``compiled_java``) is a consumer
of tests/cases/nested_details and tests/cases/kubernetes: it builds errors from
the nested records, reads them back by their typed accessors
(``causes().get(0).reason()``, also from the catalogue's real Status bodies
with causes), and checks the payload each writes and the path each refusal
names.  The records' names are the page's rule, read off the
YAML here: one record per declared object, a shared field's once.
"""

from __future__ import annotations

import re

from taxogen.pipeline import build_plan
from tests.support import REPO
from tests.targets.java.support import CLASSPATH, Compiled, run

CASES = REPO / "tests" / "cases"


#: Real Kubernetes Status bodies whose details hold causes.
BODIES = sorted(
    path
    for path in (REPO / "tests/catalogues/kubernetes/bodies").glob("*.json")
    if '"causes"' in path.read_text(encoding="utf-8")
)


def test_a_consumer_reads_and_writes_the_nested_records(
    compiled_java: Compiled,
) -> None:
    assert len(BODIES) >= 2
    classpath = f"{CLASSPATH}:{compiled_java.classes}"
    done = run(["java", "-cp", classpath, "NestedCheck", *map(str, BODIES)])
    assert done.returncode == 0, done.stdout + done.stderr
    assert ", 0 failed" in done.stdout and "checked " in done.stdout, done.stdout


def _records(case: str) -> dict[str, str]:
    """The case's Java sources that are records: name → source."""
    plan = build_plan(CASES / case / "taxonomy.yaml", ["java"])
    found = {}
    for path, data in plan.items():
        text = data.decode()
        head = re.search(r"\npublic record (\w+)\(", text)
        if head and "/runtime/" not in path:
            found[head.group(1)] = text
    return found


def test_each_declared_object_is_one_record_named_by_where_it_is_declared() -> None:
    """nested_details declares three objects with fields: the top level's
    ``causes`` items (base ApiError: ApiDetails), the domain resource's
    ``resource`` (class ResourceError: ResourceDetails) and its ``owner``.
    Each is one record, whatever number of codes carry it."""
    records = _records("nested_details")
    nested = {n for n, text in records.items() if "Fields.Nested" in text}
    assert nested == {
        "ApiDetailsCausesItem",
        "ResourceDetailsResource",
        "ResourceDetailsResourceOwner",
    }
    # Every code's details record (4 codes: all carry causes) holds the one type.
    for name in ("UnknownDetails", "InternalDetails", "NotFoundDetails"):
        assert "java.util.List<ApiDetailsCausesItem> causes" in records[name]
    head = records["ResourceDetailsResource"].split(") implements")[0]
    # `class` is a Java keyword: the component is class_, the wire name class.
    assert head.endswith(
        "(String kind, String name, String class_, ResourceDetailsResourceOwner owner"
    )
    assert 'details.put("class", this.class_);' in records["ResourceDetailsResource"]
    # Free-form objects stay maps: `tags` items declare no fields.
    assert "java.util.List<Object> tags" in records["InvalidDetails"]


def test_kubernetes_status_causes_are_one_record() -> None:
    records = _records("kubernetes")
    nested = {n for n, text in records.items() if "Fields.Nested" in text}
    assert nested == {"StatusDetailsCausesItem"}  # base StatusError
    head = records["StatusDetailsCausesItem"].split(") implements")[0]
    assert head.endswith("(String reason, String message, String field")
