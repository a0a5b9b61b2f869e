// Type-level contract of a generated TypeScript module, for any taxonomy.
//
// Compiled (never run) by tests/targets/typescript/test_typescript.py against the package's emitted
// dist/index.d.ts, under the package's own strict tsconfig. The case's names come
// from ./case.js, which the test writes per case: it re-exports the module and adds
// the case's classes under fixed aliases (Base, guard, Fallback, Wrap, Options,
// classes) and the expected shapes (ExpectedErrorCode, ExpectedDomain, ...).
//
// Each `@ts-expect-error` guards a misuse: if the misuse ever compiles, the
// directive is unused, and that is an error too. Most sit beside the legal use
// they differ from, so they cannot pass by failing for an unrelated reason.

import {
  Base,
  Domain,
  ERROR_EVENTS,
  ErrorCode,
  Fallback,
  InvalidPayloadError,
  VERSION,
  Wrap,
  allClasses,
  classes,
  errorFromEvent,
  fromPayload,
  guard,
  isRetryable,
  lookup,
  toError,
} from "./case.js";
import type {
  ErrorClass,
  ErrorJSON,
  ErrorPayload,
  ExpectedDomain,
  ExpectedErrorCode,
  FirstMember,
  LowerMember,
  Misspelt,
  OtherCaseCode,
  Options,
  Wire,
} from "./case.js";
import { anyWire, notAWire } from "./case.js";

/** true exactly when A and B are the same type (readonly and optional modifiers included). */
type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
/** Compiles only if every check is true. */
function holds<T extends readonly true[]>(checks: T): T {
  return checks;
}

// --- ErrorCode and Domain: `as const` objects keyed by UPPER_SNAKE, and their unions.

holds([
  true as Equal<typeof ErrorCode, { readonly [K in keyof ExpectedErrorCode]: ExpectedErrorCode[K] }>,
  true as Equal<ErrorCode, ExpectedErrorCode[keyof ExpectedErrorCode]>,
  true as Equal<typeof Domain, { readonly [K in keyof ExpectedDomain]: ExpectedDomain[K] }>,
  true as Equal<Domain, ExpectedDomain[keyof ExpectedDomain]>,
  true as Equal<Options, { details?: Readonly<Record<string, unknown>> | undefined; cause?: unknown; retryable?: boolean | undefined; httpStatus?: number | undefined }>,
]);
// The Equal checks themselves can fail.
// @ts-expect-error string is not the union of codes
holds([true as Equal<ErrorCode, string>]);

declare const first: FirstMember;
declare const misspelt: Misspelt;
declare const lowerMember: LowerMember;
declare const otherCase: OtherCaseCode;

const someCode: ErrorCode = ErrorCode[first];
// @ts-expect-error a misspelt member
void ErrorCode[misspelt];
// @ts-expect-error the members are UPPER_SNAKE, whatever the codes' case
void ErrorCode[lowerMember];
// @ts-expect-error a string that is not a code
const notACode: ErrorCode = "not a code";
// @ts-expect-error a code in the other case is no code
const wrongCase: ErrorCode = otherCase;
// @ts-expect-error ErrorCode is read-only
ErrorCode[first] = someCode;
// @ts-expect-error a string that is not a domain
const notADomain: Domain = "not a domain";
const allCodes: ErrorCode[] = Object.values(ErrorCode);
const allDomains: Domain[] = Object.values(Domain);
// @ts-expect-error values of the wire type in general are not codes
const fromString: ErrorCode = anyWire;

// --- Classes: every code's class is a class of the taxonomy.

// Every class is an ErrorClass; the classes of codes without declared details
// (`classes`) all take `(message?, options?)`, as the base does.
const errorClasses: readonly ErrorClass[] = allClasses;
const plainClasses: readonly (typeof Base)[] = classes;
const errors: Base[] = [];
for (const Cls of plainClasses) {
  const code: ErrorCode = Cls.code;
  const domain: Domain = Cls.domain;
  const meaning: string = Cls.meaning;
  const retryable: boolean = Cls.retryable;
  // @ts-expect-error the class's code is read-only
  Cls.code = code;
  errors.push(
    new Cls(),
    new Cls(meaning),
    new Cls("m", {}),
    new Cls("m", { details: { id: "x", n: 1, nested: { list: [1, null] } }, cause: new Error("root"), retryable }),
    new Cls("m", { details: undefined, cause: undefined, retryable: undefined }),
    new Cls("m", { cause: "any value is a cause" }),
  );
  void domain;
  // @ts-expect-error details must be an object
  new Cls("m", { details: 5 });
  // @ts-expect-error details must be an object
  new Cls("m", { details: "text" });
  // @ts-expect-error retryable is a boolean
  new Cls("m", { retryable: "yes" });
  // @ts-expect-error retryable is a boolean, not null
  new Cls("m", { retryable: null });
  // @ts-expect-error an unknown option
  new Cls("m", { detials: {} });
  // @ts-expect-error the message is a string
  new Cls(5);
}

