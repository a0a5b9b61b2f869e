"""The generated Python package, exercised by running it, for every case.

Expectations come from the taxonomy's own YAML read by the README's rules
(:mod:`tests.spec_oracle`), never from the generator's ``Names`` or model, so a
bug in naming cannot agree with itself; and never from a copy of one taxonomy,
so each test states a rule that must hold for any taxonomy.
"""

from __future__ import annotations

import copy
import enum
import json
import importlib.util
import logging
import math
import pickle
import re
import types
from typing import Any

import pytest

from tests import spec_oracle as oracle
from tests.support import (
    Case,
    import_generated,
    require_tool,
    unanchored,
    today_case_ids,
    today_cases,
)


@pytest.fixture(params=today_cases(), ids=today_case_ids())
def case(request: pytest.FixtureRequest) -> Case:
    return request.param  # type: ignore[no-any-return]


@pytest.fixture
def mod(case: Case) -> types.ModuleType:
    return import_generated(case)


@pytest.fixture
def spec(case: Case) -> oracle.Spec:
    """The taxonomy as its YAML says it: the oracle of each code's declared fields."""
    return oracle.read_spec(case.taxonomy)


def _cls(mod: types.ModuleType, name: str) -> type[Any]:
    return getattr(mod, name)  # type: ignore[no-any-return]


def _codes(spec: oracle.Spec) -> list[oracle.SpecCode]:
    """The live codes, in the order the YAML gives them."""
    return list(spec.codes.values())


def _unknown_code(spec: oracle.Spec) -> str | int:
    """A well-formed code no code has on the wire, live or removed (README "Wire
    codes")."""
    return spec.other_wire("zz_not_a_code")


def _bad_case_code(spec: oracle.Spec) -> str:
    """A code spelt in the other case: well-formed for the other style only."""
    code = spec.first.code
    return code.upper() if spec.code_case == "lower_snake" else code.lower()


# ------------------------------------------------------------------ the classes
def test_every_code_has_its_class_with_class_level_attributes(
    mod: types.ModuleType, spec: oracle.Spec
) -> None:
    for code in _codes(spec):
        cls = _cls(mod, code.class_name)
        assert cls.__name__ == code.class_name
        assert cls.code == code.wire
        assert isinstance(cls.code, mod.ErrorCode)
        assert cls.domain == code.domain
        assert isinstance(cls.domain, mod.Domain)
        assert cls.retryable is code.retryable
        assert cls.meaning == code.meaning


def test_each_class_docstring_is_its_meaning_and_deprecation(
    mod: types.ModuleType, spec: oracle.Spec
) -> None:
    """Issue 33 §8: an editor's hover shows what the code means (and that it
    is deprecated, and for what), as the TypeScript JSDoc does."""
    for code in _codes(spec):
        doc = _cls(mod, code.class_name).__doc__
        assert doc is not None, code.class_name
        paragraphs = [" ".join(part.split()) for part in doc.split("\n\n")]
        assert paragraphs[0] == " ".join(code.meaning.split()), code.class_name
        assert "retryable" in paragraphs[1]
        assert ("not retryable" in paragraphs[1]) is not code.retryable
        if code.deprecated is not None:
            text = " ".join(doc.split())
            assert f"Deprecated: {' '.join(code.deprecated['reason'].split())}" in (
                text
            )
            if code.deprecated.get("replaced_by"):
                assert f"``{code.deprecated['replaced_by']}``" in text


def test_hierarchy_code_to_domain_base_to_root(
    mod: types.ModuleType, spec: oracle.Spec
) -> None:
    base = _cls(mod, spec.base)
    assert issubclass(base, Exception)
    for key, class_name in spec.domains.items():
        domain_cls = _cls(mod, class_name)
        # docs "Hierarchies": its parent domain's class, else the base.
        parent = spec.parents[key]
        above = base if parent is None else _cls(mod, spec.domains[parent])
        assert domain_cls.__bases__ == (above,)
        for code in _codes(spec):
            if code.domain != key:
                continue
            cls = _cls(mod, code.class_name)
            # docs "Names": the <domain>_error code's class is the domain's.
            if spec.domain_codes.get(key) == code.code:
                assert cls is domain_cls
            else:
                assert cls.__bases__ == (domain_cls,)


