"""Generated runtimes that no payload can break (issue 12, section 6).

The issue's words are the contract, and the expectations here come from them,
never from the code under test:

* ``from_payload`` stays total over anything a caller can pass, not only what
  JSON makes: a Mapping or str subclass whose methods raise or lie (``__eq__``,
  ``__hash__``, ``__getitem__``), a 20 MB code, details nested 100,000 deep.
  Each gives ``InvalidPayloadError`` (or the fallback) within bounded time and
  memory, never an escaping exception, a hang or an out-of-memory crash.
* The limits are documented constants, the same in both languages and in the
  JSON Schema: details nested at most 64 deep (the details object is depth 1,
  each object or array inside adds one), a code at most 256 characters.  Past
  them: ``InvalidPayloadError`` with ``field`` ``details`` / ``code``.
* The deepest accepted payload round-trips, pickles and deep-copies.
* The type guard never raises, whatever it is handed.

Each hostile call runs under ``bounded``: a generous wall-clock sanity guard
(performance targets belong to the benchmarks) and a watchdog that turns a hang
into a failure.  The TypeScript side is
``tests/targets/typescript/ts/hostile.test.mjs``, run here
once per case.
"""

from __future__ import annotations

import contextlib
import copy
import json
import math
import os
import pickle
import re
import signal
import subprocess
import sys
import time
import types
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest

from taxogen.targets.contract import schema as contract
from tests import spec_oracle as oracle
from tests import support
from tests.support import (
    REPO,
    Case,
    expectations,
    import_generated,
    today_cases,
)

CASES = today_cases()  # today's payload; mapped: test_payload_mapping.py
#: The issue's numbers, written here, not read from the code under test.
MAX_DEPTH = 64
MAX_CODE = 256
SANITY_SECONDS = 5.0
WATCHDOG_SECONDS = 20


def _case_params() -> list[Any]:
    return [pytest.param(case, id=case.name) for case in CASES]


@pytest.fixture(params=_case_params())
def case(request: pytest.FixtureRequest) -> Case:
    return request.param  # type: ignore[no-any-return]


@pytest.fixture
def spec(case: Case) -> oracle.Spec:
    """The taxonomy as its YAML says it (never the generator's ``Names``)."""
    return oracle.read_spec(case.taxonomy)


@pytest.fixture
def mod(case: Case) -> types.ModuleType:
    return import_generated(case)


class Hung(BaseException):
    """Raised by the watchdog: a BaseException, so no ``except Exception`` swallows
    it.
    """


@contextlib.contextmanager
def bounded(what: str) -> Iterator[None]:
    """Fail if the block takes longer than the sanity bound; interrupt it if it
    hangs.
    """

    def fire(signum: int, frame: object) -> None:
        raise Hung(f"{what}: still running after {WATCHDOG_SECONDS} s")

    previous = signal.signal(signal.SIGALRM, fire)
    signal.alarm(WATCHDOG_SECONDS)
    start = time.perf_counter()
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
    elapsed = time.perf_counter() - start
    assert elapsed < SANITY_SECONDS, f"{what} took {elapsed:.1f} s"


def refused(mod: types.ModuleType, payload: object, field: str, what: str) -> Any:
    """``from_payload(payload)`` raises InvalidPayloadError about ``field``, and
    nothing else, in bounded time.
    """
    with bounded(what):
        try:
            mod.from_payload(payload)
        except mod.InvalidPayloadError as exc:
            caught = exc
        except Exception as exc:  # the issue: never an escaping exception
            pytest.fail(f"{what}: {type(exc).__name__} escaped from_payload: {exc}")
        else:
            pytest.fail(f"{what}: accepted")
    assert caught.field == field, (what, caught.field, str(caught))
    assert (
        len(str(caught)) < 500
    ), f"{what}: the message is {len(str(caught))} characters"
    return caught


def _good(spec: oracle.Spec) -> dict[str, Any]:
    named = spec.first
    return {"code": named.wire, "message": "m", "retryable": named.retryable}


def _unknown(spec: oracle.Spec, length: int) -> str:
    """A well-formed code of ``length`` characters the taxonomy lacks (codes are at
    most 100 long).
    """
    code = "zz_" + "x" * (length - 3)
    return code.upper() if spec.code_case == "upper_snake" else code


def _treated(mod: types.ModuleType, spec: oracle.Spec, code: object) -> Any:
    """The class the spec says a received ``code`` is treated as: the fallback's
    for an unknown code (or, docs "Hierarchies", a domain's that claims it).
    """
    return getattr(mod, spec.target(code).class_name)


