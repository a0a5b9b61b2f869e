"""Sandbox: the Jinja environment that renders when a user's templates are in play.

A templates folder is code a repository carries, and ``taxogen check`` runs on
clones nobody has read.  So whenever a run has user templates, every template
renders in Jinja's :class:`~jinja2.sandbox.ImmutableSandboxedEnvironment` (the
built-in ones too, since a user's part may be included by them): no attribute
starting with ``_``, no method that changes a list, dict or set, and attributes
only of plain values and of taxogen's and Jinja's own objects, never of a
module or a class.  ``lipsum`` is not offered; ``range`` gives at most
:data:`RANGE_LIMIT` numbers.

The sandbox keeps a template from reaching Python; the bounds keep it from
taking the machine.  No text a template builds (``+``, ``*``, ``~``, ``%``, ``format``,
a macro's or a block's output, a string method or filter given a width) may
exceed :data:`OUTPUT_LIMIT` characters, nor a list :data:`RANGE_LIMIT` items,
nor an integer :data:`INT_BITS` bits; what a template renders is counted as it
streams.  Calls (macros) nest at most :data:`DEPTH_LIMIT` deep (an include that
includes itself ends in Python's recursion limit, reported the same way).  A
render and the finishing of its output (black) may take :data:`SECONDS`: a
timer (SIGALRM, :func:`watched`) stops them in the main thread; elsewhere the
clock is read at each output chunk, call, operator, ``~`` and step of a ``for``
loop only.  Memory
is bounded only through these; a ``MemoryError`` is the template's problem like
any breach (:class:`Exceeded`), never taxogen's.

Compiled sandboxed templates are not cached: the compiled-template cache is
keyed by a template's name and source, so it would hand the sandbox the code
the plain environment compiled for a built-in template, without the sandbox's
interceptions; and a user's template compiled once is code read back later.

It runs past 300 lines because each bound is checked where Jinja lets a
template grow (operators, calls, loops, joins, filters): apart, a reader could
not see that every way is covered.
"""

from __future__ import annotations

import contextlib
import functools
import math
import re
import signal
import string
import sys
import threading
import time
import types
from collections.abc import Callable, Generator, Iterable, Iterator, Mapping
from typing import Any, cast

import jinja2
import jinja2.nodes as nodes
import jinja2.sandbox
import jinja2.utils
import jinja2.visitor

__all__ = [
    "DEPTH_LIMIT",
    "INT_BITS",
    "OUTPUT_LIMIT",
    "RANGE_LIMIT",
    "SECONDS",
    "Exceeded",
    "Sandbox",
    "render",
    "watched",
]

#: The most characters one template may render, or any text it builds may hold.
#: The largest taxonomy taxogen reads (4 MiB) renders some 30 MB into one file.
OUTPUT_LIMIT = 64 * 1024 * 1024
#: The most items of a ``range``, or of a list a template builds.
RANGE_LIMIT = jinja2.sandbox.MAX_RANGE
#: The most bits of an integer a template builds (some 315,000 digits).
INT_BITS = 1 << 20
#: How deeply calls (macros) may nest.
DEPTH_LIMIT = 100
#: Seconds one template may take to render.
SECONDS = 10.0

#: What follows a ``%`` format's key: flags, width, precision, length modifier.
_PERCENT = re.compile(r"[-#0 +]*(\*|\d*)(?:\.(\*|\d*))?[hlL]?")
_DIGITS = re.compile(r"\*|\d+")
#: The widest indent ``tojson`` may be given.
_INDENT_LIMIT = 16
#: The longest text ``wordwrap`` takes: textwrap splits a long word a chunk at
#: a time, copying the rest each time (quadratic: 1 M characters take 21 s).
_WORDWRAP_LIMIT = OUTPUT_LIMIT // 256
#: A method of a string (str's own, or one of Markup's, written in Python).
_METHODS = (types.BuiltinMethodType, types.MethodType)
#: The module prefixes of the objects whose attributes a template may read.
_READABLE = ("builtins", "taxogen.", "jinja2.", "markupsafe")


class Exceeded(Exception):
    """A template went past one of the sandbox's bounds; the message says which."""