def test_no_class_name_ends_in_error_error(
    mod: types.ModuleType, spec: oracle.Spec
) -> None:
    # docs "Names": PascalCase plus Error, without doubling, so a code whose
    # key ends in one `_error` has a class that ends in one `Error`.
    for code in _codes(spec):
        key = code.code.lower()
        if key.endswith("_error") and not key.endswith("error_error"):
            assert not mod.lookup(code.wire).__name__.endswith("ErrorError")


def test_enums_are_str_enums_keyed_by_upper_snake(
    mod: types.ModuleType, spec: oracle.Spec
) -> None:
    # docs "Wire codes": an IntEnum of integer codes, else a StrEnum; members
    # named by the key, valued by the wire code.
    assert issubclass(mod.ErrorCode, enum.IntEnum if spec.integer else enum.StrEnum)
    assert issubclass(mod.Domain, enum.StrEnum)
    assert [m.value for m in mod.ErrorCode] == [c.wire for c in _codes(spec)]
    assert [m.name for m in mod.ErrorCode] == [c.code.upper() for c in _codes(spec)]
    assert [m.value for m in mod.Domain] == list(spec.domains)
    for member in mod.ErrorCode:
        assert member == member.value
    for member in mod.Domain:
        assert member.name == member.value.upper()


def test_all_lists_the_public_api_and_nothing_missing(
    mod: types.ModuleType, spec: oracle.Spec
) -> None:
    exported = set(mod.__all__)
    expected = {
        "ErrorCode",
        "Domain",
        "InvalidPayloadError",
        "ErrorPayload",
        "ERROR_EVENTS",
        "lookup",
        "is_retryable",
        "from_payload",
        "to_error",
        "error_from_event",
        oracle.python_guard(spec),
        spec.base,
        *spec.domains.values(),
        *(c.class_name for c in _codes(spec)),
    }
    assert expected <= exported
    for name in exported:
        assert hasattr(mod, name), name
    assert len(mod.__all__) == len(exported)


def test_error_payload_is_the_wire_form_as_a_typed_dict(
    mod: types.ModuleType, spec: oracle.Spec
) -> None:
    # docs/python.md: to_payload() returns an ErrorPayload, the wire form
    # {code, message, retryable, details}, every member required; the code is an
    # int where the taxonomy's wire codes are integers (docs "Wire codes").
    import typing

    payload = mod.ErrorPayload
    assert typing.is_typeddict(payload)
    assert payload.__name__ == "ErrorPayload"
    assert payload.__module__ == mod.__name__
    assert payload.__doc__ == "The wire form of an error."
    assert payload.__required_keys__ == {"code", "message", "retryable", "details"}
    assert not payload.__optional_keys__
    assert typing.get_type_hints(payload) == {
        "code": int if spec.integer else str,
        "message": str,
        "retryable": bool,
        "details": dict[str, Any],
    }


def test_instances_carry_message_details_cause_and_retryable_override(
    mod: types.ModuleType, spec: oracle.Spec
) -> None:
    for named in _codes(spec):
        cls = _cls(mod, named.class_name)
        code = named.wire
        # A code with declared fields takes them as keyword arguments (README
        # "Typed details"); ``details=`` adds undeclared keys, the fields winning.
        given = oracle.sample_details(spec, named.code)
        extra = {"n": 1, "nested": {"a": [1, 2.5, None, True]}}
        cause = KeyError("k")
        err = cls("it broke", **given, details=extra, cause=cause)
        assert err.message == "it broke" and str(err) == "it broke"
        assert (
            err.details
            == oracle.constructed(spec, named.code, {**extra, **given})["details"]
        )
        assert err.__cause__ is cause
        assert err.retryable is named.retryable
        assert err.wire_code == code
        flipped = cls("x", **given, retryable=not named.retryable)
        assert flipped.retryable is (not named.retryable)
        assert cls.retryable is named.retryable  # the override stays on the instance
        # The default message is the meaning, or the code's template over its fields.
        assert (
            cls(**given).message
            == oracle.constructed(spec, named.code, given)["message"]
        )
        assert (
            cls("x", **given).details
            == oracle.constructed(spec, named.code, given)["details"]
        )


def test_details_are_copied_not_shared(
    mod: types.ModuleType, spec: oracle.Spec
) -> None:
    cls = _cls(mod, spec.first.class_name)
    source = {"a": 1}
    err = cls("x", details=source)
    source["a"] = 2
    assert err.details == {"a": 1}
    payload = err.to_payload()
    payload["details"]["a"] = 3
    assert err.details == {"a": 1}


