"""Naming: every identifier taxogen generates, and every rule that keeps them safe.

Codes and domains become class names, enum members and package names in each
target language.  All of that mapping happens here, once, so templates only
print names they are given.  The same class and member names are used in
Python and TypeScript (users grep across both), so one name must be safe in
both languages: it may not be a keyword, shadow a builtin the generated code
relies on, or repeat a name the generated modules define themselves, and two
codes or domains may not map to one name.  A clash is refused with the lines of
both sides; a code or domain can then pick its class name with ``class:``.
"""

from __future__ import annotations

import dataclasses
import re

from generator.diagnostics import Diagnostic, Position, TaxonomyError
from generator.model import Code, Domain, Taxonomy

__all__ = [
    "PYTHON_BUILTINS",
    "PYTHON_KEYWORDS",
    "PYTHON_MODULE_NAMES",
    "TS_GLOBALS",
    "TS_MODULE_NAMES",
    "TS_RESERVED",
    "NamedCode",
    "NamedDomain",
    "Names",
    "camel",
    "class_name",
    "member_name",
    "name_taxonomy",
    "pascal",
    "snake",
]

PYTHON_KEYWORDS = frozenset(
    """False None True and as assert async await break class continue def del elif else
    except finally for from global if import in is lambda nonlocal not or pass raise return
    try while with yield _ case match type""".split()
)

# Builtins of Python 3.11 to 3.14: names users and the generated code rely on.
PYTHON_BUILTINS = frozenset(
    """ArithmeticError AssertionError AttributeError BaseException BaseExceptionGroup
    BlockingIOError BrokenPipeError BufferError BytesWarning ChildProcessError
    ConnectionAbortedError ConnectionError ConnectionRefusedError ConnectionResetError
    DeprecationWarning EOFError Ellipsis EncodingWarning EnvironmentError Exception
    ExceptionGroup FileExistsError FileNotFoundError FloatingPointError FutureWarning
    GeneratorExit IOError ImportError ImportWarning IndentationError IndexError
    InterruptedError IsADirectoryError KeyError KeyboardInterrupt LookupError MemoryError
    ModuleNotFoundError NameError NotADirectoryError NotImplemented NotImplementedError
    OSError OverflowError PendingDeprecationWarning PermissionError ProcessLookupError
    PythonFinalizationError RecursionError ReferenceError ResourceWarning RuntimeError
    RuntimeWarning StopAsyncIteration StopIteration SyntaxError SyntaxWarning SystemError
    SystemExit TabError TimeoutError TypeError UnboundLocalError UnicodeDecodeError
    UnicodeEncodeError UnicodeError UnicodeTranslateError UnicodeWarning UserWarning
    ValueError Warning ZeroDivisionError abs aiter all anext any ascii bin bool breakpoint
    bytearray bytes callable chr classmethod compile complex copyright credits delattr dict
    dir divmod enumerate eval exec exit filter float format frozenset getattr globals
    hasattr hash help hex id input int isinstance issubclass iter len license list locals
    map max memoryview min next object oct open ord pow print property quit range repr
    reversed round set setattr slice sorted staticmethod str sum super tuple type vars zip
    Enum StrEnum IntEnum""".split()
)

# Names the generated Python module defines or imports (besides the classes).
PYTHON_MODULE_NAMES = frozenset(
    """Any ClassVar Domain ERROR_EVENTS ErrorCode ErrorPayload Final InvalidPayloadError
    Mapping TypeGuard TypedDict annotations enum error_from_event from_payload is_retryable
    lookup math re to_error types""".split()
)

TS_RESERVED = frozenset(
    """break case catch class const continue debugger default delete do else enum export
    extends false finally for function if import in instanceof new null return super switch
    this throw true try typeof var void while with implements interface let package private
    protected public static yield await any boolean number string symbol bigint object never
    unknown undefined type from of as declare namespace module readonly keyof unique infer
    is asserts global satisfies accessor override out abstract async constructor get set
    require arguments eval""".split()
)