def _nested(levels: int) -> dict[str, Any]:
    """Details ``levels`` deep by the issue's count: the details object is 1, each
    object or array inside adds one.
    """
    node: Any = "bottom"
    for level in range(levels, 1, -1):
        node = {"d": node} if level % 2 else [node]
    return {"d": node}


def _depth(value: object) -> int:
    """The issue's depth, counted independently (recursively: only for values of
    sane depth).
    """
    if type(value) is dict:
        return 1 + max((_depth(v) for v in value.values()), default=0)
    if type(value) is list:
        return 1 + max((_depth(v) for v in value), default=0)
    return 0


def _deep(levels: int, array: bool = False) -> dict[str, Any]:
    """Details ``levels`` deep (objects, or arrays inside the details object), built
    without recursion.
    """
    node: Any = [] if array else {}
    for _ in range(levels - 2):
        node = [node] if array else {"d": node}
    return {"d": node}


# --------------------------------------------------------------- the constants


def test_the_limits_are_exported_constants_the_same_as_the_contracts(
    mod: types.ModuleType,
) -> None:
    assert mod.MAX_DETAILS_DEPTH == MAX_DEPTH == contract.MAX_DETAILS_DEPTH
    assert mod.MAX_CODE_LENGTH == MAX_CODE == contract.MAX_CODE_LENGTH
    assert mod.MAX_DETAILS_NODES == contract.MAX_DETAILS_NODES
    for name in ("MAX_CODE_LENGTH", "MAX_DETAILS_DEPTH", "MAX_DETAILS_NODES"):
        assert name in mod.__all__


# ------------------------------------------------------------------------ code


def test_a_code_of_256_characters_falls_back_and_257_is_refused(
    mod: types.ModuleType, spec: oracle.Spec
) -> None:
    if spec.integer:
        # docs "Wire codes": the limit of integer codes is 2**53 - 1 either side.
        for limit in (2**53 - 1, -(2**53 - 1)):
            error = mod.from_payload({**_good(spec), "code": limit})
            assert type(error) is _treated(mod, spec, limit)
            assert error.wire_code == limit and error.to_payload()["code"] == limit
            beyond = limit + (1 if limit > 0 else -1)
            refused(mod, {**_good(spec), "code": beyond}, "code", "past the limit")
        refused(mod, {**_good(spec), "code": "x" * 257}, "code", "a string code")
        return
    longest = _unknown(spec, MAX_CODE)
    error = mod.from_payload({**_good(spec), "code": longest})
    assert type(error) is _treated(mod, spec, longest)
    assert error.wire_code == longest and error.to_payload()["code"] == longest
    refused(
        mod,
        {**_good(spec), "code": longest + longest[-1]},
        "code",
        "a 257-character code",
    )


def test_a_20_mb_code_is_refused_quickly(
    mod: types.ModuleType, spec: oracle.Spec
) -> None:
    huge = _unknown(spec, 20_000_000)  # well-formed: only its length is wrong
    refused(mod, {**_good(spec), "code": huge}, "code", "a 20 MB code")
    refused(
        mod,
        {**_good(spec), "code": "\n" * 20_000_000},
        "code",
        "a 20 MB malformed code",
    )
    # A 20 MB key is no code, but it is named in the message of what is wrong under it.
    refused(
        mod,
        {**_good(spec), "details": {"k" * 20_000_000: [math.nan]}},
        "details",
        "a 20 MB key",
    )


class LyingCode(str):
    """A str subclass that claims, by hash and equality, to be the taxonomy's first
    code.
    """

    target = ""

    def __hash__(self) -> int:
        return hash(self.target)

    def __eq__(self, other: object) -> bool:
        return True

    def __ne__(self, other: object) -> bool:
        return False


class RaisingCode(str):
    def __hash__(self) -> int:
        raise RuntimeError("no hash")

    def __eq__(self, other: object) -> bool:
        raise RuntimeError("no eq")

    def __len__(self) -> int:
        raise RuntimeError("no len")

    def __str__(self) -> str:
        raise RuntimeError("no str")

    def __repr__(self) -> str:
        raise RuntimeError("no repr")

    def __reduce__(self) -> Any:
        raise RuntimeError("no pickle")


