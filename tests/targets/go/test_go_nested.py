"""Issue 30 §7 in Go on real bodies: the Kubernetes catalogue's Status bodies
with ``details.causes`` (tests/catalogues/kubernetes/bodies/, quoted from live
API servers) go through the Go package of tests/cases/kubernetes (the
catalogue's taxonomy): ``k8s_causes_test.go`` receives each, reads its causes
as the generated structs (``Causes[i].Reason``), writes it back as it came
(the empty ``metadata`` aside, which that taxonomy does not keep: NOTES.md),
and finds a cause whose ``field`` is no string refused at
``details.causes[i].field``.  The oracle is the bodies themselves.
"""

from __future__ import annotations

import json
from pathlib import Path

from tests.support import REPO, cases
from tests.targets.go.test_go import _add_test, _go, _write
from tests.targets.go.test_go import go_env  # noqa: F401  (the fixture, by name)

CASE = next(case for case in cases() if case.name == "kubernetes")
BODIES = REPO / "tests" / "catalogues" / "kubernetes" / "bodies"
CAUSES_TEST = REPO / "tests" / "targets" / "go" / "k8s_causes_test.go"


def _bodies() -> list[object]:
    index = json.loads((BODIES / "index.json").read_text(encoding="utf-8"))
    found = [json.loads((BODIES / e["file"]).read_text("utf-8")) for e in index]
    return [body for body in found if body["details"].get("causes")]


def test_real_causes_round_trip_through_the_go_structs(
    tmp_path: Path, go_env: dict[str, str]  # noqa: F811
) -> None:
    bodies = _bodies()
    assert len(bodies) >= 2
    module = _write(CASE, tmp_path)
    _add_test(module, CAUSES_TEST, "causes")
    env = {**go_env, "TAXOGEN_BODIES": json.dumps(bodies)}
    done = _go(["go", "test", "-count=1", "-v", "./causes"], module, env)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.count("--- PASS") == 2, done.stdout
