"""Issue 30 §6, done when: a generated errno package matches CPython's OSError
hierarchy class by class.

The oracle is CPython itself, introspected here: ``errno.errorcode`` (each
errno and its name), the type ``OSError(n, "m")`` becomes, and the ``__mro__``
of that builtin; the YAML of ``tests/cases/errno_native`` says only which code
each key is (its name is the errno's, its ``wire:`` the number on Linux).  For
every code: the builtin part of the generated class's MRO is exactly CPython's
class's MRO (names and parents), ``to_error(OSError(n, "m"))`` and the payload
with errno ``n`` give that class, an instance of CPython's class, whose errno
is ``n``; ``except`` catches it by CPython's class and by no other OSError
subclass.  Where this platform's number differs from the YAML's, the code is
skipped, saying so.
"""

from __future__ import annotations

import builtins
import errno
import pytest
import yaml

from tests.support import REPO, cases, import_generated

CASE = next(case for case in cases() if case.name == "errno_native")
SPEC = yaml.safe_load(CASE.taxonomy.read_text(encoding="utf-8"))
#: Each code of the YAML (its key, the errno's name) and its wire number there.
CODES = {
    key: code["wire"]
    for domain in SPEC["domains"].values()
    for key, code in domain["codes"].items()
}
ALIASES = {
    alias: key
    for domain in SPEC["domains"].values()
    for key, code in domain["codes"].items()
    for alias in code.get("aliases", ())
}
#: Every OSError subclass among the builtins: what CPython's classes are drawn from.
OS_BUILTINS = sorted(
    {
        value
        for value in vars(builtins).values()
        if isinstance(value, type) and issubclass(value, OSError)
    },
    key=lambda cls: cls.__name__,
)


def _number(name: str) -> int:
    """This platform's errno ``name``, skipping the code where it is not the YAML's."""
    number = getattr(errno, name, None)
    wire = CODES[ALIASES.get(name, name)]
    if number is None or number != wire:
        pytest.skip(f"errno.{name} is {number} here, {wire} in the YAML")
    return number


def _cpython(number: int) -> type[OSError]:
    """The class CPython gives an OSError of ``number``."""
    return type(OSError(number, "m"))


def _builtin_mro(cls: type) -> list[type]:
    return [c for c in cls.__mro__ if c.__module__ == "builtins"]


def test_every_errno_cpython_maps_to_a_class_is_a_code_of_the_case() -> None:
    """Each errno CPython raises as an OSError subclass is in the YAML, under its
    name or as an alias: the case covers CPython's hierarchy, not a sample."""
    mapped = {
        name
        for number, name in errno.errorcode.items()
        if _cpython(number) is not OSError
    }
    assert mapped, "CPython maps no errno to a subclass?"
    # errorcode names each number once; the others of a number are aliases.
    missing = {
        name
        for name in mapped
        if name not in CODES
        and not any(getattr(errno, a, None) == getattr(errno, name) for a in CODES)
    }
    assert not missing


@pytest.mark.parametrize("name", sorted(CODES) + sorted(ALIASES))
def test_the_class_of_each_errno_has_cpythons_hierarchy(name: str) -> None:
    mod = import_generated(CASE)
    number = _number(name)
    want = _cpython(number)
    cls = mod.lookup(number)
    assert getattr(mod, cls.__name__) is cls
    # Names and parents: the builtins it extends, in order, are CPython's class's.
    assert _builtin_mro(cls) == list(want.__mro__)
    for other in OS_BUILTINS:
        assert issubclass(cls, other) is issubclass(want, other), other


@pytest.mark.parametrize("name", sorted(CODES) + sorted(ALIASES))
def test_errno_to_class_matches_cpython(name: str) -> None:
    mod = import_generated(CASE)
    number = _number(name)
    want = _cpython(number)
    native = OSError(number, "m")
    assert type(native) is want  # CPython's own mapping, the oracle
    converted = mod.to_error(native)
    received = mod.from_payload({"errno": number, "strerror": "m"})
    for error in (converted, received):
        assert type(error) is mod.lookup(number)
        assert isinstance(error, want)
        assert (error.errno, error.strerror, error.args) == (number, "m", (number, "m"))
        assert error.wire_code == number
    assert converted.__cause__ is native


@pytest.mark.parametrize("name", sorted(CODES))
def test_except_catches_it_as_cpython_would(name: str) -> None:
    mod = import_generated(CASE)
    number = _number(name)
    want = _cpython(number)
    error = mod.from_payload({"errno": number, "strerror": "m"})
    for handler in OS_BUILTINS:
        try:
            raise error
        except handler:
            caught = True
        except Exception:
            caught = False
        assert caught is issubclass(want, handler), handler
    with pytest.raises(want):
        raise mod.lookup(number)()


def test_an_alias_is_the_class_of_its_errno() -> None:
    mod = import_generated(CASE)
    assert errno.EWOULDBLOCK == errno.EAGAIN
    assert mod.EwouldblockError is mod.EagainError is mod.lookup(errno.EWOULDBLOCK)


def test_an_oserror_of_no_code_is_the_base_class() -> None:
    """OSError itself is the top level's python_bases: an errno the YAML lacks
    (ENOTTY) is still an OSError, of the base class, and keeps its number."""
    mod = import_generated(CASE)
    assert errno.ENOTTY not in CODES.values()
    error = mod.to_error(OSError(errno.ENOTTY, "tty"))
    assert type(error) is getattr(mod, SPEC["base"])
    assert isinstance(error, OSError) and error.__cause__ is not None
    received = mod.from_payload({"errno": errno.ENOTTY, "strerror": "tty"})
    assert isinstance(received, OSError) and received.errno == errno.ENOTTY


def test_the_case_is_the_catalogue() -> None:
    """The case is tests/catalogues/errno/taxonomy.yaml (the ground truth), but
    for its name."""
    catalogue = yaml.safe_load(
        (REPO / "tests/catalogues/errno/taxonomy.yaml").read_text(encoding="utf-8")
    )
    assert {**catalogue, "name": SPEC["name"]} == SPEC