@pytest.mark.parametrize(
    "details, problem",
    [
        ({"x": math.nan}, ValueError),
        ({"x": math.inf}, ValueError),
        ({"x": [1, -math.inf]}, ValueError),
        ({1: "non-string key"}, ValueError),
        ({"x": {2: "nested non-string key"}}, ValueError),
        ({"x": {1, 2}}, ValueError),
        ({"x": object()}, ValueError),
        ({"x": b"bytes"}, ValueError),
        ("not a mapping", TypeError),
        (["a", "list"], TypeError),
    ],
)
def test_details_json_cannot_carry_are_refused_when_built(
    mod: types.ModuleType, spec: oracle.Spec, details: Any, problem: type[Exception]
) -> None:
    cls = _cls(mod, spec.first.class_name)
    with pytest.raises(problem):
        cls("x", details=details)


def test_cyclic_details_are_refused(mod: types.ModuleType, spec: oracle.Spec) -> None:
    cycle: dict[str, Any] = {}
    cycle["self"] = cycle
    with pytest.raises(ValueError, match="itself"):
        _cls(mod, spec.base)("x", details={"c": cycle})
    shared = [1, 2]
    err = _cls(mod, spec.base)(
        "x", details={"a": shared, "b": shared}
    )  # shared is not a cycle
    assert json.loads(json.dumps(err.to_payload()))["details"] == {
        "a": [1, 2],
        "b": [1, 2],
    }


def test_bare_base_carries_the_fallback(
    mod: types.ModuleType, spec: oracle.Spec
) -> None:
    # Issue: the base error carries a routable code, the fallback's.
    fallback = spec.codes[spec.fallback]
    base = _cls(mod, spec.base)
    err = base("x")
    assert err.code == fallback.wire
    assert err.retryable is fallback.retryable
    assert err.to_payload()["code"] == fallback.wire


# ------------------------------------------------------------- module functions
def test_lookup_and_is_retryable_for_every_code(
    mod: types.ModuleType, spec: oracle.Spec
) -> None:
    for named in _codes(spec):
        assert mod.lookup(named.wire) is _cls(mod, named.class_name)
        assert mod.is_retryable(named.wire) is named.retryable


@pytest.mark.parametrize(
    "unknown",
    ["zz_unknown", "ZZ_UNKNOWN", "", "constructor", "__class__", "task timeout"],
)
def test_unknown_codes_fall_back(
    mod: types.ModuleType, spec: oracle.Spec, unknown: str
) -> None:
    if spec.known(unknown) is not None:
        pytest.skip("the name is a real code here")
    # The spec: an unknown code is treated as the fallback (docs "Hierarchies":
    # or as the domain whose match claims it).
    treated = spec.target(unknown)
    assert mod.lookup(unknown) is _cls(mod, treated.class_name)
    assert mod.is_retryable(unknown) is treated.retryable


def test_type_guard(mod: types.ModuleType, spec: oracle.Spec) -> None:
    guard = getattr(mod, oracle.python_guard(spec))
    for named in _codes(spec):
        given = oracle.sample_details(spec, named.code)
        assert guard(_cls(mod, named.class_name)("x", **given)) is True
    assert guard(ValueError("x")) is False
    assert guard({"code": spec.first.wire, "message": "m"}) is False
    assert guard(None) is False
    assert guard(mod.InvalidPayloadError("x")) is False


def test_from_payload_round_trips_every_code(
    mod: types.ModuleType, spec: oracle.Spec
) -> None:
    for named in _codes(spec):
        for retryable in (True, False):
            # Undeclared keys beside every declared field: all of them survive.
            payload = {
                "code": named.wire,
                "message": f"message of {named.wire}",
                "retryable": retryable,
                "details": {
                    "id": "x1",
                    "n": 3,
                    "list": [1, "a", None],
                    "obj": {"k": False},
                    **oracle.sample_details(spec, named.code, optional=True),
                },
            }
            err = mod.from_payload(payload)
            assert type(err) is _cls(mod, named.class_name)
            assert err.retryable is retryable  # the wire's word wins
            assert err.to_payload() == payload
            assert json.loads(json.dumps(err.to_payload(), allow_nan=False)) == payload


