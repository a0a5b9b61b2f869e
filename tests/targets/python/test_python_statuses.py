"""Issue 30 §2 in the generated Python packages: each error's own HTTP status.

"Every error has its own HTTP status (Python ``err.http_status``): the received
one where the payload carries it, else a constructor argument, else its
class's."  The packages are the golden ones of ``tests/cases/oauth_statuses``
(RFC 6749's ``invalid_client``, a 400 or a 401), ``tests/cases/http_api`` (typed
constructors, whose keyword arguments take the status too) and
``tests/cases/k8s_status`` (the status travels in the body's ``code``).  The
statuses expected are read from the YAML, never from the package.
"""

from __future__ import annotations

import pickle
from typing import Any

import pytest

from tests.spec_oracle import read_spec
from tests.support import Case, cases, import_generated

CASES = {case.name: case for case in cases()}


def _case(name: str) -> tuple[Case, Any]:
    case = CASES[name]
    return case, import_generated(case)


def test_the_constructor_s_status_is_the_error_s_own_not_its_class_s() -> None:
    case, mod = _case("oauth_statuses")
    listed = read_spec(case.taxonomy).codes["invalid_client"].http_statuses
    assert listed == [400, 401]  # the YAML: the first is the default
    plain = mod.InvalidClientError()
    assert plain.http_status == 400 == mod.InvalidClientError.http_status
    err = mod.InvalidClientError("bad client", http_status=401)
    assert err.http_status == 401
    # Its own: the class, and every other error of it, keep the default.
    assert mod.InvalidClientError.http_status == 400
    assert mod.InvalidClientError().http_status == 400
    # The status is not on this protocol's wire (no payload.status).
    assert "401" not in repr(err.to_payload()) and 401 not in err.to_payload().values()
    # A status the code does not list is still an HTTP status: taken.
    assert mod.InvalidGrantError(http_status=503).http_status == 503
    # It survives pickling and copying, as every attribute of an error does.
    assert pickle.loads(pickle.dumps(err)).http_status == 401


def test_a_typed_constructor_takes_the_status_beside_its_fields() -> None:
    case, mod = _case("http_api")
    spec = read_spec(case.taxonomy)
    default = spec.codes["parameter_missing"].http_status
    assert default == 400  # the request domain's
    err = mod.ParameterMissingError(param="amount", http_status=422)
    assert (err.http_status, err.details["param"]) == (422, "amount")
    assert mod.ParameterMissingError(param="amount").http_status == default
    optional = mod.ParameterInvalidIntegerError(http_status=422)
    assert optional.http_status == 422


@pytest.mark.parametrize(
    ("value", "error", "text"),
    [
        ("401", TypeError, "http_status: expected an integer, got a string"),
        (401.0, TypeError, "http_status: expected an integer, got a number"),
        (True, TypeError, "http_status: expected an integer, got a boolean"),
        (99, ValueError, "expected an HTTP status from 100 to 599, got 99"),
        (600, ValueError, "expected an HTTP status from 100 to 599, got 600"),
    ],
)
def test_a_status_that_is_no_http_status_is_refused(
    value: object, error: type[Exception], text: str
) -> None:
    _, mod = _case("oauth_statuses")
    with pytest.raises(error, match=text):
        mod.InvalidClientError(http_status=value)
    _, typed = _case("http_api")
    with pytest.raises(error, match=text):
        typed.ParameterMissingError(param="p", http_status=value)


def test_the_bounds_are_http_statuses() -> None:
    _, mod = _case("oauth_statuses")
    assert mod.InvalidClientError(http_status=100).http_status == 100
    assert mod.InvalidClientError(http_status=599).http_status == 599


def test_the_constructor_s_status_is_written_in_the_status_member() -> None:
    case, mod = _case("k8s_status")
    assert read_spec(case.taxonomy).payload["status"] == "code"
    err = mod.NotFoundError('pods "x" not found', http_status=418)
    assert err.to_payload()["code"] == 418
    assert mod.NotFoundError("m").to_payload()["code"] == 404  # its code's
    # Received: the body's status, over the class's, and written back.
    got = mod.from_payload({"reason": "NotFound", "message": "m", "code": 418})
    assert got.http_status == 418 and got.to_payload()["code"] == 418
    assert type(got).http_status == 404
