"""TypeScript's reserved names: what no name of the generated TypeScript may be.

TypeScript's keywords (held to the compiler's own table by
``tests/test_reserved_sources.py``), JavaScript's reserved words (what no
binding may be), the ES2022 globals and library types the generated module
leans on, and the names the generated module binds itself.  The typescript
target's ``naming.py`` tells the core which of them a class name is.
"""

from __future__ import annotations

__all__ = ["JS_RESERVED", "TS_GLOBALS", "TS_MODULE_NAMES", "TS_RESERVED"]

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
    errorFromEvent KnownError WIRE KEEPING""".split()
)


# JavaScript's reserved words (ECMAScript 2022, 12.7.2, and the literals): no
# binding may take them; the contextual keywords (type, of, get...) may.
JS_RESERVED = frozenset(
    """await break case catch class const continue debugger default delete do else enum
    export extends false finally for function if import in instanceof new null return
    super switch this throw true try typeof var void while with yield""".split()
)