def test_a_str_subclass_code_is_read_as_the_string_it_holds(
    mod: types.ModuleType, spec: oracle.Spec
) -> None:
    known = spec.first
    if spec.integer:
        # docs "Wire codes": an int subclass is read as the int it holds, as
        # a str subclass is where codes are strings; its own methods never run.
        class RaisingInt(int):
            def __hash__(self) -> int:
                raise RuntimeError("no hash")

            def __eq__(self, other: object) -> bool:
                raise RuntimeError("no eq")

            def __int__(self) -> int:
                raise RuntimeError("no int")

            def __repr__(self) -> str:
                raise RuntimeError("no repr")

        wire = known.wire
        assert isinstance(wire, int)
        error = mod.from_payload({**_good(spec), "code": RaisingInt(wire)})
        assert type(error) is getattr(mod, known.class_name)
        assert type(error.wire_code) is int and error.wire_code == wire
        member = next(iter(mod.ErrorCode))
        error = mod.from_payload({**_good(spec), "code": member})
        assert type(error).code == member and type(error.wire_code) is int
        return
    unknown = _unknown(spec, 12)
    fallback = _treated(mod, spec, unknown)

    class Liar(LyingCode):
        target = known.wire

    # A lying __hash__/__eq__ must not pick the class of the code it claims to be.
    error = mod.from_payload({**_good(spec), "code": Liar(unknown)})
    assert type(error) is fallback and error.wire_code == unknown
    assert type(error.wire_code) is str
    # Methods that raise are never called.
    for code in (RaisingCode(unknown), RaisingCode(known.wire)):
        error = mod.from_payload({**_good(spec), "code": code})
        assert type(error.wire_code) is str and error.wire_code == str.__str__(code)
        pickle.loads(pickle.dumps(error))
        copy.deepcopy(error)
    assert type(
        mod.from_payload({**_good(spec), "code": RaisingCode(known.wire)})
    ) is getattr(mod, known.class_name)
    # An ErrorCode member is a str subclass too, and a fine code.
    member = next(iter(mod.ErrorCode))
    error = mod.from_payload({**_good(spec), "code": member})
    assert type(error).code == member and type(error.wire_code) is str
    refused(
        mod,
        {**_good(spec), "code": RaisingCode("Not A Code")},
        "code",
        "a malformed str subclass",
    )
    refused(
        mod,
        {**_good(spec), "code": RaisingCode(unknown * 30)},
        "code",
        "a long str subclass",
    )


def test_a_str_subclass_message_is_read_as_the_string_it_holds(
    mod: types.ModuleType, spec: oracle.Spec
) -> None:
    error = mod.from_payload({**_good(spec), "message": RaisingCode("the message")})
    assert type(error.message) is str and error.message == "the message"
    clone = pickle.loads(pickle.dumps(error))
    assert clone.message == "the message"
    assert copy.deepcopy(error).to_payload() == error.to_payload()


# --------------------------------------------------------------------- details


def test_details_64_deep_are_kept_and_the_error_round_trips(
    mod: types.ModuleType, spec: oracle.Spec
) -> None:
    details = _nested(MAX_DEPTH)
    assert _depth(details) == MAX_DEPTH
    payload = {**_good(spec), "details": details}
    error = mod.from_payload(payload)
    assert error.details == details
    sent = error.to_payload()
    assert sent["details"] == details
    assert json.loads(json.dumps(sent)) == sent
    assert mod.from_payload(sent).to_payload() == sent
    for protocol in range(pickle.HIGHEST_PROTOCOL + 1):
        clone = pickle.loads(pickle.dumps(error, protocol=protocol))
        assert type(clone) is type(error) and clone.to_payload() == sent
    assert copy.deepcopy(error).to_payload() == sent
    # ...and built by hand too.
    built = type(error)("m", details=details)
    assert (
        copy.deepcopy(built).details
        == pickle.loads(pickle.dumps(built)).details
        == details
    )


def test_details_65_deep_are_refused(mod: types.ModuleType, spec: oracle.Spec) -> None:
    details = _nested(MAX_DEPTH + 1)
    assert _depth(details) == MAX_DEPTH + 1
    refused(mod, {**_good(spec), "details": details}, "details", "details 65 deep")
    # The bottom container counts as a level even when empty.
    refused(
        mod,
        {**_good(spec), "details": _deep(MAX_DEPTH + 1)},
        "details",
        "empty objects 65 deep",
    )
    mod.from_payload({**_good(spec), "details": _deep(MAX_DEPTH)})
    with pytest.raises(ValueError):
        getattr(mod, spec.base)("m", details=details)


