"""The generated Python package, exercised by running it, for every case.

Expectations come from the taxonomy itself (through ``load_names``), never
from a copy of it, so each test states a rule that must hold for any taxonomy.
"""

from __future__ import annotations

import copy
import enum
import json
import logging
import math
import pickle
import re
import types
from typing import Any

import pytest

from generator.naming import Names
from generator.model import CASE_PATTERNS
from tests import spec_oracle as oracle
from tests.support import (
    Case,
    case_ids,
    cases,
    import_generated,
    today_case_ids,
    today_cases,
)


@pytest.fixture(params=today_cases(), ids=today_case_ids())
def case(request: pytest.FixtureRequest) -> Case:
    return request.param  # type: ignore[no-any-return]


@pytest.fixture
def names(case: Case) -> Names:
    return case.names


@pytest.fixture
def mod(case: Case) -> types.ModuleType:
    return import_generated(case)


@pytest.fixture
def spec(case: Case) -> oracle.Spec:
    """The taxonomy as its YAML says it: the oracle of each code's declared fields."""
    return oracle.read_spec(case.taxonomy)


def _cls(mod: types.ModuleType, name: str) -> type[Any]:
    return getattr(mod, name)  # type: ignore[no-any-return]


def _unknown_code(names: Names) -> str | int:
    """A well-formed code no code has on the wire (README "Wire codes")."""
    known = {c.code.wire_code for c in names.codes}
    if names.taxonomy.wire_type == "integer":
        number = 424242
        while number in known:
            number += 1
        return number
    word = (
        "zz_not_a_code"
        if names.taxonomy.code_case == "lower_snake"
        else "ZZ_NOT_A_CODE"
    )
    assert word not in known
    return word


def _bad_case_code(names: Names) -> str:
    """A code spelt in the other case: well-formed for the other style only."""
    code = names.codes[0].code.code
    return code.upper() if names.taxonomy.code_case == "lower_snake" else code.lower()


# ------------------------------------------------------------------ the classes
def test_every_code_has_its_class_with_class_level_attributes(
    mod: types.ModuleType, names: Names
) -> None:
    for named in names.codes:
        cls = _cls(mod, named.class_name)
        assert cls.__name__ == named.class_name
        assert cls.code == named.code.wire_code
        assert isinstance(cls.code, mod.ErrorCode)
        assert cls.domain == named.code.domain
        assert isinstance(cls.domain, mod.Domain)
        assert cls.retryable is named.code.retryable
        assert cls.meaning == named.code.meaning


def test_hierarchy_code_to_domain_base_to_root(
    mod: types.ModuleType, names: Names
) -> None:
    base = _cls(mod, names.base)
    assert issubclass(base, Exception)
    by_key = {d.domain.key: d for d in names.domains}
    for domain in names.domains:
        domain_cls = _cls(mod, domain.class_name)
        # README "Hierarchies": its parent domain's class, else the base.
        parent = domain.domain.parent
        above = base if parent is None else _cls(mod, by_key[parent].class_name)
        assert domain_cls.__bases__ == (above,)
        for named in domain.codes:
            cls = _cls(mod, named.class_name)
            if named.is_domain_base:
                assert cls is domain_cls
            else:
                assert cls.__bases__ == (domain_cls,)


def test_no_class_name_ends_in_error_error(mod: types.ModuleType, names: Names) -> None:
    for named in names.codes:
        assert not named.class_name.endswith("ErrorError")


def test_enums_are_str_enums_keyed_by_upper_snake(
    mod: types.ModuleType, names: Names
) -> None:
    # README "Wire codes": an IntEnum of integer codes, else a StrEnum; members
    # named by the key, valued by the wire code.
    integer = names.taxonomy.wire_type == "integer"
    assert issubclass(mod.ErrorCode, enum.IntEnum if integer else enum.StrEnum)
    assert issubclass(mod.Domain, enum.StrEnum)
    assert [m.value for m in mod.ErrorCode] == [c.code.wire_code for c in names.codes]
    assert [m.name for m in mod.ErrorCode] == [c.code.code.upper() for c in names.codes]
    assert [m.value for m in mod.Domain] == [d.domain.key for d in names.domains]
    for member in mod.ErrorCode:
        assert member == member.value
    for member in mod.Domain:
        assert member.name == member.value.upper()


