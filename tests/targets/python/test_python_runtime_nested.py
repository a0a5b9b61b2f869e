"""The Python runtime's nested details (issue 30 §7) as code: members checked.

A toy class here declares the shapes docs "Nested objects" names the way a
generated class does (``_runtime.Field(..., fields=(...))``, an array of typed
objects ``items=_runtime.Shape("object", fields=(...))``), and each rule of the
issue is checked on the runtime directly: a missing or misfitting member is
blamed on the path of the deepest declared member (``details.causes[1].reason``),
a value that is no object, or an item of scalars, on the field itself; members
not declared are kept.  The expected texts are written out by hand.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from typing import Any

import pytest

from taxogen.model import CASE_PATTERNS
from tests.targets.python.test_python_runtime import _load_runtime

rt = _load_runtime("_taxogen_runtime_nested_under_test")


class Code(enum.StrEnum):
    KIT_ERROR = "kit_error"
    KIT_BAD = "kit_bad"


OWNER = rt.Field(
    "owner",
    "object",
    required=False,
    fields=(rt.Field("uid", "string"), rt.Field("generation", "integer", minimum=1)),
)


class KitError(rt.TaxonomyError):  # type: ignore[misc]
    code = Code.KIT_ERROR
    domain = "kit"
    meaning = "Unspecified kit"
    retryable = False

    def to_payload(self) -> dict[str, Any]:  # as the package's root class does
        return self._payload()  # type: ignore[no-any-return]


class KitBadError(KitError):
    code = Code.KIT_BAD
    meaning = "The kit is bad"
    fields = rt.declare_fields(
        rt.Field(
            "causes",
            "array",
            required=False,
            items=rt.Shape(
                "object",
                fields=(
                    rt.Field("reason", "string", enum=("A", "B")),
                    rt.Field("class", "string", required=False),
                ),
            ),
        ),
        rt.Field("resource", "object", fields=(rt.Field("kind", "string"), OWNER)),
        rt.Field("scores", "array", required=False, items=rt.Shape("number")),
        rt.Field("tags", "array", required=False, items=rt.Shape("object")),
    )

    def __init__(
        self,
        message: str | None = None,
        *,
        resource: Mapping[str, object],
        causes: list[Mapping[str, object]] | None = None,
        details: Mapping[str, object] | None = None,
    ) -> None:
        given = {"causes": causes, "resource": resource}
        self._typed(message, given, details, None, None)


CLASSES = rt.Classes(
    KitError,
    {"kit_error": KitError, "kit_bad": KitBadError},
    fallback="kit_error",
    wrap="kit_error",
)
from_payload = rt.decoder(CLASSES, CASE_PATTERNS["lower_snake"].pattern)

GOOD: dict[str, Any] = {"kind": "Pod", "owner": {"uid": "u", "generation": 2}}


def _payload(**details: object) -> dict[str, object]:
    return {"code": "kit_bad", "message": "m", "retryable": False, "details": details}


@pytest.mark.parametrize(
    ("details", "field", "text"),
    [
        (
            {"resource": {"owner": {"uid": "u"}}},
            "details.resource.kind",
            "details.resource.kind: required, missing",
        ),
        (
            {"resource": {"kind": "Pod", "owner": {"generation": 1}}},
            "details.resource.owner.uid",
            "details.resource.owner.uid: required, missing",
        ),
        (
            {"resource": {"kind": "Pod", "owner": {"uid": "u", "generation": 0}}},
            "details.resource.owner.generation",
            "details.resource.owner.generation: expected at least 1, got 0",
        ),
        (
            {"resource": {"kind": "Pod", "owner": []}},
            "details.resource.owner",
            "details.resource.owner: expected an object, got an array",
        ),
        (
            {"resource": "Pod"},
            "details.resource",
            "details.resource: expected an object, got a string",
        ),
        (
            {"resource": GOOD, "causes": [{"reason": "A"}, {"class": "c"}]},
            "details.causes[1].reason",
            "details.causes[1].reason: required, missing",
        ),
        (
            {"resource": GOOD, "causes": [{"reason": "A", "class": 7}]},
            "details.causes[0].class",
            "details.causes[0].class: expected a string, got a number",
        ),
        (
            {"resource": GOOD, "causes": [{"reason": "C"}]},
            "details.causes[0].reason",
            'details.causes[0].reason: expected one of "A", "B", got \'C\'',
        ),
        # An item that is no object, or a bad scalar item, names its array.
        (
            {"resource": GOOD, "causes": [{"reason": "A"}, "A"]},
            "details.causes",
            "details.causes[1]: expected an object, got a string",
        ),
        (
            {"resource": GOOD, "scores": [1, "x"]},
            "details.scores",
            "details.scores[1]: expected a number, got a string",
        ),
        (
            {"resource": GOOD, "tags": [{}, 3]},
            "details.tags",
            "details.tags[1]: expected an object, got a number",
        ),
    ],
)
def test_the_deepest_missing_or_misfitting_member_is_blamed(
    details: dict[str, object], field: str, text: str
) -> None:
    with pytest.raises(rt.InvalidPayloadError) as caught:
        from_payload(_payload(**details))
    assert (caught.value.field, str(caught.value)) == (field, text)


def test_undeclared_members_are_kept_and_optional_ones_may_be_absent() -> None:
    details = {
        "resource": {"kind": "Pod", "zone": {"a": [1]}},
        "causes": [{"reason": "B", "note": None}],
        "tags": [{"k": "v"}],
    }
    err = from_payload(_payload(**details))
    assert type(err) is KitBadError
    assert err.to_payload()["details"] == details


def test_the_constructor_checks_members_as_decoding_does() -> None:
    err = KitBadError(resource={"kind": "Pod"}, causes=[{"reason": "A"}])
    assert err.details == {"causes": [{"reason": "A"}], "resource": {"kind": "Pod"}}
    with pytest.raises(TypeError, match=r"^details\.resource\.kind: required"):
        KitBadError(resource={})
    with pytest.raises(ValueError, match=r"^details\.causes\[0\]\.reason: expected"):
        KitBadError(resource={"kind": "Pod"}, causes=[{"reason": "Z"}])
