"""The runtime of a generated Python package: the code that is the same for every
taxonomy.

taxogen copies this file, unchanged under its two header lines, into every
generated package as the private module ``_runtime.py`` beside ``__init__.py``.
It knows no taxonomy and imports nothing from the package: the package's
``__init__.py`` defines the taxonomy (its ``ErrorCode`` and ``Domain`` enums,
its classes and the tables between them) and binds it to what is here:

- :class:`TaxonomyError`, which the taxonomy's root class subclasses: ``code``,
  ``message``, ``retryable``, ``details``, ``wire_code``, cause chaining, the
  deprecation warning, ``repr``, pickling and the payload the root class's
  ``to_payload`` types (its ``ErrorPayload`` says what the wire carries); and for
  a class with declared details fields (its ``fields``, each a :class:`Field`), the
  typed constructors' checks, defaults and message template (:func:`render`);
- :class:`Classes` (every class defined in ``__init__.py``) or
  :class:`LazyClasses` (each domain's classes in a module imported on first
  use): where the package finds the class of a code, its fallback and its wrap
  class;
- :func:`decoder`, which makes the package's ``from_payload``: total over any
  input, within the limits :data:`MAX_CODE_LENGTH`, :data:`MAX_DETAILS_DEPTH`
  and :data:`MAX_DETAILS_NODES`, raising nothing but
  :class:`InvalidPayloadError`, which checks a known code's declared fields;
- :func:`is_error` (the guard), :func:`to_error` (wrapping anything else) and
  :func:`error_from_event`;
- :func:`adopt`, which presents the runtime's public classes and its unpickler
  as the package's own, so that reprs, ``help()`` and pickles name the package,
  never this module.

Import the public API from the package, never from this module.

It is longer than 300 lines because the generated package carries its runtime as
this one private module beside ``__init__.py``: its parts share private helpers
(``_kind``, ``_show``, ``_details``, ``_json_copy``), and one file keeps the
package's import to a single extra module.
"""

from __future__ import annotations

import importlib
import re
import warnings
from collections import namedtuple
from types import MappingProxyType
from collections.abc import Callable, Iterable, Iterator, Mapping, MutableMapping
from typing import (
    Any,
    ClassVar,
    Final,
    TYPE_CHECKING,
    Generic,
    TypedDict,
    TypeGuard,
    TypeVar,
    cast,
)

__all__ = [
    "DEFAULT_WIRE",
    "MAX_CODE_LENGTH",
    "MAX_DETAILS_DEPTH",
    "MAX_DETAILS_NODES",
    "MAX_WIRE_INTEGER",
    "Classes",
    "Field",
    "InvalidPayloadError",
    "LazyClasses",
    "Shape",
    "TaxonomyError",
    "Wire",
    "adopt",
    "declare_fields",
    "declare_template",
    "decoder",
    "error_from_event",
    "is_error",
    "render",
    "to_error",
]

MAX_CODE_LENGTH: Final = 256
"""The longest ``code`` ``from_payload`` accepts, in characters; longer is refused."""

MAX_WIRE_INTEGER: Final = 2**53 - 1
"""The largest integer code either side of 0 (JavaScript's safe integers)."""

MAX_DETAILS_DEPTH: Final = 64
"""How deep ``details`` may nest: the details object is depth 1, each object or
array inside adds one (scalars add nothing); deeper details are refused."""

MAX_DETAILS_NODES: Final = 100_000
"""How many values ``details`` may hold in all, counting the details object and
every object, array, string, number, boolean and null inside it; more are refused."""


if TYPE_CHECKING:
    from typing import NamedTuple as _Record
else:

    class _RecordType(type):
        """What ``typing.NamedTuple`` makes of a class, less the cost: a
        ``collections.namedtuple`` of the annotated fields, the values given as
        defaults, and the docstring.  ``typing.NamedTuple`` compiles each field's
        annotation (text here, under ``from __future__ import annotations``), some
        0.2 ms a class at every import of the package; type checkers see
        ``typing.NamedTuple`` itself."""

        def __new__(
            cls, name: str, bases: tuple[type, ...], namespace: dict[str, Any]
        ) -> Any:
            if not bases:
                return super().__new__(cls, name, bases, namespace)
            annotations = namespace.get("__annotations__", {})
            fields = tuple(annotations)
            made = namedtuple(
                name,
                fields,
                defaults=[namespace[field] for field in fields if field in namespace],
                module=namespace["__module__"],
            )
            made.__doc__ = namespace.get("__doc__")
            made.__annotations__ = dict(annotations)
            return made

    class _Record(metaclass=_RecordType):
        """The base of the runtime's records (see _RecordType)."""


class InvalidPayloadError(ValueError):
    """A payload that does not follow the wire format; ``field`` names the bad field."""

    def __init__(self, message: str, *, field: str = "") -> None:
        super().__init__(message)
        self.field = field


class Wire(_Record):
    """The payload a taxonomy's errors travel as: the member holding each field.

    ``retryable`` None: not on the wire (an error's is its class's); ``details``
    None: none, ``"*"``: every member the others do not name; ``details_type``
    ``"object"``, ``"array"`` or ``"any"`` (any JSON value); ``envelope``: the
    error object sits under this member; ``always_details``: the details member
    is written even when empty; ``message_required`` False: the message may be
    absent, and ``exact_message``: then written back absent.  ``uri`` (RFC 9457's
    problem): the code travels
    as ``prefix + percent-encoded code + suffix``, and ``title`` (the meaning)
    and ``status`` (the HTTP status) are written unless the details hold them.
    ``status``: the member holding the HTTP status, read into each error's own
    ``http_status`` and written from it (left out while the error has none).
    """

    code: str = "code"
    message: str = "message"
    retryable: str | None = "retryable"
    details: str | None = "details"
    details_type: str = "object"
    envelope: str | None = None
    always_details: bool = True
    uri: tuple[str, str] | None = None
    message_required: bool = True
    status: str | None = None
    #: ``message_required: false``: a payload without the message gives the code's
    #: template rendered from the details (else its meaning), and is written
    #: back without it.
    exact_message: bool = False
    #: Members every payload carries with a fixed value: (member, value, the
    #: value as JSON text), members of the payload itself (beside the envelope,
    #: if any), written on every payload; received, each absent (or null) or
    #: equal, else an InvalidPayloadError naming the member.
    constants: tuple[tuple[str, object, str], ...] = ()
    #: ``outside: keep``: the members beside the envelope (but the constants), or
    #: without one those the mapping does not name, are kept on the error as
    #: received (its ``outside``) and written back.
    outside: bool = False


#: Today's payload, ``{code, message, retryable, details}``: the decoder's fast path.
DEFAULT_WIRE: Final = Wire()


# The decoder reads what callers pass through the real types alone: type(), not
# isinstance (which asks the value's own __class__), and the methods of str,
# int, float, dict, list and tuple themselves, not a subclass's.  No method of
# the caller's value runs, save those of a mapping that is no dict (its get(),
# or for details its iteration and []), and whatever they raise becomes an
# InvalidPayloadError.


def _type_name(kind: type) -> str:
    # type's own __name__, which a metaclass cannot override.
    name = type.__dict__["__name__"].__get__(kind, type)
    return name if type(name) is str else "object"


def _show(value: object) -> str:
    try:
        text = repr(value)
    except Exception:
        text = f"<{_type_name(type(value))}>"
    return text if len(text) <= 80 else text[:77] + "..."


def _kind(value: object) -> str:
    kind = type(value)
    if value is None:
        return "null"
    if kind is bool:
        return "a boolean"
    if issubclass(kind, (int, float)):
        return "a number"
    if issubclass(kind, str):
        return "a string"
    if issubclass(kind, (list, tuple)):
        return "an array"
    try:
        if issubclass(kind, Mapping):
            return "an object"
    except Exception:
        pass
    return f"a {_type_name(kind)}"


def _text(value: object) -> str:
    """A string as a real ``str``: a subclass's own methods never run on it again."""
    return str.__str__(cast(str, value))


def _string(value: object, field: str) -> str:
    """``value``, which is no ``str`` itself, as a real ``str``; refused unless it is a
    subclass.
    """
    if not issubclass(type(value), str):
        raise InvalidPayloadError(
            f"{field}: expected a string, got {_kind(value)}", field=field
        )
    return _text(value)


def _integer(value: object) -> int:
    """A code of a taxonomy whose codes are integers, as a real ``int``; refused
    unless it is an integer (a float without a fraction too, as in JavaScript,
    never a boolean) within ``MAX_WIRE_INTEGER`` either side of 0.
    """
    kind = type(value)
    if kind is float and float.is_integer(cast(float, value)):
        number = int(cast(float, value))
    elif issubclass(kind, int) and kind is not bool:
        number = int.__int__(cast(int, value))  # never the subclass's own
    else:
        raise InvalidPayloadError(
            f"code: expected an integer, got {_kind(value)}", field="code"
        )
    if not -MAX_WIRE_INTEGER <= number <= MAX_WIRE_INTEGER:
        raise InvalidPayloadError(
            f"code: {number} is out of range (at most {MAX_WIRE_INTEGER} either "
            "side of 0)",
            field="code",
        )
    return number