# ----------------------------------------------------------------- sizes
def _check_size(size: int, like: object) -> None:
    """Refuse a value of ``size`` (characters, items) of the kind of ``like``."""
    if isinstance(like, str):
        if size > OUTPUT_LIMIT:
            raise Exceeded(f"builds a text over {OUTPUT_LIMIT:,} characters")
    elif size > RANGE_LIMIT:
        raise Exceeded(f"builds a list over {RANGE_LIMIT:,} items")


def _check_value(value: Any) -> Any:
    """``value``, if it is within the bounds of what a template may build."""
    if isinstance(value, (str, list, tuple)):
        _check_size(len(value), value)
    elif isinstance(value, int) and value.bit_length() > INT_BITS:
        raise Exceeded(f"builds an integer over {INT_BITS:,} bits")
    return value


def _check_width(*values: object) -> None:
    """Refuse a width, count or length argument that alone breaks the limit."""
    for value in values:
        if isinstance(value, int) and value > OUTPUT_LIMIT:
            raise Exceeded(f"a width or count over {OUTPUT_LIMIT:,}")


def _check_format(text: str, *, percent: bool) -> None:
    """Refuse a format whose widths or precisions could build a text over the
    limit, or come from the arguments (``*``, ``{:{w}}``), unseen until built."""
    if percent:
        found = _percent_numbers(text)
    else:
        found = []
        for _, field, spec, _ in string.Formatter().parse(text):
            if field is not None and spec:
                found += ["*"] if "{" in spec else _DIGITS.findall(spec)
    for number in found:
        if number == "*":
            raise Exceeded("a width or precision taken from the arguments")
        _check_width(int(number))


def _percent_numbers(text: str) -> list[str]:
    """The widths and precisions of the ``%`` format ``text``, as Python reads it:
    a key in balanced parentheses (``%(a(b))d`` is the key ``a(b)``), then flags,
    width and precision."""
    found: list[str] = []
    at = text.find("%")
    while at != -1:
        at += 1
        if text.startswith("(", at):
            depth = 0
            while at < len(text):
                depth += {"(": 1, ")": -1}.get(text[at], 0)
                at += 1
                if depth == 0:
                    break
        match = _PERCENT.match(text, at)
        assert match is not None  # every part of the pattern may be empty
        found += [number for number in match.groups() if number]
        at = match.end()
        at = text.find("%", at + 1)  # past the conversion ("%%" included)
    return found


def _text_size(value: Any, memo: dict[int, int] | None = None) -> int:
    """At least how many characters ``str(value)`` (or its JSON) has, counted
    without building it: a list may hold one long list many times over."""
    if isinstance(value, str):
        return len(value)
    if not isinstance(value, (list, tuple, dict)):
        return 1
    memo = {} if memo is None else memo
    known = memo.get(id(value))
    if known is None:
        memo[id(value)] = 0  # a cycle adds nothing (none can be built here)
        items = [*value.keys(), *value.values()] if isinstance(value, dict) else value
        known = 2 * len(items)
        for item in items:
            known += _text_size(item, memo)
            if known > OUTPUT_LIMIT:
                break
        memo[id(value)] = known
    return known


def _check_text(*values: Any) -> None:
    """Refuse making text of ``values`` when it would break the text limit."""
    memo: dict[int, int] = {}
    if sum(_text_size(value, memo) for value in values) > OUTPUT_LIMIT:
        raise Exceeded(f"builds a text over {OUTPUT_LIMIT:,} characters")


def _check_sum(left: Any, right: Any) -> None:
    """Refuse ``left + right`` of texts or lists when the sum breaks a limit."""
    if isinstance(left, (str, list, tuple)) and isinstance(right, (str, list, tuple)):
        _check_size(len(left) + len(right), left)


def _check_product(left: Any, right: Any) -> None:
    """Refuse ``left * right`` when what it builds would break a limit."""
    for items, times in ((left, right), (right, left)):
        if isinstance(items, (str, list, tuple)) and isinstance(times, int):
            _check_size(len(items) * max(times, 0), items)
    if isinstance(left, int) and isinstance(right, int):
        if left.bit_length() + right.bit_length() > INT_BITS:
            raise Exceeded(f"builds an integer over {INT_BITS:,} bits")


