/**
 * The runtime of a generated TypeScript package: the code that is the same for
 * every taxonomy.
 *
 * taxogen copies this file, unchanged under its two header lines, into every
 * generated package as `src/runtime.ts` beside `src/index.ts`. It knows no
 * taxonomy and imports nothing: `index.ts` defines the taxonomy (its `ErrorCode`
 * and `Domain`, its classes and the code → class table) and binds it to what is
 * here:
 *
 * - {@link TaxonomyError}, which the taxonomy's root class extends: `code`,
 *   `message`, `retryable`, `details`, `wireCode`, cause chaining, `toPayload`
 *   and `toJSON`;
 * - {@link pinName} and {@link brand}, which every class's static block calls,
 *   and {@link branded}, the guard that recognises the brand;
 * - {@link decoder}, which makes the package's `fromPayload` and
 *   `errorFromEvent`: total over any input, within the limits
 *   {@link MAX_CODE_LENGTH}, {@link MAX_DETAILS_DEPTH} and
 *   {@link MAX_DETAILS_NODES}, throwing nothing but {@link InvalidPayloadError};
 * - {@link wrap}, which makes the package's `toError` wrapper of anything else.
 *
 * Import the public API from the package's index, never from this module.
 *
 * @packageDocumentation
 */

/** The wire form of an error. */
export interface ErrorPayload {
  code: string;
  message: string;
  retryable: boolean;
  details: Record<string, unknown>;
}

/** The structured form of an error, for logs: the payload plus the class name. */
export interface ErrorJSON extends ErrorPayload {
  name: string;
}

/** Options of every error constructor. */
export interface TaxonomyErrorOptions {
  /** Free-form JSON metadata; refused unless JSON can carry it. */
  details?: Readonly<Record<string, unknown>> | undefined;
  /** The error (or any value) that caused this one. */
  cause?: unknown;
  /** Overrides the class's retryability for this one error. */
  retryable?: boolean | undefined;
}

/** The longest `code` `fromPayload` accepts, in characters; a longer one is refused. */
export const MAX_CODE_LENGTH: number = 256;

/**
 * How deep `details` may nest: the details object is depth 1, each object or array
 * inside adds one (scalars add nothing); deeper details are refused.
 */
export const MAX_DETAILS_DEPTH: number = 64;

/**
 * How many values `details` may hold in all, counting the details object and every
 * object, array, string, number, boolean and null inside it; more are refused.
 */
export const MAX_DETAILS_NODES: number = 100_000;

function kind(value: unknown): string {
  if (value === null) return "null";
  if (value === undefined) return "undefined";
  if (Array.isArray(value)) return "an array";
  const type = typeof value;
  return type === "object" ? "an object" : `a ${type}`;
}

function show(value: unknown): string {
  let text: string;
  try {
    text = typeof value === "string" ? JSON.stringify(value) : String(value);
  } catch {
    text = `<${kind(value)}>`;
  }
  return text.length <= 80 ? text : `${text.slice(0, 77)}...`;
}

function own(record: object, key: string): unknown {
  return Object.hasOwn(record, key)
    ? (record as Record<string, unknown>)[key]
    : undefined;
}

/**
 * An InvalidPayloadError about `field`, which a getter or proxy trap of the
 * caller's value would not let be read.
 */
function unreadable(field: string, err: unknown): InvalidPayloadError {
  let why: string;
  try {
    why = err instanceof Error ? String(err.message) : String(err);
  } catch {
    why = "it threw while being read";
  }
  const shown = why.length <= 80 ? why : `${why.slice(0, 77)}...`;
  return new InvalidPayloadError(`${field}: cannot be read (${shown})`, field);
}

/**
 * The own property `key` of a payload: whatever reading it throws is an
 * InvalidPayloadError about `key`.
 */
function field(record: object, key: string): unknown {
  try {
    return own(record, key);
  } catch (err) {
    throw unreadable(key, err);
  }
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return false;
  }
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

type Container = Record<string, unknown> | unknown[];
type Step =
  | {
      readonly item: unknown;
      readonly at: string;
      readonly into: Container;
      readonly key: string;
      /** The depth of the container `item` sits in (0 for the top). */
      readonly depth: number;
    }
  | { readonly leave: object; readonly copy: Container };