@pytest.mark.parametrize("array", [False, True], ids=["objects", "arrays"])
def test_details_100000_deep_are_refused_in_bounded_time(
    mod: types.ModuleType, spec: oracle.Spec, array: bool
) -> None:
    details = _deep(100_000, array=array)
    refused(mod, {**_good(spec), "details": details}, "details", "details 100,000 deep")
    with (
        bounded("building an error with details 100,000 deep"),
        pytest.raises(ValueError),
    ):
        getattr(mod, spec.base)("m", details=details)
    cycle: dict[str, Any] = {}
    cycle["self"] = [cycle]
    refused(
        mod, {**_good(spec), "details": cycle}, "details", "details holding themselves"
    )


def test_shared_values_cannot_multiply_the_work(
    mod: types.ModuleType, spec: oracle.Spec
) -> None:
    """64 levels of [x, x]: 128 objects that a walk would read 2**64 times."""
    node: Any = "leaf"
    for _ in range(MAX_DEPTH - 1):
        node = [node, node]
    refused(mod, {**_good(spec), "details": {"d": node}}, "details", "a doubling DAG")


def test_a_huge_list_is_refused_without_being_walked(
    mod: types.ModuleType, spec: oracle.Spec
) -> None:
    limit = mod.MAX_DETAILS_NODES
    # The details object, the list and its items: exactly the limit, then one more.
    mod.from_payload({**_good(spec), "details": {"l": [None] * (limit - 2)}})
    refused(
        mod,
        {**_good(spec), "details": {"l": [None] * (limit - 1)}},
        "details",
        "one value too many",
    )
    refused(
        mod,
        {**_good(spec), "details": {"l": [0] * 10_000_000}},
        "details",
        "a list of 10,000,000",
    )


class LyingList(list[Any]):
    """A list claiming 100,000,000 items, whose iteration raises: the Python kin of
    a sparse array.
    """

    def __len__(self) -> int:
        return 100_000_000

    def __iter__(self) -> Iterator[Any]:
        raise RuntimeError("no iteration")

    def __getitem__(self, index: Any) -> Any:
        raise RuntimeError("no items")


class LyingDict(dict[str, Any]):
    def __getitem__(self, key: str) -> Any:
        raise RuntimeError("no items")

    def get(self, key: str, default: Any = None) -> Any:
        raise RuntimeError("no get")

    def items(self) -> Any:
        raise RuntimeError("no items")

    def keys(self) -> Any:
        raise RuntimeError("no keys")

    def __iter__(self) -> Iterator[str]:
        raise RuntimeError("no iteration")

    def __len__(self) -> int:
        return 100_000_000

    def __eq__(self, other: object) -> bool:
        raise RuntimeError("no eq")

    __hash__ = None  # type: ignore[assignment]


def test_subclasses_of_dict_and_list_are_read_as_stored(
    mod: types.ModuleType, spec: oracle.Spec
) -> None:
    good = _good(spec)
    details = LyingDict(a=LyingList([1, 2]), b=RaisingCode("text"))
    error = mod.from_payload(LyingDict(**good, details=details))
    assert type(error) is getattr(mod, spec.first.class_name)
    assert error.details == {"a": [1, 2], "b": "text"}
    assert (
        type(error.details) is dict
        and type(error.details["a"]) is list
        and type(error.details["b"]) is str
    )
    pickle.loads(pickle.dumps(error))
    copy.deepcopy(error)
    assert json.loads(json.dumps(error.to_payload())) == {
        **good,
        "details": {"a": [1, 2], "b": "text"},
    }


class SlyKey(str):
    """A str subclass usable as a key, whose other methods raise."""

    __hash__ = str.__hash__

    def __str__(self) -> str:
        raise RuntimeError("no str")

    def __repr__(self) -> str:
        raise RuntimeError("no repr")

    def __reduce__(self) -> Any:
        raise RuntimeError("no pickle")


class BigInt(int):
    def __repr__(self) -> str:
        raise RuntimeError("no repr")

    def __reduce__(self) -> Any:
        raise RuntimeError("no pickle")


class OddFloat(float):
    def __reduce__(self) -> Any:
        raise RuntimeError("no pickle")