def _check_power(base: Any, exponent: Any) -> None:
    if isinstance(base, int) and isinstance(exponent, int) and abs(base) > 1:
        if base.bit_length() * max(exponent, 0) > INT_BITS:
            raise Exceeded(f"builds an integer over {INT_BITS:,} bits")


def _check_str_call(text: str, method: str, args: tuple[Any, ...]) -> None:
    """Refuse a string method call whose result would break the text limit."""
    _check_width(*args)
    if method == "replace" and len(args) > 1 and isinstance(args[1], str):
        _check_size(len(text) + (len(text) + 1) * len(args[1]), text)
    elif method == "expandtabs":
        tab = args[0] if args and isinstance(args[0], int) else 8
        _check_size(len(text) * max(tab, 1), text)


# --------------------------------------------------------------- filters
def _strings(args: tuple[Any, ...]) -> list[str]:
    return [arg for arg in args if isinstance(arg, str)]


def _before_filter(name: str, args: tuple[Any, ...], kwargs: Mapping[str, Any]) -> None:
    """Refuse the call of Jinja's filter ``name`` that would build too much (its
    first string argument is the value filtered; Jinja may pass its context or
    environment before it)."""
    texts = _strings(args) + _strings(tuple(kwargs.values()))
    value = texts[0] if texts else ""
    numbers = [*args, *kwargs.values()]
    if name in ("center", "truncate", "wordwrap", "batch", "slice"):
        _check_width(*numbers)
    if name == "slice":
        _check_size(max((n for n in numbers if isinstance(n, int)), default=0), [])
    if name == "join":  # (context, items, separator, attribute)
        items = list(args[1]) if len(args) > 1 else []
        separator = args[2] if len(args) > 2 else kwargs.get("d", "")
        _plain(items)
        _check_text(*items, str(separator) * max(len(items) - 1, 0))
    if name == "tojson":  # (context, value, indent): each line may gain it
        indent = args[2] if len(args) > 2 else kwargs.get("indent")
        if indent is not None and not 0 <= int(indent) <= _INDENT_LIMIT:
            raise Exceeded(f"a JSON indent over {_INDENT_LIMIT}")
        _check_text(args[1] if len(args) > 1 else kwargs.get("value"))
    if name == "wordwrap" and len(value) > _WORDWRAP_LIMIT:
        raise Exceeded(f"wraps a text over {_WORDWRAP_LIMIT:,} characters")
    if name == "format":
        _plain([arg for arg in args if not isinstance(arg, jinja2.nodes.EvalContext)])
        _plain(kwargs)
        _check_format(value, percent=True)
    if name in ("replace", "wordwrap"):  # each character may gain the argument
        longest = max((len(text) for text in texts[1:]), default=0)
        _check_size(len(value) + (len(value) + 1) * longest, value)
    if name == "indent":  # each line may gain the indent
        widths = [len(t) for t in texts[1:]] + [n for n in numbers if type(n) is int]
        lines = value.count("\n") + 1
        _check_size(len(value) + lines * max(widths, default=0), value)


def _guarded(name: str, function: Callable[..., Any]) -> Callable[..., Any]:
    """Jinja's filter ``function`` within the bounds (wraps keeps its marks, such
    as which context it is passed)."""

    @functools.wraps(function)
    def guarded(*args: Any, **kwargs: Any) -> Any:
        if name == "join" and len(args) > 1:  # measured, then joined: a list
            args = (args[0], list(args[1]), *args[2:])
        _before_filter(name, args, kwargs)
        return _check_value(function(*args, **kwargs))

    return guarded


#: Jinja's filters that can build more than they are given, by their arguments.
_GUARDED = (
    "batch",
    "center",
    "format",
    "indent",
    "join",
    "tojson",
    "replace",
    "slice",
    "truncate",
    "wordwrap",
)


def _plain(value: Any) -> Any:
    """``value``, if its text is the same on every run: plain data only, never
    an object whose text holds its address (``cycler()``)."""
    if isinstance(value, (str, int, float, type(None), jinja2.Undefined)):
        return value
    if isinstance(value, (list, tuple)):
        for item in value:
            _plain(item)
        return value
    if isinstance(value, dict):
        for key, item in value.items():
            _plain(key)
            _plain(item)
        return value
    raise Exceeded(
        f"makes text of a {type(value).__name__}, which is not plain data "
        "(its text may vary between runs)"
    )