# ES2022 globals and the TypeScript library types the generated module leans on.
TS_GLOBALS = frozenset(
    """AggregateError Array ArrayBuffer ArrayLike Atomics Awaited BigInt BigInt64Array
    BigUint64Array Boolean DataView Date Error ErrorConstructor ErrorOptions EvalError Exclude
    Extract FinalizationRegistry Float32Array Float64Array Function Infinity InstanceType
    Int16Array Int32Array Int8Array Intl Iterable Iterator JSON Map Math NaN NonNullable
    Number Object Omit Parameters Partial Pick Promise PromiseLike PropertyKey Proxy RangeError
    Readonly ReadonlyArray ReadonlyMap ReadonlySet Record ReferenceError Reflect RegExp
    Required ReturnType Set SharedArrayBuffer String Symbol SyntaxError TypeError URIError
    Uint16Array Uint32Array Uint8Array Uint8ClampedArray WeakMap WeakRef WeakSet globalThis
    Buffer console process""".split()
)

# Names the generated TypeScript module defines (besides the classes).
TS_MODULE_NAMES = frozenset(
    """BRAND Domain ERROR_EVENTS ErrorClass ErrorCode ErrorJSON ErrorPayload InvalidPayloadError
    errorFromEvent fromPayload isRetryable lookup toError""".split()
)

_WORD = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[0-9]+")


def _words(identifier: str) -> list[str]:
    return [w for w in identifier.lower().split("_") if w]


def pascal(identifier: str) -> str:
    """``task_timeout`` / ``TASK_TIMEOUT`` → ``TaskTimeout``."""
    return "".join(w[:1].upper() + w[1:] for w in _words(identifier))


def camel(identifier: str) -> str:
    """``task_timeout`` → ``taskTimeout``; ``HarmovelaError`` → ``harmovelaError``."""
    if "_" not in identifier and identifier[:1].isupper():
        return identifier[:1].lower() + identifier[1:]
    text = pascal(identifier)
    return text[:1].lower() + text[1:]


def snake(name: str) -> str:
    """``HarmovelaError`` → ``harmovela_error``; ``HTTPError`` → ``http_error``."""
    return "_".join(part.lower() for part in _WORD.findall(name))


def class_name(identifier: str) -> str:
    """The class for a code or domain: PascalCase plus ``Error``, never ``ErrorError``."""
    words = _words(identifier)
    if words[-1] == "error":
        words = words[:-1]
    return "".join(w[:1].upper() + w[1:] for w in words) + "Error"


def member_name(identifier: str) -> str:
    """The enum member (and TypeScript key) for a code or domain value."""
    return identifier.upper()


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class NamedCode:
    """A code with its identifiers."""

    code: Code
    class_name: str
    parent: str  # the class it extends
    member: str
    domain_member: str
    is_domain_base: bool


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class NamedDomain:
    """A domain with its identifiers; ``base_code`` is its ``<domain>_error`` code, if any."""

    domain: Domain
    class_name: str
    member: str
    base_code: NamedCode | None
    codes: tuple[NamedCode, ...]  # in source order, base_code among them

    @property
    def prefix(self) -> str:
        return f"{self.domain.key}_*"

    @property
    def class_order(self) -> tuple[NamedCode, ...]:
        """The codes in the order their classes must be defined: the domain base first."""
        rest = tuple(c for c in self.codes if not c.is_domain_base)
        return rest if self.base_code is None else (self.base_code, *rest)


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class Names:
    """Every identifier of a taxonomy, computed once."""

    taxonomy: Taxonomy
    python_package: str
    npm_package: str
    base: str
    py_guard: str
    ts_guard: str
    ts_options: str
    brand: str
    domains: tuple[NamedDomain, ...]
    fallback: NamedCode
    wrap: NamedCode

    @property
    def codes(self) -> tuple[NamedCode, ...]:
        return tuple(code for domain in self.domains for code in domain.codes)


