"""The Python runtime as code: ``generator/targets/python/runtime/_runtime.py``.

Every generated package carries this module, unchanged, as its private
``_runtime.py``.  Here it is imported straight from its file, under a name of
its own, and bound to a small taxonomy defined in this test (the way a
generated ``__init__.py`` binds it), so each rule is checked on the runtime
itself, whatever any golden file holds: the base class, decoding and its
limits, the fallback, wrapping, the guard, events, pickling and the lazy
layout's loading.  The generated packages are exercised as a whole by
test_python_api, test_hostile_runtime and test_python_layout.
"""

from __future__ import annotations

import ast
import copy
import enum
import importlib.util
import math
import pickle
import pickletools
import re
import sys
import types
import warnings
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from taxogen import render
from taxogen.targets import every
from taxogen.targets.base import header_lines
from taxogen.model import CASE_PATTERNS
from tests.spec_oracle import python_guard, read_spec
from tests.support import REPO, case_ids, cases, package

RUNTIME = REPO / "generator" / "targets" / "python" / "runtime" / "_runtime.py"


def _load_runtime(name: str) -> types.ModuleType:
    spec = importlib.util.spec_from_file_location(name, RUNTIME)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


rt = _load_runtime("_taxogen_runtime_under_test")


# ------------------------------------------------------------ a taxonomy of toys
# Bound to the runtime as a generated __init__.py binds it, in this module.
class Code(enum.StrEnum):
    TOY_ERROR = "toy_error"
    TOY_BROKEN = "toy_broken"
    TOY_SLOW = "toy_slow"
    TOY_OLD = "toy_old"
    TOY_CRASH = "toy_crash"


class Area(enum.StrEnum):
    TOY = "toy"


class ToyError(rt.TaxonomyError):  # type: ignore[misc]
    """The root of the toys."""

    code = Code.TOY_ERROR
    domain = Area.TOY
    meaning = "Unspecified toy error"
    retryable = False

    def to_payload(self) -> dict[str, Any]:  # as the package's root class does
        return self._payload()  # type: ignore[no-any-return]


class ToyBrokenError(ToyError):
    code = Code.TOY_BROKEN
    meaning = "The toy is broken"


class ToySlowError(ToyError):
    code = Code.TOY_SLOW
    meaning = "The toy is slow"
    retryable = True
    http_status = 429
    grpc_status = "RESOURCE_EXHAUSTED"
    throttling = True
    doc_url = "https://toys.example/toy_slow"


class ToyOldError(ToyError):
    code = Code.TOY_OLD
    meaning = "An old toy"
    deprecated = "Too vague"
    replaced_by = "toy_broken"


class ToyCrashError(ToyError):
    code = Code.TOY_CRASH
    meaning = "The toy box crashed"


BY_CODE = {
    str(cls.code): cls
    for cls in (ToyError, ToyBrokenError, ToySlowError, ToyOldError, ToyCrashError)
}
# As the package does: re-export the runtime's classes, bind its unpickler.
InvalidPayloadError = rt.InvalidPayloadError
_rebuild = rt.adopt(__name__)
CLASSES = rt.Classes(ToyError, BY_CODE, fallback="toy_error", wrap="toy_crash")
PATTERN = CASE_PATTERNS["lower_snake"].pattern
from_payload = rt.decoder(CLASSES, PATTERN)
EVENTS = types.MappingProxyType({"toy.failed": "payload.error", "toy.gone": "error"})


def _invalid(payload: object, field: str) -> str:
    with pytest.raises(rt.InvalidPayloadError) as caught:
        from_payload(payload)
    assert caught.value.field == field, caught.value
    return str(caught.value)


def _good(**fields: object) -> dict[str, object]:
    return {"code": "toy_broken", "message": "m", "retryable": False, **fields}


def _nested(depth: int) -> dict[str, Any]:
    """Details ``depth`` deep: the details object is depth 1."""
    inner: dict[str, Any] = {}
    for _ in range(depth - 1):
        inner = {"a": inner}
    return inner


# ------------------------------------------------------------------ the module
def test_the_runtime_is_a_documented_module_with_an_all() -> None:
    tree = ast.parse(RUNTIME.read_text(encoding="utf-8"))
    assert ast.get_docstring(tree)
    public = set()
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            public.add(node.name)
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            public.update(t.id for t in targets if isinstance(t, ast.Name))
    public = {name for name in public if not name.startswith("_")}
    assert sorted(rt.__all__) == sorted(public)


