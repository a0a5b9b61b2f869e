"""Reserved names: what a generated class may not be called, in Python or TypeScript.

The keywords and builtins of both languages, the standard classes a reader of
the generated Python expects to mean the standard thing, and the names the
generated modules define themselves.  :func:`reserved_reason` says, for people,
which of them a name is; :mod:`generator.naming` refuses such a class name.
"""

from __future__ import annotations

__all__ = [
    "ERROR_OWN_NAMES",
    "JS_RESERVED",
    "PYTHON_BUILTINS",
    "PYTHON_HARD_KEYWORDS",
    "PYTHON_KEYWORDS",
    "PYTHON_MODULE_NAMES",
    "PYTHON_STANDARD_NAMES",
    "TS_GLOBALS",
    "TS_MODULE_NAMES",
    "TS_RESERVED",
    "reserved_reason",
]

# Python's keywords: no identifier may be one (the hard ones, keyword.kwlist)...
PYTHON_HARD_KEYWORDS = frozenset(
    """False None True and as assert async await break class continue def del elif else
    except finally for from global if import in is lambda nonlocal not or pass raise
    return try while with yield""".split()
)
# ...and the soft ones, which a class name avoids too, but a keyword argument may be.
PYTHON_KEYWORDS = PYTHON_HARD_KEYWORDS | frozenset("_ case match type".split())

# Builtins of Python 3.11 to 3.14: names users and the generated code rely on.
PYTHON_BUILTINS = frozenset(
    """ArithmeticError AssertionError AttributeError BaseException BaseExceptionGroup
    BlockingIOError BrokenPipeError BufferError BytesWarning ChildProcessError
    ConnectionAbortedError ConnectionError ConnectionRefusedError ConnectionResetError
    DeprecationWarning EOFError Ellipsis EncodingWarning EnvironmentError Exception
    ExceptionGroup FileExistsError FileNotFoundError FloatingPointError FutureWarning
    GeneratorExit IOError ImportError ImportWarning IndentationError IndexError
    InterruptedError IsADirectoryError KeyError KeyboardInterrupt LookupError
    MemoryError
    ModuleNotFoundError NameError NotADirectoryError NotImplemented NotImplementedError
    OSError OverflowError PendingDeprecationWarning PermissionError ProcessLookupError
    PythonFinalizationError RecursionError ReferenceError ResourceWarning RuntimeError
    RuntimeWarning StopAsyncIteration StopIteration SyntaxError SyntaxWarning
    SystemError
    SystemExit TabError TimeoutError TypeError UnboundLocalError UnicodeDecodeError
    UnicodeEncodeError UnicodeError UnicodeTranslateError UnicodeWarning UserWarning
    ValueError Warning ZeroDivisionError abs aiter all anext any ascii bin bool
    breakpoint
    bytearray bytes callable chr classmethod compile complex copyright credits delattr
    dict
    dir divmod enumerate eval exec exit filter float format frozenset getattr globals
    hasattr hash help hex id input int isinstance issubclass iter len license list
    locals
    map max memoryview min next object oct open ord pow print property quit range repr
    reversed round set setattr slice sorted staticmethod str sum super tuple type
    vars zip""".split()
)

# Standard classes a reader of the generated Python expects to mean the standard thing.
PYTHON_STANDARD_NAMES = frozenset("Enum IntEnum StrEnum Flag IntFlag".split())

# Names the generated Python module defines or imports (besides the classes, the
# names made from the base class and private ``_names``, which no class can be).
PYTHON_MODULE_NAMES = frozenset(
    """Any ClassVar Domain ERROR_EVENTS ErrorCode ErrorPayload Final InvalidPayloadError
    Mapping TypeGuard TypedDict annotations enum error_from_event from_payload
    is_retryable
    lookup math re to_error types warnings TypeVar TYPE_CHECKING importlib Callable
    Iterator
    cast MAX_CODE_LENGTH MAX_DETAILS_DEPTH MAX_DETAILS_NODES Literal
    NotRequired""".split()
)