def test_details_of_scalar_subclasses_are_kept_as_plain_json(
    mod: types.ModuleType, spec: oracle.Spec
) -> None:
    details = {SlyKey("k"): [BigInt(7), OddFloat(1.5), RaisingCode("v")]}
    error = mod.from_payload({**_good(spec), "details": details})
    assert error.details == {"k": [7, 1.5, "v"]}
    assert [type(v) for v in error.details["k"]] == [int, float, str]
    assert pickle.loads(pickle.dumps(error)).details == {"k": [7, 1.5, "v"]}
    built = getattr(mod, spec.base)("m", details=details)
    assert copy.deepcopy(built).details == {"k": [7, 1.5, "v"]}


# --------------------------------------------------------- mappings that lie


class RaisingMapping(Mapping[str, Any]):
    """A Mapping whose every method raises (an exception whose own methods raise
    too).
    """

    class Nasty(Exception):
        def __str__(self) -> str:
            raise RuntimeError("no str")

    def __getitem__(self, key: str) -> Any:
        raise self.Nasty()

    def __iter__(self) -> Iterator[str]:
        raise self.Nasty()

    def __len__(self) -> int:
        raise self.Nasty()


class EndlessMapping(Mapping[str, Any]):
    """A Mapping whose keys never end (and whose len says it is empty)."""

    def __getitem__(self, key: str) -> Any:
        return {"more": [1]}

    def __iter__(self) -> Iterator[str]:
        n = 0
        while True:
            n += 1
            yield f"k{n}"

    def __len__(self) -> int:
        return 0


class ShiftyMapping(Mapping[str, Any]):
    """A payload that raises for one field and answers the others."""

    def __init__(self, data: dict[str, Any], bad: str) -> None:
        self.data, self.bad = data, bad

    def __getitem__(self, key: str) -> Any:
        if key == self.bad:
            raise RuntimeError(f"no {key}")
        return self.data[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self.data)

    def __len__(self) -> int:
        return len(self.data)


def test_mappings_whose_methods_raise_or_lie_are_invalid_payloads(
    mod: types.ModuleType, spec: oracle.Spec
) -> None:
    good = _good(spec)
    refused(mod, RaisingMapping(), "code", "a mapping whose __getitem__ raises")
    for field in ("code", "message", "retryable", "details"):
        refused(
            mod,
            ShiftyMapping({**good, "details": {}}, field),
            field,
            f"a mapping refusing {field}",
        )
    refused(
        mod,
        {**good, "details": RaisingMapping()},
        "details",
        "details whose methods raise",
    )
    refused(
        mod, {**good, "details": EndlessMapping()}, "details", "details without end"
    )
    error = mod.from_payload(
        ShiftyMapping({**good, "details": ShiftyMapping({"a": 1}, "x")}, "x")
    )
    assert error.details == {"a": 1}
    with bounded("building an error with endless details"), pytest.raises(ValueError):
        getattr(mod, spec.base)("m", details=EndlessMapping())


class EvilKey(str):
    """A key with the hash of "code" whose comparisons raise, once armed (a dict
    holding it can be built first).
    """

    armed = False

    def __hash__(self) -> int:
        return hash("code")

    def __eq__(self, other: object) -> bool:
        if EvilKey.armed:
            raise RuntimeError("no eq")
        return False


@pytest.fixture
def evil_keys() -> Iterator[None]:
    yield
    EvilKey.armed = False


def test_keys_whose_comparison_raises_are_invalid_not_escaping(
    mod: types.ModuleType, spec: oracle.Spec, evil_keys: None
) -> None:
    payload = {EvilKey("zz"): 1, **_good(spec)}
    details = {EvilKey("k"): 1, "code": 2}
    EvilKey.armed = True
    # Reading "code" compares it with the evil key: what that raises is an invalid code.
    refused(mod, payload, "code", "a payload with a key whose __eq__ raises")
    # Details are read as stored, never looked up: the evil key is never compared.
    error = mod.from_payload({**_good(spec), "details": details})
    assert error.details == {"k": 1, "code": 2}
    assert all(type(key) is str for key in error.details)


class Impostor:
    """An object that claims, through ``__class__``, to be something it is not."""

    def __init__(self, claimed: type) -> None:
        self.claimed = claimed

    @property  # type: ignore[misc]
    def __class__(self) -> type:
        return self.claimed  # type: ignore[no-any-return]


class Thrower:
    """An object whose every attribute lookup, ``__class__`` included, raises."""

    def __getattribute__(self, name: str) -> Any:
        raise RuntimeError(f"no {name}")


