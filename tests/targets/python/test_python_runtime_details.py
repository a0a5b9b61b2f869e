"""The Python runtime's typed details as code: fields, defaults, templates, checks.

Issue 10 for ``generator/targets/python/runtime/_runtime.py`` itself: a toy
taxonomy here declares fields the way a generated class does (``fields``,
``message_template`` and a keyword-only ``__init__`` calling ``_typed``), and
each rule of docs "Typed details" is checked on the runtime directly.  The
expected texts are written out by hand from the README and, for numbers, from
ECMAScript's ``Number::toString`` (the rule every runtime reproduces).
"""

from __future__ import annotations

import enum
import pickle
import warnings
from collections.abc import Mapping
from typing import Any

import pytest

from taxogen.model import CASE_PATTERNS
from tests.targets.python.test_python_runtime import _load_runtime

rt = _load_runtime("_taxogen_runtime_details_under_test")


class Code(enum.StrEnum):
    JAM_ERROR = "jam_error"
    JAM_STUCK = "jam_stuck"
    JAM_PLAIN = "jam_plain"
    JAM_OLD = "jam_old"


class JamError(rt.TaxonomyError):  # type: ignore[misc]
    code = Code.JAM_ERROR
    domain = "jam"
    meaning = "Unspecified jam"
    retryable = False

    def to_payload(self) -> dict[str, Any]:  # as the package's root class does
        return self._payload()  # type: ignore[no-any-return]


class JamStuckError(JamError):
    code = Code.JAM_STUCK
    meaning = "The jam is stuck"
    fields = rt.declare_fields(
        rt.Field("toy_id", "string"),
        rt.Field("pieces", "integer", minimum=1),
        rt.Field(
            "mode", "string", required=False, default="soft", enum=("soft", "hard")
        ),
        rt.Field("ratio", "number", required=False, maximum=1),
        rt.Field("tags", "array", required=False, items=rt.Shape("string")),
        rt.Field("seen", "array", required=False, default=("a",)),
        rt.Field("flag", "boolean", required=False),
        rt.Field("context", "object", required=False),
    )
    message_template = rt.declare_template(
        "toy ", "toy_id", " jammed in ", "pieces", " {", "mode", "}"
    )

    def __init__(
        self,
        message: str | None = None,
        *,
        toy_id: str,
        pieces: int,
        mode: str | None = None,
        ratio: float | None = None,
        tags: list[str] | None = None,
        seen: list[Any] | None = None,
        flag: bool | None = None,
        context: dict[str, Any] | None = None,
        details: Mapping[str, object] | None = None,
        cause: BaseException | None = None,
        retryable: bool | None = None,
    ) -> None:
        given = {
            "toy_id": toy_id,
            "pieces": pieces,
            "mode": mode,
            "ratio": ratio,
            "tags": tags,
            "seen": seen,
            "flag": flag,
            "context": context,
        }
        self._typed(message, given, details, cause, retryable)


class JamPlainError(JamStuckError):
    """Below a typed class, a class without fields: untyped again."""

    code = Code.JAM_PLAIN
    meaning = "A plain jam"
    fields = ()
    message_template = None

    def __init__(
        self,
        message: str | None = None,
        *,
        details: Mapping[str, object] | None = None,
        cause: BaseException | None = None,
        retryable: bool | None = None,
    ) -> None:
        self._typed(message, {}, details, cause, retryable)


class JamOldError(JamStuckError):
    code = Code.JAM_OLD
    meaning = "An old jam"
    deprecated = "Too vague"


BY_CODE = {
    str(c.code): c for c in (JamError, JamStuckError, JamPlainError, JamOldError)
}
CLASSES = rt.Classes(JamError, BY_CODE, fallback="jam_error", wrap="jam_error")
from_payload = rt.decoder(CLASSES, CASE_PATTERNS["lower_snake"].pattern)


# ------------------------------------------------------------ numbers and templates