def test_the_runtime_imports_only_the_standard_library_and_never_the_package() -> None:
    tree = ast.parse(RUNTIME.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            assert node.level == 0, "a relative import would tie it to a package"
            assert node.module is not None
            root = node.module.split(".")[0]
        elif isinstance(node, ast.Import):
            (root,) = {alias.name.split(".")[0] for alias in node.names}
        else:
            continue
        assert root in sys.stdlib_module_names or root == "__future__", root


@pytest.mark.parametrize("case", cases(), ids=case_ids())
def test_the_runtime_knows_no_taxonomy(case: Any) -> None:
    """No name of any case (class, enum member, code, package) is in its code.

    Every identifier and every whole string it holds, that is: its prose may
    well say "hostile" or "long" (a case's name and a code).
    """
    source = RUNTIME.read_text(encoding="utf-8")
    words: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Name):
            words.add(node.id)
        elif isinstance(node, ast.Attribute):
            words.add(node.attr)
        elif isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            words.add(node.name)
        elif isinstance(node, ast.arg):
            words.add(node.arg)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            words.add(node.value)  # a code would be a whole string
    # The case's names by the README's rules (guard, package, enum members),
    # read from its YAML, not from the generator's naming.
    spec = read_spec(case.taxonomy)
    codes = spec.codes.values()
    own = (
        {spec.base, python_guard(spec), spec.python_package, spec.name}
        | set(spec.domains.values())
        | {c.class_name for c in codes}
        | {c.code.upper() for c in codes if len(c.code) > 3}
        | {c.code for c in codes if len(c.code) > 3}
    )
    assert own & words == set()
    assert "harmovela" not in source.lower()


@pytest.mark.parametrize("case", cases(), ids=case_ids())
def test_every_package_carries_the_runtime_verbatim_under_the_header(
    case: Any,
) -> None:
    names = case.names
    # The Python target alone: another target's failure is its own tests' to see.
    plan = render.render(names, [t for t in every() if t.name == "python"])
    path = f"python/src/{read_spec(case.taxonomy).python_package}/_runtime.py"
    head = "".join(f"# {line}\n" for line in header_lines(names.taxonomy.source))
    assert plan[path] == (head + RUNTIME.read_text(encoding="utf-8")).encode()
    assert (package(case) / path).read_bytes() == plan[path]


# -------------------------------------------------------------- the base class
def test_an_error_carries_code_message_details_and_retryability() -> None:
    details = {"toy": {"ids": [1, 2]}, "ok": True}
    err = ToyBrokenError("it broke", details=details)
    assert (err.code, err.domain, err.meaning) == (
        "toy_broken",
        "toy",
        "The toy is broken",
    )
    assert err.message == str(err) == "it broke" and err.args == ("it broke",)
    assert err.retryable is False and err.wire_code == "toy_broken"
    assert err.details == details and err.details is not details
    details["toy"]["ids"].append(3)  # a deep copy: the caller's changes stay theirs
    assert err.details == {"toy": {"ids": [1, 2]}, "ok": True}
    assert err.__notes__ == ["code: toy_broken"]
    assert repr(err) == "ToyBrokenError(code='toy_broken', message='it broke')"
    assert err.to_payload() == {
        "code": "toy_broken",
        "message": "it broke",
        "retryable": False,
        "details": {"toy": {"ids": [1, 2]}, "ok": True},
    }
    assert err.to_dict() == {"name": "ToyBrokenError", **err.to_payload()}
    assert isinstance(err, ToyError) and isinstance(err, Exception)


def test_what_a_code_maps_to_is_class_level_and_none_unless_declared() -> None:
    """Issue 14 §4: http_status, grpc_status, throttling and doc_url are class
    attributes, None (False for throttling) where the taxonomy says nothing, and
    never reach the payload."""

    def mapped(owner: Any) -> tuple[Any, ...]:
        return (owner.http_status, owner.grpc_status, owner.throttling, owner.doc_url)

    declared = (429, "RESOURCE_EXHAUSTED", True, "https://toys.example/toy_slow")
    assert mapped(ToySlowError) == mapped(ToySlowError("m")) == declared
    for owner in (rt.TaxonomyError, ToyError, ToyBrokenError, ToyBrokenError("m")):
        assert mapped(owner) == (None, None, False, None)
    err = ToySlowError("m")
    assert not {"http_status", "grpc_status", "throttling", "doc_url"} & set(vars(err))
    assert set(err.to_payload()) == {"code", "message", "retryable", "details"}


def test_defaults_cause_and_retryable_per_instance() -> None:
    cause = KeyError("k")
    err = ToySlowError(cause=cause, retryable=False)
    assert err.message == "The toy is slow" and err.details == {}
    assert err.__cause__ is cause and err.retryable is False
    assert ToySlowError.retryable is True and ToySlowError().retryable is True
    bare = ToyError()
    assert bare.code == "toy_error" and bare.to_dict()["name"] == "ToyError"