def _plain(code: str | int) -> str | int:
    """An ``ErrorCode`` member (or any code) as the plain ``str`` or ``int`` it
    holds."""
    return int.__int__(code) if isinstance(code, int) else str.__str__(code)


def _unreadable(field: str, exc: Exception) -> InvalidPayloadError:
    return InvalidPayloadError(
        f"{field}: cannot be read ({_type_name(type(exc))})", field=field
    )


def _reader(value: object) -> Callable[[str], object] | None:
    """A function reading one key of ``value`` (None for a missing key), or None if it
    is no mapping.

    A dict is read as it is stored, so a subclass's own methods never run; any
    other mapping through its ``get``.
    """
    kind = type(value)
    if kind is dict or issubclass(kind, dict):
        stored = cast(dict[str, object], value)
        return lambda key: dict.get(stored, key)
    try:
        if issubclass(kind, Mapping):
            get: Callable[[str], object] = cast(Mapping[str, object], value).get
            return get
    except Exception:
        pass
    return None


def _key(key: object) -> str:
    """A key that is no string, for a message: shown if showing it runs no code of its
    own.
    """
    return _show(key) if type(key) in _SHOWN else _kind(key)


_SCALARS: Final = frozenset({str, bool, type(None)})
_SHOWN: Final = frozenset({int, float, bool, type(None)})
#: The smallest integer a double cannot hold: 2**1024 - 2**970 rounds up to
#: 2**1024, past the largest double.  Every runtime reads a JSON number as a
#: double (JavaScript reads this one as Infinity, Go refuses it), so an integer
#: this large, either sign, is no finite number; smaller ones print in under
#: 310 digits, far within what int.__repr__ allows.
_INFINITE: Final = (1 << 1024) - (1 << 970)
#: The integers a double holds exactly, either sign (2**53): beyond them, numbers
#: are compared as the doubles JavaScript and Go read them as.
_EXACT: Final = 1 << 53
_TOO_MANY: Final = f"holds more than {MAX_DETAILS_NODES} values"


def _snapshot(mapping: object) -> dict[str, object] | str:
    """A mapping that is no dict as a dict, each key read once; or why it cannot be."""
    copy: dict[str, object] = {}
    try:
        for key in cast(Mapping[object, object], mapping):
            if len(copy) >= MAX_DETAILS_NODES - 1:
                return _TOO_MANY
            kind = type(key)
            if kind is not str and not issubclass(kind, str):
                return f"key {_key(key)} is not a string"
            copy[_text(key)] = cast(Mapping[object, object], mapping)[key]
    except Exception as exc:
        return f"cannot be read ({_type_name(type(exc))})"
    return copy


def _json_copy(value: object, where: str) -> tuple[dict[str, Any], str]:
    """A copy of ``value`` made of JSON's own types, or the first part of it JSON
    cannot carry (or past the limits), as ``({}, "<path>: <problem>")``."""
    if type(value) is dict and len(value) < MAX_DETAILS_NODES:
        # The usual details, a flat object of strings, numbers, booleans and
        # nulls, are copied here without the general walk below.
        for key, item in value.items():
            kind = type(item)
            if type(key) is not str or not (
                kind in _SCALARS
                or (kind is int and -_INFINITE < item < _INFINITE)
                # x - x is 0.0 for a finite float, NaN for inf and NaN: what
                # math.isfinite says, without importing math at import time.
                or (kind is float and item - item == 0.0)
            ):
                break
        else:
            return dict(value), ""
    # Iterative, so hostile nesting cannot exhaust the stack, and bounded: it
    # stops at the first container deeper than MAX_DETAILS_DEPTH and before
    # counting more than MAX_DETAILS_NODES values, so its time and memory follow
    # what it reads, never what a structure claims or repeats.  The containers
    # on the current path catch cycles, which json.dumps would refuse.  Each
    # step records only its parent and key: the path is spelt out for a problem
    # alone.
    steps: list[tuple[int, str]] = [(-1, where)]
    holder: dict[str, Any] = {}
    # (value, its step, the depth of its container or -1 to leave it, the copy
    # of its container, its key there)
    stack: list[tuple[object, int, int, Any, Any]] = [(value, 0, 0, holder, "")]
    path: set[int] = set()
    nodes = 1

    def at(step: int) -> str:
        parts: list[str] = []
        while step >= 0:
            step, key = steps[step]
            parts.append(key)
        text = "".join(reversed(parts))
        return text if len(text) <= 200 else text[:197] + "..."  # a key may be huge

    while stack:
        item, step, depth, into, key = stack.pop()
        if depth < 0:
            path.discard(id(item))
            continue
        kind = type(item)
        if kind is str or kind is bool or item is None:
            into[key] = item
            continue
        if issubclass(kind, int):  # bool is an int, but was read above
            number = int.__int__(cast(int, item))
            if not -_INFINITE < number < _INFINITE:
                problem = "an integer past a double's range is not a finite number"
                return {}, f"{at(step)}: {problem}"
            into[key] = number
            continue
        if kind is float or issubclass(kind, float):
            real = float.__float__(cast(float, item))
            if real - real != 0.0:  # inf or NaN (see _json_copy's fast path)
                return {}, f"{at(step)}: {real!r} is not a finite number"
            into[key] = real
            continue
        if issubclass(kind, str):
            into[key] = _text(item)
            continue
        is_dict = issubclass(kind, dict)
        if not (is_dict or issubclass(kind, (list, tuple))):
            return {}, f"{at(step)}: {_kind(item)} is not a JSON value"
        depth += 1
        if depth > MAX_DETAILS_DEPTH:
            return {}, f"{at(step)}: nested deeper than {MAX_DETAILS_DEPTH} levels"
        if id(item) in path:
            return {}, f"{at(step)}: contains itself"
        if is_dict:
            size = dict.__len__(cast(dict[object, object], item))
        elif issubclass(kind, list):
            size = list.__len__(cast(list[object], item))
        else:
            size = tuple.__len__(cast(tuple[object, ...], item))
        nodes += size
        if nodes > MAX_DETAILS_NODES:
            return {}, f"{where}: {_TOO_MANY}"
        path.add(id(item))
        stack.append((item, step, -1, None, None))
        if is_dict:
            copy: dict[str, Any] = {}
            into[key] = copy
            for name, child in dict.items(cast(dict[object, object], item)):
                if type(name) is not str:
                    if not issubclass(type(name), str):
                        return {}, f"{at(step)}: key {_key(name)} is not a string"
                    name = _text(name)
                copy[name] = None  # the caller's order of keys
                steps.append((step, f".{name}"))
                stack.append((child, len(steps) - 1, depth, copy, name))
        else:
            items: list[Any] = [None] * size
            into[key] = items
            children: Iterator[object] = (
                list.__iter__(cast(list[object], item))
                if issubclass(kind, list)
                else tuple.__iter__(cast(tuple[object, ...], item))
            )
            for index, child in enumerate(children):
                steps.append((step, f"[{index}]"))
                stack.append((child, len(steps) - 1, depth, items, index))
    return holder[""], ""


def _checked_details(details: object) -> tuple[dict[str, Any], str]:
    """(a JSON copy of ``details``, "") or ({}, why it is refused); ``details`` is a
    mapping.
    """
    if type(details) is not dict and not issubclass(type(details), dict):
        if _reader(details) is None:
            return {}, f"details: expected an object, got {_kind(details)}"
        snapshot = _snapshot(details)
        if type(snapshot) is str:
            return {}, f"details: {snapshot}"
        details = snapshot
    return _json_copy(details, "details")


def _details(details: Mapping[str, object] | None) -> dict[str, Any]:
    if details is None:
        return {}
    if _reader(details) is None:
        raise TypeError(f"details: expected a mapping, got {_kind(details)}")
    copy, problem = _checked_details(details)
    if problem:
        raise ValueError(problem)
    return copy


def _wire_details(details: object, wire: Wire) -> Any:
    """A constructor's ``details`` where the payload's are not always an object:
    an array (a list or tuple; None: empty) or any JSON value (None: none)."""
    if wire.details_type == "object":
        return _details(cast(Mapping[str, object] | None, details))
    if details is None:
        return [] if wire.details_type == "array" else None
    if wire.details_type == "array" and not issubclass(type(details), (list, tuple)):
        raise TypeError(f"details: expected an array, got {_kind(details)}")
    if _reader(details) is not None:
        return _details(cast(Mapping[str, object], details))
    copy, problem = _json_copy(details, "details")
    if problem:
        raise ValueError(problem)
    return copy


class Shape(_Record):
    """What a value of a declared field, or of an array field's items, may be.

    ``type`` is ``"string"``, ``"integer"``, ``"number"``, ``"boolean"``,
    ``"array"`` or ``"object"`` (any JSON object); ``enum`` the strings a
    ``string`` may be (empty: any); ``minimum`` and ``maximum`` inclusive bounds
    of a number; ``items`` the shape of an array's items (None: anything);
    ``fields`` the declared members of an ``object`` (issue 30 §7; None: a
    free-form object), each a :class:`Field`.
    """

    type: str
    enum: tuple[str, ...] = ()
    minimum: float | None = None
    maximum: float | None = None
    items: Shape | None = None
    fields: tuple[Field, ...] | None = None


