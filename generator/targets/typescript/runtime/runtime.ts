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
 * - {@link branded}, the guard that recognises the brand every error carries;
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

/** The wire form of an error: `W` is the type of its code, a string or a number. */
export interface ErrorPayload<W extends string | number = string> {
  code: W;
  message: string;
  retryable: boolean;
  details: Record<string, unknown>;
}

/** The structured form of an error, for logs: the payload plus the class name. */
export interface ErrorJSON<W extends string | number = string>
  extends ErrorPayload<W> {
  name: string;
}

/**
 * The payload a taxonomy's errors travel as, where it is not today's
 * `{code, message, retryable, details}`: the member holding each field.
 * `retryable` null: not on the wire (an error's is its class's); `details` null:
 * none, `"*"`: every member the others do not name; `envelope`: the error object
 * sits under this member; `alwaysDetails`: the details member is written even
 * when empty; `messageRequired` false: the message may be absent, and
 * `exactMessage`: then written back absent. `uri` (RFC 9457's problem): the code travels as prefix +
 * percent-encoded code + suffix, and `title` (the meaning) and `status` (the
 * HTTP status) are written unless the details hold them.
 */
export interface PayloadMap {
  readonly code: string;
  readonly message: string;
  readonly retryable: string | null;
  readonly details: string | null;
  readonly detailsType: "object" | "array" | "any";
  readonly envelope: string | null;
  readonly alwaysDetails: boolean;
  readonly uri: readonly [string, string] | null;
  readonly messageRequired: boolean;
  /**
   * The member holding the HTTP status, read into each error's own `httpStatus`
   * and written from it (left out while the error has none); absent: none.
   */
  readonly status?: string | null | undefined;
  /**
   * `message_required: false`: a payload without the message gives the code's
   * template rendered from the details (else its meaning), and is written back
   * without it.
   */
  readonly exactMessage?: boolean;
  /**
   * Members every payload carries with a fixed value: [member, value, the value
   * as JSON text], members of the payload itself (beside the envelope, if any),
   * written on every payload; received, each absent (or null) or equal, else
   * an InvalidPayloadError naming the member.
   */
  readonly constants?: readonly (readonly [string, string | number | boolean, string])[];
  /**
   * `outside: keep`: the members beside the envelope (but the constants), or
   * without one those the mapping does not name, are kept on the error as
   * received (its `outside`) and written back.
   */
  readonly outside?: boolean;
}

/** Options of every error constructor. */
/**
 * The options of a root error where the taxonomy has no fallback (issue 30 §3):
 * its own code, which the root class (having none) requires.
 */
export interface RootOptions<C = string | number> {
  readonly code: C;
}

export interface TaxonomyErrorOptions<X = Readonly<Record<string, unknown>>> {
  /** Free-form JSON metadata; refused unless JSON can carry it. */
  details?: X | undefined;
  /** The error (or any value) that caused this one. */
  cause?: unknown;
  /** Overrides the class's retryability for this one error. */
  retryable?: boolean | undefined;
  /** This one error's HTTP status (100-599), over its class's. */
  httpStatus?: number | undefined;
}

/** Options of a constructor whose class declares details fields, some required. */
export interface TypedOptions<D> {
  /** The declared fields (and any others JSON can carry). */
  readonly details: D;
  /** The error (or any value) that caused this one. */
  readonly cause?: unknown;
  /** Overrides the class's retryability for this one error. */
  readonly retryable?: boolean | undefined;
  /** This one error's HTTP status (100-599), over its class's. */
  readonly httpStatus?: number | undefined;
}

/** Options of a constructor whose class declares details fields, none required. */
export interface OptionalTypedOptions<D> {
  /** The declared fields (and any others JSON can carry). */
  readonly details?: D | undefined;
  /** The error (or any value) that caused this one. */
  readonly cause?: unknown;
  /** Overrides the class's retryability for this one error. */
  readonly retryable?: boolean | undefined;
  /** This one error's HTTP status (100-599), over its class's. */
  readonly httpStatus?: number | undefined;
}

/** The message, when the options come alone (else it is rendered from the template). */
export interface MessageOption {
  readonly message?: string | undefined;
}

/** What a value of a declared field (or of an array's items) may be. */
export interface Shape {
  readonly type: "string" | "integer" | "number" | "boolean" | "array" | "object";
  /** The strings a `string` may be (absent: any string). */
  readonly enum?: readonly string[];
  /** Inclusive bounds of an `integer` or `number`. */
  readonly minimum?: number;
  readonly maximum?: number;
  /** The shape of an `array`'s items. */
  readonly items?: Shape;
  /**
   * The declared members of an `object` (issue 30 §7), each read as a field is
   * (never a `default` nor a `const`); absent: a free-form object. A nested
   * object keeps every member it does not declare.
   */
  readonly fields?: readonly FieldSpec[];
}

/** A declared details field, as the generated classes list them. */
export interface FieldSpec extends Shape {
  readonly name: string;
  readonly required: boolean;
  /** The value an omitted optional field gets (absent: it stays absent). */
  readonly default?: unknown;
  /**
   * A constant field's value as messages show it (issue 30 §7), its `default`
   * the value itself: absent or equal on decoding, and filled in.
   */
  readonly const?: string;
}

/** The longest `code` `fromPayload` accepts, in characters; a longer one is refused. */
export const MAX_CODE_LENGTH: number = 256;

/** The largest integer code either side of 0 (Number.MAX_SAFE_INTEGER). */
export const MAX_WIRE_INTEGER: number = 2 ** 53 - 1;

/** The type of an error's code on the wire: a number for integer codes. */
export type Wire<C> = C extends number ? number : string;

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

/**
 * What a value is, for a message: "null", "a string", "an array", "an object"
 * (a plain one), else its class ("an Error", "a Date"), so a refusal never reads
 * "expected an object, got an object". JSON has no undefined: a member that is
 * missing reads "null", as in Python and Go, whose readers see it so.
 */
function kind(value: unknown): string {
  if (value === null || value === undefined) return "null";
  if (Array.isArray(value)) return "an array";
  const type = typeof value;
  if (type !== "object") return `a ${type}`;
  const name = className(value as object);
  if (name === undefined) return "an object";
  return `${/^[AEIOU]/.test(name) ? "an" : "a"} ${name}`;
}

/**
 * The name of the class of an object that is not a plain one, read from its
 * prototype's own properties (never a getter of its own); undefined for a plain
 * object or one whose class cannot be told.
 */