def test_all_lists_the_public_api_and_nothing_missing(
    mod: types.ModuleType, names: Names
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
        names.py_guard,
        names.base,
        *(d.class_name for d in names.domains),
        *(c.class_name for c in names.codes),
    }
    assert expected <= exported
    for name in exported:
        assert hasattr(mod, name), name
    assert len(mod.__all__) == len(exported)


def test_instances_carry_message_details_cause_and_retryable_override(
    mod: types.ModuleType, names: Names, spec: oracle.Spec
) -> None:
    for named in names.codes:
        cls = _cls(mod, named.class_name)
        code = named.code.wire_code
        # A code with declared fields takes them as keyword arguments (README
        # "Typed details"); ``details=`` adds undeclared keys, the fields winning.
        given = oracle.sample_details(spec, named.code.code)
        extra = {"n": 1, "nested": {"a": [1, 2.5, None, True]}}
        cause = KeyError("k")
        err = cls("it broke", **given, details=extra, cause=cause)
        assert err.message == "it broke" and str(err) == "it broke"
        assert (
            err.details
            == oracle.constructed(spec, named.code.code, {**extra, **given})["details"]
        )
        assert err.__cause__ is cause
        assert err.retryable is named.code.retryable
        assert err.wire_code == code
        flipped = cls("x", **given, retryable=not named.code.retryable)
        assert flipped.retryable is (not named.code.retryable)
        assert (
            cls.retryable is named.code.retryable
        )  # the override stays on the instance
        # The default message is the meaning, or the code's template over its fields.
        assert (
            cls(**given).message
            == oracle.constructed(spec, named.code.code, given)["message"]
        )
        assert (
            cls("x", **given).details
            == oracle.constructed(spec, named.code.code, given)["details"]
        )


def test_details_are_copied_not_shared(mod: types.ModuleType, names: Names) -> None:
    cls = _cls(mod, names.codes[0].class_name)
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
    mod: types.ModuleType, names: Names, details: Any, problem: type[Exception]
) -> None:
    cls = _cls(mod, names.codes[0].class_name)
    with pytest.raises(problem):
        cls("x", details=details)


def test_cyclic_details_are_refused(mod: types.ModuleType, names: Names) -> None:
    cycle: dict[str, Any] = {}
    cycle["self"] = cycle
    with pytest.raises(ValueError, match="itself"):
        _cls(mod, names.base)("x", details={"c": cycle})
    shared = [1, 2]
    err = _cls(mod, names.base)(
        "x", details={"a": shared, "b": shared}
    )  # shared is not a cycle
    assert json.loads(json.dumps(err.to_payload()))["details"] == {
        "a": [1, 2],
        "b": [1, 2],
    }


def test_bare_base_carries_the_fallback(mod: types.ModuleType, names: Names) -> None:
    base = _cls(mod, names.base)
    err = base("x")
    assert err.code == names.fallback.code.wire_code
    assert err.retryable is names.fallback.code.retryable
    assert err.to_payload()["code"] == names.fallback.code.wire_code


# ------------------------------------------------------------- module functions
def test_lookup_and_is_retryable_for_every_code(
    mod: types.ModuleType, names: Names
) -> None:
    for named in names.codes:
        assert mod.lookup(named.code.wire_code) is _cls(mod, named.class_name)
        assert mod.is_retryable(named.code.wire_code) is named.code.retryable


@pytest.mark.parametrize(
    "unknown",
    ["zz_unknown", "ZZ_UNKNOWN", "", "constructor", "__class__", "task timeout"],
)
def test_unknown_codes_fall_back(
    mod: types.ModuleType, names: Names, unknown: str
) -> None:
    if unknown in {c.code.wire_code for c in names.codes}:
        pytest.skip("the name is a real code here")
    assert mod.lookup(unknown) is _cls(mod, names.fallback.class_name)
    assert mod.is_retryable(unknown) is names.fallback.code.retryable