class Field(_Record):
    """A declared details field, as the generated classes list them in ``fields``.

    ``default`` is what an omitted optional field gets from a constructor; None
    means none (no field's shape admits null, so None is never a real default).
    """

    name: str
    type: str
    required: bool = True
    default: object = None
    enum: tuple[str, ...] = ()
    minimum: float | None = None
    maximum: float | None = None
    items: Shape | None = None
    #: A constant field's value as messages show it (issue 30 §7), its
    #: ``default`` the value itself; None: no constant.
    const: str | None = None
    #: The declared members of an ``object`` field (issue 30 §7), each a Field
    #: with no default nor constant; None: a free-form object.
    fields: tuple[Field, ...] | None = None


_WANTED: Final = {
    "string": "a string",
    "integer": "an integer",
    "number": "a number",
    "boolean": "a boolean",
    "array": "an array",
    "object": "an object",
}


def _shape_problem(shape: Shape | Field, value: object) -> str | None:
    """What is wrong with ``value`` (plain JSON data, as ``_json_copy`` makes it)
    as a value of ``shape``, or None if nothing is.

    The wording is the TypeScript runtime's, word for word.  Every check that
    passes builds no text: from_payload runs this on every declared field of
    every received payload, and only a misfit needs words.
    """
    kind = shape.type
    if kind == "string":
        if type(value) is not str:
            return _expected(kind, value)
        enum = shape.enum
        if enum and value not in enum:
            listed = ", ".join(f'"{item}"' for item in enum)
            return f"expected one of {listed}, got {_show(value)}"
        return None
    if kind == "integer" or kind == "number":
        # JSON cannot tell 3 from 3.0, so neither can an integer field; a boolean
        # is no number, though Python's bool is an int.
        number = type(value)
        if number is not int and (
            number is not float
            or (kind == "integer" and not cast(float, value).is_integer())
        ):
            return (
                f"expected {_WANTED[kind]}, got {_show(value)}"
                if (number is float)
                else _expected(kind, value)
            )
        real = cast(float, value)
        if number is int and not -_EXACT <= real <= _EXACT:
            real = float(real)  # as JavaScript and Go read it (see _INFINITE)
        low, high = shape.minimum, shape.maximum
        if low is not None and real < low:
            return f"expected at least {_number_text(low)}, got {_show(value)}"
        if high is not None and real > high:
            return f"expected at most {_number_text(high)}, got {_show(value)}"
        return None
    if kind == "boolean":
        return None if type(value) is bool else _expected(kind, value)
    if kind == "array":
        if type(value) is not list:
            return _expected(kind, value)
        items = shape.items
        if items is not None:
            for index, item in enumerate(cast(list[object], value)):
                problem = _shape_problem(items, item)
                if problem is not None:
                    return f"[{index}]{_joined(problem)}"
        return None
    if type(value) is not dict:
        return _expected(kind, value)
    members = shape.fields
    if members is not None:
        # Issue 30 §7: a declared member missing or misfitting is named by its
        # path below the field; undeclared members are kept unlooked at.
        found = cast(dict[str, object], value)
        for member in members:
            name = member.name
            if name in found:
                problem = _shape_problem(member, found[name])
                if problem is not None:
                    return f".{name}{_joined(problem)}"
            elif member.required:
                return f".{name}: required, missing"
    return None


def _joined(problem: str) -> str:
    """A problem below a path step: a deeper path goes on as it is, words after
    ``": "``."""
    return problem if problem[0] in ".[" else ": " + problem


#: The index that ends a problem's path where the item itself misfits: such an
#: item is blamed on its array (``details.scores``), not on itself.  Patterns stay
#: text, compiled by ``re`` (and cached there) on first use: compiling at import
#: would cost every import of the package, which rarely needs them.
_LAST_INDEX: Final = r"\[[0-9]+\]$"


def _blamed(where: str, problem: str) -> tuple[str, str]:
    """The field a problem of the field at ``where`` is blamed on (issue 30 §7:
    the deepest declared member missing or misfitting, else the field), and its
    whole text."""
    if problem[0] not in ".[":
        return where, f"{where}: {problem}"
    path = problem.split(": ", 1)[0]
    return where + re.sub(_LAST_INDEX, "", path), where + problem


def _expected(kind: str, value: object) -> str:
    """A misfit's words: what a field of ``kind`` expects, and what it got."""
    return f"expected {_WANTED.get(kind, f'a {kind}')}, got {_kind(value)}"


class _Check(_Record):
    """A declared field as from_payload checks it: ``sole_type`` is the one type
    whose values fit, within ``low`` and ``high``, with no further look (None:
    every value takes the whole check of ``field``)."""

    name: str
    required: bool
    sole_type: type | None
    low: float | None
    high: float | None
    field: Field


#: The type that alone decides whether a value fits a field of each type with no
#: enum and no items (an integer's or a number's bounds are checked beside it).
_SOLE_TYPES: Final[Mapping[str, type]] = {
    "string": str,
    "integer": int,
    "number": int,  # a float takes the whole check: it may be NaN or 3.5
    "boolean": bool,
    "object": dict,
    "array": list,
}


def _checks(fields: tuple[Field, ...]) -> tuple[_Check, ...]:
    """``fields`` made ready for :func:`_field_problem`."""
    return tuple(
        _Check(
            spec.name,
            spec.required,
            (
                None
                if spec.enum
                or spec.items is not None
                or spec.fields is not None
                or spec.const is not None
                or _inexact(spec)
                else _SOLE_TYPES.get(spec.type)
            ),
            spec.minimum,
            spec.maximum,
            spec,
        )
        for spec in fields
    )


def _inexact(spec: Field) -> bool:
    """Whether a bound of ``spec`` lies past the integers a double holds exactly:
    an integer is then compared as a double, by the whole check, not as itself."""
    return any(
        bound is not None and not -_EXACT <= bound <= _EXACT
        for bound in (spec.minimum, spec.maximum)
    )


def _field_problem(
    checks: tuple[_Check, ...], details: Mapping[str, object]
) -> tuple[str, str] | None:
    """The first declared field of ``details`` (plain JSON data) that is missing or
    misfits, as (``details.<name>``, what is wrong), or None if none is.

    A field whose value is of its sole type and within its bounds is passed
    without a call: from_payload runs this on every received payload of a code
    with fields, and the whole check costs a call and a dozen tests a field.
    """
    for name, required, sole_type, low, high, spec in checks:
        if name in details:
            value = details[name]
            if (
                type(value) is sole_type
                and (low is None or cast(float, value) >= low)
                and (high is None or cast(float, value) <= high)
            ):
                continue
            const = spec.const
            if const is not None:
                # Issue 30 §7: absent, or the code's constant (as JSON compares).
                if _same_constant(value, spec.default):
                    continue
                where = "details." + name
                return where, (
                    f"{where}: expected {const}, the constant of its code, or none"
                )
            problem = _shape_problem(spec, value)
            if problem is None:
                continue
            return _blamed("details." + name, problem)
        if required:
            where = "details." + name
            return where, f"{where}: required, missing"
    return None


def _number_text(value: float) -> str:
    """A number as JavaScript's ``String(number)`` writes it: the spelling every
    runtime reproduces (``3`` for 3.0, ``0.000001``, ``1e+21``, ``1.5e-7``)."""
    if type(value) is int:
        if -_EXACT <= value <= _EXACT:
            return int.__repr__(value)
        value = float(value)  # JavaScript holds it as this double, and writes that
    if value == 0:
        return "0"  # -0 too, as String(-0)
    text = float.__repr__(value)
    mantissa, _, exponent = text.partition("e")
    sign = "-" if mantissa[0] == "-" else ""
    mantissa = mantissa.lstrip("-").removesuffix(".0")
    power = int(exponent) if exponent else 0
    whole, _, fraction = mantissa.partition(".")
    digits = (whole + fraction).lstrip("0")
    # The value is 0.<digits> × 10**point, with digits the shortest round trip.
    point = (
        len(whole) + power if whole != "0" else power - (len(fraction) - len(digits))
    )
    if -6 < point <= 21:
        if point >= len(digits):
            return sign + digits + "0" * (point - len(digits))
        if point > 0:
            return sign + digits[:point] + "." + digits[point:]
        return sign + "0." + "0" * -point + digits
    rest = "." + digits[1:] if len(digits) > 1 else ""
    shift = point - 1
    return f"{sign}{digits[0]}{rest}e{'+' if shift > 0 else '-'}{abs(shift)}"


def _placeholder(value: object) -> str:
    if type(value) is bool:
        return "true" if value else "false"
    if isinstance(value, str):
        return value
    if type(value) is int or type(value) is float:
        return _number_text(cast(float, value))
    return str(value)  # placeholders name scalar fields only: not reached


def declare_fields(*specs: Field) -> tuple[Field, ...]:
    """A class's ``fields``, as the generated classes state them."""
    return specs