def _reserved_reason(name: str) -> str | None:
    if name in PYTHON_KEYWORDS:
        return "is a Python keyword"
    if name in TS_RESERVED:
        return "is a TypeScript reserved word"
    if name in PYTHON_BUILTINS:
        return "shadows the Python builtin of that name"
    if name in TS_GLOBALS:
        return "shadows the JavaScript global of that name"
    if name in PYTHON_MODULE_NAMES or name in TS_MODULE_NAMES:
        return "is a name the generated module defines itself"
    return None


def name_taxonomy(taxonomy: Taxonomy, path: str) -> Names:
    """Give every code and domain its identifiers, or raise every clash found."""
    problems: list[Diagnostic] = []
    owners: dict[str, tuple[str, Position]] = {}

    def claim(name: str, what: str, position: Position, key: str, fix: str) -> None:
        reason = _reserved_reason(name)
        if reason is not None:
            problems.append(
                Diagnostic(path=path, position=position, key=key, message=f"class name {name!r} of {what} {reason}; {fix}")
            )
            return
        earlier = owners.get(name)
        if earlier is not None:
            problems.append(
                Diagnostic(
                    path=path,
                    position=position,
                    key=key,
                    message=(
                        f"class name {name!r} of {what} is already the class name of "
                        f"{earlier[0]} (line {earlier[1].line}); {fix}"
                    ),
                )
            )
            return
        owners[name] = (what, position)

    base = taxonomy.base
    claim(base, "the base class", taxonomy.base_position, "base", "choose another base name")
    ts_options = f"{base}Options"
    claim(ts_options, "the options type of the base class", taxonomy.base_position, "base", "choose another base name")

    domains: list[NamedDomain] = []
    by_code: dict[str, NamedCode] = {}
    for domain in taxonomy.domains:
        dkey = f"domains.{domain.key}"
        generic = f"{domain.key}_error" if taxonomy.code_case == "lower_snake" else f"{domain.key}_ERROR"
        base_code_model = next((c for c in domain.codes if c.code == generic), None)
        if base_code_model is not None:
            dclass = base_code_model.class_name or class_name(base_code_model.code)
            if domain.class_name is not None and domain.class_name != dclass:
                problems.append(
                    Diagnostic(
                        path=path,
                        position=domain.position,
                        key=f"{dkey}.class",
                        message=f"the domain's class is the class of its code {generic!r}; set `class:` on that code instead",
                    )
                )
        else:
            dclass = domain.class_name or class_name(domain.key)
            claim(dclass, f"domain {domain.key!r}", domain.position, dkey, "set `class:` on the domain to choose another")
        named_codes: list[NamedCode] = []
        base_named: NamedCode | None = None
        for code in domain.codes:
            is_base = code is base_code_model
            cname = code.class_name or class_name(code.code)
            named = NamedCode(
                code=code,
                class_name=cname,
                parent=base if is_base else dclass,
                member=member_name(code.code),
                domain_member=member_name(domain.key),
                is_domain_base=is_base,
            )
            claim(
                cname,
                f"code {code.code!r}",
                code.position,
                f"{dkey}.codes.{code.code}",
                "set `class:` on the code to choose another",
            )
            by_code[code.code] = named
            named_codes.append(named)
            if is_base:
                base_named = named
        domains.append(
            NamedDomain(
                domain=domain,
                class_name=dclass,
                member=member_name(domain.key),
                base_code=base_named,
                codes=tuple(named_codes),
            )
        )
    if problems:
        raise TaxonomyError(problems)
    return Names(
        taxonomy=taxonomy,
        python_package=f"{taxonomy.name}_errors",
        npm_package=f"{taxonomy.name.replace('_', '-')}-errors",
        base=base,
        py_guard=f"is_{snake(base)}",
        ts_guard=f"is{base}",
        ts_options=ts_options,
        brand=f"{taxonomy.name}-errors.{base}",
        domains=tuple(domains),
        fallback=by_code[taxonomy.fallback],
        wrap=by_code[taxonomy.wrap],
    )
