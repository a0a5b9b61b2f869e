"""Issue 30 §2 in Go: ``HTTPStatus()`` is each error's own, ``WithHTTPStatus``
sets it.

``tests/targets/go/statuses_test.go`` runs in the generated Go modules of
``tests/cases/oauth_statuses`` (no status on the wire; ``invalid_client`` a 400
or a 401) and ``tests/cases/k8s_status`` (the status in ``code``), told what the
YAML says (``tests/spec_oracle.py``).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.spec_oracle import read_spec
from tests.support import cases
from tests.targets.go.test_go import _add_test, _go, _write
from tests.targets.go.test_go import go_env  # noqa: F401  (the fixture, by name)

CASES = {case.name: case for case in cases()}
STATUSES_TEST = Path(__file__).with_name("statuses_test.go")


@pytest.mark.parametrize(
    ("case", "code"),
    [("oauth_statuses", "invalid_client"), ("k8s_status", "not_found")],
)
def test_each_error_has_its_own_http_status_in_go(
    case: str, code: str, tmp_path: Path, go_env: dict[str, str]  # noqa: F811
) -> None:
    spec = read_spec(CASES[case].taxonomy)
    entry = spec.codes[code]
    given = {
        "code": entry.wire,
        "statuses": entry.http_statuses or [entry.http_status],
        "member": spec.payload.get("status") or "",
        "code_member": spec.payload["code"],
    }
    module = _write(CASES[case], tmp_path)
    _add_test(module, STATUSES_TEST, "statuses")
    done = _go(
        ["go", "test", "-count=1", "./statuses"],
        module,
        {**go_env, "TAXOGEN_STATUS_SPEC": json.dumps(given)},
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "ok" in done.stdout, done.stdout