def declare_template(*pieces: str) -> tuple[str, ...] | None:
    """A class's ``message_template``: literal text and field names alternating."""
    return pieces


def render(pieces: tuple[str, ...], details: Mapping[str, object]) -> str:
    """The text of a message template (literal text and field names alternating,
    the first a literal) over ``details``: strings as they are, booleans
    ``true``/``false``, numbers as JavaScript's ``String()`` writes them."""
    parts = list(pieces)
    for index in range(1, len(parts), 2):
        parts[index] = _placeholder(details.get(parts[index]))
    return "".join(parts)


def _typed_details(
    fields: tuple[Field, ...],
    given: Mapping[str, object],
    extra: Mapping[str, object] | None,
) -> dict[str, Any]:
    """The details of a new error of a class with declared ``fields``: ``extra``
    (undeclared keys) and the fields ``given`` (None: not given), checked, with the
    defaults of the omitted optional ones filled in."""
    merged: dict[str, object] = {} if extra is None else dict(_details(extra))
    for name, value in given.items():
        if value is not None:
            merged[name] = value
    details = _details(merged)
    wrong = _field_problem(_checks(fields), details)
    if wrong is not None:
        # A missing field or one of the wrong type is a TypeError, as a missing or
        # mistyped argument is; a value out of its enum or bounds a ValueError.
        # (The path before the first ": " is a field name and indices, no colon.)
        what = wrong[1].split(": ", 1)[1]
        mistyped = what.startswith(("expected a ", "expected an ", "required"))
        raise (TypeError if mistyped else ValueError)(wrong[1])
    for spec in fields:
        if spec.default is not None and spec.name not in details:
            details[spec.name] = _details({"": spec.default})[""]  # a fresh copy
    return details


class TaxonomyError(Exception):
    """What every error of a taxonomy shares: its root class subclasses this one.

    The root class gives ``code``, ``domain``, ``meaning`` and ``retryable`` (those
    of the taxonomy's fallback code), each class below it its own code's.  With
    ``fallback: null`` (issue 30 §3) the root class has no code: each of its
    errors carries its own (the one received, or the constructor's ``code=``) as
    ``code``, and its ``domain`` is None.
    """

    code: ClassVar[str | int]
    domain: ClassVar[str | None]
    meaning: ClassVar[str]
    retryable: bool
    deprecated: ClassVar[str | None] = None
    replaced_by: ClassVar[str | None] = None
    original: object = None
    #: What the code maps to in other protocols, where the taxonomy says: the
    #: HTTP status (100-599), the canonical gRPC status name ("UNAVAILABLE"),
    #: whether callers must back off before retrying, and its documentation link.
    #: ``http_status`` is each error's own: the one received where the payload
    #: carries it, else the constructor's ``http_status=``, else its class's
    #: (None where the taxonomy gives the class none).
    http_status: int | None = None
    grpc_status: ClassVar[str | None] = None
    throttling: ClassVar[bool] = False
    doc_url: ClassVar[str | None] = None
    #: The details field that says when to retry, in seconds (``retry_after:``,
    #: issue 30 §8); None where the taxonomy names none for the class.
    retry_after_field: ClassVar[str | None] = None

    #: The details fields this class declares (every one, inherited ones too);
    #: a class with fields has a typed constructor, and from_payload checks them.
    fields: ClassVar[tuple[Field, ...]] = ()
    #: Its message template: literal text and field names alternating, if any.
    message_template: ClassVar[tuple[str, ...] | None] = None

    message: str
    details: Mapping[str, Any]
    wire_code: str | int
    #: Whether this error was received without its message (the taxonomy says
    #: ``message_required: false``): its ``message`` is then the template's or
    #: the meaning, and ``to_payload`` leaves the member out as received.
    message_absent: bool = False
    #: The members received beside the envelope, or without one those the
    #: payload mapping does not name (the taxonomy says ``outside: keep``),
    #: written back by ``to_payload``: JSON-RPC's ``jsonrpc`` and ``id``,
    #: Kubernetes' ``metadata``.
    #: Empty for an error constructed here; assign a dict to send some.
    outside: Mapping[str, Any] = MappingProxyType({})
    #: The payload the taxonomy's errors travel as (the root class says).
    _wire: ClassVar[Wire] = DEFAULT_WIRE
    #: What a wire code is: ``str``, or ``int`` where codes are integers.
    code_type: ClassVar[type] = str
    #: Whether an unknown code a domain's match gives this class keeps its
    #: identity (the domain says ``fallback: null``, issue 30 §3).
    keeps_unknown: ClassVar[bool] = False

    def __init__(
        self,
        message: str | None = None,
        *,
        details: Mapping[str, object] | None = None,
        cause: BaseException | None = None,
        retryable: bool | None = None,
        http_status: int | None = None,
    ) -> None:
        self._init(message, details, cause, retryable, 4, http_status)

    def _init(
        self,
        message: str | None,
        details: object,
        cause: BaseException | None,
        retryable: bool | None,
        stacklevel: int,
        http_status: int | None = None,
        code: object = None,
    ) -> None:
        """``__init__``'s work; ``stacklevel`` of the deprecation warning's caller.

        (A root class whose details are not always an object types ``details``
        otherwise in its own ``__init__``, which calls this with one more frame.)
        ``code``: the root class's own code where the taxonomy has no fallback.
        """
        wire = self._wire
        checked = (
            _details(cast(Mapping[str, object] | None, details))
            if wire is DEFAULT_WIRE
            else _wire_details(details, wire)
        )
        own = None if code is None else _own_code(code, type(self).code_type)
        self._setup(
            message, checked, cause, retryable, wire_code=own, http_status=http_status
        )
        if own is not None:
            vars(self)["code"] = own
        if self.deprecated is not None:
            self._deprecation(stacklevel)

    def _typed(
        self,
        message: str | None,
        fields: Mapping[str, object],
        details: Mapping[str, object] | None,
        cause: BaseException | None,
        retryable: bool | None,
        http_status: int | None = None,
    ) -> None:
        """The typed constructors' ``__init__``: ``fields`` the declared fields as
        they were given (None: not given), ``details`` any undeclared keys.

        The fields are checked (a TypeError or ValueError whose message starts
        ``details.<name>:``), the omitted optional ones get their defaults, and
        without a message the class's template renders one.
        """
        checked = _typed_details(type(self).fields, fields, details)
        pieces = self.message_template
        if message is None and pieces is not None:
            message = render(pieces, checked)
        self._setup(message, checked, cause, retryable, http_status=http_status)
        if self.deprecated is not None:
            self._deprecation(4)  # the caller, the class's __init__, this, _deprecation

    def _deprecation(self, stacklevel: int) -> None:
        advice = f"; use {self.replaced_by} instead" if self.replaced_by else ""
        name = type(self).__name__
        warnings.warn(
            f"{name} ({self.code}) is deprecated: {self.deprecated}{advice}",
            DeprecationWarning,
            stacklevel=stacklevel,
        )

    def _setup(
        self,
        message: str | None,
        details: dict[str, Any],
        cause: BaseException | None,
        retryable: bool | None,
        wire_code: str | int | None = None,
        http_status: int | None = None,
    ) -> None:
        # __init__ without the deprecation warning: receiving or unpickling a
        # deprecated code is no misuse of it.
        if message is None:
            message = self.meaning
        elif not isinstance(message, str):
            raise TypeError(f"message: expected a string, got {_kind(message)}")
        if wire_code is None:
            # (A root class without a fallback has no code: unpickling one.)
            wire_code = _plain(getattr(self, "code", ""))
        if isinstance(self, OSError):  # python_bases: errno and strerror too
            _os_init(self, wire_code, message)
        else:
            super().__init__(message)
        self.message = message
        self.details = details
        self.wire_code = wire_code
        # Tracebacks show notes, so the code reaches every log that prints one
        # (logging.exception, JSON formatters) without extra work.
        self.add_note(f"code: {self.wire_code}")
        if retryable is not None:
            if not isinstance(retryable, bool):
                raise TypeError(
                    f"retryable: expected a boolean, got {_kind(retryable)}"
                )
            self.retryable = retryable
        if http_status is not None:
            self.http_status = _http_status(http_status)
        if cause is not None:
            self.__cause__ = cause

    def __str__(self) -> str:
        return self.message

    def __repr__(self) -> str:
        return (
            f"{type(self).__name__}(code={self.wire_code!r}, message={self.message!r})"
        )

    def __setstate__(self, state: dict[str, Any] | None) -> None:
        super().__setstate__(state)
        if isinstance(self, OSError):  # errno follows the restored wire code
            _os_init(self, self.wire_code, self.message)

    def __reduce__(self) -> tuple[Any, ...]:
        # Exception pickles only ``args``; keep the cause and every attribute too.
        # The class pickles by its own path (the package's), _rebuild by the
        # package's too once adopt() has run.
        state = dict(self.__dict__)
        if self.__cause__ is not None:
            state["__cause__"] = self.__cause__
        return (_rebuild, (type(self), self.message), state)

    def _payload(self) -> dict[str, Any]:
        """The wire payload ``{code, message, retryable, details}`` (or as the
        taxonomy's ``Wire`` says): the root class's ``to_payload`` gives it the
        type of the package's ErrorPayload."""
        if self._wire is not DEFAULT_WIRE:
            return _encode(self, self._wire)
        return {
            "code": self.wire_code,
            "message": self.message,
            "retryable": self.retryable,
            "details": dict(self.details),
        }

    @property
    def retry_after(self) -> float | None:
        """When to retry, in seconds: the value of the class's retry field in the
        details (issue 30 §8), None where the class names none or the details
        do not hold a number there."""
        field = self.retry_after_field
        details = self.details
        if field is None or not isinstance(details, Mapping):
            return None
        value = details.get(field)
        if type(value) is bool or not isinstance(value, (int, float)):
            return None
        return float(value)

    def to_dict(self) -> dict[str, Any]:
        """A structured form: the payload plus the class ``name``."""
        return {"name": type(self).__name__, **self._payload()}

    def log_fields(self) -> dict[str, Any]:
        """The error's fields for a structured log: :meth:`to_dict`'s, each
        named ``error_<key>``, so that they can be the ``extra=`` of the standard
        ``logging`` module (where ``name`` and ``message`` are the record's own,
        and overwriting them is a KeyError) and structlog's keyword arguments."""
        return {f"error_{key}": value for key, value in self.to_dict().items()}