@pytest.mark.parametrize(
    ("kwargs", "error", "text"),
    [
        ({"message": 42}, TypeError, "message: expected a string, got a number"),
        ({"retryable": "yes"}, TypeError, "retryable: expected a boolean"),
        ({"details": [1]}, TypeError, "details: expected a mapping, got an array"),
        ({"details": {"x": math.nan}}, ValueError, "details.x: nan is not a finite"),
        ({"details": {1: "a"}}, ValueError, "details: key 1 is not a string"),
        ({"details": {"x": object()}}, ValueError, "details.x: a object is not a JSON"),
        (
            {"details": _nested(rt.MAX_DETAILS_DEPTH + 1)},
            ValueError,
            f"nested deeper than {rt.MAX_DETAILS_DEPTH} levels",
        ),
    ],
)
def test_building_refuses_what_json_cannot_carry(
    kwargs: dict[str, Any], error: type[Exception], text: str
) -> None:
    with pytest.raises(error, match=re.escape(text)):
        ToyBrokenError(**kwargs)


def test_a_cycle_in_details_is_refused_when_built() -> None:
    looped: dict[str, Any] = {}
    looped["self"] = looped
    with pytest.raises(ValueError, match="contains itself"):
        ToyBrokenError(details={"a": looped})


def test_a_deprecated_code_warns_when_built_not_when_received_or_unpickled() -> None:
    with pytest.warns(DeprecationWarning) as caught:
        old = ToyOldError("m")
    assert str(caught[0].message) == (
        "ToyOldError (toy_old) is deprecated: Too vague; use toy_broken instead"
    )
    assert caught[0].filename == __file__  # it points at the caller
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        received = from_payload({"code": "toy_old", "message": "m", "retryable": True})
        assert type(received) is ToyOldError
        assert type(pickle.loads(pickle.dumps(old))) is ToyOldError


# ------------------------------------------------------------------- pickling
def test_errors_pickle_and_deepcopy_with_every_attribute() -> None:
    cause = ValueError("why")
    err = ToySlowError("m", details={"a": [1, {"b": None}]}, cause=cause)
    err.retryable = False
    received = from_payload({"code": "zz_new", "message": "x", "retryable": True})
    for original in (err, received, rt.InvalidPayloadError("bad", field="code")):
        for clone in (pickle.loads(pickle.dumps(original)), copy.deepcopy(original)):
            assert type(clone) is type(original)
            assert vars(clone) == vars(original)
            assert str(clone) == str(original)
    clone = pickle.loads(pickle.dumps(err))
    assert clone.to_dict() == err.to_dict() and repr(clone.__cause__) == repr(cause)
    assert clone.__notes__ == ["code: toy_slow"]
    assert pickle.loads(pickle.dumps(received)).to_payload()["code"] == "zz_new"


def test_pickles_name_the_package_never_the_runtime_module() -> None:
    """adopt() gives the unpickler and the re-exported classes the package's path."""
    names: list[str] = []
    for value in (ToyBrokenError("m"), rt.InvalidPayloadError("m", field="code")):
        stream = pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
        names += [str(arg) for op, arg, _ in pickletools.genops(stream) if arg]
    assert {__name__, "_rebuild", "ToyBrokenError", "InvalidPayloadError"} <= set(names)
    assert rt.__name__ not in names
    assert rt.InvalidPayloadError.__module__ == __name__
    assert _rebuild.__module__ == __name__ and _rebuild.__qualname__ == "_rebuild"


# --------------------------------------------------------------- decoding
def test_a_known_code_decodes_to_its_class() -> None:
    err = from_payload(_good(details={"a": [1, 2.5, "x", None, True]}))
    assert type(err) is ToyBrokenError
    assert err.to_payload() == _good(details={"a": [1, 2.5, "x", None, True]})
    assert err.__notes__ == ["code: toy_broken"]
    assert from_payload(_good(details=None, extra="ignored")).details == {}
    assert from_payload(_good(code=Code.TOY_SLOW)).wire_code == "toy_slow"


def test_an_unknown_well_formed_code_falls_back_and_is_re_emitted() -> None:
    err = from_payload(_good(code="zz_brand_new", retryable=True))
    assert type(err) is ToyError and err.code == "toy_error"
    assert err.wire_code == "zz_brand_new" and err.retryable is True
    assert err.to_payload()["code"] == "zz_brand_new"
    longest = "zz_" + "x" * (rt.MAX_CODE_LENGTH - 3)
    assert from_payload(_good(code=longest)).wire_code == longest