function put(into: Container, key: string, value: unknown): void {
  // Defined, not assigned: a "__proto__" key stays an own property, as JSON.parse
  // makes it.
  Object.defineProperty(into, key, {
    value,
    writable: true,
    enumerable: true,
    configurable: true,
  });
}

/**
 * A deep copy of `value` (frozen throughout if `freeze`), or the first part of it
 * JSON cannot carry, or past the limits, as `"<path>: <problem>"`.
 */
function jsonCopy(
  value: unknown,
  where: string,
  freeze: boolean,
): { copy: unknown } | { problem: string } {
  // Iterative, so hostile nesting cannot exhaust the stack, and bounded: it stops at
  // the first container deeper than MAX_DETAILS_DEPTH and before counting more than
  // MAX_DETAILS_NODES values, so its time and memory follow what it reads, never
  // what an array's length or a proxy claims. The containers on the current path
  // catch cycles, which JSON.stringify would refuse. Each value is read once, so
  // what is checked is what is kept, and later changes to the caller's objects
  // cannot reach the copy. A getter or proxy trap that throws is left to the caller
  // to catch.
  const holder: Record<string, unknown> = {};
  const stack: Step[] = [
    { item: value, at: where, into: holder, key: "copy", depth: 0 },
  ];
  const path = new Set<object>();
  let nodes = 1;
  for (let step = stack.pop(); step !== undefined; step = stack.pop()) {
    if ("leave" in step) {
      path.delete(step.leave);
      if (freeze) Object.freeze(step.copy);
      continue;
    }
    const { item, into, key } = step;
    // A key may be huge.
    const at = step.at.length <= 200 ? step.at : `${step.at.slice(0, 197)}...`;
    if (item === null || typeof item === "string" || typeof item === "boolean") {
      put(into, key, item);
      continue;
    }
    if (typeof item === "number") {
      if (!Number.isFinite(item)) {
        return { problem: `${at}: ${String(item)} is not a finite number` };
      }
      put(into, key, item);
      continue;
    }
    const isArray = Array.isArray(item);
    if (!isArray && !isPlainObject(item)) {
      return { problem: `${at}: ${kind(item)} is not a JSON value` };
    }
    const depth = step.depth + 1;
    if (depth > MAX_DETAILS_DEPTH) {
      return { problem: `${at}: nested deeper than ${MAX_DETAILS_DEPTH} levels` };
    }
    const container = item as object;
    if (path.has(container)) return { problem: `${at}: contains itself` };
    // An array's length is a claim (a sparse array, a proxy): checked before it is
    // used.
    const length: unknown = isArray ? (item as unknown[]).length : 0;
    if (!Number.isSafeInteger(length) || (length as number) < 0) {
      return { problem: `${at}: an array whose length is not a length` };
    }
    const keys = isArray ? [] : Object.keys(container);
    nodes += isArray ? (length as number) : keys.length;
    if (nodes > MAX_DETAILS_NODES) {
      return { problem: `${where}: holds more than ${MAX_DETAILS_NODES} values` };
    }
    path.add(container);
    const copy: Container = isArray ? new Array<unknown>(length as number) : {};
    put(into, key, copy);
    stack.push({ leave: container, copy });
    // Pushed last to first, so the first problem in document order is the one
    // reported.
    if (isArray) {
      const array = item as unknown[];
      for (let index = (length as number) - 1; index >= 0; index--) {
        // A hole reads as undefined, which JSON cannot carry either.
        const at_ = `${at}[${index}]`;
        const key_ = String(index);
        stack.push({ item: array[index], at: at_, into: copy, key: key_, depth });
      }
    } else {
      const record = item as Record<string, unknown>;
      for (let index = keys.length - 1; index >= 0; index--) {
        const name = keys[index] ?? "";
        const at_ = `${at}.${name}`;
        stack.push({ item: record[name], at: at_, into: copy, key: name, depth });
      }
    }
  }
  return { copy: holder["copy"] };
}

function checkedDetails(
  details: Readonly<Record<string, unknown>> | undefined,
): Readonly<Record<string, unknown>> {
  if (details === undefined || details === null) return Object.freeze({});
  if (!isPlainObject(details)) {
    throw new TypeError(`details: expected a plain object, got ${kind(details)}`);
  }
  const result = jsonCopy(details, "details", true);
  if ("problem" in result) throw new TypeError(result.problem);
  return result.copy as Readonly<Record<string, unknown>>;
}

