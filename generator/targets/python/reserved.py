"""Python's reserved names: what no name of the generated Python may be.

Python's keywords (hard and soft) and builtins (held to the ``keyword`` module
and ``dir(builtins)`` by ``tests/test_reserved_sources.py``), the standard
classes a reader of the generated Python expects to mean the standard thing,
and the names the generated module defines itself.  The python target's
``naming.py`` tells the core which of them a class name is.
"""

from __future__ import annotations

import builtins

__all__ = [
    "NEWER_EXCEPTIONS",
    "PYTHON_BUILTINS",
    "PYTHON_EXCEPTIONS",
    "PYTHON_HARD_KEYWORDS",
    "PYTHON_KEYWORDS",
    "PYTHON_MODULE_NAMES",
    "PYTHON_ROOT_EXCEPTIONS",
    "PYTHON_STANDARD_NAMES",
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

#: Builtins newer than the oldest Python the generated packages run on (3.11).
NEWER_EXCEPTIONS = frozenset({"PythonFinalizationError"})

#: The builtin exception classes of Python 3.11 to 3.14, by name, as this Python
#: has them: what ``python_bases`` may name (issue 30 §6), and, but for the two
#: roots every ``except`` clause names (:data:`PYTHON_ROOT_EXCEPTIONS`), the
#: builtins a class may be named after (the generated module then writes
#: ``builtins.X`` wherever it means the builtin).
PYTHON_EXCEPTIONS: dict[str, type[BaseException]] = {
    name: value
    for name, value in vars(builtins).items()
    if name in PYTHON_BUILTINS
    and name not in NEWER_EXCEPTIONS
    and isinstance(value, type)
    and issubclass(value, BaseException)
}

#: ``BaseException`` and ``Exception``: never a class name, which would change
#: what ``except Exception`` means wherever the package's names are imported.
PYTHON_ROOT_EXCEPTIONS = frozenset({"BaseException", "Exception"})

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
    NotRequired builtins""".split()
)