def test_from_payload_unknown_well_formed_code_keeps_the_wire_code(
    mod: types.ModuleType, spec: oracle.Spec
) -> None:
    unknown = _unknown_code(spec)
    treated = spec.target(unknown)
    payload = {
        "code": unknown,
        "message": "from a newer peer",
        "retryable": True,
        "details": {"v": 2},
    }
    err = mod.from_payload(payload)
    assert type(err) is _cls(mod, treated.class_name)
    assert err.code == treated.wire
    assert err.wire_code == unknown
    assert err.to_payload() == payload


def test_from_payload_null_or_absent_details_and_extra_fields(
    mod: types.ModuleType, spec: oracle.Spec
) -> None:
    for named in _codes(spec):
        code = named.wire
        required = [
            name
            for name, field in spec.codes[named.code].fields
            if field.get("required", True)
        ]
        for extra in ({}, {"details": None}, {"trace_id": "abc", "nested": {"x": 1}}):
            payload = {"code": code, "message": "m", "retryable": False, **extra}
            if required:
                # No details: the first required field is missing (README "Typed
                # details"); extra top-level members do not stand in for them.
                with pytest.raises(mod.InvalidPayloadError) as caught:
                    mod.from_payload(payload)
                assert caught.value.field == f"details.{required[0]}"
                continue
            err = mod.from_payload(payload)
            assert err.details == {}
            assert err.to_payload() == {
                "code": code,
                "message": "m",
                "retryable": False,
                "details": {},
            }


def _invalid_codes(spec: oracle.Spec) -> list[object]:
    """Codes no payload may carry (docs "Wire codes"): by the code case while
    every wire code is its key, printable ASCII once one is not; integers in
    range where codes are integers."""
    code = spec.first.wire
    common: list[object] = [None, ["a"], True]
    if isinstance(code, int):
        limit = 2**53 - 1
        return [*common, str(code), code + 0.5, limit + 1, -limit - 1, {"c": code}]
    texts = ["", code + "\n", " " + code, code + " x", code + "\t", code + "\u00e9"]
    if "" in spec.by_wire:  # docs "Codes as written": wire: "" is a code
        texts.remove("")
    # docs "Codes as written": keys as written are any printable ASCII, too.
    if not spec.wire_declared and spec.code_case != "as_written":
        texts += [
            _bad_case_code(spec),
            code + "__x",
            "9" + code,
            code.replace("_", "-") + "-x",
        ]
    return [*common, 7, *texts]


def _invalid_payloads(spec: oracle.Spec) -> list[tuple[object, str]]:
    code = spec.first.wire
    good = {"code": code, "message": "m", "retryable": False}
    return [
        (None, "payload"),
        ([good], "payload"),
        ("text", "payload"),
        (3, "payload"),
        (True, "payload"),
        ({k: v for k, v in good.items() if k != "code"}, "code"),
        *[({**good, "code": bad}, "code") for bad in _invalid_codes(spec)],
        ({k: v for k, v in good.items() if k != "message"}, "message"),
        ({**good, "message": None}, "message"),
        ({**good, "message": 5}, "message"),
        ({**good, "message": b"bytes"}, "message"),
        ({k: v for k, v in good.items() if k != "retryable"}, "retryable"),
        ({**good, "retryable": "true"}, "retryable"),
        ({**good, "retryable": 1}, "retryable"),
        ({**good, "retryable": 0}, "retryable"),
        ({**good, "retryable": None}, "retryable"),
        ({**good, "details": []}, "details"),
        ({**good, "details": "x"}, "details"),
        ({**good, "details": 1}, "details"),
        ({**good, "details": {"x": math.nan}}, "details"),
        ({**good, "details": {"x": [math.inf]}}, "details"),
        ({**good, "details": {1: "a"}}, "details"),
        ({**good, "details": {"x": object()}}, "details"),
    ]


def test_from_payload_rejects_invalid_payloads_naming_the_field(
    mod: types.ModuleType, spec: oracle.Spec
) -> None:
    assert issubclass(mod.InvalidPayloadError, ValueError)
    for payload, field in _invalid_payloads(spec):
        with pytest.raises(mod.InvalidPayloadError) as caught:
            mod.from_payload(payload)
        assert caught.value.field == field, payload
        assert str(caught.value).startswith(field), (payload, str(caught.value))