function className(value: object): string | undefined {
  try {
    const proto: unknown = Object.getPrototypeOf(value);
    if (proto === null || proto === Object.prototype || typeof proto !== "object") {
      return undefined;
    }
    const made: unknown = Object.getOwnPropertyDescriptor(proto, "constructor")?.value;
    if (typeof made !== "function") return undefined;
    const name: unknown = Object.getOwnPropertyDescriptor(made, "name")?.value;
    return typeof name === "string" && /^[A-Za-z_$][\w$]{0,63}$/.test(name)
      ? name
      : undefined;
  } catch {
    return undefined;
  }
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
 * `put` for a new copy, but faster: assigned where assigning defines an own data
 * property (no prototype of the copy has the key: no "__proto__", nor a setter
 * or a read-only property another script gave Object.prototype), else defined.
 */
function store(into: Container, key: string | number, value: unknown): void {
  if (key in into) put(into, String(key), value);
  else (into as Record<string | number, unknown>)[key] = value;
}

/** Where a value sits, capped: a key may be huge. */
function capped(at: string): string {
  return at.length <= 200 ? at : `${at.slice(0, 197)}...`;
}

/** What {@link jsonCopy} carries down while it copies. */
interface Copying {
  readonly where: string;
  readonly freeze: boolean;
  /** The values counted so far (at most MAX_DETAILS_NODES). */
  nodes: number;
  /** The first problem met, as `"<path>: <problem>"`. */
  problem: string | undefined;
  /** The containers from the top to the value being copied: a cycle's witnesses. */
  readonly path: object[];
  /** The keys (array indexes as numbers) from the top to the value being copied. */
  readonly keys: (string | number)[];
}

/** Where the value being copied sits, as the problems name it. */
function placeOf(state: Copying): string {
  let at = capped(state.where);
  for (const key of state.keys) {
    at = capped(typeof key === "number" ? `${at}[${key}]` : `${at}.${key}`);
  }
  return at;
}

/** The copy of `item` (in a container at `depth`), or FAILED with state.problem. */
function copyValue(state: Copying, item: unknown, depth: number): unknown {
  if (item === null || typeof item === "string" || typeof item === "boolean") {
    return item;
  }
  if (typeof item === "number") {
    if (Number.isFinite(item)) return item;
    state.problem = `${placeOf(state)}: ${String(item)} is not a finite number`;
    return FAILED;
  }
  const isArray = Array.isArray(item);
  if (!isArray && !isPlainObject(item)) {
    state.problem = `${placeOf(state)}: ${kind(item)} is not a JSON value`;
    return FAILED;
  }
  const inner = depth + 1;
  if (inner > MAX_DETAILS_DEPTH) {
    state.problem = `${placeOf(state)}: nested deeper than ${MAX_DETAILS_DEPTH} levels`;
    return FAILED;
  }
  const container = item as object;
  const path = state.path;
  if (path.includes(container)) {
    state.problem = `${placeOf(state)}: contains itself`;
    return FAILED;
  }
  // An array's length is a claim (a sparse array, a proxy): checked before it is
  // used.
  const length: unknown = isArray ? (item as unknown[]).length : 0;
  if (!Number.isSafeInteger(length) || (length as number) < 0) {
    state.problem = `${placeOf(state)}: an array whose length is not a length`;
    return FAILED;
  }
  const names = isArray ? [] : Object.keys(container);
  const count = isArray ? (length as number) : names.length;
  state.nodes += count;
  if (state.nodes > MAX_DETAILS_NODES) {
    state.problem = `${state.where}: holds more than ${MAX_DETAILS_NODES} values`;
    return FAILED;
  }
  // Every member is read before any is copied, last to first (the order the
  // iterative copy this replaced read them in, which a getter or proxy sees).
  const values = new Array<unknown>(count);
  if (isArray) {
    const array = item as unknown[];
    // A hole reads as undefined, which JSON cannot carry either.
    for (let index = count - 1; index >= 0; index--) values[index] = array[index];
  } else {
    const record = item as Record<string, unknown>;
    for (let index = count - 1; index >= 0; index--) {
      values[index] = record[names[index] ?? ""];
    }
  }
  path.push(container);
  const copy: Container = isArray ? new Array<unknown>(count) : {};
  const keys = state.keys;
  for (let index = 0; index < count; index++) {
    const key = isArray ? index : (names[index] ?? "");
    keys.push(key);
    const value = copyValue(state, values[index], inner);
    keys.pop();
    if (value === FAILED) return FAILED;
    store(copy, key, value);
  }
  path.pop();
  if (state.freeze) Object.freeze(copy);
  return copy;
}

/** What copyValue returns once it has met a problem. */
const FAILED: unique symbol = Symbol("failed");

/**
 * A deep copy of `value` (frozen throughout if `freeze`), or the first part of it
 * JSON cannot carry, or past the limits, as `"<path>: <problem>"`.
 */
function jsonCopy(
  value: unknown,
  where: string,
  freeze: boolean,
): { copy: unknown } | { problem: string } {
  // Bounded: it stops at the first container deeper than MAX_DETAILS_DEPTH (so
  // hostile nesting cannot exhaust the stack: the recursion is at most that deep)
  // and before counting more than MAX_DETAILS_NODES values, so its time and
  // memory follow what it reads, never what an array's length or a proxy claims.
  // The containers on the current path catch cycles, which JSON.stringify would
  // refuse. Each value is read once, so what is checked is what is kept, and later
  // changes to the caller's objects cannot reach the copy. A getter or proxy trap
  // that throws is left to the caller to catch. Where a problem is is spelt only
  // once one is met.
  const state: Copying = { where, freeze, nodes: 1, problem: undefined, path: [], keys: [] };
  const copy = copyValue(state, value, 0);
  if (state.problem !== undefined) return { problem: state.problem };
  return { copy };
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

const ARTICLE: Readonly<Record<string, string>> = {
  integer: "an integer",
  array: "an array",
  object: "an object",
};

/**
 * What misfits in a value of a shape: `at`, where below the value (issue 30 §7:
 * the deepest member of a declared object that is missing or misfits, as
 * `[1].reason` or `.owner.uid`; "" for the value itself, as for a bad item of
 * scalars, which names its array), and what is wrong there.
 */
interface Misfit {
  readonly at: string;
  readonly problem: string;
}

/** What is wrong with `value` as a value of `shape`, or undefined if nothing is. */
function shapeProblem(shape: Shape, value: unknown): Misfit | undefined {
  const wanted = ARTICLE[shape.type] ?? `a ${shape.type}`;
  const got = `got ${kind(value)}`;
  const here = (problem: string): Misfit => ({ at: "", problem });
  switch (shape.type) {
    case "string":
      if (typeof value !== "string") return here(`expected ${wanted}, ${got}`);
      if (shape.enum !== undefined && !shape.enum.includes(value)) {
        const listed = shape.enum.map((item) => JSON.stringify(item)).join(", ");
        return here(`expected one of ${listed}, got ${show(value)}`);
      }
      return undefined;
    case "boolean":
      return typeof value === "boolean" ? undefined : here(`expected ${wanted}, ${got}`);
    case "integer":
    case "number":
      // JSON cannot tell 3 from 3.0, so neither can an integer field.
      if (
        typeof value !== "number" ||
        (shape.type === "integer" && !Number.isInteger(value))
      ) {
        const shown = typeof value === "number" ? show(value) : kind(value);
        return here(`expected ${wanted}, got ${shown}`);
      }
      if (shape.minimum !== undefined && value < shape.minimum) {
        return here(`expected at least ${shape.minimum}, got ${show(value)}`);
      }
      if (shape.maximum !== undefined && value > shape.maximum) {
        return here(`expected at most ${shape.maximum}, got ${show(value)}`);
      }
      return undefined;
    case "array": {
      if (!Array.isArray(value)) return here(`expected ${wanted}, ${got}`);
      const items = shape.items;
      if (items === undefined) return undefined;
      for (let index = 0; index < value.length; index++) {
        const wrong = shapeProblem(items, value[index]);
        if (wrong === undefined) continue;
        // A member of an item's declared object is named by its path; an item
        // that misfits itself, by its array.
        if (wrong.at !== "") return { at: `[${index}]${wrong.at}`, problem: wrong.problem };
        return here(`[${index}]: ${wrong.problem}`);
      }
      return undefined;
    }
    default: {
      if (!isPlainObject(value)) return here(`expected ${wanted}, ${got}`);
      for (const member of shape.fields ?? []) {
        const at = `.${member.name}`;
        if (!Object.hasOwn(value, member.name)) {
          if (member.required) return { at, problem: "required, missing" };
          continue;
        }
        const wrong = shapeProblem(member, value[member.name]);
        if (wrong !== undefined) return { at: `${at}${wrong.at}`, problem: wrong.problem };
      }
      return undefined;
    }
  }
}

/**
 * The first declared field of `details` that is missing or has the wrong shape,
 * with what is wrong, or undefined if none is. `details` is plain JSON data.
 * `field` is the path of what is wrong: the field, or the deepest member of one
 * of its nested objects (`details.causes[1].reason`).
 */
function fieldProblem(
  fields: readonly FieldSpec[],
  details: Readonly<Record<string, unknown>>,
): { field: string; problem: string } | undefined {
  for (const spec of fields) {
    const field = `details.${spec.name}`;
    if (!Object.hasOwn(details, spec.name)) {
      if (spec.required) return { field, problem: `${field}: required, missing` };
      continue;
    }
    if (spec.const !== undefined) {
      if (details[spec.name] === spec.default) continue;
      return { field, problem: `${field}: expected ${spec.const}, the constant of its code, or none` };
    }
    const wrong = shapeProblem(spec, details[spec.name]);
    if (wrong !== undefined) {
      const path = `${field}${wrong.at}`;
      const sep = wrong.problem.startsWith("[") ? "" : ": ";
      return { field: path, problem: `${path}${sep}${wrong.problem}` };
    }
  }
  return undefined;
}

/**
 * The text of a message template (literal text and field names alternating, the
 * first a literal) over `details`: each value as JavaScript's String() writes it,
 * which is the rule every language's runtime reproduces.
 */
export function render(
  pieces: readonly string[],
  details: Readonly<Record<string, unknown>>,
): string {
  let text = "";
  for (let index = 0; index < pieces.length; index++) {
    const piece = pieces[index] ?? "";
    text += index % 2 === 0 ? piece : String(own(details, piece));
  }
  return text;
}

/**
 * The details of a new error of a class with declared `fields`: the caller's,
 * checked (a TypeError naming the field), with the defaults of the omitted
 * optional fields filled in, frozen.
 */
function typedDetails(
  fields: readonly FieldSpec[],
  details: Readonly<Record<string, unknown>> | undefined,
): Readonly<Record<string, unknown>> {
  const checked = checkedDetails(details);
  const wrong = fieldProblem(fields, checked);
  if (wrong !== undefined) throw new TypeError(wrong.problem);
  const missing = fields.filter(
    (spec) => "default" in spec && !Object.hasOwn(checked, spec.name),
  );
  if (missing.length === 0) return checked;
  const result: Record<string, unknown> = { ...checked };
  for (const spec of missing) {
    const copy = jsonCopy(spec.default, `details.${spec.name}`, true);
    put(result, spec.name, "copy" in copy ? copy.copy : null);
  }
  return Object.freeze(result);
}

/**
 * Received `details` (checked: an object, or undefined) with each constant field
 * it lacks filled in (issue 30 §7: written on every payload); the same object
 * when the code has none.
 */
function withConstants<D extends Readonly<Record<string, unknown>> | undefined>(
  fields: readonly FieldSpec[],
  details: D,
): D | Readonly<Record<string, unknown>> {
  const missing = fields.filter(
    (spec) => spec.const !== undefined && (details === undefined || !Object.hasOwn(details, spec.name)),
  );
  if (missing.length === 0) return details;
  const result: Record<string, unknown> = { ...(details ?? {}) };
  for (const spec of missing) put(result, spec.name, spec.default);
  // Frozen, as the decoder's copy it extends: the error keeps it as it is.
  return Object.freeze(result);
}

/**
 * Marks the options the decoder passes: details as received, already checked, and
 * already its own frozen copy, which the constructor keeps.
 */
const DECODED: unique symbol = Symbol("decoded");
/** Where an error keeps its own HTTP status (received, or given). */
const STATUS: unique symbol = Symbol("httpStatus");

/**
 * The errors received without their message where the taxonomy says
 * `message_required: false`: `toPayload()` leaves the member out (a set, not a
 * key of the error, so no key, JSON or log line shows it).
 */
const ABSENT: WeakSet<object> = /* @__PURE__ */ new WeakSet();

/**
 * The members received beside the envelope (or without one, those the mapping
 * does not name) where the taxonomy says `outside:
 * keep`, by error (a map, not a key of the error, for the same reason).
 */
const OUTSIDE: WeakMap<object, Readonly<Record<string, unknown>>> =
  /* @__PURE__ */ new WeakMap();

/** No members beside the envelope. */
const NOTHING: Readonly<Record<string, unknown>> = /* @__PURE__ */ Object.freeze({});

/**
 * Makes `name` an own property of `error`, as assigning it would if it were a plain
 * writable property (a pinned `name` is a getter; see TaxonomyError's `name`).
 */
function ownName(error: Error, value: string): void {
  Object.defineProperty(error, "name", {
    value,
    writable: true,
    enumerable: true,
    configurable: true,
  });
}

/**
 * Whether `value` carries the brand `key`: its property `Symbol.for(key)` is
 * `true`. Never throws, whatever `value` is.
 *
 * TaxonomyError's constructor gives every error that property, `key` being its
 * root class's static `brand`. The key is a registry symbol, so a second copy of a
 * package recognises errors made by the first (instanceof cannot); plain objects
 * never carry it by accident.
 */
export function branded(value: unknown, key: string): boolean {
  if (typeof value !== "object" || value === null) return false;
  const symbol = Symbol.for(key);
  try {
    return (value as Record<symbol, unknown>)[symbol] === true;
  } catch {
    // A revoked proxy, or one whose traps throw: no error of this taxonomy, and a
    // guard (which toError relies on) must not throw.
    return false;
  }
}

/** The registry symbol of the last brand asked for, and that brand's key. */
let lastBrand: string | undefined;
let lastSymbol: symbol = /* @__PURE__ */ Symbol.for("");

/** `Symbol.for(key)`, remembered for the last key (a taxonomy has one brand). */
function brandSymbol(key: string): symbol {
  if (key !== lastBrand) {
    lastSymbol = Symbol.for(key);
    lastBrand = key;
  }
  return lastSymbol;
}

/** The descriptor of the brand: a hidden, read-only `true`. */
const HIDDEN_TRUE: PropertyDescriptor = /* @__PURE__ */ Object.freeze({ value: true });

/**
 * Every InvalidPayloadError this module made: the decoder lets these, and nothing
 * else, out of what it catches. Asked by identity, which runs no code of a thrown
 * value (`instanceof` would run a proxy's traps, and a forged error passes it).
 */
const RAISED: WeakSet<object> = /* @__PURE__ */ new WeakSet();

/** A payload that does not follow the wire format; `field` names the bad field. */
export class InvalidPayloadError extends Error {
  /** The payload field that is wrong. */
  readonly field: string;

  constructor(message: string, field: string) {
    super(message);
    this.field = field;
    RAISED.add(this);
  }

  /** Always "InvalidPayloadError" (a literal: minifiers rename classes). */
  override get name(): string {
    return "InvalidPayloadError";
  }

  override set name(value: string) {
    ownName(this, value);
  }
}

/**
 * What every error of a taxonomy is: the taxonomy's root class extends it with
 * `C` its error codes and `D` its domains, and gives the static `code`,
 * `domain`, `meaning` and `retryable` that each of its classes overrides.
 */
export abstract class TaxonomyError<
  C extends string | number = string,
  D extends string | undefined = string,
  X = Readonly<Record<string, unknown>>,
  P = ErrorPayload<Wire<C>>,
> extends Error {
  /** The error code of this class. */
  declare static readonly code: string | number;
  /** The domain of this class (undefined: a root class without a fallback). */
  declare static readonly domain: string | undefined;
  /** What an error of this class means. */
  declare static readonly meaning: string;
  /** Whether an error of this class may be retried. */
  declare static readonly retryable: boolean;
  /** Why this class is deprecated, or undefined while it is not. */
  static readonly deprecated: string | undefined = undefined;
  /** The code to use instead of a deprecated one, if any. */
  static readonly replacedBy: string | undefined = undefined;
  /** The HTTP status (100-599) this class's code maps to, if the taxonomy says. */
  static readonly httpStatus: number | undefined = undefined;
  /** The canonical gRPC status name ("UNAVAILABLE") it maps to, if any. */
  static readonly grpcStatus: string | undefined = undefined;
  /** Whether callers must back off before they retry (a retryable code only). */
  static readonly throttling: boolean = false;
  /** The documentation link of this class's code, if the taxonomy gives one. */
  static readonly docUrl: string | undefined = undefined;
  /**
   * The details field that says when to retry, in seconds (`retry_after:`,
   * issue 30 §8), if the taxonomy names one for this class.
   */
  static readonly retryAfterField: string | undefined = undefined;
  /** The details fields this class declares (every one, inherited ones too). */
  static readonly fields: readonly FieldSpec[] = [];
  /** The other spellings of its code a payload may carry (the code's `aliases:`). */
  static readonly aliases: readonly (string | number)[] = [];
  /** Its message template: literal text and field names alternating, if any. */
  static readonly messageTemplate: readonly string[] | undefined = undefined;
  /**
   * The `name` of its errors: each class gives its own name as a literal, which
   * minifiers that rename classes leave alone.
   */
  static readonly errorName: string = "Error";
  /**
   * The key of the brand every error of the taxonomy carries (see
   * {@link branded}); the root class gives it.
   */
  static readonly brand: string | undefined = undefined;
  /** The payload where it is not today's; the root class gives it. */
  static readonly wire: PayloadMap | undefined = undefined;
  /**
   * Where the taxonomy has no fallback (issue 30 §3, the root class says):
   * whether an unknown code, which keeps its identity, is retryable where its
   * payload does not say: "false", "true" or "by_status" (a 5xx received).
   */
  static readonly unknownRetryable: string | undefined = undefined;

  /** The error code of this error's class. */
  readonly code: C;
  /** The domain of this error's class. */
  readonly domain: D;
  /** Whether the caller may retry after this error. */
  readonly retryable: boolean;
  /** Free-form JSON metadata: a frozen copy of what the constructor was given. */
  readonly details: X;
  /** The code as received on the wire (differs from `code` for unknown codes). */
  readonly wireCode: Wire<C>;

  constructor(message?: string, options?: TaxonomyErrorOptions<X>) {
    const cls = new.target;
    const fields = cls.fields;
    // A class with declared fields also takes its options alone, message among them.
    if (fields.length > 0 && typeof message === "object" && message !== null) {
      options = message as TaxonomyErrorOptions<X>;
      message = (options as MessageOption).message;
    }
    if (typeof message !== "string" && message !== undefined) {
      throw new TypeError(`message: expected a string, got ${kind(message)}`);
    }
    const retryable = options?.retryable;
    if (retryable !== undefined && typeof retryable !== "boolean") {
      throw new TypeError(`retryable: expected a boolean, got ${kind(retryable)}`);
    }
    const httpStatus = options?.httpStatus;
    if (httpStatus !== undefined) {
      if (typeof httpStatus !== "number" || !Number.isInteger(httpStatus)) {
        throw new TypeError(`httpStatus: expected an integer, got ${kind(httpStatus)}`);
      }
      if (httpStatus < 100 || httpStatus > 599) {
        throw new RangeError(
          `httpStatus: expected an HTTP status from 100 to 599, got ${httpStatus}`,
        );
      }
    }
    // The decoder's details are kept as received: its own frozen copy, checked
    // there, no default added (copied once, not again here).
    const wire = cls.wire;
    const given = options?.details as Readonly<Record<string, unknown>> | undefined;
    const decoded = options !== undefined && DECODED in options;
    const details: unknown =
      decoded && given !== undefined
        ? given
        : wire !== undefined && wire.detailsType !== "object"
          ? anyDetails(given, wire.detailsType)
          : fields.length === 0 || decoded
            ? checkedDetails(given)
            : typedDetails(fields, given);
    const pieces = cls.messageTemplate;
    super(
      message ??
        (pieces === undefined
          ? cls.meaning
          : render(pieces, details as Readonly<Record<string, unknown>>)),
      options !== undefined && "cause" in options
        ? { cause: options.cause }
        : undefined,
    );
    // A root error of a taxonomy without a fallback (issue 30 §3) carries its
    // own code, its options' `code` (its root class has none).
    const code: unknown = (options as Partial<RootOptions> | undefined)?.code ?? cls.code;
    if (typeof code !== "string" && typeof code !== "number") {
      throw new TypeError(`code: expected a string or a number, got ${kind(code)}`);
    }
    this.code = code as C;
    this.domain = cls.domain as D;
    this.retryable = retryable ?? cls.retryable;
    this.details = details as X;
    this.wireCode = code as Wire<C>;
    // This error's own status: hidden, as the brand, so no key shows it.
    if (httpStatus !== undefined) {
      Object.defineProperty(this, STATUS, { value: httpStatus });
    }
    // The brand (see branded): hidden, so no key, JSON or log line shows it.
    if (cls.brand !== undefined) {
      Object.defineProperty(this, brandSymbol(cls.brand), HIDDEN_TRUE);
    }
  }

  /**
   * The class's `errorName`: a getter on the prototype, not a property each class
   * sets as it is defined, so importing a taxonomy runs nothing and bundlers can
   * drop the classes a program does not use. `Error`'s constructor already sees
   * it (the stack's first line has it), and it is never an own key of an error.
   */
  override get name(): string {
    return (this.constructor as typeof TaxonomyError).errorName;
  }

  /** Assigning a name gives this one error its own, as for any `Error`. */
  override set name(value: string) {
    ownName(this, value);
  }

  /**
   * Whether this error was received without its message (the taxonomy says
   * `message_required: false`): its `message` is then the template's or the
   * meaning, and `toPayload()` leaves the member out, as received.
   */
  get messageAbsent(): boolean {
    return ABSENT.has(this);
  }

  /**
   * The members received beside the envelope, or without one those the mapping
   * does not name (the taxonomy says `outside:
   * keep`), which `toPayload()` writes back: JSON-RPC's `jsonrpc` and `id`.
   * Empty for an error constructed here; assign an object to send some.
   */
  get outside(): Readonly<Record<string, unknown>> {
    return OUTSIDE.get(this) ?? NOTHING;
  }

  set outside(value: Readonly<Record<string, unknown>>) {
    OUTSIDE.set(this, value);
  }

  /**
   * This error's HTTP status: the one received where the payload carries it,
   * else the constructor's `httpStatus`, else its class's (undefined where the
   * taxonomy gives the class none). A getter, like `name`: no key of the error.
   */
  get httpStatus(): number | undefined {
    const own = (this as unknown as Record<symbol, number | undefined>)[STATUS];
    return own ?? (this.constructor as typeof TaxonomyError).httpStatus;
  }

  /** The class's `grpcStatus`. */
  get grpcStatus(): string | undefined {
    return (this.constructor as typeof TaxonomyError).grpcStatus;
  }

  /** The class's `throttling`. */
  get throttling(): boolean {
    return (this.constructor as typeof TaxonomyError).throttling;
  }

  /** The class's `docUrl`. */
  get docUrl(): string | undefined {
    return (this.constructor as typeof TaxonomyError).docUrl;
  }

  /**
   * When to retry, in seconds: the value of the class's `retryAfterField` in
   * the details (issue 30 §8); undefined where the class names none or the
   * details hold no number there. A getter: no key of the error.
   */
  get retryAfter(): number | undefined {
    const field = (this.constructor as typeof TaxonomyError).retryAfterField;
    const details: unknown = this.details;
    if (field === undefined || typeof details !== "object" || details === null) {
      return undefined;
    }
    if (Array.isArray(details) || !Object.prototype.hasOwnProperty.call(details, field)) {
      return undefined;
    }
    const value: unknown = (details as Record<string, unknown>)[field];
    return typeof value === "number" && Number.isFinite(value) ? value : undefined;
  }

  /** The wire payload `{code, message, retryable, details}` (or as `wire` maps it). */
  toPayload(): P {
    const wire = (this.constructor as typeof TaxonomyError).wire;
    if (wire !== undefined) return encode(this, wire) as P;
    const result = jsonCopy(this.details, "details", false);
    if ("problem" in result) throw new TypeError(result.problem);
    const details = result.copy as Record<string, unknown>;
    const { wireCode, message, retryable } = this;
    const payload: ErrorPayload<Wire<C>> = { code: wireCode, message, retryable, details };
    return payload as P;
  }

  /** The structured form for logs: the payload plus the class `name`. */
  toJSON(): P & { name: string } {
    return { name: this.name, ...this.toPayload() } as P & { name: string };
  }
}

/** A constructor's details where they are not always an object (`detailsType`). */
function anyDetails(details: unknown, detailsType: string): unknown {
  if (details === undefined || details === null) {
    return detailsType === "array" ? Object.freeze([]) : undefined;
  }
  if (detailsType === "array" && !Array.isArray(details)) {
    throw new TypeError(`details: expected an array, got ${kind(details)}`);
  }
  const result = jsonCopy(details, "details", true);
  if ("problem" in result) throw new TypeError(result.problem);
  return result.copy;
}

/** RFC 3986: every UTF-8 byte of `text` but the unreserved characters as `%XX`. */
function percentEncode(text: string): string {
  return encodeURIComponent(text).replace(
    /[!'()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}

function isEmpty(value: unknown): boolean {
  if (value === undefined || value === null) return true;
  if (Array.isArray(value)) return value.length === 0;
  return typeof value === "object" && Object.keys(value).length === 0;
}

/** An error's payload as `wire` maps it. */
function encode(
  error: TaxonomyError<string | number, string | undefined, unknown, unknown>,
  wire: PayloadMap,
): Record<string, unknown> {
  const cls = error.constructor as typeof TaxonomyError;
  const details: unknown = error.details;
  const body: Record<string, unknown> = {};
  const fixed = wire.constants ?? [];
  const outer: Record<string, unknown> = wire.envelope === null ? body : {};
  for (const [name, value] of fixed) put(outer, name, value);
  const copy = (value: unknown): unknown => {
    const result = jsonCopy(value, "details", false);
    if ("problem" in result) throw new TypeError(result.problem);
    return result.copy;
  };
  if (wire.uri !== null) {
    const kept =
      wire.details === "*" && isPlainObject(details)
        ? own(details, wire.code)
        : undefined;
    const uri = wire.uri[0] + percentEncode(String(error.wireCode)) + wire.uri[1];
    put(body, wire.code, kept ?? uri);
    put(body, "title", cls.meaning);
    put(body, "status", error.httpStatus ?? null);
  } else {
    put(body, wire.code, error.wireCode);
  }
  if (wire.exactMessage !== true || !ABSENT.has(error)) {
    put(body, wire.message, error.message);
  }
  if (wire.retryable !== null) put(body, wire.retryable, error.retryable);
  const status = wire.status ?? null;
  if (status !== null && error.httpStatus !== undefined) {
    put(body, status, error.httpStatus);
  }
  if (wire.details === "*") {
    const members = [wire.code, wire.message, wire.retryable, status];
    if (wire.envelope === null) members.push(...fixed.map((c) => c[0]));
    for (const [key, value] of Object.entries(details as object)) {
      if (!members.includes(key)) put(body, key, copy(value));
    }
  } else if (wire.details !== null && (wire.alwaysDetails || !isEmpty(details))) {
    put(body, wire.details, copy(details));
  }
  const kept = wire.outside === true ? OUTSIDE.get(error) : undefined;
  if (wire.envelope === null) {
    if (kept === undefined) return body;
    // Issue 30 §1: the members the mapping does not name, kept as received;
    // the error's own members win.
    const around: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(kept)) {
      if (!Object.hasOwn(body, key)) put(around, key, copy(value));
    }
    return { ...around, ...body };
  }
  if (kept !== undefined) {
    const around: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(kept)) {
      if (key !== wire.envelope && !fixed.some((c) => c[0] === key)) {
        put(around, key, copy(value));
      }
    }
    return { ...around, ...outer, [wire.envelope]: body };
  }
  put(outer, wire.envelope, body);
  return outer;
}

/**
 * The message of an error received without one: its code's template over the
 * details (checked: undefined for an unknown code's), an omitted field's
 * default in its place, else the meaning.
 */
function absentMessage(cls: typeof TaxonomyError, details: unknown): string {
  const pieces = cls.messageTemplate;
  if (pieces === undefined || !isPlainObject(details)) return cls.meaning;
  const values: Record<string, unknown> = {};
  for (let index = 1; index < pieces.length; index += 2) {
    const name = pieces[index] ?? "";
    let value = own(details, name);
    if (value === undefined || value === null) {
      const spec = cls.fields.find((f) => f.name === name);
      value = spec?.default;
    }
    if (value === undefined || value === null) return cls.meaning;
    values[name] = value;
  }
  return render(pieces, values);
}

/** A class of errors, as the decoder and the wrapper make its instances. */
export type ErrorClassOf<T> = new (
  message?: string,
  options?: TaxonomyErrorOptions<unknown>,
) => T;

/**
 * Any class of errors, whatever its constructor takes (the decoder and the
 * wrapper give a typed class options its checks accept at run time).
 */
export interface AnyErrorClass<T> {
  new (...args: never): T;
  readonly code: string | number;
  readonly fields: readonly FieldSpec[];
  readonly aliases: readonly (string | number)[];
}

/** The readers a taxonomy's index binds to its classes (see {@link decoder}). */
export interface Decoder<T> {
  /** The package's `fromPayload`. */
  readonly payload: (payload: unknown) => T;
  /** The package's `errorFromEvent`. */
  readonly event: (event: unknown) => T | undefined;
}

/**
 * Run `read`, turning anything but an InvalidPayloadError of this module into one
 * about `field`. What a getter or trap throws is asked nothing but its identity:
 * it may be a proxy whose traps throw too, a revoked one, or no Error at all.
 */
function guarded<T>(field: string, read: () => T): T {
  try {
    return read();
  } catch (err) {
    throw rethrown(field, err);
  }
}

/** What {@link guarded} throws for `err`, thrown while reading `field`. */
function rethrown(field: string, err: unknown): unknown {
  if (RAISED.has(err as object)) return err;
  // A getter or proxy trap of the caller's value threw: the value cannot be read.
  return unreadable(field, err);
}

// An InvalidPayloadError about `field` (named so no taxonomy code is a word of the runtime).
function payloadError(field: string, problem: string): InvalidPayloadError {
  return new InvalidPayloadError(`${field}: ${problem}`, field);
}

function readDetails(
  details: unknown,
): Readonly<Record<string, unknown>> | undefined {
  if (details === undefined || details === null) return undefined;
  if (!isPlainObject(details)) {
    throw payloadError("details", `expected an object, got ${kind(details)}`);
  }
  // Frozen: the constructor keeps this copy as the error's details.
  const result = jsonCopy(details, "details", true);
  if ("problem" in result) throw new InvalidPayloadError(result.problem, "details");
  return result.copy as Readonly<Record<string, unknown>>;
}

/**
 * A payload's `code`, checked: with a `pattern`, a string it matches whole of at
 * most MAX_CODE_LENGTH characters; without (codes are integers), an integer
 * within MAX_WIRE_INTEGER either side of 0.
 */
function readCode(
  code: unknown,
  pattern: RegExp | null,
  name: string = "code",
): string | number {
  if (pattern === null) {
    if (typeof code !== "number" || !Number.isInteger(code)) {
      throw payloadError(name, `expected an integer, got ${kind(code)}`);
    }
    if (Math.abs(code) > MAX_WIRE_INTEGER) {
      const problem = `${code} is out of range (at most ${MAX_WIRE_INTEGER} either side of 0)`;
      throw payloadError(name, problem);
    }
    return code;
  }
  if (typeof code !== "string") {
    throw payloadError(name, `expected a string, got ${kind(code)}`);
  }
  if (code.length > MAX_CODE_LENGTH) {
    const problem = `longer than ${MAX_CODE_LENGTH} characters (${code.length})`;
    throw payloadError(name, problem);
  }
  if (!pattern.test(code)) {
    throw payloadError(name, `${show(code)} is not a well-formed error code`);
  }
  return code;
}

/**
 * The code a problem's `type` names, or undefined: a URI that is not one of the
 * taxonomy's, or that holds no well-formed code, spelt as the encoder spells it.
 */
function uriCode(
  text: string,
  uri: readonly [string, string],
  pattern: RegExp | null,
): string | number | undefined {
  const [prefix, suffix] = uri;
  if (text.length < prefix.length + suffix.length) return undefined;
  if (text.length > prefix.length + suffix.length + 12 * MAX_CODE_LENGTH) {
    return undefined;
  }
  if (!text.startsWith(prefix) || !text.endsWith(suffix)) return undefined;
  const middle = text.slice(prefix.length, text.length - suffix.length);
  let code: string;
  try {
    code = decodeURIComponent(middle);
  } catch {
    return undefined;
  }
  if (code === "" || percentEncode(code) !== middle) return undefined;
  if (pattern === null) {
    if (!/^-?(?:0|[1-9][0-9]{0,15})$/.test(code)) return undefined;
    const number = Number(code);
    return Math.abs(number) <= MAX_WIRE_INTEGER ? number : undefined;
  }
  if (code.length > MAX_CODE_LENGTH || !pattern.test(code)) return undefined;
  return code;
}

/** A member of `record` (own only), a getter or trap that throws blamed on `name`. */
function member(record: object, key: string, name: string): unknown {
  try {
    return own(record, key);
  } catch (err) {
    throw unreadable(name, err);
  }
}

/**
 * The members of `body` that `members` does not name, as plain JSON data (frozen
 * throughout if `freeze`).
 */
function restOf(
  body: Record<string, unknown>,
  members: readonly (string | null)[],
  name: string,
  freeze: boolean,
): Record<string, unknown> {
  const rest: Record<string, unknown> = {};
  let count = 0;
  for (const key of Object.keys(body)) {
    if (members.includes(key)) continue;
    if (++count >= MAX_DETAILS_NODES) {
      throw payloadError(name, `holds more than ${MAX_DETAILS_NODES} values`);
    }
    put(rest, key, member(body, key, name));
  }
  const result = jsonCopy(rest, name, freeze);
  if ("problem" in result) throw new InvalidPayloadError(result.problem, name);
  return result.copy as Record<string, unknown>;
}

/**
 * A details member as `detailsType` allows it (undefined: absent or null), as a
 * frozen copy, which the error keeps.
 */
function readAny(value: unknown, detailsType: string, name: string): unknown {
  if (value === undefined || value === null) return undefined;
  if (detailsType === "object" && !isPlainObject(value)) {
    throw payloadError(name, `expected an object, got ${kind(value)}`);
  }
  if (detailsType === "array" && !Array.isArray(value)) {
    throw payloadError(name, `expected an array, got ${kind(value)}`);
  }
  const result = jsonCopy(value, name, true);
  if ("problem" in result) throw new InvalidPayloadError(result.problem, name);
  return result.copy;
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
export function decoder<
  T extends TaxonomyError<string | number, string | undefined, unknown, unknown>,
  W extends string | number,
>(
  lookup: (code: W) => AnyErrorClass<T>,
  pattern: RegExp | null,
  events: Readonly<Record<string, string>>,
  wire?: PayloadMap,
  keepsUnknown?: (code: W) => boolean,
): Decoder<T> {
  // Issue 30 §3: an unknown code keeps its identity where its class has no code
  // (the root, a domain's own class, with no fallback) or where the domain
  // whose match claims it says fallback: null (keepsUnknown).
  const keepsOwn = (cls: AnyErrorClass<T>, code: W): boolean =>
    cls.code === undefined || (keepsUnknown !== undefined && keepsUnknown(code));
  /**
   * The error a payload of today's wire form holds; what reading it throws but an
   * InvalidPayloadError is one about `name`. No helper stands between the
   * caller and the constructor, so the stack an error captures names none.
   */
  function readPayload(payload: unknown, name: string = "payload"): T {
    try {
      if (!isPlainObject(payload)) {
        throw payloadError("payload", `expected an object, got ${kind(payload)}`);
      }
      const code = readCode(field(payload, "code"), pattern) as W;
      const message = field(payload, "message");
      if (typeof message !== "string") {
        throw payloadError("message", `expected a string, got ${kind(message)}`);
      }
      const retryable = field(payload, "retryable");
      if (typeof retryable !== "boolean") {
        throw payloadError("retryable", `expected a boolean, got ${kind(retryable)}`);
      }
      let details = guarded("details", () => readDetails(field(payload, "details")));
      const cls = lookup(code);
      // A known code's declared fields are checked (the fallback's are not: an
      // unknown code's details are whatever its sender made them).
      if ((cls.code === code || cls.aliases.includes(code)) && cls.fields.length > 0) {
        const wrong = fieldProblem(cls.fields, details ?? {});
        if (wrong !== undefined) {
          throw new InvalidPayloadError(wrong.problem, wrong.field);
        }
        details = withConstants(cls.fields, details);
      }
      // Issue 30 §3: with no fallback, an unknown code is the root's, its own (or
      // the claiming domain's, its own, where the domain says fallback: null).
      const unknown = cls.code !== code && !cls.aliases.includes(code);
      const keeps = unknown && keepsOwn(cls, code);
      const ownCode = keeps ? code : undefined;
      const options = { details, retryable, code: ownCode, [DECODED]: true };
      const error = new (cls as unknown as ErrorClassOf<T>)(message, options);
      // The only write to wireCode after construction: keep the code as received.
      (error as { wireCode: string | number }).wireCode = code;
      return error;
    } catch (err) {
      throw rethrown(name, err);
    }
  }

  /** readPayload for a payload other than today's, under the same guards. */
  function readMapped(payload: unknown, wire: PayloadMap): T {
    if (!isPlainObject(payload)) {
      throw payloadError("payload", `expected an object, got ${kind(payload)}`);
    }
    let body: Record<string, unknown> = payload;
    const at = wire.envelope === null ? "" : `${wire.envelope}.`;
    const fixed = wire.constants ?? [];
    for (const [name, value, text] of fixed) {
      const found = member(payload, name, name);
      if (found !== undefined && found !== null && found !== value) {
        throw payloadError(name, `expected ${text}, the constant every payload carries, or none`);
      }
    }
    if (wire.envelope !== null) {
      const inner = member(payload, wire.envelope, wire.envelope);
      if (!isPlainObject(inner)) {
        throw payloadError(wire.envelope, `expected an object, got ${kind(inner)}`);
      }
      body = inner;
    }
    const codeName = at + wire.code;
    const raw = member(body, wire.code, codeName);
    let code: string | number | undefined;
    let kept: string | undefined;
    if (wire.uri !== null) {
      if (raw !== undefined && raw !== null) {
        if (typeof raw !== "string") {
          throw payloadError(codeName, `expected a string, got ${kind(raw)}`);
        }
        code = uriCode(raw, wire.uri, pattern);
        if (code === undefined) kept = raw;
      }
    } else {
      code = readCode(raw, pattern, codeName);
    }
    const messageName = at + wire.message;
    const text = member(body, wire.message, messageName);
    let message: string | undefined;
    if ((text !== undefined && text !== null) || wire.messageRequired) {
      if (typeof text !== "string") {
        throw payloadError(messageName, `expected a string, got ${kind(text)}`);
      }
      message = text;
    }
    let retryable: boolean | undefined;
    if (wire.retryable !== null) {
      const name = at + wire.retryable;
      const value = member(body, wire.retryable, name);
      if (typeof value !== "boolean") {
        throw payloadError(name, `expected a boolean, got ${kind(value)}`);
      }
      retryable = value;
    }
    const statusMember = wire.status ?? null;
    let httpStatus: number | undefined;
    if (statusMember !== null) {
      const name = at + statusMember;
      const value = member(body, statusMember, name);
      if (value !== undefined && value !== null) {
        const wanted = "expected an HTTP status (an integer from 100 to 599), got";
        if (typeof value !== "number" || !Number.isInteger(value)) {
          throw payloadError(name, `${wanted} ${kind(value)}`);
        }
        if (value < 100 || value > 599) throw payloadError(name, `${wanted} ${value}`);
        httpStatus = value;
      }
    }
    let details: unknown;
    if (wire.details === "*") {
      const name = wire.envelope ?? "payload";
      const read = [wire.code, wire.message, wire.retryable, statusMember];
      if (wire.envelope === null) read.push(...fixed.map((c) => c[0]));
      const rest = guarded(name, () => restOf(body, read, name, true));
      if (kept === undefined) details = rest;
      else {
        // The type kept as received (no URI of the taxonomy's) among the rest.
        const all: Record<string, unknown> = { ...rest };
        put(all, wire.code, kept);
        details = Object.freeze(all);
      }
    } else if (wire.details !== null) {
      const name = at + wire.details;
      const detailsMember = wire.details;
      details = guarded(name, () =>
        readAny(member(body, detailsMember, name), wire.detailsType, name),
      );
    }
    const cls = lookup(code as W);
    const known = code !== undefined && (cls.code === code || cls.aliases.includes(code));
    if (known && cls.fields.length > 0) {
      // Frozen, as every details the decoder hands the constructor, which keeps them.
      const given = (details ?? Object.freeze({})) as Readonly<Record<string, unknown>>;
      const wrong = fieldProblem(cls.fields, given);
      if (wrong !== undefined) {
        throw new InvalidPayloadError(wrong.problem, wrong.field);
      }
      details = withConstants(cls.fields, given);
    }
    const absent = message === undefined;
    if (message === undefined) {
      const title = isPlainObject(details) ? own(details, "title") : undefined;
      const errorClass = cls as unknown as typeof TaxonomyError;
      message =
        wire.exactMessage === true
          ? absentMessage(errorClass, known ? details : undefined)
          : typeof title === "string"
            ? title
            : errorClass.meaning;
    }
    // Issue 30 §3: with no fallback, an unknown code is the root's, its own,
    // retryable as the root's unknownRetryable says where the payload does not.
    const keeps = code !== undefined && !known && keepsOwn(cls, code as W);
    if (keeps && retryable === undefined) {
      const rule = (cls as unknown as typeof TaxonomyError).unknownRetryable;
      retryable =
        rule === "by_status"
          ? httpStatus !== undefined && httpStatus >= 500
          : rule === "true";
    }
    const ownCode = keeps ? code : undefined;
    const options = { details, retryable, httpStatus, code: ownCode, [DECODED]: true };
    const error = new (cls as unknown as ErrorClassOf<T>)(message, options);
    (error as { wireCode: string | number }).wireCode = code ?? cls.code;
    if (absent && wire.exactMessage === true) ABSENT.add(error);
    if (wire.outside === true) {
      // What is not kept: the envelope and the constants; without an envelope,
      // every member the mapping names (Kubernetes' metadata is kept).
      const beside =
        wire.envelope !== null
          ? [wire.envelope, ...fixed.map((c) => c[0])]
          : [
              ...[wire.code, wire.message, wire.retryable ?? null],
              ...[wire.status ?? null, wire.details],
              ...fixed.map((c) => c[0]),
            ];
      OUTSIDE.set(error, Object.freeze(guarded("payload", () => restOf(payload, beside, "payload", false))));
    }
    return error;
  }

  const read: (payload: unknown, name?: string) => T =
    wire === undefined
      ? readPayload
      : (payload: unknown, name: string = "payload"): T => {
          try {
            return readMapped(payload, wire);
          } catch (err) {
            throw rethrown(name, err);
          }
        };

  function readEvent(event: unknown): T | undefined {
    try {
      if (!isPlainObject(event)) {
        throw payloadError("event", `expected an object, got ${kind(event)}`);
      }
      const type = own(event, "type");
      if (typeof type !== "string" || !Object.hasOwn(events, type)) return undefined;
      let found: unknown = event;
      for (const part of (events[type] ?? "").split(".")) {
        if (!isPlainObject(found)) return undefined;
        found = own(found, part);
      }
      if (found === undefined || found === null) return undefined;
      return read(found, "event");
    } catch (err) {
      throw rethrown("event", err);
    }
  }

  return { payload: read, event: readEvent };
}

/**
 * What a taxonomy's `match:` says of unknown codes: the function returned gives
 * the target of the longest prefix a string code starts with, or of the
 * innermost inclusive range `[low, high]` an integer code is in, or undefined.
 */
export function matcher<C>(
  prefixes: readonly (readonly [string, C])[],
  ranges: readonly (readonly [number, number, C])[],
): (code: string | number) => C | undefined {
  const longest = [...prefixes].sort((a, b) => b[0].length - a[0].length);
  const innermost = [...ranges].sort((a, b) => a[1] - a[0] - (b[1] - b[0]));
  return (code) => {
    if (typeof code === "string") {
      for (const [prefix, target] of longest) {
        if (code.startsWith(prefix)) return target;
      }
    } else {
      for (const [low, high, target] of innermost) {
        if (low <= code && code <= high) return target;
      }
    }
    return undefined;
  };
}

/**
 * `value`, which is no error of the taxonomy, wrapped in an error of `cls` with
 * `value` as its `cause` and a message saying what it was.
 */
export function wrap<T>(cls: AnyErrorClass<T>, value: unknown): T {
  let message: string;
  try {
    message =
      value instanceof Error
        ? `${value.name}: ${value.message}`
        : `non-error value: ${show(value)}`;
  } catch {
    message = "non-error value";
  }
  return new (cls as unknown as ErrorClassOf<T>)(message, { cause: value });
}

/** A member of a taxonomy's `KnownError`: its `code` and its `details`, exactly. */
export interface Known<C extends string | number, D> {
  readonly code: C;
  readonly details: D;
}