/**
 * Gives the instances of `target` the `name` `name`: a literal on the prototype,
 * so minifiers that rename classes cannot change it. Every class calls it in its
 * static block.
 */
export function pinName(target: { prototype: object }, name: string): void {
  Object.defineProperty(target.prototype, "name", {
    value: name,
    writable: true,
    configurable: true,
  });
}

/**
 * Marks every instance of `target` (and of its subclasses) with `key`, which the
 * root class of a taxonomy calls in its static block.
 *
 * The key is a registry symbol (`Symbol.for`), so a second copy of a package
 * recognises errors made by the first (instanceof cannot); plain objects never
 * carry it by accident.
 */
export function brand(target: { prototype: object }, key: symbol): void {
  Object.defineProperty(target.prototype, key, { value: true });
}

/** Whether `value` carries the brand `key`; never throws, whatever `value` is. */
export function branded(value: unknown, key: symbol): boolean {
  if (typeof value !== "object" || value === null) return false;
  try {
    return (value as { [key]?: unknown })[key] === true;
  } catch {
    // A revoked proxy, or one whose traps throw: no error of this taxonomy, and a
    // guard (which toError relies on) must not throw.
    return false;
  }
}

/** A payload that does not follow the wire format; `field` names the bad field. */
export class InvalidPayloadError extends Error {
  /** The payload field that is wrong. */
  readonly field: string;

  constructor(message: string, field: string) {
    super(message);
    this.field = field;
  }

  static {
    pinName(this, "InvalidPayloadError");
  }
}

/**
 * What every error of a taxonomy is: the taxonomy's root class extends it with
 * `C` its error codes and `D` its domains, and gives the static `code`,
 * `domain`, `meaning` and `retryable` that each of its classes overrides.
 */
export abstract class TaxonomyError<
  C extends string = string,
  D extends string = string,
> extends Error {
  /** The error code of this class. */
  declare static readonly code: string;
  /** The domain of this class. */
  declare static readonly domain: string;
  /** What an error of this class means. */
  declare static readonly meaning: string;
  /** Whether an error of this class may be retried. */
  declare static readonly retryable: boolean;
  /** Why this class is deprecated, or undefined while it is not. */
  static readonly deprecated: string | undefined = undefined;
  /** The code to use instead of a deprecated one, if any. */
  static readonly replacedBy: string | undefined = undefined;

  /** The error code of this error's class. */
  readonly code: C;
  /** The domain of this error's class. */
  readonly domain: D;
  /** Whether the caller may retry after this error. */
  readonly retryable: boolean;
  /** Free-form JSON metadata: a frozen copy of what the constructor was given. */
  readonly details: Readonly<Record<string, unknown>>;
  /** The code as received on the wire (differs from `code` for unknown codes). */
  readonly wireCode: string;

  constructor(message?: string, options?: TaxonomyErrorOptions) {
    super(
      message ?? new.target.meaning,
      options !== undefined && "cause" in options
        ? { cause: options.cause }
        : undefined,
    );
    const cls = new.target;
    if (typeof message !== "string" && message !== undefined) {
      throw new TypeError(`message: expected a string, got ${kind(message)}`);
    }
    const retryable = options?.retryable;
    if (retryable !== undefined && typeof retryable !== "boolean") {
      throw new TypeError(`retryable: expected a boolean, got ${kind(retryable)}`);
    }
    this.code = cls.code as C;
    this.domain = cls.domain as D;
    this.retryable = retryable ?? cls.retryable;
    this.details = checkedDetails(options?.details);
    this.wireCode = cls.code;
  }

  /** The wire payload `{code, message, retryable, details}`. */
  toPayload(): ErrorPayload {
    const result = jsonCopy(this.details, "details", false);
    if ("problem" in result) throw new TypeError(result.problem);
    const details = result.copy as Record<string, unknown>;
    const { wireCode, message, retryable } = this;
    return { code: wireCode, message, retryable, details };
  }

  /** The structured form for logs: the payload plus the class `name`. */
  toJSON(): ErrorJSON {
    return { name: this.name, ...this.toPayload() };
  }
}

/** A class of errors, as the decoder and the wrapper make its instances. */
export type ErrorClassOf<T> = new (
  message?: string,
  options?: TaxonomyErrorOptions,
) => T;