const err: Base = errors[0] ?? new Fallback("m");
const asError: Error = err;
const code: ErrorCode = err.code;
const domain: Domain = err.domain;
const retryable: boolean = err.retryable;
const details: Readonly<Record<string, unknown>> = err.details;
const wireCode: Wire = err.wireCode;
const name: string = err.name;
const cause: unknown = err.cause;
// @ts-expect-error wireCode may be a code this taxonomy lacks
const wireIsCode: ErrorCode = err.wireCode;
// @ts-expect-error code is read-only
err.code = code;
// @ts-expect-error domain is read-only
err.domain = domain;
// @ts-expect-error retryable is read-only
err.retryable = retryable;
// @ts-expect-error details is read-only
err.details = details;
// @ts-expect-error and so are its entries
err.details["x"] = 1;
// @ts-expect-error wireCode is read-only
err.wireCode = wireCode;
// @ts-expect-error the base class's code is read-only
Base.code = code;

// Issue 14 §4: what the code maps to, static and on every error, read-only.
holds([
  true as Equal<typeof Base.httpStatus, number | undefined>,
  true as Equal<typeof Base.grpcStatus, string | undefined>,
  true as Equal<typeof Base.throttling, boolean>,
  true as Equal<typeof Base.docUrl, string | undefined>,
  true as Equal<typeof err.httpStatus, number | undefined>,
  true as Equal<typeof err.grpcStatus, string | undefined>,
  true as Equal<typeof err.throttling, boolean>,
  true as Equal<typeof err.docUrl, string | undefined>,
]);
// @ts-expect-error an error's httpStatus is read-only
err.httpStatus = 404;
// @ts-expect-error and so is its grpcStatus
err.grpcStatus = "NOT_FOUND";
// @ts-expect-error and its throttling
err.throttling = true;
// @ts-expect-error and its docUrl
err.docUrl = "https://example.com/";
// @ts-expect-error the class's httpStatus is read-only
Base.httpStatus = 404;

const payload: ErrorPayload = err.toPayload();
const payloadFields: [Wire, string, boolean, Record<string, unknown>] = [payload.code, payload.message, payload.retryable, payload.details];
const json: ErrorJSON = err.toJSON();
const jsonName: string = json.name;
// @ts-expect-error a payload always has details
const noDetails: ErrorPayload = { code: anyWire, message: "m", retryable: false };
// @ts-expect-error retryable is a boolean on the wire too
const textRetryable: ErrorPayload = { code: anyWire, message: "m", retryable: "true", details: {} };
// @ts-expect-error a code of the other type is no code on the wire
const otherWire: ErrorPayload = { code: notAWire, message: "m", retryable: false, details: {} };

// --- lookup, isRetryable, fromPayload, toError.

const looked: ErrorClass = lookup(someCode);
const fromUnknown: Base = new Fallback("m");
const retry: boolean = isRetryable(someCode) && isRetryable(anyWire);
// @ts-expect-error lookup takes a code of the wire type
lookup(notAWire);
// @ts-expect-error isRetryable takes a string
isRetryable(null);
const parsed: Base = fromPayload(JSON.parse("{}") as unknown);
const wrapped: Base = toError(new Error("x"));
const wrappedAnything: Base[] = [toError("x"), toError(undefined), toError(null), toError(err), new Wrap("m")];

// --- The guard narrows unknown to the base class; plain objects are not errors.

declare const thrown: unknown;
// @ts-expect-error unknown has no code
void thrown.code;
if (guard(thrown)) {
  const narrowed: Base = thrown;
  const narrowedCode: ErrorCode = thrown.code;
  void [narrowed, narrowedCode];
}
// @ts-expect-error a plain object that looks like an error is not one
const lookalike: Base = { code: someCode, message: "m" };
if (thrown instanceof InvalidPayloadError) {
  const field: string = thrown.field;
  const asPlainError: Error = thrown;
  void [field, asPlainError];
}
const invalid = new InvalidPayloadError("code: bad", "code");
// @ts-expect-error InvalidPayloadError names its field
new InvalidPayloadError("code: bad");
// @ts-expect-error InvalidPayloadError is no error of the taxonomy
const invalidIsBase: Base = invalid;

// --- Events: the table is read-only, lookups in it and results may be missing.

const location: string | undefined = ERROR_EVENTS["any.type"];
// @ts-expect-error an entry may be missing (noUncheckedIndexedAccess)
const locationLength: number = ERROR_EVENTS["any.type"].length;
// @ts-expect-error the table is read-only
ERROR_EVENTS["any.type"] = "payload.error";
const fromEvent: Base | undefined = errorFromEvent({ type: "any.type" });
const fromEventCode: ErrorCode | undefined = errorFromEvent(JSON.parse("{}") as unknown)?.code;
// @ts-expect-error an event may carry no error
const fromEventSure: Base = errorFromEvent({});

const version: string = VERSION;

export const used: unknown[] = [
  errorClasses,
  someCode,
  notACode,
  wrongCase,
  notADomain,
  allCodes,
  allDomains,
  fromString,
  asError,
  name,
  cause,
  wireIsCode,
  payloadFields,
  jsonName,
  noDetails,
  textRetryable,
  looked,
  fromUnknown,
  retry,
  parsed,
  wrapped,
  wrappedAnything,
  lookalike,
  invalidIsBase,
  location,
  locationLength,
  fromEvent,
  fromEventCode,
  fromEventSure,
  version,
];