# TypeScript's keywords, reserved and contextual (the compiler's own table,
# which tests/test_reserved_sources.py reads from node_modules), and the two
# names strict mode forbids as a binding, arguments and eval.
TS_RESERVED = frozenset(
    """abstract accessor any as assert asserts async await bigint boolean break case
    catch class const constructor continue debugger declare default defer delete do
    else enum export extends false finally for from function get global if
    implements import in infer instanceof interface intrinsic is keyof let module
    namespace never new null number object of out override package private
    protected public readonly require return satisfies set static string super
    switch symbol this throw true try type typeof undefined unique unknown using
    var void while with yield arguments eval""".split()
)

# ES2022 globals and the TypeScript library types the generated module leans on.
TS_GLOBALS = frozenset(
    """AggregateError Array ArrayBuffer ArrayLike Atomics Awaited BigInt BigInt64Array
    BigUint64Array Boolean DataView Date Error ErrorConstructor ErrorOptions EvalError
    Exclude
    Extract FinalizationRegistry Float32Array Float64Array Function Infinity
    InstanceType
    Int16Array Int32Array Int8Array Intl Iterable Iterator JSON Map Math NaN NonNullable
    Number Object Omit Parameters Partial Pick Promise PromiseLike PropertyKey Proxy
    RangeError
    Readonly ReadonlyArray ReadonlyMap ReadonlySet Record ReferenceError Reflect RegExp
    Required ReturnType Set SharedArrayBuffer String Symbol SyntaxError TypeError
    URIError
    Uint16Array Uint32Array Uint8Array Uint8ClampedArray WeakMap WeakRef WeakSet
    globalThis
    Buffer console process isFinite isNaN parseFloat parseInt decodeURI
    decodeURIComponent
    encodeURI encodeURIComponent""".split()
)

# Names the generated TypeScript module (src/index.ts) binds at top level: what it
# declares, exported or not, imports and re-exports (besides the classes and the
# names made from the base class).  The runtime's own helpers live in
# src/runtime.ts, a module of its own that index.ts reaches only as `runtime.X`,
# so a class may share their names.
TS_MODULE_NAMES = frozenset(
    """runtime InvalidPayloadError MAX_CODE_LENGTH MAX_DETAILS_DEPTH MAX_DETAILS_NODES
    ErrorJSON ErrorPayload VERSION ErrorCode Domain BRAND ErrorClass BY_CODE MATCHED
    ERROR_EVENTS DECODER lookup isRetryable fromPayload toError
    errorFromEvent KnownError WIRE""".split()
)


# JavaScript's reserved words (ECMAScript 2022, 12.7.2, and the literals): no
# binding may take them; the contextual keywords (type, of, get...) may.
JS_RESERVED = frozenset(
    """await break case catch class const continue debugger default delete do else enum
    export extends false finally for function if import in instanceof new null return
    super switch this throw true try typeof var void while with yield""".split()
)

# What the error itself holds or its constructor takes, in Python or TypeScript: a
# details field of one of these names would be mistaken for it (Python's generated
# constructors take each field as a keyword argument beside these).
ERROR_OWN_NAMES = frozenset(
    """cause code details domain meaning message retryable self wireCode
    wire_code""".split()
)


def reserved_reason(name: str) -> str | None:
    """Why ``name`` cannot be a generated class name (``None`` when it can)."""

    def both(
        python: bool, typescript: bool, py_text: str, ts_text: str, joint: str
    ) -> str | None:
        if python and typescript:
            return joint
        return py_text if python else ts_text if typescript else None

    clauses = [
        both(
            name in PYTHON_KEYWORDS,
            name in TS_RESERVED,
            "is a Python keyword",
            "is a TypeScript reserved word",
            "is a Python keyword and a TypeScript reserved word",
        ),
        both(
            name in PYTHON_BUILTINS,
            name in TS_GLOBALS,
            "would shadow the Python builtin of that name",
            "would shadow the JavaScript global of that name",
            "would shadow the Python builtin and the JavaScript global of that name",
        ),
        (
            f"would shadow the standard Python class enum.{name}"
            if name in PYTHON_STANDARD_NAMES
            else None
        ),
        both(
            name in PYTHON_MODULE_NAMES,
            name in TS_MODULE_NAMES,
            "is already defined by the generated Python module",
            "is already defined by the generated TypeScript module",
            "is already defined by the generated Python and TypeScript modules",
        ),
    ]
    found = [clause for clause in clauses if clause is not None]
    return " and ".join(found) if found else None