/** The readers a taxonomy's index binds to its classes (see {@link decoder}). */
export interface Decoder<T> {
  /** The package's `fromPayload`. */
  readonly payload: (payload: unknown) => T;
  /** The package's `errorFromEvent`. */
  readonly event: (event: unknown) => T | undefined;
}

/** Run `read`, turning anything but an InvalidPayloadError into one about `field`. */
function guarded<T>(field: string, read: () => T): T {
  try {
    return read();
  } catch (err) {
    if (err instanceof InvalidPayloadError) throw err;
    // A getter or proxy trap of the caller's value threw: the value cannot be read.
    throw unreadable(field, err);
  }
}

function invalid(field: string, problem: string): InvalidPayloadError {
  return new InvalidPayloadError(`${field}: ${problem}`, field);
}

function readDetails(
  details: unknown,
): Readonly<Record<string, unknown>> | undefined {
  if (details === undefined || details === null) return undefined;
  if (!isPlainObject(details)) {
    throw invalid("details", `expected an object, got ${kind(details)}`);
  }
  // Unfrozen: the constructor keeps a frozen copy of this plain data.
  const result = jsonCopy(details, "details", false);
  if ("problem" in result) throw new InvalidPayloadError(result.problem, "details");
  return result.copy as Readonly<Record<string, unknown>>;
}

/**
 * The readers of a taxonomy: `lookup` gives the class of a code (its fallback
 * class for a code the taxonomy lacks), `pattern` is what a well-formed code
 * matches whole, and `events` maps an event type to the dotted path of the error
 * inside an event of that type.
 *
 * An unknown but well-formed code gives the fallback class, whose `wireCode`
 * keeps the received code, so `toPayload()` re-emits it.
 */
export function decoder<T extends TaxonomyError>(
  lookup: (code: string) => ErrorClassOf<T>,
  pattern: RegExp,
  events: Readonly<Record<string, string>>,
): Decoder<T> {
  function readPayload(payload: unknown): T {
    if (!isPlainObject(payload)) {
      throw invalid("payload", `expected an object, got ${kind(payload)}`);
    }
    const code = field(payload, "code");
    if (typeof code !== "string") {
      throw invalid("code", `expected a string, got ${kind(code)}`);
    }
    if (code.length > MAX_CODE_LENGTH) {
      const problem = `longer than ${MAX_CODE_LENGTH} characters (${code.length})`;
      throw invalid("code", problem);
    }
    if (!pattern.test(code)) {
      throw invalid("code", `${show(code)} is not a well-formed error code`);
    }
    const message = field(payload, "message");
    if (typeof message !== "string") {
      throw invalid("message", `expected a string, got ${kind(message)}`);
    }
    const retryable = field(payload, "retryable");
    if (typeof retryable !== "boolean") {
      throw invalid("retryable", `expected a boolean, got ${kind(retryable)}`);
    }
    const details = guarded("details", () => readDetails(field(payload, "details")));
    const error = new (lookup(code))(message, { details, retryable });
    // The only write to wireCode after construction: keep the code as received.
    (error as { wireCode: string }).wireCode = code;
    return error;
  }

  function readEvent(event: unknown): T | undefined {
    if (!isPlainObject(event)) {
      throw invalid("event", `expected an object, got ${kind(event)}`);
    }
    const type = own(event, "type");
    if (typeof type !== "string" || !Object.hasOwn(events, type)) return undefined;
    let found: unknown = event;
    for (const part of (events[type] ?? "").split(".")) {
      if (!isPlainObject(found)) return undefined;
      found = own(found, part);
    }
    if (found === undefined || found === null) return undefined;
    return readPayload(found);
  }

  return {
    payload: (payload) => guarded("payload", () => readPayload(payload)),
    event: (event) => guarded("event", () => readEvent(event)),
  };
}

/**
 * `value`, which is no error of the taxonomy, wrapped in an error of `cls` with
 * `value` as its `cause` and a message saying what it was.
 */
export function wrap<T>(cls: ErrorClassOf<T>, value: unknown): T {
  let message: string;
  try {
    message =
      value instanceof Error
        ? `${value.name}: ${value.message}`
        : `non-error value: ${show(value)}`;
  } catch {
    message = "non-error value";
  }
  return new cls(message, { cause: value });
}