def test_from_payload_code_pattern_is_the_taxonomy_case(
    mod: types.ModuleType, spec: oracle.Spec
) -> None:
    # docs "Wire codes": the code case, or any printable ASCII once a code gives
    # a wire:; integer codes take no string at all.
    pattern = re.compile(r"(?!)") if spec.integer else spec.pattern
    for sample in (
        "a",
        "ab_cd",
        "a1_2b",
        "AB_CD",
        "A",
        "a__b",
        "_a",
        "a_",
        "1a",
        "a-b",
        "ab cd",
        "é",
    ):
        payload = {"code": sample, "message": "m", "retryable": False}
        if pattern.fullmatch(sample):
            assert mod.from_payload(payload).wire_code == sample
        else:
            with pytest.raises(mod.InvalidPayloadError):
                mod.from_payload(payload)


def test_from_payload_deeply_nested_details_are_refused_not_a_crash(
    mod: types.ModuleType, spec: oracle.Spec
) -> None:
    # Issue 12: details nest at most 64 deep; 100,000 deep is an InvalidPayloadError,
    # never a RecursionError.
    deep: Any = "leaf"
    for _ in range(100_000):
        deep = [deep]
    with pytest.raises(mod.InvalidPayloadError) as caught:
        mod.from_payload(
            {
                "code": spec.first.wire,
                "message": "m",
                "retryable": True,
                "details": {"d": deep},
            }
        )
    assert caught.value.field == "details"


def test_to_error(mod: types.ModuleType, spec: oracle.Spec) -> None:
    # The design note: a non-error throw is wrapped into the wrap code's class.
    wrap = _cls(mod, spec.codes[spec.wrap].class_name)
    existing = _cls(mod, spec.first.class_name)(
        "x", **oracle.sample_details(spec, spec.first.code)
    )
    assert mod.to_error(existing) is existing

    cause = RuntimeError("disk on fire")
    wrapped = mod.to_error(cause)
    assert type(wrapped) is wrap and wrapped.code == spec.wire_of(spec.wrap)
    assert wrapped.__cause__ is cause
    assert "disk on fire" in wrapped.message and "RuntimeError" in wrapped.message

    class Nasty:
        def __repr__(self) -> str:
            raise RuntimeError("no repr for you")

    for value in ("a string", 42, None, {"code": "x"}, [1, 2], Nasty()):
        wrapped = mod.to_error(value)
        assert type(wrapped) is wrap
        assert wrapped.original is value
        assert wrapped.__cause__ is None


def test_error_events_and_error_from_event(
    mod: types.ModuleType, spec: oracle.Spec
) -> None:
    events = spec.events
    assert dict(mod.ERROR_EVENTS) == events
    with pytest.raises(TypeError):
        mod.ERROR_EVENTS["new.event"] = "x"  # read-only
    code = spec.first
    payload = {
        "code": code.wire,
        "message": "m",
        "retryable": False,
        "details": oracle.sample_details(spec, code.code),
    }
    for event_type, location in events.items():
        event: dict[str, Any] = {"type": event_type}
        node = event
        parts = location.split(".")
        for part in parts[:-1]:
            node[part] = {}
            node = node[part]
        node[parts[-1]] = payload
        err = mod.error_from_event(event)
        assert type(err) is _cls(mod, code.class_name)
        assert err.to_payload() == payload
        node[parts[-1]] = None
        assert mod.error_from_event(event) is None
        del node[parts[-1]]
        assert mod.error_from_event(event) is None
        node[parts[-1]] = {"code": 5}
        with pytest.raises(mod.InvalidPayloadError):
            mod.error_from_event(event)
    assert (
        mod.error_from_event({"type": "no.such.event", "payload": {"error": payload}})
        is None
    )
    assert mod.error_from_event({"payload": {"error": payload}}) is None
    with pytest.raises(mod.InvalidPayloadError):
        mod.error_from_event(["not", "an", "event"])


# ----------------------------------------------------------------- persistence
def test_pickle_and_deepcopy_keep_everything(
    mod: types.ModuleType, spec: oracle.Spec
) -> None:
    unknown = mod.from_payload(
        {
            "code": _unknown_code(spec),
            "message": "m",
            "retryable": True,
            "details": {"a": [1]},
        }
    )
    samples = [unknown, mod.to_error("raw value")]
    for named in _codes(spec):
        samples.append(
            _cls(mod, named.class_name)(
                "msg",
                **oracle.sample_details(spec, named.code, optional=True),
                details={"k": {"v": 1}},
                cause=ValueError("why"),
                retryable=not named.retryable,
            )
        )
    for err in samples:
        for clone in (
            pickle.loads(pickle.dumps(err)),
            copy.deepcopy(err),
            copy.copy(err),
        ):
            assert type(clone) is type(err)
            assert clone.message == err.message and str(clone) == str(err)
            assert clone.details == err.details
            assert clone.wire_code == err.wire_code
            assert clone.retryable is err.retryable
            assert clone.to_payload() == err.to_payload()
            assert type(clone.__cause__) is type(err.__cause__)
            assert getattr(clone, "original", None) == getattr(err, "original", None)