#: ECMAScript Number::toString, worked by hand: fixed notation for exponents
#: from -7 to 20, else d[.ddd]e±n; shortest round-trip digits; -0 is "0".
NUMBER_TEXTS = [
    (0, "0"),
    (0.0, "0"),
    (-0.0, "0"),
    (3.0, "3"),
    (-3.0, "-3"),
    (0.5, "0.5"),
    (300000, "300000"),
    (2**53, "9007199254740992"),
    (123456789.125, "123456789.125"),
    (0.1 + 0.2, "0.30000000000000004"),
    (1e16, "10000000000000000"),
    (1e20, "100000000000000000000"),
    (1e21, "1e+21"),
    (1.5e22, "1.5e+22"),
    (1.7976931348623157e308, "1.7976931348623157e+308"),
    (0.000123, "0.000123"),
    (1e-6, "0.000001"),
    (1.5e-6, "0.0000015"),
    (1e-7, "1e-7"),
    (1.5e-7, "1.5e-7"),
    (-2.5e-10, "-2.5e-10"),
    (1.23e-18, "1.23e-18"),
    (5e-324, "5e-324"),
    # An integer past 2**53 is the double JavaScript holds it as (issue 29 §5).
    (2**53 + 1, "9007199254740992"),
    (10**21, "1e+21"),
    (-(10**21) - 1, "-1e+21"),
    (2**70 + 1, "1.1805916207174113e+21"),
]


@pytest.mark.parametrize(("value", "text"), NUMBER_TEXTS)
def test_numbers_render_as_javascript_writes_them(value: float, text: str) -> None:
    assert rt.render(("", "n", ""), {"n": value}) == text


def test_a_template_renders_strings_booleans_and_literal_text() -> None:
    pieces = ("a ", "s", " b ", "t", " c ", "f", "")
    details = {"s": "{x}", "t": True, "f": False}
    assert rt.render(pieces, details) == "a {x} b true c false"
    assert rt.render(("no placeholders",), {}) == "no placeholders"


# ------------------------------------------------------------------ construction


def test_the_constructor_renders_the_template_and_fills_in_defaults() -> None:
    err = JamStuckError(toy_id="t1", pieces=3)
    assert err.message == "toy t1 jammed in 3 {soft}"
    assert dict(err.details) == {
        "toy_id": "t1",
        "pieces": 3,
        "mode": "soft",
        "seen": ["a"],
    }
    assert err.to_payload()["details"] == dict(err.details)
    # Each error gets its own copy of a default.
    err.details["seen"].append("b")
    assert JamStuckError(toy_id="t2", pieces=1).details["seen"] == ["a"]


def test_an_explicit_message_wins_and_options_still_work() -> None:
    cause = KeyError("k")
    err = JamStuckError("mine", toy_id="t", pieces=1, cause=cause, retryable=True)
    assert err.message == "mine" and err.__cause__ is cause and err.retryable is True


def test_given_optional_fields_and_extra_keys_are_kept() -> None:
    err = JamStuckError(
        toy_id="t", pieces=2, mode="hard", tags=("x", "y"),  # a tuple is an array
        details={"extra": [1], "toy_id": "lost"},  # the declared field wins
    )  # fmt: skip
    assert dict(err.details) == {
        "extra": [1], "toy_id": "t", "pieces": 2, "mode": "hard",
        "tags": ["x", "y"], "seen": ["a"],
    }  # fmt: skip
    assert err.message == "toy t jammed in 2 {hard}"


MISFITS = [
    ({"toy_id": 1}, TypeError, "details.toy_id: expected a string, got a number"),
    ({"pieces": 1.5}, TypeError, "details.pieces: expected an integer, got 1.5"),
    (
        {"pieces": True},
        TypeError,
        "details.pieces: expected an integer, got a boolean",
    ),
    ({"pieces": 0}, ValueError, "details.pieces: expected at least 1, got 0"),
    ({"ratio": 2}, ValueError, "details.ratio: expected at most 1, got 2"),
    (
        {"mode": "odd"},
        ValueError,
        'details.mode: expected one of "soft", "hard", got \'odd\'',
    ),
    (
        {"tags": ["a", 2]},
        TypeError,
        "details.tags[1]: expected a string, got a number",
    ),
    ({"tags": "ab"}, TypeError, "details.tags: expected an array, got a string"),
    ({"flag": 1}, TypeError, "details.flag: expected a boolean, got a number"),
    (
        {"context": [1]},
        TypeError,
        "details.context: expected an object, got an array",
    ),
]