def _os_init(error: OSError, code: str | int, message: str) -> None:
    """An error whose class is also an OSError (``python_bases``, issue 30 §6):
    ``errno`` is its wire code where that is an integer (else None), ``strerror``
    its message, and ``args`` the pair, as OSError(errno, strerror) has them."""
    if type(code) is int:
        OSError.__init__(error, code, message)
    else:
        OSError.__init__(error, message)
        error.strerror = message


def _http_status(value: object) -> int:
    """A constructor's ``http_status=``: an integer from 100 to 599 (a TypeError
    for anything but an integer, a ValueError out of range)."""
    if type(value) is bool or not issubclass(type(value), int):
        raise TypeError(f"http_status: expected an integer, got {_kind(value)}")
    status = int.__int__(cast(int, value))
    if not 100 <= status <= 599:
        raise ValueError(
            f"http_status: expected an HTTP status from 100 to 599, got {status}"
        )
    return status


def _own_code(code: object, kind: type) -> str | int:
    """A root error's own ``code=`` (the taxonomy has no fallback, issue 30 §3):
    a string, or an integer where codes are integers, as the value it holds."""
    if kind is int:
        if type(code) is bool or not issubclass(type(code), int):
            raise TypeError(f"code: expected an integer, got {_kind(code)}")
        return int.__int__(cast(int, code))
    if not issubclass(type(code), str):
        raise TypeError(f"code: expected a string, got {_kind(code)}")
    return _text(code)


def _empty(details: object) -> bool:
    return details is None or (
        issubclass(type(details), (dict, list, tuple)) and not details
    )


_UNRESERVED: Final = frozenset(
    b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~"
)


def _quote(text: str) -> str:
    """RFC 3986: every UTF-8 byte of ``text`` but the unreserved ones as ``%XX``.

    (By hand: importing urllib.parse would cost every package's import.)
    """
    return "".join(
        chr(byte) if byte in _UNRESERVED else f"%{byte:02X}"
        for byte in text.encode("utf-8")
    )


def _unquote(text: str) -> str | None:
    """``text`` (unreserved characters and ``%XX`` escapes alone, as ``_ENCODED``
    has checked) decoded as UTF-8, or None when the bytes are no UTF-8."""
    data = bytearray()
    index = 0
    while index < len(text):
        if text[index] == "%":
            data.append(int(text[index + 1 : index + 3], 16))
            index += 3
        else:
            data.append(ord(text[index]))
            index += 1
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return None


def _uri(code: str | int, uri: tuple[str, str]) -> str:
    """A problem's ``type``: the code percent-encoded (every UTF-8 byte but the
    unreserved ``A-Z a-z 0-9 - . _ ~``) between the parts of ``docs_url``."""
    text = (
        _text(code)
        if issubclass(type(code), str)
        else int.__repr__(int.__int__(cast(int, code)))  # never a subclass's own
    )
    return uri[0] + _quote(text) + uri[1]


def _members(details: object) -> dict[str, Any]:
    """The members of details written at the top level (``details: "*"``), each
    key a real ``str``: a subclass's key is read as the text it holds, so its
    own ``__eq__``, ``__hash__`` and ``__str__`` cannot make it another member
    (``type``, whose value would name another code); a key that is no string
    names no JSON member and is left out."""
    items = (
        dict.items(cast(dict[object, Any], details))
        if issubclass(type(details), dict)
        else cast(Mapping[object, Any], details).items()
    )
    members: dict[str, Any] = {}
    for key, value in items:
        if type(key) is str:
            members[key] = value
        elif issubclass(type(key), str):
            members[_text(key)] = value
    return members


# Text, compiled by ``re`` on first use (see _LAST_INDEX).
_ENCODED: Final = r"(?:[A-Za-z0-9._~-]|%[0-9A-F]{2})+"
_INTEGER_TEXT: Final = r"-?(?:0|[1-9][0-9]{0,15})"


def _uri_code(text: str, uri: tuple[str, str], pattern: str | None) -> str | int | None:
    """The code a problem's ``type`` names, or None: a URI that is not one of the
    taxonomy's, or holds no well-formed code, spelt as ``_uri`` spells it."""
    prefix, suffix = uri
    if len(text) > len(prefix) + len(suffix) + 3 * 4 * MAX_CODE_LENGTH:
        return None
    if not (text.startswith(prefix) and text.endswith(suffix)):
        return None
    middle = text[len(prefix) : len(text) - len(suffix)]
    if len(text) < len(prefix) + len(suffix) or re.fullmatch(_ENCODED, middle) is None:
        return None
    code = _unquote(middle)
    if code is None:
        return None
    if _quote(code) != middle:
        return None  # another spelling of a code: not the type we would write
    if pattern is None:
        if re.fullmatch(_INTEGER_TEXT, code) is None:
            return None
        number = int(code)
        return number if abs(number) <= MAX_WIRE_INTEGER else None
    if len(code) > MAX_CODE_LENGTH or re.fullmatch(pattern, code) is None:
        return None
    return code


def _encode(error: TaxonomyError, wire: Wire) -> dict[str, Any]:
    """``error``'s payload as ``wire`` maps it."""
    details: Any = error.details
    if wire.details == "*":
        details = _members(details)
    fixed = {name: value for name, value, _ in wire.constants}
    body: dict[str, Any] = {} if wire.envelope is not None else dict(fixed)
    if wire.uri is not None:
        kept = details.get(wire.code) if wire.details == "*" else None
        body[wire.code] = kept if kept is not None else _uri(error.wire_code, wire.uri)
        body["title"] = error.meaning
        body["status"] = error.http_status
    else:
        body[wire.code] = error.wire_code
    if not (wire.exact_message and error.message_absent):
        body[wire.message] = error.message
    if wire.retryable is not None:
        body[wire.retryable] = error.retryable
    if wire.status is not None and error.http_status is not None:
        body[wire.status] = error.http_status
    if wire.details == "*":
        own: tuple[str | None, ...] = (
            wire.code,
            wire.message,
            wire.retryable,
            wire.status,
        )
        if wire.envelope is None:
            own += tuple(fixed)
        for key, value in details.items():
            if key not in own:
                body[key] = value  # checked JSON, as today's payload shares it
    elif wire.details is not None and (wire.always_details or not _empty(details)):
        body[wire.details] = (
            (list(details) if type(details) is list else dict(details))
            if issubclass(type(details), (dict, list))
            else details
        )
    if wire.envelope is None:
        if wire.outside and error.outside:
            return {**_members(error.outside), **body}
        return body
    outer: dict[str, Any] = {}
    if wire.outside and error.outside:
        outer.update(
            (key, value)
            for key, value in _members(error.outside).items()
            if key != wire.envelope and key not in fixed
        )
    return {**outer, **fixed, wire.envelope: body}


_E = TypeVar("_E", bound=TaxonomyError)


def _rebuild(cls: type[_E], message: str) -> _E:
    """Unpickle an error (its state is restored next) without a deprecation warning."""
    error = cls.__new__(cls)
    error._setup(message, {}, None, None)
    return error


def _received(cls: type[_E], message: str, retryable: bool, code: str | int) -> _E:
    """An error received on the wire: no deprecation warning for the receiver.

    from_payload has checked every value already, so this sets what ``_setup``
    would without checking again: it is on the hot path of every decode.
    """
    error = cls.__new__(cls, message)  # BaseException.__new__ sets args
    error.message = message
    error.details = {}
    error.wire_code = code
    error.retryable = retryable
    error.__notes__ = [f"code: {code}"]
    if isinstance(error, OSError):
        _os_init(error, code, message)
    return error