# ------------------------------------------------------------------------ logs
def test_repr_to_dict_and_logging_show_the_code(
    mod: types.ModuleType,
    spec: oracle.Spec,
    caplog: pytest.LogCaptureFixture,
) -> None:
    named = _codes(spec)[-1]
    given = oracle.sample_details(spec, named.code)
    err = _cls(mod, named.class_name)("went wrong", **given, details={"id": 7})
    assert repr(err) == f"{named.class_name}(code={named.wire!r}, message='went wrong')"
    assert err.to_dict() == {
        "name": named.class_name,
        "code": named.wire,
        "message": "went wrong",
        "retryable": named.retryable,
        "details": oracle.constructed(spec, named.code, {"id": 7, **given})["details"],
    }
    logger = logging.getLogger("taxogen-test")
    with caplog.at_level(logging.ERROR, logger="taxogen-test"):
        logger.error("failed: %r", err)
        try:
            raise err
        except Exception:
            logger.exception("caught")
    assert str(named.wire) in caplog.records[0].getMessage()
    assert named.class_name in caplog.text and "went wrong" in caplog.text
    assert f"code: {named.wire}" in caplog.text  # logger.exception shows the code


def test_log_fields_are_the_extra_of_a_standard_log_record(
    mod: types.ModuleType, spec: oracle.Spec, caplog: pytest.LogCaptureFixture
) -> None:
    """Issue 33 §8: the structured form for logs works as ``extra=``, where
    ``to_dict()`` (``name``, ``message``: the record's own attributes) raises."""
    named = _codes(spec)[-1]
    given = oracle.sample_details(spec, named.code)
    err = _cls(mod, named.class_name)("went wrong", **given)
    fields = err.log_fields()
    # No key is an attribute logging gives every record (logging's own list).
    record_attributes = set(vars(logging.makeLogRecord({}))) | {"message", "asctime"}
    assert not set(fields) & record_attributes
    assert {key.removeprefix("error_"): value for key, value in fields.items()} == (
        err.to_dict()
    )
    logger = logging.getLogger("taxogen-extra-test")
    with pytest.raises(KeyError, match="Attempt to overwrite"):
        logger.error("failed", extra=err.to_dict())
    with caplog.at_level(logging.ERROR, logger="taxogen-extra-test"):
        logger.error("failed", extra=err.log_fields())
    (record,) = caplog.records
    assert record.error_code == named.wire  # type: ignore[attr-defined]
    assert record.error_name == named.class_name  # type: ignore[attr-defined]
    assert record.error_retryable is named.retryable  # type: ignore[attr-defined]
    assert record.getMessage() == "failed"


def test_log_fields_are_structlog_s_keyword_arguments(
    mod: types.ModuleType, spec: oracle.Spec
) -> None:
    found = importlib.util.find_spec("structlog")
    require_tool(found is not None, "structlog (pip install -e '.[test]')")
    import structlog.testing

    named = _codes(spec)[0]
    given = oracle.sample_details(spec, named.code)
    err = _cls(mod, named.class_name)("went wrong", **given)
    with structlog.testing.capture_logs() as logs:
        structlog.get_logger().error("failed", **err.log_fields())
    (entry,) = logs
    assert entry["event"] == "failed" and entry["log_level"] == "error"
    assert entry["error_code"] == named.wire
    assert entry["error_message"] == "went wrong"
    assert entry["error_name"] == named.class_name


def test_a_json_log_formatter_shows_the_code_without_extra_work(
    mod: types.ModuleType, spec: oracle.Spec
) -> None:
    import io

    class JsonFormatter(logging.Formatter):
        """What JSON log formatters do: the message, plus the formatted exception."""

        def format(self, record: logging.LogRecord) -> str:
            entry = {"level": record.levelname, "message": record.getMessage()}
            if record.exc_info:
                entry["exc_info"] = self.formatException(record.exc_info)
            return json.dumps(entry)

    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(JsonFormatter())
    logger = logging.getLogger("taxogen-json-test")
    logger.addHandler(handler)
    try:
        for payload_code in (spec.first.wire, _unknown_code(spec)):
            try:
                raise mod.from_payload(
                    {"code": payload_code, "message": "boom", "retryable": False}
                )
            except Exception:
                logger.exception("request failed")
    finally:
        logger.removeHandler(handler)
    entries = [json.loads(line) for line in stream.getvalue().splitlines()]
    assert f"code: {spec.first.wire}" in entries[0]["exc_info"]
    assert (
        f"code: {_unknown_code(spec)}" in entries[1]["exc_info"]
    )  # the code as received