@pytest.mark.parametrize(("given", "kind", "message"), MISFITS)
def test_the_constructor_checks_every_declared_field(
    given: dict[str, Any], kind: type[Exception], message: str
) -> None:
    with pytest.raises(kind) as caught:
        JamStuckError(**{"toy_id": "t", "pieces": 1, **given})
    assert str(caught.value) == message


def test_an_integer_field_takes_a_whole_float() -> None:
    whole: Any = 3.0
    assert JamStuckError(toy_id="t", pieces=whole).message == "toy t jammed in 3 {soft}"


def test_a_class_without_fields_below_a_typed_one_is_untyped() -> None:
    err = JamPlainError(details={"any": 1})
    assert err.message == "A plain jam" and dict(err.details) == {"any": 1}


def test_a_deprecated_typed_class_warns_at_the_caller() -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        JamOldError(toy_id="t", pieces=1)
    assert [w.filename for w in caught] == [__file__]


def test_typed_errors_pickle_whole() -> None:
    err = JamStuckError(toy_id="t", pieces=2, cause=ValueError("v"))
    clone = pickle.loads(pickle.dumps(err))
    assert type(clone) is JamStuckError
    assert (clone.message, dict(clone.details)) == (err.message, dict(err.details))


# ---------------------------------------------------------------------- decoding


def _payload(code: str = "jam_stuck", **details: object) -> dict[str, object]:
    return {"code": code, "message": "m", "retryable": False, "details": details}


@pytest.mark.parametrize(
    ("details", "field"),
    [
        ({}, "details.toy_id"),  # the first missing required field, in order
        ({"pieces": 1}, "details.toy_id"),
        ({"toy_id": "t"}, "details.pieces"),
        ({"toy_id": None, "pieces": 1}, "details.toy_id"),  # null fits no field
        ({"toy_id": "t", "pieces": "1"}, "details.pieces"),
        ({"toy_id": "t", "pieces": 1, "mode": "odd"}, "details.mode"),
        ({"toy_id": "t", "pieces": 1, "tags": [None]}, "details.tags"),
    ],
)
def test_a_known_code_s_fields_are_checked_when_decoded(
    details: dict[str, object], field: str
) -> None:
    with pytest.raises(rt.InvalidPayloadError) as caught:
        from_payload(_payload(**details))
    assert caught.value.field == field
    assert str(caught.value).startswith(field)


def test_details_absent_or_null_lack_the_required_fields() -> None:
    for payload in (
        {"code": "jam_stuck", "message": "m", "retryable": False},
        {"code": "jam_stuck", "message": "m", "retryable": False, "details": None},
    ):
        with pytest.raises(rt.InvalidPayloadError) as caught:
            from_payload(payload)
        assert caught.value.field == "details.toy_id"


def test_decoding_keeps_what_was_received_and_fills_in_nothing() -> None:
    err = from_payload(_payload(toy_id="t", pieces=2.0, extra={"k": 1}))
    assert type(err) is JamStuckError and err.message == "m"
    assert dict(err.details) == {"toy_id": "t", "pieces": 2.0, "extra": {"k": 1}}


def test_unknown_codes_and_untyped_classes_are_not_checked() -> None:
    assert type(from_payload(_payload("jam_new", toy_id=1))) is JamError
    assert type(from_payload(_payload("jam_plain", toy_id=1))) is JamPlainError


# ------------------------------------------------- one number model (issue 29 §5)

#: JSON numbers are read as doubles by every runtime: the smallest integer a
#: double cannot hold rounds up to 2**1024 (JavaScript reads it as Infinity),
#: and the largest double, written as an integer, is that double.
FIRST_INFINITE = 2**1024 - 2**970
LARGEST_DOUBLE = 2**1024 - 2**971