def test_type_guard(mod: types.ModuleType, names: Names, spec: oracle.Spec) -> None:
    guard = getattr(mod, names.py_guard)
    for named in names.codes:
        given = oracle.sample_details(spec, named.code.code)
        assert guard(_cls(mod, named.class_name)("x", **given)) is True
    assert guard(ValueError("x")) is False
    assert guard({"code": names.codes[0].code.wire_code, "message": "m"}) is False
    assert guard(None) is False
    assert guard(mod.InvalidPayloadError("x")) is False


def test_from_payload_round_trips_every_code(
    mod: types.ModuleType, names: Names, spec: oracle.Spec
) -> None:
    for named in names.codes:
        for retryable in (True, False):
            # Undeclared keys beside every declared field: all of them survive.
            payload = {
                "code": named.code.wire_code,
                "message": f"message of {named.code.wire_code}",
                "retryable": retryable,
                "details": {
                    "id": "x1",
                    "n": 3,
                    "list": [1, "a", None],
                    "obj": {"k": False},
                    **oracle.sample_details(spec, named.code.code, optional=True),
                },
            }
            err = mod.from_payload(payload)
            assert type(err) is _cls(mod, named.class_name)
            assert err.retryable is retryable  # the wire's word wins
            assert err.to_payload() == payload
            assert json.loads(json.dumps(err.to_payload(), allow_nan=False)) == payload


def test_from_payload_unknown_well_formed_code_keeps_the_wire_code(
    mod: types.ModuleType, names: Names
) -> None:
    unknown = _unknown_code(names)
    payload = {
        "code": unknown,
        "message": "from a newer peer",
        "retryable": True,
        "details": {"v": 2},
    }
    err = mod.from_payload(payload)
    assert type(err) is _cls(mod, names.fallback.class_name)
    assert err.code == names.fallback.code.wire_code
    assert err.wire_code == unknown
    assert err.to_payload() == payload


def test_from_payload_null_or_absent_details_and_extra_fields(
    mod: types.ModuleType, names: Names, spec: oracle.Spec
) -> None:
    for named in names.codes:
        code = named.code.wire_code
        required = [
            name
            for name, field in spec.codes[named.code.code].fields
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


def _invalid_codes(names: Names) -> list[object]:
    """Codes no payload may carry (README "Wire codes"): by the code case while
    every wire code is its key, printable ASCII once one is not; integers in
    range where codes are integers."""
    code = names.codes[0].code.wire_code
    common: list[object] = [None, ["a"], True]
    if isinstance(code, int):
        limit = 2**53 - 1
        return [*common, str(code), code + 0.5, limit + 1, -limit - 1, {"c": code}]
    texts = ["", code + "\n", " " + code, code + " x", code + "\t", code + "\u00e9"]
    if not names.taxonomy.wire_declared:
        texts += [
            _bad_case_code(names),
            code + "__x",
            "9" + code,
            code.replace("_", "-") + "-x",
        ]
    return [*common, 7, *texts]


def _invalid_payloads(names: Names) -> list[tuple[object, str]]:
    code = names.codes[0].code.wire_code
    good = {"code": code, "message": "m", "retryable": False}
    return [
        (None, "payload"),
        ([good], "payload"),
        ("text", "payload"),
        (3, "payload"),
        (True, "payload"),
        ({k: v for k, v in good.items() if k != "code"}, "code"),
        *[({**good, "code": bad}, "code") for bad in _invalid_codes(names)],
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
    mod: types.ModuleType, names: Names
) -> None:
    assert issubclass(mod.InvalidPayloadError, ValueError)
    for payload, field in _invalid_payloads(names):
        with pytest.raises(mod.InvalidPayloadError) as caught:
            mod.from_payload(payload)
        assert caught.value.field == field, payload
        assert str(caught.value).startswith(field), (payload, str(caught.value))


def test_from_payload_code_pattern_is_the_taxonomy_case(
    mod: types.ModuleType, names: Names
) -> None:
    taxonomy = names.taxonomy
    # README "Wire codes": the code case, or any printable ASCII once a code gives
    # a wire:; integer codes take no string at all.
    pattern = (
        re.compile(r"(?!)")
        if taxonomy.wire_type == "integer"
        else (
            re.compile(r"[!-~]+")
            if taxonomy.wire_declared
            else CASE_PATTERNS[taxonomy.code_case]
        )
    )
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
    mod: types.ModuleType, names: Names
) -> None:
    # Issue 12: details nest at most 64 deep; 100,000 deep is an InvalidPayloadError,
    # never a RecursionError.
    deep: Any = "leaf"
    for _ in range(100_000):
        deep = [deep]
    with pytest.raises(mod.InvalidPayloadError) as caught:
        mod.from_payload(
            {
                "code": names.codes[0].code.wire_code,
                "message": "m",
                "retryable": True,
                "details": {"d": deep},
            }
        )
    assert caught.value.field == "details"