def _stringified(function: Callable[..., Any]) -> Callable[..., Any]:
    """Jinja's ``string`` or ``pprint`` filter, of plain data only."""

    @functools.wraps(function)
    def stringified(value: Any, *args: Any, **kwargs: Any) -> Any:
        _check_text(_plain(value))
        return function(value, *args, **kwargs)

    return stringified


class _Namespace(jinja2.utils.Namespace):
    """Jinja's ``namespace()``, whose attributes are held to the bounds too: a
    loop could otherwise double a text in one until memory runs out."""

    def __setitem__(self, name: str, value: Any) -> None:
        super().__setitem__(name, _check_value(value))


# ------------------------------------------------------------------ clock
class _Budget:
    """What one render has left: time, and how deep its calls may still nest."""

    def __init__(self) -> None:
        self.deadline = math.inf
        self.depth = 0

    def start(self) -> None:
        self.deadline = time.monotonic() + SECONDS
        self.depth = 0

    def tick(self) -> None:
        if time.monotonic() > self.deadline:
            raise Exceeded(f"takes over {SECONDS:g} s to render")


class _Bounded(jinja2.visitor.NodeTransformer):
    """A parsed template whose loops and ``~`` go through the sandbox, which
    reads the clock at each step and measures what ``~`` joins."""

    def visit_For(self, node: nodes.For) -> nodes.Node:
        self.generic_visit(node)
        assert isinstance(node.iter, nodes.Expr)  # a loop's iterable always is
        node.iter = _call("steps", node.iter, node.lineno)
        return node

    def visit_Concat(self, node: nodes.Concat) -> nodes.Node:
        self.generic_visit(node)
        items = nodes.List(node.nodes, lineno=node.lineno)
        return _call("joined", items, node.lineno)


def _call(method: str, argument: nodes.Expr, line: int) -> nodes.Call:
    target = nodes.EnvironmentAttribute(method, lineno=line)
    return nodes.Call(target, [argument], [], None, None, lineno=line)