def adopt(package: str) -> Callable[..., Any]:
    """Present the runtime's public classes and its unpickler as ``package``'s own.

    ``InvalidPayloadError`` (which the package re-exports)
    and the unpickler of its errors get ``package`` as their ``__module__``, so
    reprs, ``help()`` and pickles name ``package.InvalidPayloadError`` and
    ``package._rebuild``, never this private module.  Returns the unpickler,
    which the package must bind as ``_rebuild``.
    """
    InvalidPayloadError.__module__ = package
    _rebuild.__module__ = package
    return _rebuild


class Classes(Generic[_E]):
    """Where a package whose ``__init__.py`` defines every class finds them.

    ``base`` is its root class, ``by_code`` each code's class by its wire code
    (a ``str``, or an ``int`` where codes are integers), and ``fallback`` and
    ``wrap`` are the codes unknown codes and caught non-errors become.  An
    unknown code that ``match`` claims becomes an error of a domain's class
    instead: ``prefixes`` pairs a string prefix with the class, ``ranges`` an
    inclusive ``(low, high)`` of integer codes; the longest prefix wins, and
    of ranges the inner one.
    """

    __slots__ = (
        "base",
        "by_code",
        "_fallback",
        "_wrap",
        "_prefixes",
        "_ranges",
        "_unknown_retryable",
    )

    #: Whether ``by_code`` holds every code's class (so a code it lacks is unknown).
    complete: ClassVar[bool] = True

    def __init__(
        self,
        base: type[_E],
        by_code: dict[Any, type[_E]],
        *,
        fallback: str | int | None,
        wrap: str | int,
        prefixes: Iterable[tuple[str, Any]] = (),
        ranges: Iterable[tuple[int, int, Any]] = (),
        unknown_retryable: str = "false",
    ) -> None:
        self.base = base
        self.by_code = by_code
        self._fallback = fallback
        self._unknown_retryable = unknown_retryable
        self._wrap = wrap
        # Longest first, innermost first: the first that matches wins.
        self._prefixes = sorted(prefixes, key=lambda item: -len(item[0]))
        self._ranges = sorted(ranges, key=lambda item: item[1] - item[0])

    def lookup(self, code: str | int) -> type[_E]:
        """The class of ``code``; for a code the taxonomy lacks, the class of the
        domain that matches it, else the fallback's."""
        cls = self.by_code.get(code)
        return self.unknown(code) if cls is None else cls

    def unloaded(self, code: str | int) -> type[_E] | None:
        """The class of a code of the taxonomy that ``by_code`` lacks: none here."""
        return None

    def known(self, code: object) -> type[_E] | None:
        """The class of ``code`` where it is a code of the taxonomy, else None."""
        if type(code) is not int and type(code) is not str:
            return None
        found = self.by_code.get(code)
        return self.unloaded(code) if found is None else found

    def unknown(self, code: str | int) -> type[_E]:
        """The class of a code the taxonomy lacks: the class of the domain whose
        ``match`` it falls in, else the fallback's."""
        target = self._claimed(code)
        return self.fallback() if target is None else self._resolve(target)

    def _claimed(self, code: str | int) -> Any:
        """What ``prefixes`` or ``ranges`` give the domain whose ``match`` claims
        ``code`` (the longest prefix, the inner range), or None."""
        if isinstance(code, str):
            for prefix, target in self._prefixes:
                if code.startswith(prefix):
                    return target
        else:
            for low, high, target in self._ranges:
                if low <= code <= high:
                    return target
        return None

    def _resolve(self, target: Any) -> type[_E]:
        """A class of ``prefixes`` or ``ranges``: here the class itself."""
        return cast("type[_E]", target)

    def fallback(self) -> type[_E]:
        """The class of the fallback code (the root class where there is none)."""
        return self.base if self._fallback is None else self.by_code[self._fallback]

    def keeps(self, cls: type[_E], code: str | int) -> bool:
        """Whether an unknown code given ``cls`` keeps its identity (issue 30 §3):
        the taxonomy has no fallback and ``cls`` has no code to lend it (the root
        class, or the own class of a domain whose ``match`` claims the code), or
        the claiming domain says ``fallback: null`` itself (its class, ``cls``,
        then states ``keeps_unknown``: a class below it, or the fallback's, does
        not)."""
        if self._fallback is None and getattr(cls, "code", None) is None:
            return True
        return bool(vars(cls).get("keeps_unknown")) and (
            self._claimed(code) is not None
        )

    def unknown_retryable(self, status: int | None) -> bool:
        """Whether an unknown code that keeps its identity is retryable where its
        payload does not say, received with ``status`` (None: none received)."""
        rule = self._unknown_retryable
        if rule == "by_status":
            return status is not None and 500 <= status <= 599
        return rule == "true"

    def wrap(self) -> type[_E]:
        """The class of the wrap code."""
        return self.by_code[self._wrap]


class LazyClasses(Classes[_E]):
    """Where a package whose classes live in per-domain modules finds them.

    ``modules`` names the module (of ``package``) that defines each class, by
    class name, and ``class_of`` each code's class name.  A module is imported
    the first time one of its classes is needed, and its classes are then bound
    in the package's ``namespace`` with the package as their ``__module__``
    (users import them from there, and pickle finds them there) and, by code,
    in ``by_code``, which starts empty.  The classes of ``prefixes`` and
    ``ranges`` are named, and loaded when an unknown code first needs one; a
    module that imports a parent domain's class loads that class's module too.
    """

    __slots__ = ("_package", "_namespace", "_modules", "_class_of", "_loaded")

    complete: ClassVar[bool] = False

    def __init__(
        self,
        base: type[_E],
        *,
        package: str,
        namespace: MutableMapping[str, Any],
        modules: Mapping[str, str],
        class_of: Mapping[Any, str],
        fallback: str | int | None,
        wrap: str | int,
        prefixes: Iterable[tuple[str, str]] = (),
        ranges: Iterable[tuple[int, int, str]] = (),
        unknown_retryable: str = "false",
    ) -> None:
        super().__init__(
            base,
            {},
            fallback=fallback,
            wrap=wrap,
            prefixes=prefixes,
            ranges=ranges,
            unknown_retryable=unknown_retryable,
        )
        self._package = package
        self._namespace = namespace
        self._modules = modules
        self._class_of = class_of
        self._loaded: dict[str, type[_E]] = {}

    def load(self, name: str) -> type[_E]:
        """The class called ``name``, importing its domain's module on first use."""
        cls = self._loaded.get(name)
        if cls is None:
            module_name = self._modules[name]
            module = importlib.import_module(f".{module_name}", self._package)
            for key, value in list(vars(module).items()):
                if self._modules.get(key) == module_name:
                    value.__module__ = self._package
                    self._namespace[key] = self._loaded[key] = value
                    if "code" in vars(value):
                        self.by_code[_plain(value.code)] = value
            cls = self._loaded[name]
            # A parent domain's class, imported by the module from its own: bound
            # here too, so that it is never seen under its private module's name.
            for ancestor in cls.__mro__[1:]:
                above = ancestor.__name__
                if above in self._modules and above not in self._loaded:
                    self.load(above)
        return cls

    def _resolve(self, target: Any) -> type[_E]:
        # A class by name, loaded on first use; the root class (defined by the
        # package itself, as to_error's natives may name it) as it is.
        return (
            self.load(target) if isinstance(target, str) else cast("type[_E]", target)
        )

    def lookup(self, code: str | int) -> type[_E]:
        cls = self.by_code.get(code)
        if cls is None:
            name = self._class_of.get(code)
            cls = self.unknown(code) if name is None else self.load(name)
        return cls

    def unloaded(self, code: str | int) -> type[_E] | None:
        """The class of a code of the taxonomy whose module is not loaded yet, else
        None.
        """
        return self.lookup(code) if code in self._class_of else None

    def fallback(self) -> type[_E]:
        return self.base if self._fallback is None else self.lookup(self._fallback)

    def wrap(self) -> type[_E]:
        return self.lookup(self._wrap)

    def getattr(self, name: str) -> type[_E]:
        """The package's ``__getattr__`` (PEP 562): a class, loaded on first use."""
        if name in self._modules:
            return self.load(name)
        raise AttributeError(f"module {self._package!r} has no attribute {name!r}")

    def dir(self) -> list[str]:
        """The package's ``__dir__``: its names, and the classes not loaded yet."""
        return sorted({*self._namespace, *self._modules})


def is_error(value: object, base: type[_E]) -> TypeGuard[_E]:
    """Whether ``value`` is an error of the taxonomy rooted at ``base``; never raises.

    It asks the real type, never the value (whose ``__class__`` may lie or raise).
    """
    return issubclass(type(value), base)


class _Source:
    """A payload that is no dict, read through ``_reader``."""

    __slots__ = ("get",)

    def __init__(self, get: Callable[[str], object]) -> None:
        self.get = get