def test_objects_lying_about_their_class_are_invalid(
    mod: types.ModuleType, spec: oracle.Spec
) -> None:
    good = _good(spec)
    assert isinstance(Impostor(str), str) and isinstance(
        Impostor(dict), dict
    )  # the lie works on isinstance
    refused(mod, Impostor(dict), "payload", "an impostor payload")
    refused(mod, Thrower(), "payload", "a payload that raises on every lookup")
    refused(mod, {**good, "code": Impostor(str)}, "code", "an impostor code")
    refused(
        mod, {**good, "code": Thrower()}, "code", "a code that raises on every lookup"
    )
    refused(mod, {**good, "message": Impostor(str)}, "message", "an impostor message")
    refused(
        mod, {**good, "retryable": Impostor(bool)}, "retryable", "an impostor boolean"
    )
    refused(mod, {**good, "details": Impostor(dict)}, "details", "impostor details")
    for value in (
        Impostor(str),
        Impostor(int),
        Impostor(float),
        Impostor(list),
        Impostor(dict),
        Thrower(),
    ):
        refused(
            mod,
            {**good, "details": {"a": [value]}},
            "details",
            f"details holding {type(value).__name__}",
        )


def test_the_guard_never_raises(mod: types.ModuleType, spec: oracle.Spec) -> None:
    guard = getattr(mod, oracle.python_guard(spec))
    base = getattr(mod, spec.base)
    for value in (
        Thrower(),
        Impostor(base),
        Impostor(Thrower),
        RaisingMapping(),
        LyingDict(),
        None,
        base,
        object(),
    ):
        assert guard(value) is False, value
    assert guard(base("m")) is True
    assert guard(mod.from_payload(_good(spec))) is True
    for value in (Thrower(), Impostor(base), Impostor(ValueError)):
        wrapped = mod.to_error(value)  # built on the guard: never raises either
        assert type(wrapped) is getattr(mod, spec.codes[spec.wrap].class_name)


def test_events_whose_methods_raise_are_invalid(
    mod: types.ModuleType, spec: oracle.Spec
) -> None:
    for event in (RaisingMapping(), Thrower(), Impostor(dict)):
        with (
            bounded("a hostile event"),
            pytest.raises(mod.InvalidPayloadError) as caught,
        ):
            mod.error_from_event(event)
        assert caught.value.field == "event"
    for event_type, location in spec.events.items():
        event: dict[str, Any] = {"type": event_type}
        node = event
        parts = location.split(".")
        for part in parts[:-1]:
            node[part] = {}
            node = node[part]
        node[parts[-1]] = {**_good(spec), "details": _nested(MAX_DEPTH + 1)}
        with pytest.raises(mod.InvalidPayloadError) as caught:
            mod.error_from_event(event)
        assert caught.value.field == "details"
        node[parts[-1]] = RaisingMapping()
        with pytest.raises(mod.InvalidPayloadError):
            mod.error_from_event(event)


# ------------------------------------------------------------------ TypeScript

NODE_HOSTILE = REPO / "tests" / "targets" / "typescript" / "ts" / "hostile.test.mjs"


def require_typescript_tools() -> str:
    """The node executable; without tsc or node: a failure under CI, a skip naming
    the tool elsewhere.
    """
    return support.require_typescript_tools()


@pytest.mark.parametrize("case", _case_params())
def test_typescript_runtime_no_payload_can_break(
    case: Case, compiled_ts: Callable[[Case], Path], tmp_path: Path
) -> None:
    node = require_typescript_tools()
    module = compiled_ts(case)
    expect = tmp_path / "expectations.json"
    limits = {
        "maxDetailsNodes": contract.MAX_DETAILS_NODES,
    }
    expect.write_text(
        json.dumps({**expectations(case.taxonomy), "limits": limits}), "utf-8"
    )
    env = {
        **os.environ,
        "TAXOGEN_MODULE": str(module),
        "TAXOGEN_EXPECT": str(expect),
        "NODE_OPTIONS": "",
    }
    # A small heap: a runtime that allocated what a sparse array or a proxy claims
    # would die here.
    run = subprocess.run(
        [node, "--max-old-space-size=256", "--test", "--test-reporter=spec",
         str(NODE_HOSTILE)],
        capture_output=True, text=True, env=env, check=False, timeout=300,
    )  # fmt: skip
    sys.stdout.write(run.stdout[-3000:])
    assert run.returncode == 0, run.stdout[-8000:] + run.stderr[-4000:]
    # Guard against a run that passed by running nothing.
    assert re.search(r"\bfail 0\b", run.stdout) and not re.search(
        r"\bpass 0\b", run.stdout
    ), run.stdout[-2000:]
