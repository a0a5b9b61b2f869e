// A taxonomy of toys, bound by hand to the TypeScript runtime (runtime.ts, copied
// beside this file by tests/targets/typescript/test_typescript_runtime.py) the way a generated
// index.ts binds it, so tests/targets/typescript/ts/runtime.test.mjs can test the runtime as code,
// whatever any golden file holds. It compiles under the generated package's
// strict tsconfig.
import * as runtime from "./runtime.js";

export const Code = {
  TOY_ERROR: "toy_error",
  TOY_BROKEN: "toy_broken",
  TOY_SLOW: "toy_slow",
  TOY_OLD: "toy_old",
  TOY_CRASH: "toy_crash",
} as const;
export type Code = (typeof Code)[keyof typeof Code];
export type Area = "toy";

export const BRAND_KEY: string = "toy-errors.ToyError";

export class ToyError extends runtime.TaxonomyError<Code, Area> {
  static override readonly errorName: string = "ToyError";
  static override readonly brand: string | undefined = BRAND_KEY;
  static override readonly code: Code = "toy_error";
  static override readonly domain: Area = "toy";
  static override readonly meaning: string = "Unspecified toy error";
  static override readonly retryable: boolean = false;
}

export class ToyBrokenError extends ToyError {
  static override readonly errorName: string = "ToyBrokenError";
  static override readonly code: Code = "toy_broken";
  static override readonly meaning: string = "The toy is broken";
}

export class ToySlowError extends ToyError {
  static override readonly errorName: string = "ToySlowError";
  static override readonly code: Code = "toy_slow";
  static override readonly meaning: string = "The toy is slow";
  static override readonly retryable: boolean = true;
  static override readonly httpStatus: number | undefined = 429;
  static override readonly grpcStatus: string | undefined = "RESOURCE_EXHAUSTED";
  static override readonly throttling: boolean = true;
  static override readonly docUrl: string | undefined = "https://toys.example/toy_slow";
}

export class ToyOldError extends ToyError {
  static override readonly errorName: string = "ToyOldError";
  static override readonly code: Code = "toy_old";
  static override readonly meaning: string = "An old toy";
  static override readonly deprecated: string | undefined = "Too vague";
  static override readonly replacedBy: string | undefined = "toy_broken";
}

export class ToyCrashError extends ToyError {
  static override readonly errorName: string = "ToyCrashError";
  static override readonly code: Code = "toy_crash";
  static override readonly meaning: string = "The toy box crashed";
}

const BY_CODE: ReadonlyMap<string, typeof ToyError> = new Map<string, typeof ToyError>([
  ["toy_error", ToyError],
  ["toy_broken", ToyBrokenError],
  ["toy_slow", ToySlowError],
  ["toy_old", ToyOldError],
  ["toy_crash", ToyCrashError],
]);

export const EVENTS: Readonly<Record<string, string>> = Object.freeze({
  "toy.failed": "payload.error",
  "toy.gone": "error",
});

export function lookup(code: string): typeof ToyError {
  return BY_CODE.get(code) ?? ToyError;
}

// The lower_snake code pattern of the taxonomy format.
const readers: runtime.Decoder<ToyError> = runtime.decoder(
  lookup,
  /^[a-z][a-z0-9]*(?:_[a-z0-9]+)*$/,
  EVENTS,
);

export function fromPayload(payload: unknown): ToyError {
  return readers.payload(payload);
}

export function errorFromEvent(event: unknown): ToyError | undefined {
  return readers.event(event);
}

export function isToyError(value: unknown): value is ToyError {
  return runtime.branded(value, BRAND_KEY);
}

export function toError(value: unknown): ToyError {
  return isToyError(value) ? value : runtime.wrap(ToyCrashError, value);
}