@pytest.mark.parametrize("sign", [1, -1])
def test_an_integer_a_double_cannot_hold_is_no_finite_number(sign: int) -> None:
    for details in (
        {"n": sign * FIRST_INFINITE},
        {"n": [{"m": sign * 10**400}]},
        {"n": sign * 10**5000},
    ):
        with pytest.raises(rt.InvalidPayloadError) as caught:
            from_payload(_payload("jam_error", **details))
        assert caught.value.field == "details"
        assert str(caught.value).endswith("is not a finite number"), caught.value
        with pytest.raises(ValueError):
            JamError(details=details)
    err = from_payload(_payload("jam_error", n=sign * LARGEST_DOUBLE))
    assert err.details["n"] == sign * 1.7976931348623157e308


class JamWideError(JamError):
    code = "jam_wide"
    meaning = "Bounds past 2**53"
    fields = rt.declare_fields(
        rt.Field("n", "number", minimum=-1e20, maximum=1e20),
    )


WIDE = rt.decoder(
    rt.Classes(JamError, {"jam_wide": JamWideError, **BY_CODE}, fallback="jam_error",
               wrap="jam_error"),
    CASE_PATTERNS["lower_snake"].pattern,
)  # fmt: skip


@pytest.mark.parametrize(
    ("value", "ok"),
    [
        # 10**20 + 1 is 1e20 as a double, as JavaScript and Go read it: within.
        (10**20 + 1, True),
        (-(10**20) - 1, True),
        (10**20 + 8191, True),
        (10**20 + 8193, False),  # the next double up (1e20 + 2**14): past 1e20
        (1.0000000000000002e20, False),
        (10**21, False),
    ],
)
def test_integers_are_compared_with_bounds_as_doubles(value: int, ok: bool) -> None:
    payload = _payload("jam_wide", n=value)
    if ok:
        assert WIDE(payload).details["n"] == value
    else:
        with pytest.raises(rt.InvalidPayloadError) as caught:
            WIDE(payload)
        assert caught.value.field == "details.n"


@pytest.mark.parametrize("name", ["Wire", "Shape", "Field", "_Check"])
def test_records_are_what_typing_namedtuple_makes_of_them(name: str) -> None:
    # The runtime builds its records with collections.namedtuple (issue 34 §3:
    # typing.NamedTuple compiled every annotation at each import).  The oracle is
    # typing.NamedTuple itself, given the very class the runtime declares.
    import ast
    import typing

    from tests.targets.python.test_python_runtime import RUNTIME

    tree = ast.parse(RUNTIME.read_text(encoding="utf-8"))
    (node,) = [
        n for n in ast.walk(tree) if isinstance(n, ast.ClassDef) and n.name == name
    ]
    assert [ast.unparse(base) for base in node.bases] == ["_Record"]
    node.bases = [ast.Name("NamedTuple", ast.Load())]
    namespace: dict[str, Any] = {"NamedTuple": typing.NamedTuple}
    namespace.update(vars(rt))
    source = "from __future__ import annotations\n" + ast.unparse(node)
    exec(compile(source, str(RUNTIME), "exec"), namespace)
    expected, made = namespace[name], getattr(rt, name)
    assert made._fields == expected._fields
    assert made._field_defaults == expected._field_defaults
    assert made.__match_args__ == expected.__match_args__
    assert made.__doc__ == expected.__doc__
    assert made.__mro__[1:] == (tuple, object)
    assert list(made.__annotations__) == list(expected.__annotations__)
    required = [f for f in expected._fields if f not in expected._field_defaults]
    values = [f"v{i}" for i, _ in enumerate(required)]
    assert repr(made(*values)) == repr(expected(*values)).replace(
        f"{expected.__qualname__}(", f"{made.__qualname__}("
    )
    assert made(*values) == tuple(expected(*values))
    assert made(*values)._asdict() == expected(*values)._asdict()