def test_lookup_fallback_and_wrap_classes() -> None:
    assert CLASSES.lookup("toy_slow") is ToySlowError
    assert CLASSES.lookup("zz_unknown") is ToyError
    assert CLASSES.fallback() is ToyError and CLASSES.wrap() is ToyCrashError
    assert CLASSES.unloaded("toy_slow") is None and CLASSES.complete


@pytest.mark.parametrize(
    ("payload", "field", "text"),
    [
        ([], "payload", "payload: expected an object, got an array"),
        ({"message": "m", "retryable": True}, "code", "code: expected a string"),
        (_good(code=5), "code", "code: expected a string, got a number"),
        (_good(code="Not A Code"), "code", "is not a well-formed error code"),
        (_good(code="TOY_BROKEN"), "code", "is not a well-formed error code"),
        (
            _good(code="z" * (rt.MAX_CODE_LENGTH + 1)),
            "code",
            f"code: longer than {rt.MAX_CODE_LENGTH} characters",
        ),
        (_good(message=None), "message", "message: expected a string, got null"),
        (_good(retryable=1), "retryable", "retryable: expected a boolean"),
        (_good(retryable="true"), "retryable", "got a string"),
        (_good(details=[1]), "details", "details: expected an object, got an array"),
        (_good(details={"n": math.inf}), "details", "details.n: inf is not a finite"),
        (
            _good(details={"n": 1 << 70000}),
            "details",
            "details.n: an integer past a double's range is not a finite number",
        ),
        (_good(details={"k": [{3: 1}]}), "details", "details.k[0]: key 3 is not"),
    ],
)
def test_a_malformed_payload_names_its_bad_field(
    payload: object, field: str, text: str
) -> None:
    assert text in _invalid(payload, field)


def test_details_limits_depth_and_nodes() -> None:
    deepest = _nested(rt.MAX_DETAILS_DEPTH)
    assert from_payload(_good(details=deepest)).details == deepest
    text = _invalid(_good(details=_nested(rt.MAX_DETAILS_DEPTH + 1)), "details")
    assert f"nested deeper than {rt.MAX_DETAILS_DEPTH} levels" in text
    # The details object counts as one value, the list as another.
    most = rt.MAX_DETAILS_NODES - 2
    assert len(from_payload(_good(details={"a": [0] * most})).details["a"]) == most
    text = _invalid(_good(details={"a": [0] * (most + 1)}), "details")
    assert f"holds more than {rt.MAX_DETAILS_NODES} values" in text
    flat = {f"k{i}": 0 for i in range(rt.MAX_DETAILS_NODES - 1)}
    assert len(from_payload(_good(details=flat)).details) == len(flat)
    flat["one_more"] = 0
    assert "holds more than" in _invalid(_good(details=flat), "details")


def test_a_cycle_in_received_details_is_refused() -> None:
    looped: list[Any] = []
    looped.append(looped)
    assert "details.a[0]: contains itself" in _invalid(
        _good(details={"a": looped}), "details"
    )


class _Raising(Mapping[str, object]):
    """A mapping that is no dict, whose ``get`` raises for one key."""

    def __init__(self, data: dict[str, object], bad: str) -> None:
        self.data, self.bad = data, bad

    def get(self, key: str, default: object = None) -> object:
        if key == self.bad:
            raise RuntimeError("no")
        return self.data.get(key, default)

    def __getitem__(self, key: str) -> object:
        return self.data[key]

    def __iter__(self) -> Iterator[str]:
        raise RuntimeError("no iteration")

    def __len__(self) -> int:
        return len(self.data)


class _Liar(str):
    """A str subclass whose own methods lie: read as the string it holds."""

    def __eq__(self, other: object) -> bool:
        return True

    def __hash__(self) -> int:
        return hash("toy_slow")

    def __str__(self) -> str:
        return "toy_slow"


@pytest.mark.parametrize("field", ["code", "message", "retryable", "details"])
def test_a_mapping_whose_get_raises_makes_that_field_invalid(field: str) -> None:
    text = _invalid(_Raising(_good(details={}), field), field)
    assert text == f"{field}: cannot be read (RuntimeError)"


def test_a_mapping_s_details_are_read_through_its_iteration() -> None:
    details = _Raising({"a": 1}, "never")
    assert "details: cannot be read (RuntimeError)" in _invalid(
        _good(details=details), "details"
    )
    assert type(from_payload(_Raising(_good(), "never"))) is ToyBrokenError


def test_str_subclasses_count_as_the_string_they_hold() -> None:
    err = from_payload(_good(code=_Liar("toy_broken"), message=_Liar("hi")))
    assert type(err) is ToyBrokenError
    assert type(err.message) is str and err.message == "hi"
    assert type(err.wire_code) is str