# ---------------------------------------------------------------- sandbox
class Sandbox(jinja2.sandbox.ImmutableSandboxedEnvironment):
    """The sandboxed environment, with taxogen's bounds (see the module)."""

    intercepted_binops = frozenset({"+", "-", "*", "/", "//", "**", "%"})

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self.budget = _Budget()  # shared with every overlay: one render at a time
        self._safe: dict[tuple[type, str], bool] = {}
        self.globals.pop("lipsum", None)
        self.filters.pop("random", None)  # a render is a function of its input
        self.finalize = _plain
        self.filters["string"] = _stringified(self.filters["string"])
        self.filters["pprint"] = _stringified(self.filters["pprint"])
        self.globals["namespace"] = _Namespace
        for name in _GUARDED:
            self.filters[name] = _guarded(name, self.filters[name])

    def _generate(
        self,
        source: nodes.Template,
        name: str | None,
        filename: str | None,
        defer_init: bool = False,
    ) -> str:
        bounded = _Bounded().visit(source)
        return super()._generate(bounded, name, filename, defer_init)

    def is_safe_attribute(self, obj: Any, attr: str, value: Any) -> bool:
        # Jinja's rules and ours depend only on the object's type and the name,
        # and every attribute a template reads asks: decided once per pair.
        key = (type(obj), attr)
        safe = self._safe.get(key)
        if safe is None:
            safe = self._safe[key] = self._decide(obj, attr, value)
        return safe

    def _decide(self, obj: Any, attr: str, value: Any) -> bool:
        if isinstance(obj, (types.ModuleType, type)):
            return False
        module = type(obj).__module__
        return module.startswith(_READABLE) and super().is_safe_attribute(
            obj, attr, value
        )

    def call_binop(
        self, context: jinja2.runtime.Context, operator: str, left: Any, right: Any
    ) -> Any:
        self.budget.tick()
        if operator == "*":
            _check_product(left, right)
        elif operator == "**":
            _check_power(left, right)
        elif operator == "+":
            _check_sum(left, right)
        elif operator == "%" and isinstance(left, str):
            _plain(right)
            _check_format(left, percent=True)
        result = super().call_binop(context, operator, left, right)
        if isinstance(result, (set, frozenset)):  # ``model.keys() - []``
            raise Exceeded(
                "builds a set, whose order varies between runs (sort it first)"
            )
        return _check_value(result)

    def wrap_str_format(self, value: Any) -> Callable[..., str] | None:
        if getattr(value, "__name__", None) not in ("format", "format_map"):
            return None  # the usual case, asked of every attribute read
        wrapped = super().wrap_str_format(value)
        if wrapped is None:
            return None
        _check_format(value.__self__, percent=False)
        inner = wrapped

        def plain_format(*args: Any, **kwargs: Any) -> str:
            _plain([args, kwargs])
            return inner(*args, **kwargs)

        return plain_format

    def call(
        __self,  # noqa: B902 (Jinja's spelling: a template's keyword may be "self")
        __context: jinja2.runtime.Context,
        __obj: Any,
        *args: Any,
        **kwargs: Any,
    ) -> Any:
        budget = __self.budget
        budget.tick()
        owner = getattr(__obj, "__self__", None)
        if isinstance(owner, str) and isinstance(__obj, _METHODS):  # Markup's too
            _check_str_call(owner, __obj.__name__, (*args, *kwargs.values()))
            _plain([args, kwargs])
        budget.depth += 1
        try:
            if budget.depth > DEPTH_LIMIT:
                raise Exceeded(f"calls nested over {DEPTH_LIMIT} deep")
            result = super().call(__context, __obj, *args, **kwargs)
        finally:
            budget.depth -= 1
        return _check_value(result)

    def steps(self, iterable: Iterable[Any]) -> Iterator[Any]:
        """``iterable``, the clock read at each step (every ``for`` loop's)."""
        tick = self.budget.tick
        for item in iterable:
            tick()
            yield item

    def joined(self, items: list[Any]) -> str:
        """``a ~ b``: the texts joined, if the result is within the limit."""
        _check_text(*_plain(items))
        texts = [str(item) for item in items]
        _check_size(sum(map(len, texts)), "")
        return "".join(texts)

    def concat(self, parts: Iterable[str]) -> str:
        """A macro's, block's or filter block's output, if within the limit."""
        texts = list(parts)
        self.budget.tick()
        _check_size(sum(map(len, texts)), "")
        return "".join(texts)


def render(template: jinja2.Template, values: Mapping[str, Any]) -> str:
    """What ``template`` renders for ``values``; in the sandbox, streamed and
    held to the bounds (:class:`Exceeded`, naming the bound, if one breaks)."""
    env = template.environment
    if not isinstance(env, Sandbox):
        return template.render(values)
    env.budget.start()
    parts: list[str] = []
    size = 0
    stream = cast(Generator[str, None, None], template.generate(values))
    try:
        for chunk in stream:
            size += len(chunk)
            try:
                if size > OUTPUT_LIMIT:
                    raise Exceeded(f"renders over {OUTPUT_LIMIT:,} characters")
                env.budget.tick()
            except Exceeded as exc:
                stream.throw(exc)  # raised where the template is: its line is named
                raise
            parts.append(chunk)
    finally:
        env.budget.deadline = math.inf
    return "".join(parts)


@contextlib.contextmanager
def watched(env: jinja2.Environment) -> Iterator[None]:
    """A watchdog over what runs within: rendering ``env``'s template and
    finishing its output (black over Python) may take :data:`SECONDS` in all,
    however few clock reads it makes (a filter over a long text, one comparison
    after another).  A real timer (SIGALRM) where Python allows one, in the main
    thread; elsewhere only the clock reads stop a render."""
    if not (
        isinstance(env, Sandbox)
        and hasattr(signal, "setitimer")
        and threading.current_thread() is threading.main_thread()
    ):
        yield
        return

    def ring(signum: int, frame: object) -> None:
        if sys.exc_info()[0] is not None:  # Jinja placing an error: not in it
            signal.setitimer(signal.ITIMER_REAL, 0.05)
            return
        raise Exceeded(f"takes over {SECONDS:g} s to render")

    previous = signal.signal(signal.SIGALRM, ring)
    try:
        signal.setitimer(signal.ITIMER_REAL, SECONDS)
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