def decoder(
    classes: Classes[_E], pattern: str | None, wire: Wire = DEFAULT_WIRE
) -> Callable[[object], _E]:
    """The package's ``from_payload``: its codes are ``classes``, well-formed codes
    match ``pattern`` (None: codes are integers), payloads are as ``wire`` maps
    them (today's by default, read by the fast path below).

    The function returned gives the error a wire payload describes, and raises
    InvalidPayloadError if it is malformed.  An unknown but well-formed code
    gives the class of the domain whose ``match`` it falls in, else the
    fallback's, its ``wire_code`` keeping the received code, so
    ``to_payload()`` re-emits it.  Whatever the payload is, nothing else is
    raised: a code longer than ``MAX_CODE_LENGTH``, details nested deeper than
    ``MAX_DETAILS_DEPTH`` or holding more than ``MAX_DETAILS_NODES`` values are
    invalid too, and a field the payload's own ``get`` cannot read is invalid as
    that field.
    """
    if wire != DEFAULT_WIRE:
        return _mapped_decoder(classes, pattern, wire)
    by_code = classes.by_code  # filled in place by a LazyClasses
    complete = classes.complete
    # Each class's fields made ready to check, on its first payload.
    checks_of: dict[type[_E], tuple[_Check, ...]] = {}

    def from_payload(payload: object) -> _E:
        # type() first: isinstance against an ABC is slow, and JSON gives dicts.
        source: Mapping[str, object] | _Source
        if type(payload) is dict:
            source = payload
        else:
            read = _reader(payload)
            if read is None:
                raise InvalidPayloadError(
                    f"payload: expected an object, got {_kind(payload)}",
                    field="payload",
                )
            source = _Source(read)
        try:
            raw = source.get("code")
        except Exception as exc:
            raise _unreadable("code", exc) from None
        # A str or int subclass (an ErrorCode member, say) is read as the value
        # it holds: a lying __hash__ or __eq__ cannot pick the class.
        code: str | int
        if pattern is None:
            if type(raw) is int and -MAX_WIRE_INTEGER <= raw <= MAX_WIRE_INTEGER:
                code = raw
            else:
                code = _integer(raw)
        else:
            code = raw if type(raw) is str else _string(raw, "code")
        cls = by_code.get(code)
        if cls is None and not complete:
            cls = classes.unloaded(code)
        # Known codes are well-formed and short: only an unknown one needs checking
        # (and an integer, checked already).
        # re.fullmatch compiles the pattern once (re caches it), on the first
        # unknown code rather than at import.
        if cls is None and isinstance(code, str) and pattern is not None:
            if len(code) > MAX_CODE_LENGTH:
                raise InvalidPayloadError(
                    f"code: longer than {MAX_CODE_LENGTH} characters ({len(code)})",
                    field="code",
                )
            if re.fullmatch(pattern, code) is None:
                raise InvalidPayloadError(
                    f"code: {_show(code)} is not a well-formed error code",
                    field="code",
                )
        try:
            raw = source.get("message")
        except Exception as exc:
            raise _unreadable("message", exc) from None
        message = raw if type(raw) is str else _string(raw, "message")
        try:
            retryable = source.get("retryable")
        except Exception as exc:
            raise _unreadable("retryable", exc) from None
        if type(retryable) is not bool:
            raise InvalidPayloadError(
                f"retryable: expected a boolean, got {_kind(retryable)}",
                field="retryable",
            )
        try:
            details = source.get("details")
        except Exception as exc:
            raise _unreadable("details", exc) from None
        copy: dict[str, Any] | None = None
        if details is not None:
            try:
                copy, problem = (
                    _json_copy(details, "details")
                    if type(details) is dict
                    else _checked_details(details)
                )
            except Exception as exc:  # none known: a last guard, free unless it fires
                raise _unreadable("details", exc) from None
            if problem:
                raise InvalidPayloadError(problem, field="details")
        keeps = False
        if cls is None:
            cls = classes.unknown(code)
            keeps = classes.keeps(cls, code)
        elif cls.fields:
            # A known code's declared fields are checked (the fallback's are not:
            # an unknown code's details are whatever its sender made them).
            checks = checks_of.get(cls)
            if checks is None:
                checks = checks_of[cls] = _checks(cls.fields)
            wrong = _field_problem(checks, copy or {})
            if wrong is not None:
                raise InvalidPayloadError(wrong[1], field=wrong[0])
            copy = _with_constants(cls.fields, copy)
        error = _received(cls, message, retryable, code)
        if keeps:
            vars(error)["code"] = code  # issue 30 §3: its identity, as received
        if copy:
            error.details = copy  # checked above: no need to check it twice
        return error

    return from_payload


def _getter(value: object, field: str) -> Callable[[str], object]:
    """A reader of ``value``'s members (see ``_reader``); refused unless an object."""
    if type(value) is dict:
        stored = cast(dict[str, object], value)
        return lambda key: dict.get(stored, key)
    read = _reader(value)
    if read is None:
        raise InvalidPayloadError(
            f"{field}: expected an object, got {_kind(value)}", field=field
        )
    return read


def _read(get: Callable[[str], object], member: str, field: str) -> object:
    try:
        return get(member)
    except Exception as exc:
        raise _unreadable(field, exc) from None


def _rest(body: object, own: tuple[str | None, ...]) -> dict[str, Any] | str:
    """The members of ``body`` (an object) that ``own`` does not name, as a JSON
    copy; or why they cannot be one."""
    if type(body) is not dict and not issubclass(type(body), dict):
        snapshot = _snapshot(body)
        if type(snapshot) is str:
            return f"payload: {snapshot}"
        body = snapshot
    members: dict[object, object] = {}
    for key, value in dict.items(cast(dict[object, object], body)):
        if type(key) is not str or key not in own:
            if len(members) >= MAX_DETAILS_NODES:
                return f"payload: {_TOO_MANY}"
            members[key] = value
    copy, problem = _json_copy(members, "payload")
    return problem or copy


def _mapped_decoder(
    classes: Classes[_E], pattern: str | None, wire: Wire
) -> Callable[[object], _E]:
    """``decoder`` for a payload other than today's: the members ``wire`` names,
    under the same guards (real types only, limits, nothing raised but
    InvalidPayloadError)."""
    by_code = classes.by_code
    complete = classes.complete
    checks_of: dict[type[_E], tuple[_Check, ...]] = {}
    at = "" if wire.envelope is None else f"{wire.envelope}."
    code_field, message_field = at + wire.code, at + wire.message
    details_field = at + (wire.details or "details")
    rest = wire.details == "*"
    own: tuple[str | None, ...] = (wire.code, wire.message, wire.retryable, wire.status)
    status_field = None if wire.status is None else at + wire.status
    if wire.envelope is None:
        own += tuple(name for name, _, _ in wire.constants)
    # What outside: keep does not keep: the envelope and the constants; without
    # an envelope, every member the mapping names (issue 30 §1: Kubernetes'
    # metadata sits beside reason, message, details and code).
    beside = (wire.envelope, *(name for name, _, _ in wire.constants))
    if wire.envelope is None:
        beside = (*own, wire.details)

    def from_payload(payload: object) -> _E:
        get = _getter(payload, "payload")
        body = payload
        for name, constant, text in wire.constants:
            found = _read(get, name, name)
            if found is not None and not _same_constant(found, constant):
                raise InvalidPayloadError(
                    f"{name}: expected {text}, the constant every payload carries, "
                    "or none",
                    field=name,
                )
        if wire.envelope is not None:
            body = _read(get, wire.envelope, wire.envelope)
            get = _getter(body, wire.envelope)
        raw = _read(get, wire.code, code_field)
        code: str | int | None
        kept: str | None = None  # a problem type that names no code of ours
        if wire.uri is not None:
            if raw is None:
                code = None
            else:
                text = raw if type(raw) is str else _string(raw, code_field)
                code = _uri_code(text, wire.uri, pattern)
                if code is None:
                    kept = text
        elif pattern is None:
            try:
                code = _integer(raw)
            except InvalidPayloadError as exc:
                text = str(exc).replace("code", code_field, 1)
                raise InvalidPayloadError(text, field=code_field) from None
        else:
            code = raw if type(raw) is str else _string(raw, code_field)
            if code not in by_code and classes.unloaded(code) is None:
                if len(code) > MAX_CODE_LENGTH:
                    raise InvalidPayloadError(
                        f"{code_field}: longer than {MAX_CODE_LENGTH} characters "
                        f"({len(code)})",
                        field=code_field,
                    )
                if re.fullmatch(pattern, code) is None:
                    raise InvalidPayloadError(
                        f"{code_field}: {_show(code)} is not a well-formed error code",
                        field=code_field,
                    )
        cls = None if code is None else by_code.get(code)
        if cls is None and code is not None and not complete:
            cls = classes.unloaded(code)
        raw = _read(get, wire.message, message_field)
        message: str | None
        if raw is None and not wire.message_required:
            message = None
        else:
            message = raw if type(raw) is str else _string(raw, message_field)
        retryable: bool | None = None
        if wire.retryable is not None:
            field = at + wire.retryable
            value = _read(get, wire.retryable, field)
            if type(value) is not bool:
                raise InvalidPayloadError(
                    f"{field}: expected a boolean, got {_kind(value)}", field=field
                )
            retryable = value
        status: int | None = None
        if wire.status is not None and status_field is not None:
            status = _received_status(
                _read(get, wire.status, status_field), status_field
            )
        details: Any = None
        try:
            if rest:
                found = _rest(body, own)
                if type(found) is str:
                    raise InvalidPayloadError(found, field=wire.envelope or "payload")
                details = found
                if kept is not None:
                    details[wire.code] = kept
            elif wire.details is not None:
                details = _wire_value(
                    _read(get, wire.details, details_field), wire, details_field
                )
        except InvalidPayloadError:
            raise
        except Exception as exc:  # none known: a last guard, free unless it fires
            raise _unreadable(details_field, exc) from None
        if details is None and wire.details_type != "any":
            details = [] if wire.details_type == "array" else {}
        known = cls is not None
        if cls is None:
            # No code (a problem type of no code of ours): the fallback; an
            # unknown one: the class of the domain whose match claims it, if any.
            cls = classes.fallback() if code is None else classes.unknown(code)
        elif cls.fields:
            checks = checks_of.get(cls)
            if checks is None:
                checks = checks_of[cls] = _checks(cls.fields)
            wrong = _field_problem(checks, details or {})
            if wrong is not None:
                raise InvalidPayloadError(wrong[1], field=wrong[0])
            details = _with_constants(cls.fields, details)
        absent = message is None
        if message is None:
            if wire.exact_message:
                message = _absent_message(cls, details if known else None)
            else:
                title = details.get("title") if rest else None
                message = _text(title) if issubclass(type(title), str) else cls.meaning
        keeps = code is not None and not known and classes.keeps(cls, code)
        if retryable is None:
            # Issue 30 §3: an unknown code keeping its identity is retryable as
            # unknown_retryable says, where the payload does not say.
            retryable = classes.unknown_retryable(status) if keeps else cls.retryable
        error = _received(
            cls, message, retryable, _plain(cls.code) if code is None else code
        )
        error.details = details
        if keeps:
            vars(error)["code"] = code  # its identity, as received
        if status is not None:
            error.http_status = status
        if absent and wire.exact_message:
            error.message_absent = True
        if wire.outside:
            around = _rest(payload, beside)
            if type(around) is str:
                raise InvalidPayloadError(around, field="payload")
            error.outside = cast(dict[str, Any], around)
        return error

    return from_payload