def test_to_error(mod: types.ModuleType, names: Names) -> None:
    wrap = _cls(mod, names.wrap.class_name)
    existing = _cls(mod, names.codes[0].class_name)("x")
    assert mod.to_error(existing) is existing

    cause = RuntimeError("disk on fire")
    wrapped = mod.to_error(cause)
    assert type(wrapped) is wrap and wrapped.code == names.wrap.code.wire_code
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


def test_error_events_and_error_from_event(mod: types.ModuleType, names: Names) -> None:
    events = {e.type: e.location for e in names.taxonomy.events}
    assert dict(mod.ERROR_EVENTS) == events
    with pytest.raises(TypeError):
        mod.ERROR_EVENTS["new.event"] = "x"  # read-only
    code = names.codes[0]
    payload = {
        "code": code.code.wire_code,
        "message": "m",
        "retryable": False,
        "details": {},
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
    mod: types.ModuleType, names: Names, spec: oracle.Spec
) -> None:
    unknown = mod.from_payload(
        {
            "code": _unknown_code(names),
            "message": "m",
            "retryable": True,
            "details": {"a": [1]},
        }
    )
    samples = [unknown, mod.to_error("raw value")]
    for named in names.codes:
        samples.append(
            _cls(mod, named.class_name)(
                "msg",
                **oracle.sample_details(spec, named.code.code, optional=True),
                details={"k": {"v": 1}},
                cause=ValueError("why"),
                retryable=not named.code.retryable,
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
    names: Names,
    spec: oracle.Spec,
    caplog: pytest.LogCaptureFixture,
) -> None:
    named = names.codes[-1]
    given = oracle.sample_details(spec, named.code.code)
    err = _cls(mod, named.class_name)("went wrong", **given, details={"id": 7})
    assert (
        repr(err)
        == f"{named.class_name}(code={named.code.wire_code!r}, message='went wrong')"
    )
    assert err.to_dict() == {
        "name": named.class_name,
        "code": named.code.wire_code,
        "message": "went wrong",
        "retryable": named.code.retryable,
        "details": oracle.constructed(spec, named.code.code, {"id": 7, **given})[
            "details"
        ],
    }
    logger = logging.getLogger("taxogen-test")
    with caplog.at_level(logging.ERROR, logger="taxogen-test"):
        logger.error("failed: %r", err)
        try:
            raise err
        except Exception:
            logger.exception("caught")
    assert str(named.code.wire_code) in caplog.records[0].getMessage()
    assert named.class_name in caplog.text and "went wrong" in caplog.text
    assert (
        f"code: {named.code.wire_code}" in caplog.text
    )  # logger.exception shows the code


def test_a_json_log_formatter_shows_the_code_without_extra_work(
    mod: types.ModuleType, names: Names
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
        for payload_code in (names.codes[0].code.wire_code, _unknown_code(names)):
            try:
                raise mod.from_payload(
                    {"code": payload_code, "message": "boom", "retryable": False}
                )
            except Exception:
                logger.exception("request failed")
    finally:
        logger.removeHandler(handler)
    entries = [json.loads(line) for line in stream.getvalue().splitlines()]
    assert f"code: {names.codes[0].code.wire_code}" in entries[0]["exc_info"]
    assert (
        f"code: {_unknown_code(names)}" in entries[1]["exc_info"]
    )  # the code as received


def test_meanings_are_exact_strings(
    mod: types.ModuleType, names: Names, spec: oracle.Spec
) -> None:
    for named in names.codes:
        meaning = _cls(mod, named.class_name).meaning
        assert type(meaning) is str and meaning == named.code.meaning
    # The taxonomy's version as written, a date version too (README).
    assert mod.__version__ == spec.version


# ---------------------------------------------------------------- evolution
def test_deprecated_codes_warn_when_built_not_when_received(
    mod: types.ModuleType, names: Names, spec: oracle.Spec
) -> None:
    import warnings

    for named in names.codes:
        cls = _cls(mod, named.class_name)
        dep = named.code.deprecated
        assert cls.deprecated == (dep.reason if dep else None)
        assert cls.replaced_by == (dep.replaced_by if dep else None)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            given = oracle.sample_details(spec, named.code.code)
            err = cls("m", **given)
            received = mod.from_payload(
                {
                    "code": named.code.wire_code,
                    "message": "m",
                    "retryable": True,
                    "details": given,
                }
            )
            pickle.loads(pickle.dumps(err))
            copy.deepcopy(received)
        deprecations = [w for w in caught if issubclass(w.category, DeprecationWarning)]
        if dep is None:
            assert deprecations == [], named.code.wire_code
        else:
            assert (
                len(deprecations) == 1
            ), named.code.wire_code  # only the construction warns
            text = str(deprecations[0].message)
            assert named.code.wire_code in text and dep.reason in text
            if dep.replaced_by:
                assert f"use {dep.replaced_by} instead" in text
            assert deprecations[0].filename == __file__  # it points at the caller


def test_removed_codes_are_not_generated_and_fall_back(
    mod: types.ModuleType, names: Names
) -> None:
    for tomb in names.taxonomy.removed:
        assert tomb.code not in {m.value for m in mod.ErrorCode}
        assert mod.lookup(tomb.code) is _cls(mod, names.fallback.class_name)
        err = mod.from_payload(
            {"code": tomb.code, "message": "old peer", "retryable": False}
        )
        assert (
            type(err) is _cls(mod, names.fallback.class_name)
            and err.wire_code == tomb.code
        )


def test_docs_mark_deprecations_and_list_changes(case: Case, names: Names) -> None:
    docs = (case.expected / "docs/errors.md").read_text(encoding="utf-8")
    for named in names.codes:
        row = next(
            line
            for line in docs.splitlines()
            if line.startswith(f"| `{named.code.code}` |")
        )
        assert ("**deprecated:**" in row) is (named.code.deprecated is not None), row
        if named.code.deprecated and named.code.deprecated.replaced_by:
            assert f"use `{named.code.deprecated.replaced_by}` instead" in row
    changes = (
        docs.split("## Changes", 1)[1].split("\n## ", 1)[0]
        if "## Changes" in docs
        else ""
    )
    expected_rows = (
        sum(1 for c in names.taxonomy.codes if c.since)
        + sum(1 for c in names.taxonomy.codes if c.deprecated)
        + len(names.taxonomy.removed)
    )
    if expected_rows == 0:
        assert "## Changes" not in docs
    else:
        assert (
            changes.count("\n| ") - 2 == expected_rows
        )  # minus the header and rule rows
    for tomb in names.taxonomy.removed:
        assert f"| {tomb.since} | removed `{tomb.code}`" in changes
    for code in names.taxonomy.codes:
        if code.since:
            assert f"| {code.since} | added `{code.code}` |" in changes
