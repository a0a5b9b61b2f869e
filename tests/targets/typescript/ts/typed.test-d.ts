// Type-level contract of typed details (issue 10), for tests/cases/typed_details.
//
// Compiled (never run) by tests/targets/typescript/test_ts_typed.py against the fixture's emitted
// dist/index.d.ts, under the package's own strict tsconfig. The names are the
// fixture's (its YAML: task_timeout with task_id from its domain, timeout_ms and
// elapsed_ms; rate_limited with an enum `window`; task_cancelled with `reason`).
// Each `@ts-expect-error` guards a misuse beside the legal use it differs from;
// an unneeded one is an error (TS2578), so none can pass by accident.

import {
  JobsError,
  RateLimitedError,
  TaskCancelledError,
  TaskError,
  TaskTimeoutError,
  UnknownError,
  fromPayload,
} from "../pkg/dist/index.js";
import type { KnownError, RateLimitedDetails, TaskTimeoutDetails } from "../pkg/dist/index.js";

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
function holds<T extends readonly true[]>(checks: T): T {
  return checks;
}

// --- Details types: required plain, optional `?`, enums as unions, read-only.
holds([
  true as Equal<TaskTimeoutDetails, { readonly task_id: string; readonly timeout_ms: number; readonly elapsed_ms?: number }>,
  true as Equal<RateLimitedDetails["window"], "second" | "minute" | "hour" | undefined>,
]);

// --- Constructors: options alone (message among them) or message then options.
const timeout = new TaskTimeoutError({ details: { task_id: "t1", timeout_ms: 300 } });
const withMessage = new TaskTimeoutError({ details: { task_id: "t1", timeout_ms: 3 }, message: "m", retryable: false });
const positional = new TaskTimeoutError("m", { details: { task_id: "t1", timeout_ms: 3, elapsed_ms: 4 }, cause: 1 });
const implicit = new TaskTimeoutError(undefined, { details: { task_id: "t1", timeout_ms: 3 } });
// @ts-expect-error a wrong field type
new TaskTimeoutError({ details: { task_id: "t1", timeout_ms: "300" } });
// @ts-expect-error a wrong field type, after a message
new TaskTimeoutError("m", { details: { task_id: 1, timeout_ms: 300 } });
// @ts-expect-error a missing required field (timeout_ms)
new TaskTimeoutError({ details: { task_id: "t1" } });
// @ts-expect-error a missing required field from the domain (task_id)
new TaskTimeoutError("m", { details: { timeout_ms: 300 } });
// @ts-expect-error an unknown field
new TaskTimeoutError({ details: { task_id: "t1", timeout_ms: 300, timeout_s: 1 } });
// @ts-expect-error a value outside the enum
new RateLimitedError({ details: { retry_after_s: 1, limit: 2, window: "week" } });
// @ts-expect-error the details are required when a field is
new TaskTimeoutError();
// @ts-expect-error the message is not a details field
new TaskTimeoutError("m", { details: { task_id: "t1", timeout_ms: 3 }, message: "twice" });
const rate = new RateLimitedError({ details: { retry_after_s: 1, limit: 2, window: "hour" } });
// A class without declared fields keeps `(message?, options?)`.
const plain = new UnknownError("m", { details: { anything: [1] } });

// --- Instances: details typed, code its literal.
const timeoutMs: number = timeout.details.timeout_ms;
const elapsed: number | undefined = timeout.details.elapsed_ms;
// @ts-expect-error elapsed_ms is optional
const elapsedSure: number = timeout.details.elapsed_ms;
// @ts-expect-error details are read-only
timeout.details.timeout_ms = 1;
// @ts-expect-error no such field
void timeout.details.timeout_s;
holds([
  true as Equal<typeof timeout.code, "task_timeout">,
  true as Equal<typeof rate.code, "rate_limited">,
  // A class with subclasses: its code and its subclasses' codes.
  true as Equal<TaskError["code"], "task_error" | "task_timeout" | "task_failed" | "task_cancelled" | "task_quota">,
]);
// @ts-expect-error a task_timeout error's code is not another code
const otherCode: "rate_limited" = timeout.code;
// Typed errors are still errors of the taxonomy, and their details JSON objects.
const asBase: JobsError = timeout;
const asTask: TaskError = timeout;
const asRecord: Readonly<Record<string, unknown>> = timeout.details;

// --- KnownError narrows on `code` without a cast.
function describe(err: KnownError): string {
  switch (err.code) {
    case "task_timeout":
      return `${err.details.task_id} ${err.details.timeout_ms}`;
    case "task_cancelled": {
      const reason: "user" | "timeout" | "shutdown" = err.details.reason;
      // @ts-expect-error a wrong field read after narrowing
      void err.details.timeout_ms;
      return reason;
    }
    case "rate_limited":
      // @ts-expect-error window is a union of strings, not a number
      return (err.details.window satisfies number | undefined) ? "" : "";
    default:
      return err.message;
  }
}
const known: KnownError[] = [timeout, rate, new TaskCancelledError({ details: { task_id: "t", reason: "user" } })];
// @ts-expect-error a bare base error is no known code's error
const bareKnown: KnownError = new JobsError("m");
const decoded = fromPayload({});

export const used: unknown[] = [
  withMessage,
  positional,
  implicit,
  plain,
  timeoutMs,
  elapsed,
  elapsedSure,
  otherCode,
  asBase,
  asTask,
  asRecord,
  describe,
  known,
  bareKnown,
  decoded,
];