_JSONISH = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats()
    | st.text(max_size=5)
    | st.sampled_from([object(), b"x", 1j, {1, 2}]),
    lambda inner: st.lists(inner, max_size=3)
    | st.tuples(inner)
    | st.dictionaries(st.text(max_size=3) | st.integers(), inner, max_size=3),
    max_leaves=12,
)


@settings(max_examples=150, deadline=None)
@given(
    code=st.sampled_from(["toy_broken", "zz_new", "", "X", None, 3]) | _JSONISH,
    message=st.text(max_size=5) | _JSONISH,
    retryable=st.booleans() | _JSONISH,
    details=_JSONISH,
)
def test_decoding_raises_nothing_but_invalid_payload_and_round_trips(
    code: object, message: object, retryable: object, details: object
) -> None:
    payload = {
        "code": code,
        "message": message,
        "retryable": retryable,
        "details": details,
    }
    try:
        err = from_payload(payload)
    except rt.InvalidPayloadError:
        return
    again = from_payload(err.to_payload())
    assert type(again) is type(err) and again.to_payload() == err.to_payload()
    assert pickle.loads(pickle.dumps(err)).to_payload() == err.to_payload()


# ------------------------------------------------------- guard, wrap, events
class _LyingClass:
    @property  # type: ignore[misc]
    def __class__(self) -> type:
        raise RuntimeError("no class for you")


@pytest.mark.parametrize(
    "make",  # made in the test: pytest itself would ask a _LyingClass its class
    [lambda: None, lambda: 1, lambda: "toy_error", lambda: ToyError, _LyingClass],
    ids=["none", "int", "code", "class", "lying_class"],
)
def test_the_guard_never_raises_and_accepts_only_errors(make: Any) -> None:
    assert rt.is_error(make(), ToyError) is False
    assert rt.is_error(ValueError("v"), ToyError) is False


def test_the_guard_accepts_every_error_of_the_taxonomy() -> None:
    assert rt.is_error(ToySlowError(), ToyError)
    assert rt.is_error(from_payload(_good()), ToyError)
    assert not rt.is_error(ToySlowError(), ToyBrokenError)


class _Unprintable(Exception):
    def __str__(self) -> str:
        raise RuntimeError("no text")


def test_to_error_keeps_errors_and_wraps_the_rest() -> None:
    err = ToyBrokenError("m")
    assert rt.to_error(err, CLASSES) is err
    cause = KeyError("x")
    wrapped = rt.to_error(cause, CLASSES)
    assert type(wrapped) is ToyCrashError and wrapped.__cause__ is cause
    assert wrapped.message == "KeyError: 'x'" and wrapped.original is None
    assert rt.to_error(_Unprintable(), CLASSES).message == "_Unprintable"
    value = {"not": "an exception"}
    other = rt.to_error(value, CLASSES)
    assert type(other) is ToyCrashError and other.original is value
    assert other.message == "non-exception value: {'not': 'an exception'}"
    assert rt.to_error(_LyingClass(), CLASSES).message.startswith(
        "non-exception value: <"
    )


def test_error_from_event_reads_the_error_where_the_events_say() -> None:
    payload = _good(code="toy_slow", retryable=True)
    event = {"type": "toy.failed", "payload": {"error": payload}}
    assert type(rt.error_from_event(event, EVENTS, from_payload)) is ToySlowError
    flat = {"type": "toy.gone", "error": payload}
    assert type(rt.error_from_event(flat, EVENTS, from_payload)) is ToySlowError
    for nothing in (
        {"type": "toy.other", "payload": {"error": payload}},
        {"type": 5},
        {"type": "toy.failed"},
        {"type": "toy.failed", "payload": [payload]},
        {"type": "toy.failed", "payload": {"error": None}},
    ):
        assert rt.error_from_event(nothing, EVENTS, from_payload) is None, nothing
    with pytest.raises(rt.InvalidPayloadError) as caught:
        rt.error_from_event([], EVENTS, from_payload)  # type: ignore[arg-type]
    assert caught.value.field == "event"
    with pytest.raises(rt.InvalidPayloadError) as caught:
        rt.error_from_event(_Raising({}, "type"), EVENTS, from_payload)
    assert str(caught.value) == "event: cannot be read (RuntimeError)"
    bad = {"type": "toy.failed", "payload": {"error": {"code": 1}}}
    with pytest.raises(rt.InvalidPayloadError) as caught:
        rt.error_from_event(bad, EVENTS, from_payload)
    assert caught.value.field == "code"


# ------------------------------------------------------------ the lazy layout
_DOMAIN = """\
from {test} import ToyError


class {name}Error(ToyError):
    code = "{code}_error"
    meaning = "{name} error"
    retryable = {retryable}


class {name}GoneError({name}Error):
    code = "{code}_gone"
    meaning = "{name} gone"
"""