def _received_status(value: object, field: str) -> int | None:
    """The HTTP status a payload's status member holds: absent or null, None;
    else an integer from 100 to 599 (a number without a fraction, as in
    JavaScript), or InvalidPayloadError naming the member."""
    if value is None:
        return None
    kind = type(value)
    if kind is float and float.is_integer(cast(float, value)):
        number = int(cast(float, value))
    elif issubclass(kind, int) and kind is not bool:
        number = int.__int__(cast(int, value))
    else:
        raise InvalidPayloadError(
            f"{field}: expected an HTTP status (an integer from 100 to 599), "
            f"got {_kind(value)}",
            field=field,
        )
    if not 100 <= number <= 599:
        raise InvalidPayloadError(
            f"{field}: expected an HTTP status (an integer from 100 to 599), "
            f"got {number}",
            field=field,
        )
    return number


def _same_constant(found: object, constant: object) -> bool:
    """Whether a received value is ``constant`` (a string, a number or a boolean)
    as JSON compares them: numbers by value, booleans apart from numbers; read
    through the real types alone."""
    kind = type(found)
    if type(constant) is bool or kind is bool:
        return found is constant
    if type(constant) is str:
        return issubclass(kind, str) and _text(found) == constant
    if issubclass(kind, int):
        return int.__int__(cast(int, found)) == constant
    if issubclass(kind, float):
        return float.__float__(cast(float, found)) == constant
    return False


def _with_constants(fields: tuple[Field, ...], details: Any) -> Any:
    """Received ``details`` (checked: an object or None) with each constant field
    it lacks filled in (issue 30 §7: written on every payload); as they were
    when the code has none."""
    for spec in fields:
        if spec.const is not None and (details is None or spec.name not in details):
            details = {} if details is None else details
            details[spec.name] = spec.default
    return details


def _absent_message(cls: type[TaxonomyError], details: object) -> str:
    """The message of an error received without one: its code's template over the
    details (checked: None for an unknown code's), an omitted field's default in
    its place, else the meaning."""
    pieces = cls.message_template
    if pieces is None or not issubclass(type(details), dict):
        return cls.meaning
    given = cast(dict[str, object], details)
    defaults = {spec.name: spec.default for spec in cls.fields}
    values: dict[str, object] = {}
    for name in pieces[1::2]:
        value = given.get(name, defaults.get(name))
        if value is None:
            return cls.meaning
        values[name] = value
    return render(pieces, values)


def _wire_value(value: object, wire: Wire, field: str) -> Any:
    """The details member as ``wire.details_type`` allows (None: absent or null)."""
    if value is None:
        return None
    kind = type(value)
    is_array = issubclass(kind, (list, tuple))
    if wire.details_type == "object" or (wire.details_type == "array" and not is_array):
        if wire.details_type == "array" or _reader(value) is None:
            expected = "an object" if wire.details_type == "object" else "an array"
            raise InvalidPayloadError(
                f"{field}: expected {expected}, got {_kind(value)}", field=field
            )
    if not is_array and kind is not dict and _reader(value) is not None:
        copy, problem = _checked_details(value)
    else:
        copy, problem = _json_copy(value, "details")
    if problem:
        raise InvalidPayloadError(
            (
                field + problem[len("details") :]
                if problem.startswith("details")
                else problem
            ),
            field=field,
        )
    return copy


def to_error(
    value: object,
    classes: Classes[_E],
    natives: tuple[tuple[type[BaseException], Any], ...] = (),
) -> _E:
    """``value`` if it is an error of the taxonomy, else wrapped with the wrap code.

    An exception becomes the wrapper's ``__cause__``; any other value is kept as
    its ``original``, since Python chains only exceptions.  ``natives`` pairs
    each builtin a class names in ``python_bases`` with that class, the deepest
    classes first: a native exception becomes the first class whose builtin it
    is an instance of (see :func:`_native`).
    """
    if is_error(value, classes.base):
        return value
    if issubclass(type(value), BaseException):
        cause = cast(BaseException, value)
        if natives:
            native = _native(cause, classes, natives)
            if native is not None:
                return native
        try:
            text = str(cause)
        except Exception:
            text = ""
        name = _type_name(type(cause))
        message = f"{name}: {text}" if text else name
        return classes.wrap()(message, cause=cause)
    error = classes.wrap()(f"non-exception value: {_show(value)}")
    error.original = value
    return error


def _native(
    cause: BaseException,
    classes: Classes[_E],
    natives: tuple[tuple[type[BaseException], Any], ...],
) -> _E | None:
    """The error of the most specific class ``cause`` is native to (issue 30
    §6), its message the exception's, ``cause`` its ``__cause__``; None where no
    class names a builtin ``cause`` is an instance of.

    An OSError whose ``errno`` is a code of the taxonomy whose class is an
    OSError gives that class; else the nearest of its type's ``__mro__`` that a
    class names wins (``natives`` lists the deepest classes first).
    """
    cls: type[_E] | None = None
    if isinstance(cause, OSError):
        found = classes.known(cause.errno)
        if found is not None and issubclass(found, OSError):
            cls = found
    if cls is None:
        for kind in type(cause).__mro__:
            target = next((t for b, t in natives if b is kind), None)
            if target is not None:
                cls = classes._resolve(target)
                break
    if cls is None:
        return None
    strerror = cause.strerror if isinstance(cause, OSError) else None
    if isinstance(strerror, str):
        message = strerror
    else:
        try:
            message = str(cause)
        except Exception:
            message = ""
    wire_code: str | int | None = None
    retryable: bool | None = None
    number = cause.errno if isinstance(cause, OSError) else None
    if (
        type(number) is int
        and getattr(classes.base, "code_type", None) is int
        and classes.known(number) is None
        and classes.keeps(cls, number)
    ):  # an unknown errno that keeps its identity (issue 30 §3)
        wire_code, retryable = number, classes.unknown_retryable(None)
    elif getattr(cls, "code", None) is None:
        return None  # no code to give it: wrapped as before
    error = cls.__new__(cls)
    error._setup(message or None, {}, cause, retryable, wire_code)
    return error


def error_from_event(
    event: Mapping[str, object],
    events: Mapping[str, str],
    from_payload: Callable[[object], _E],
) -> _E | None:
    """The error an event carries where ``events`` says, or None if none.

    An event (or a mapping on the way to its error) whose own ``get`` raises is
    an InvalidPayloadError about ``event``; the error itself is read by
    ``from_payload``.
    """
    get = _reader(event)
    if get is None:
        raise InvalidPayloadError(
            f"event: expected an object, got {_kind(event)}", field="event"
        )
    try:
        kind = get("type")
        location = events.get(_text(kind)) if issubclass(type(kind), str) else None
        if location is None:
            return None
        found: object = event
        for part in location.split("."):
            get = _reader(found)
            if get is None:
                return None
            found = get(part)
    except Exception as exc:
        raise _unreadable("event", exc) from None
    if found is None:
        return None
    return from_payload(found)