def test_meanings_are_exact_strings(mod: types.ModuleType, spec: oracle.Spec) -> None:
    for named in _codes(spec):
        meaning = _cls(mod, named.class_name).meaning
        assert type(meaning) is str and meaning == named.meaning
    # The taxonomy's version as written, a date version too (README).
    assert mod.__version__ == spec.version


# ---------------------------------------------------------------- evolution
def test_deprecated_codes_warn_when_built_not_when_received(
    mod: types.ModuleType, spec: oracle.Spec
) -> None:
    import warnings

    for named in _codes(spec):
        cls = _cls(mod, named.class_name)
        dep = named.deprecated
        assert cls.deprecated == (dep["reason"] if dep else None)
        assert cls.replaced_by == (dep["replaced_by"] if dep else None)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            given = oracle.sample_details(spec, named.code)
            err = cls("m", **given)
            received = mod.from_payload(
                {
                    "code": named.wire,
                    "message": "m",
                    "retryable": True,
                    "details": given,
                }
            )
            pickle.loads(pickle.dumps(err))
            copy.deepcopy(received)
        deprecations = [w for w in caught if issubclass(w.category, DeprecationWarning)]
        if dep is None:
            assert deprecations == [], named.wire
        else:
            assert len(deprecations) == 1, named.wire  # only the construction warns
            text = str(deprecations[0].message)
            assert str(named.wire) in text and str(dep["reason"]) in text
            if dep["replaced_by"]:
                assert f"use {dep['replaced_by']} instead" in text
            assert deprecations[0].filename == __file__  # it points at the caller


def test_removed_codes_are_not_generated_and_fall_back(
    mod: types.ModuleType, spec: oracle.Spec
) -> None:
    # README "Deprecation and tombstones": a removed code on the wire is unknown,
    # treated as any unknown code is (the fallback, or the domain whose match
    # claims it).
    for tomb in spec.removed_wires:
        assert tomb not in {m.value for m in mod.ErrorCode}
        treated = spec.target(tomb)
        assert mod.lookup(tomb) is _cls(mod, treated.class_name)
        err = mod.from_payload(
            {"code": tomb, "message": "old peer", "retryable": False}
        )
        assert type(err) is _cls(mod, treated.class_name) and err.wire_code == tomb


def test_docs_mark_deprecations_and_list_changes(case: Case, spec: oracle.Spec) -> None:
    docs = unanchored((case.expected / "docs/errors.md").read_text(encoding="utf-8"))

    # docs "Wire codes": the page names every code by its wire code.
    def shown(wire: object) -> str:
        return f"`{wire}`" if wire != "" else '`""`'

    for named in _codes(spec):
        row = next(
            line
            for line in docs.splitlines()
            if line.startswith(f"| {shown(named.wire)} |")
        )
        assert ("**deprecated:**" in row) is (named.deprecated is not None), row
        if named.deprecated and named.deprecated["replaced_by"]:
            instead = named.deprecated["replaced_by"]
            replacement = spec.codes.get(instead)
            wire = instead if replacement is None else replacement.wire
            assert f"use {shown(wire)} instead" in row
    changes = (
        docs.split("## Changes", 1)[1].split("\n## ", 1)[0]
        if "## Changes" in docs
        else ""
    )
    expected_rows = (
        sum(1 for c in _codes(spec) if c.since)
        + sum(1 for c in _codes(spec) if c.deprecated)
        + len(spec.removed)
    )
    if expected_rows == 0:
        assert "## Changes" not in docs
    else:
        assert (
            changes.count("\n| ") - 2 == expected_rows
        )  # minus the header and rule rows
    for wire, since in zip(spec.removed_wires, spec.removed_since, strict=True):
        assert f"| {since} | removed {shown(wire)}" in changes
    for code in _codes(spec):
        if code.since:
            assert f"| {code.since} | added {shown(code.wire)} |" in changes