@pytest.fixture
def lazy(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, request: pytest.FixtureRequest
) -> Iterator[tuple[types.ModuleType, Any]]:
    """A package whose two domain modules are loaded by a LazyClasses."""
    package = f"toy_lazy_{request.node.name.replace('[', '_').strip(']')}"
    folder = tmp_path / package
    folder.mkdir()
    (folder / "__init__.py").write_text("", encoding="utf-8")
    for name, code, retryable in (("Alpha", "alpha", True), ("Beta", "beta", False)):
        text = _DOMAIN.format(test=__name__, name=name, code=code, retryable=retryable)
        (folder / f"_domain_{code}.py").write_text(text, encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    module = importlib.import_module(package)
    modules = {
        "AlphaError": "_domain_alpha",
        "AlphaGoneError": "_domain_alpha",
        "BetaError": "_domain_beta",
        "BetaGoneError": "_domain_beta",
    }
    class_of = {
        "alpha_error": "AlphaError",
        "alpha_gone": "AlphaGoneError",
        "beta_error": "BetaError",
        "beta_gone": "BetaGoneError",
    }
    classes = rt.LazyClasses(
        ToyError,
        package=package,
        namespace=vars(module),
        modules=modules,
        class_of=class_of,
        fallback="alpha_error",
        wrap="beta_gone",
    )
    module.__getattr__ = classes.getattr  # type: ignore[attr-defined]
    module.__dir__ = classes.dir  # type: ignore[method-assign]
    yield module, classes
    for name in [m for m in sys.modules if m.split(".")[0] == package]:
        del sys.modules[name]


def _loaded(package: str) -> list[str]:
    return sorted(
        m.rpartition(".")[2] for m in sys.modules if m.startswith(package + ".")
    )


def test_lazy_classes_load_a_domain_on_first_use_only(
    lazy: tuple[types.ModuleType, Any],
) -> None:
    module, classes = lazy
    package = module.__name__
    decode = rt.decoder(classes, PATTERN)
    assert _loaded(package) == [] and classes.by_code == {} and not classes.complete
    assert {"AlphaError", "BetaGoneError"} <= set(dir(module))
    err = decode({"code": "beta_gone", "message": "m", "retryable": True})
    assert type(err).__name__ == "BetaGoneError" and _loaded(package) == [
        "_domain_beta"
    ]
    assert type(err).__module__ == package and vars(module)["BetaGoneError"] is type(
        err
    )
    assert set(classes.by_code) == {"beta_error", "beta_gone"}
    assert module.BetaError is classes.load("BetaError")
    assert isinstance(err, module.BetaError) and isinstance(err, ToyError)
    with pytest.raises(AttributeError, match=f"module '{package}' has no attribute"):
        module.NoSuchError


def test_lazy_fallback_and_wrap_load_their_domains(
    lazy: tuple[types.ModuleType, Any],
) -> None:
    module, classes = lazy
    decode = rt.decoder(classes, PATTERN)
    with pytest.raises(rt.InvalidPayloadError):
        decode({"code": "Bad Code", "message": "m", "retryable": True})
    assert _loaded(module.__name__) == []  # refused before any module is imported
    unknown = decode({"code": "zz_new", "message": "m", "retryable": True})
    assert type(unknown).__name__ == "AlphaError" and unknown.wire_code == "zz_new"
    assert classes.lookup("zz_other") is module.AlphaError
    assert classes.unloaded("zz_other") is None
    wrapped = rt.to_error(OSError("disk"), classes)
    assert type(wrapped).__name__ == "BetaGoneError"
    assert _loaded(module.__name__) == ["_domain_alpha", "_domain_beta"]


def test_lazy_classes_pickle_by_the_package_path(
    lazy: tuple[types.ModuleType, Any],
) -> None:
    module, classes = lazy
    err = classes.lookup("alpha_gone")("m")
    stream = pickle.dumps(err)
    # A fresh start: the package's classes forgotten, its domain modules unloaded.
    for name in ("AlphaError", "AlphaGoneError"):
        del vars(module)[name]
    classes._loaded.clear()
    classes.by_code.clear()
    del sys.modules[f"{module.__name__}._domain_alpha"]
    clone = pickle.loads(stream)
    assert type(clone) is module.AlphaGoneError and str(clone) == "m"
    assert type(clone).__module__ == module.__name__


# ------------------------------------------------------------ integer codes


class Number(enum.IntEnum):
    """docs "Wire codes": integer codes, JSON-RPC's."""

    PARSE = -32700
    SERVER = -32000


class RpcError(rt.TaxonomyError):  # type: ignore[misc]
    code = Number.SERVER
    domain = Area.TOY
    meaning = "Server error"
    retryable = False

    def to_payload(self) -> dict[str, Any]:
        return self._payload()  # type: ignore[no-any-return]


class ParseError(RpcError):
    code = Number.PARSE
    meaning = "Parse error"


INT_CLASSES = rt.Classes(
    RpcError, {-32700: ParseError, -32000: RpcError}, fallback=-32000, wrap=-32000
)
from_int_payload = rt.decoder(INT_CLASSES, None)


class LyingInt(int):
    def __int__(self) -> int:
        raise RuntimeError("never asked")

    def __hash__(self) -> int:
        raise RuntimeError("never asked")


@pytest.mark.parametrize(
    ("code", "cls", "wire"),
    [
        (-32700, ParseError, -32700),
        (-32700.0, ParseError, -32700),  # 5.0 is 5, as JavaScript reads it
        (Number.PARSE, ParseError, -32700),
        (LyingInt(-32700), ParseError, -32700),  # its own methods never run
        (7, RpcError, 7),  # unknown: the fallback, the code kept
        (2**53 - 1, RpcError, 2**53 - 1),
        (-(2**53 - 1), RpcError, -(2**53 - 1)),
        (0, RpcError, 0),
    ],
)
def test_integer_codes_are_read_as_plain_ints(code: Any, cls: type, wire: int) -> None:
    err = from_int_payload({"code": code, "message": "m", "retryable": False})
    assert type(err) is cls and type(err.wire_code) is int and err.wire_code == wire
    assert err.to_payload()["code"] == wire and type(err.to_payload()["code"]) is int
    assert pickle.loads(pickle.dumps(err)).to_payload() == err.to_payload()


@pytest.mark.parametrize(
    "code",
    ["-32700", True, False, 1.5, math.inf, math.nan, 2**53, -(2**53), 1e300, None, []],
)
def test_integer_codes_refuse_anything_else(code: object) -> None:
    with pytest.raises(rt.InvalidPayloadError) as caught:
        from_int_payload({"code": code, "message": "m", "retryable": False})
    assert caught.value.field == "code"


def test_an_integer_class_gives_its_code_as_an_int() -> None:
    err = ParseError()
    assert err.wire_code == -32700 and type(err.wire_code) is int
    assert (
        INT_CLASSES.lookup(-32700) is ParseError and INT_CLASSES.lookup(1) is RpcError
    )


# ------------------------------------------------- match: where unknown codes go
class ToyShelfError(ToyError):  # a domain's own class: no code of its own
    meaning = "Shelf errors"


class ToyTopShelfError(ToyShelfError):
    meaning = "Top shelf errors"


MATCHED = rt.Classes(
    ToyError,
    BY_CODE,
    fallback="toy_error",
    wrap="toy_crash",
    # Given shortest first: the runtime itself puts the longest first.
    prefixes=(("shelf_", ToyShelfError), ("shelf_top_", ToyTopShelfError)),
)
decode_matched = rt.decoder(MATCHED, PATTERN)


@pytest.mark.parametrize(
    ("code", "cls"),
    [
        ("shelf_low", ToyShelfError),
        ("shelf_top_left", ToyTopShelfError),  # the longest prefix wins
        ("shelf_to", ToyShelfError),
        ("shelf", ToyError),  # no prefix matches: the fallback
        ("toy_slow", ToySlowError),  # a known code is itself, whatever it matches
        ("zz_other", ToyError),
    ],
)
def test_an_unknown_code_a_prefix_claims_is_its_domain_s(code: str, cls: type) -> None:
    assert MATCHED.lookup(code) is cls
    err = decode_matched({"code": code, "message": "m", "retryable": True})
    assert type(err) is cls and err.wire_code == code and err.retryable is True
    assert err.to_payload()["code"] == code
    assert pickle.loads(pickle.dumps(err)).to_payload() == err.to_payload()


class ServerError(RpcError):
    meaning = "Server error"


class ReservedError(RpcError):
    meaning = "Reserved"


RANGED = rt.Classes(
    RpcError,
    {-32700: ParseError, -32000: RpcError},
    fallback=-32000,
    wrap=-32000,
    # Given outer first: the runtime itself puts the innermost first.
    ranges=((-32768, -32000, ReservedError), (-32099, -32000, ServerError)),
)


@pytest.mark.parametrize(
    ("code", "cls"),
    [
        (-32768, ReservedError),  # inclusive at both ends
        (-32100, ReservedError),
        (-32099, ServerError),  # the inner range wins
        (-32001, ServerError),
        (-32000, RpcError),  # known
        (-32700, ParseError),  # known, inside the outer range
        (-32769, RpcError),  # outside: the fallback
        (-31999, RpcError),
    ],
)
def test_an_unknown_code_a_range_claims_is_its_domain_s(code: int, cls: type) -> None:
    assert RANGED.lookup(code) is cls
    decode = rt.decoder(RANGED, None)
    err = decode({"code": code, "message": "m", "retryable": False})
    assert type(err) is cls and err.wire_code == code


def test_lazy_classes_load_a_matched_domain_and_bind_its_parents(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A matched class is loaded by name, on first need; a module whose class
    extends another module's loads and binds that one too, under the package."""
    package = "toy_lazy_parents"
    folder = tmp_path / package
    folder.mkdir()
    (folder / "__init__.py").write_text("", encoding="utf-8")
    (folder / "_domain_alpha.py").write_text(
        _DOMAIN.format(test=__name__, name="Alpha", code="alpha", retryable=True),
        encoding="utf-8",
    )
    (folder / "_domain_beta.py").write_text(
        "from ._domain_alpha import AlphaError\n\n\n"
        "class BetaError(AlphaError):\n    meaning = 'Beta'\n",
        encoding="utf-8",
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    module = importlib.import_module(package)
    classes = rt.LazyClasses(
        ToyError,
        package=package,
        namespace=vars(module),
        modules={
            "AlphaError": "_domain_alpha",
            "AlphaGoneError": "_domain_alpha",
            "BetaError": "_domain_beta",
        },
        class_of={"alpha_error": "AlphaError", "alpha_gone": "AlphaGoneError"},
        fallback="alpha_error",
        wrap="alpha_error",
        prefixes=(("beta_", "BetaError"),),
    )
    try:
        assert _loaded(package) == []
        err = rt.decoder(classes, PATTERN)(
            {"code": "beta_new", "message": "m", "retryable": False}
        )
        assert type(err).__name__ == "BetaError" and err.wire_code == "beta_new"
        assert _loaded(package) == ["_domain_alpha", "_domain_beta"]
        # The parent's class is the package's too, never its private module's.
        for name in ("AlphaError", "BetaError"):
            assert vars(module)[name].__module__ == package
        assert classes.lookup("alpha_gone").__name__ == "AlphaGoneError"
    finally:
        for name in [m for m in sys.modules if m.split(".")[0] == package]:
            del sys.modules[name]


# --------------------------------------- issue 14 §2: a problem's type, parsed


URI = ("https://errors.example.com/e/", "?v=1")


@pytest.mark.parametrize(
    "text, integer, expected",
    [
        # The issue: "type is a URI built from docs_url and parsed back to the
        # code (about:blank and unknown URIs fall back)": spelt as docs_url
        # spells a code (RFC 3986 unreserved kept, the rest %XX upper-case).
        ("https://errors.example.com/e/toy_slow?v=1", False, "toy_slow"),
        ("https://errors.example.com/e/-32601?v=1", True, -32601),
        ("https://errors.example.com/e/0?v=1", True, 0),
        ("about:blank", False, None),
        ("https://errors.example.com/e/toy_slow", False, None),  # no suffix
        ("https://errors.example.com/e/?v=1", False, None),  # no code
        ("https://errors.example.com/e/%74oy_slow?v=1", False, None),  # "t" escaped
        ("https://errors.example.com/e/%2D32601?v=1", True, None),  # "-" escaped
        ("https://errors.example.com/e/007?v=1", True, None),  # leading zeros
        ("https://errors.example.com/e/9007199254740992?v=1", True, None),  # > 2**53-1
        ("https://errors.example.com/e/1.0?v=1", True, None),
        ("https://errors.example.com/e/%FF?v=1", False, None),  # no UTF-8
        ("https://errors.example.com/e/%zz?v=1", False, None),
        ("https://errors.example.com/e/Toy?v=1", False, None),  # not the case
        ("https://errors.example.com/e/" + "a" * 257 + "?v=1", False, None),
    ],
)
def test_a_problem_type_is_read_back_strictly(
    text: str, integer: bool, expected: object
) -> None:
    pattern = None if integer else re.compile(CASE_PATTERNS["lower_snake"].pattern)
    assert rt._uri_code(text, URI, pattern) == expected
    if expected is not None:  # and written back as it was read
        assert rt._uri(expected, URI) == text


def test_a_code_that_needs_escaping_round_trips_through_its_uri() -> None:
    pattern = re.compile(r"[!-~]+")
    for code in ("23505", "a/b", "x!", "50%", "~ok.", "Q+1"):
        uri = rt._uri(code, URI)
        assert rt._uri_code(uri, URI, pattern) == code, uri
    assert rt._uri("a/b", URI) == "https://errors.example.com/e/a%2Fb?v=1"
