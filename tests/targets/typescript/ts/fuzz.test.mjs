// Fuzzing the runtime of a generated TypeScript module: bad input never breaks it.
//
// Run by tests/test_fuzz_payload.py, once per case, against the compiled module:
//   TAXOGEN_MODULE=<pkg>/dist/index.js TAXOGEN_GUARD=is<Base> TAXOGEN_EXPECT=<expectations.json> \
//     node --test fuzz.test.mjs
// TAXOGEN_EXPECT (tests/support.py: expectations()) is optional: with it, every rejection
// must name the field an independent oracle names, and the fallback rule is checked.
//
// Values come from a seeded generator: TAXOGEN_FUZZ_SEED (default fixed, so CI is
// repeatable) and TAXOGEN_FUZZ_RUNS (default 2500 per property). A failure prints the
// seed and the run, and the same seed replays it.
//
// The contract asserted (issue "Bad input never breaks taxogen", part 5):
// * fromPayload(any JSON value) returns an error of the taxonomy (the exported guard
//   says so) or throws InvalidPayloadError, exactly when the oracle says the payload
//   is malformed; accepted payloads round-trip through toPayload() and JSON.
// * errorFromEvent(any JSON value) returns an error, undefined, or throws InvalidPayloadError.
// * Values that are not JSON (undefined, functions, symbols, bigints, Dates, Maps, class
//   instances...) are invalid payloads; objects with a null prototype are objects.
// * Hostile objects (getters that throw, proxies whose traps throw, revoked proxies) are
//   invalid payloads too: whatever the input, the only thing fromPayload and
//   errorFromEvent throw is InvalidPayloadError. toError and the guard never throw.

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, test } from "node:test";
import { pathToFileURL } from "node:url";
import * as hierarchy from "./hierarchy.mjs";

const MODULE = process.env.TAXOGEN_MODULE;
const GUARD = process.env.TAXOGEN_GUARD;
if (!MODULE || !GUARD) {
  throw new Error("set TAXOGEN_MODULE (the compiled dist/index.js) and TAXOGEN_GUARD (is<Base>)");
}
const SEED = Number(process.env.TAXOGEN_FUZZ_SEED ?? 0x7a0_6e4);
const RUNS = Number(process.env.TAXOGEN_FUZZ_RUNS ?? 2500);

const api = await import(pathToFileURL(MODULE).href);
const guard = api[GUARD];
assert.equal(typeof guard, "function", `the module exports no guard ${GUARD}`);
const { InvalidPayloadError, fromPayload, errorFromEvent, toError, lookup } = api;
/** @type {null | {base: string, codeCase: string, fallback: {code: string, className: string},
 *   wrap: {code: string, className: string}, codes: {code: string, className: string}[],
 *   events: {type: string, location: string}[]}} */
const ex = process.env.TAXOGEN_EXPECT ? JSON.parse(readFileSync(process.env.TAXOGEN_EXPECT, "utf8")) : null;
// docs "Wire codes": any printable ASCII once a code gives a wire:, else the code case.
// docs "Codes as written": keys as written are printable ASCII too, "" once a code's wire.
const PATTERN = ex?.codes.some((c) => c.code === "")
  ? /^[!-~]*$/
  : ex?.wireDeclared || ex?.codeCase === "as_written"
  ? /^[!-~]+$/
  : ex?.codeCase === "upper_snake" ? /^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*$/ : /^[a-z][a-z0-9]*(?:_[a-z0-9]+)*$/;
const INTEGER = ex?.wireType === "integer";
const KNOWN = ex ? ex.codes.map((c) => c.code) : Object.values(api.ErrorCode);
const EVENTS = ex ? ex.events : Object.entries(api.ERROR_EVENTS).map(([type, location]) => ({ type, location }));
const FIELDS = ["payload", "code", "message", "retryable", "details"];
const Base = api[ex?.base ?? GUARD.slice(2)];

// ------------------------------------------------------------------- the generator

/** mulberry32: a small, seedable PRNG. */
function prng(seed) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n) => Math.floor(next() * n);
  return { next, int, pick: (items) => items[int(items.length)], chance: (p) => next() < p };
}

const SPECIAL_STRINGS = [
  "", " ", "\u0000", "\n", "\u2028", "\u2029", "\ud800", "\udfff", "\ud83d\ude00", "\"", "\\", "</script>",
  "__proto__", "constructor", "toString", "hasOwnProperty", "valueOf", "code", "message", "retryable", "details",
  "NaN", "Infinity", "-0", "1e999", "${x}", "`", "*/",
];
const SPECIAL_NUMBERS = [
  0, -0, 1, -1, 0.5, 1e308, -1e308, 5e-324, Number.MAX_SAFE_INTEGER + 2, Number.MIN_SAFE_INTEGER - 2, 2 ** 64,
  Infinity, -Infinity, // what JSON.parse makes of 1e999 and -1e999
];

function randomString(r) {
  if (r.chance(0.25)) return r.pick(SPECIAL_STRINGS);
  let text = "";
  for (let i = r.int(12); i > 0; i--) {
    switch (r.int(5)) {
      case 0: text += String.fromCharCode(0x20 + r.int(0x5f)); break; // printable ASCII
      case 1: text += String.fromCharCode(r.pick([r.int(0x20), 0x7f + r.int(0x21)])); break; // controls
      case 2: text += String.fromCharCode(r.int(0x10000)); break; // any UTF-16 unit, lone surrogates too
      case 3: text += String.fromCodePoint(0x10000 + r.int(0x100000)); break; // astral
      default: text += r.pick(SPECIAL_STRINGS);
    }
  }
  return text;
}

function randomCode(r) {
  if (INTEGER) {
    switch (r.int(6)) {
      case 0: case 1: return r.pick(KNOWN);
      case 2: return r.int(200000) - 100000; // unknown (mostly), well-formed
      case 3: return r.pick([Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER, 2 ** 53, -(2 ** 53)]);
      case 4: return r.chance(0.5) ? String(r.pick(KNOWN)) : r.pick(KNOWN) + 0.5;
      default: return jsonValue(r, 1);
    }
  }
  switch (r.int(6)) {
    case 0: case 1: return r.pick(KNOWN);
    case 2: return ex?.codeCase === "upper_snake" ? `ZZ_${r.int(1000)}` : `zz_${r.int(1000)}`; // unknown, well-formed
    case 3: { // the other case
      const code = r.pick(KNOWN);
      return code === code.toUpperCase() ? code.toLowerCase() : code.toUpperCase();
    }
    case 4: return `${r.pick(KNOWN)}${r.pick(["\n", " ", "-", "\u0131"])}`;
    default: return randomString(r);
  }
}

/** Define, as JSON.parse does: a "__proto__" key stays an own property. */
function put(object, key, value) {
  Object.defineProperty(object, key, { value, writable: true, enumerable: true, configurable: true });
  return object;
}

/** Any value JSON.parse can return (Infinity included: JSON.parse("1e999")). */
function jsonValue(r, depth = 3) {
  switch (r.int(depth > 0 ? 9 : 6)) {
    case 0: return null;
    case 1: return r.chance(0.5);
    case 2: return r.int(2000) - 1000;
    case 3: return r.chance(0.5) ? r.pick(SPECIAL_NUMBERS) : (r.next() - 0.5) * 10 ** r.int(30);
    case 4: case 5: return randomString(r);
    case 6: case 7: {
      const array = [];
      for (let i = r.int(5); i > 0; i--) array.push(jsonValue(r, depth - 1));
      return array;
    }
    default: {
      const object = {};
      for (let i = r.int(5); i > 0; i--) put(object, randomString(r), jsonValue(r, depth - 1));
      return object;
    }
  }
}

function jsonObject(r, depth = 3) {
  const object = {};
  for (let i = r.int(5); i > 0; i--) put(object, randomString(r), jsonValue(r, depth - 1));
  return object;
}

/** A payload, valid or with one field dropped, retyped or given bad details. */
function payloadShaped(r) {
  const payload = put(put(put({}, "code", randomCode(r)), "message", randomString(r)), "retryable", r.chance(0.5));
  if (r.chance(0.5)) put(payload, "details", r.chance(0.2) ? null : jsonObject(r));
  const field = r.pick(["code", "message", "retryable", "details"]);
  switch (r.int(6)) {
    case 0: delete payload[field]; break;
    case 1: put(payload, field, jsonValue(r)); break;
    case 2: put(payload, randomString(r), jsonValue(r)); break;
    default: break;
  }
  return payload;
}

function anyPayload(r) {
  return r.chance(0.5) ? jsonValue(r) : payloadShaped(r);
}

/** Any JSON value, or an event of a known (or near) type with a payload on its path. */
function eventShaped(r) {
  if (r.chance(0.3) || EVENTS.length === 0) return jsonValue(r);
  const { type, location } = r.pick(EVENTS);
  const event = put({}, "type", r.pick([type, type, `${type}x`, randomString(r)]));
  const parts = location.split(".");
  const cut = r.chance(0.2) ? r.int(parts.length) : -1;
  let node = event;
  parts.forEach((part, index) => {
    if (node === undefined) return;
    if (index === cut) {
      put(node, part, jsonValue(r));
      node = undefined;
    } else if (index === parts.length - 1) {
      put(node, part, anyPayload(r));
    } else {
      node = put(node, part, {})[part];
    }
  });
  return event;
}

// --------------------------------------------------------------------- the oracle

function isPlain(value) {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

const own = (object, key) => (Object.hasOwn(object, key) ? object[key] : undefined);

/** Whether JSON carries `value` exactly (no NaN or infinities, no undefined, holes, cycles...). */
function isJSON(value, path = new Set()) {
  if (value === null || typeof value === "string" || typeof value === "boolean") return true;
  if (typeof value === "number") return Number.isFinite(value);
  if (!Array.isArray(value) && !isPlain(value)) return false;
  if (path.has(value)) return false;
  path.add(value);
  const ok = Array.isArray(value)
    ? Array.from({ length: value.length }, (_, i) => i).every((i) => i in value && isJSON(value[i], path))
    : Object.keys(value).every((key) => isJSON(value[key], path));
  path.delete(value);
  return ok;
}

/** Issue 12's depth: the details object is 1, each object or array inside adds one. */
function depth(value) {
  if (typeof value !== "object" || value === null) return 0;
  return 1 + Math.max(0, ...(Array.isArray(value) ? value : Object.values(value)).map(depth));
}

/** The field fromPayload must name for a JSON value, or null if it is a valid payload. */
function payloadProblem(payload) {
  if (!isPlain(payload)) return "payload";
  const code = own(payload, "code");
  if (INTEGER) {
    // docs "Wire codes": an integer within the safe range.
    if (typeof code !== "number" || !Number.isInteger(code) || Math.abs(code) > Number.MAX_SAFE_INTEGER) {
      return "code";
    }
  } else if (typeof code !== "string" || code.length > 256 || !PATTERN.test(code)) return "code"; // issue 12: at most 256
  if (typeof own(payload, "message") !== "string") return "message";
  if (typeof own(payload, "retryable") !== "boolean") return "retryable";
  const details = own(payload, "details");
  // Issue 12: nested at most 64 deep (the values generated here hold far fewer than 100,000).
  if (details !== undefined && details !== null && !(isPlain(details) && isJSON(details) && depth(details) <= 64)) {
    return "details";
  }
  // docs "Typed details": a known code's declared fields (from its YAML, as
  // tests/spec_oracle.py reads it), the first wrong or missing one in order.
  // docs "Aliases": an alias is read as its code.
  const canonical = (ex.aliasCodes ?? []).find(([alias]) => alias === code)?.[1] ?? code;
  const entry = ex.codes.find((c) => c.code === canonical);
  for (const [name, shape] of entry?.fields ?? []) {
    const given = isPlain(details) ? details : {};
    if (!Object.hasOwn(given, name)) {
      if (shape.required ?? true) return `details.${name}`;
    } else if (!fits(shape, given[name])) {
      return `details.${name}`;
    }
  }
  return null;
}

/** docs "The format": whether `value` has the field's (or an item's) shape. */
function fits(shape, value) {
  const spec = typeof shape === "string" ? { type: shape } : shape;
  switch (spec.type) {
    case "string":
      return typeof value === "string" && (spec.enum ?? [value]).includes(value);
    case "boolean":
      return typeof value === "boolean";
    case "object":
      return isPlain(value);
    case "array":
      return Array.isArray(value) && (spec.items === undefined || value.every((item) => fits(spec.items, item)));
    default:
      if (typeof value !== "number" || (spec.type === "integer" && !Number.isInteger(value))) return false;
      return (spec.minimum ?? -Infinity) <= value && value <= (spec.maximum ?? Infinity);
  }
}

// ---------------------------------------------------------------------- the checks

function describeValue(value) {
  try {
    const shown = JSON.stringify(value, (_, v) => (typeof v === "number" && !Number.isFinite(v) ? String(v) : v));
    return shown.slice(0, 500);
  } catch {
    return String(value);
  }
}

/** Run `property` over `RUNS` generated values; a failure names the seed and the run. */
function forAll(name, generate, property) {
  const r = prng(SEED ^ [...name].reduce((h, c) => Math.imul(h, 31) + c.charCodeAt(0), 7));
  for (let run = 0; run < RUNS; run++) {
    const value = generate(r);
    try {
      property(value);
    } catch (error) {
      error.message += `\n  run ${run} of TAXOGEN_FUZZ_SEED=${SEED}; value: ${describeValue(value)}`;
      throw error;
    }
  }
}

function assertTaxonomyError(error) {
  assert.equal(guard(error), true, "the guard must recognise the result");
  assert.ok(error instanceof Base);
  assert.ok(!(error instanceof InvalidPayloadError));
}

/** fromPayload(payload): an error of the taxonomy, or InvalidPayloadError naming the field. */
function checkFromPayload(payload) {
  const problem = ex ? payloadProblem(payload) : undefined;
  let error;
  try {
    error = fromPayload(payload);
  } catch (thrown) {
    assert.ok(thrown instanceof InvalidPayloadError, `threw ${thrown?.constructor?.name}: ${thrown?.message}`);
    assert.ok(FIELDS.includes(thrown.field) || /^details\.\w+$/.test(thrown.field), `field ${thrown.field}`);
    if (ex) assert.equal(thrown.field, problem, thrown.message);
    return;
  }
  assertTaxonomyError(error);
  if (!ex) return;
  assert.equal(problem, null, "accepted a malformed payload");
  const code = payload.code;
  if (KNOWN.includes(code)) {
    assert.equal(error.constructor, lookup(code));
    assert.equal(error.code, code);
  } else {
    // docs "Hierarchies": the class of the domain whose match claims it, else
    // the fallback's.
    const name = hierarchy.unknownClassName(ex, code);
    assert.equal(error.constructor, api[name]);
    assert.equal(error.code, hierarchy.carried(ex, name).code);
  }
  assert.equal(error.wireCode, code);
  assert.equal(error.message, payload.message);
  assert.equal(error.retryable, payload.retryable);
  const sent = error.toPayload();
  assert.deepEqual(
    { ...sent, details: JSON.parse(JSON.stringify(sent.details)) },
    {
      code,
      message: payload.message,
      retryable: payload.retryable,
      details: JSON.parse(JSON.stringify(payload.details ?? {})),
    },
  );
  assert.ok(isJSON(sent.details), "the details sent are JSON");
  const wire = JSON.stringify(sent);
  assert.equal(JSON.stringify(JSON.parse(wire)), wire);
}

/** errorFromEvent(event): an error, undefined, or InvalidPayloadError. */
function checkFromEvent(event) {
  let result;
  try {
    result = errorFromEvent(event);
  } catch (thrown) {
    assert.ok(thrown instanceof InvalidPayloadError, `threw ${thrown?.constructor?.name}: ${thrown?.message}`);
    if (!ex) return;
    if (!isPlain(event)) {
      assert.equal(thrown.field, "event");
      return;
    }
    assert.equal(thrown.field, payloadProblem(carried(event)));
    return;
  }
  if (result === undefined) {
    if (ex) assert.ok(!isPlain(event) || carried(event) === undefined, "an error was there to find");
    return;
  }
  assertTaxonomyError(result);
  if (ex) assert.deepEqual(result.toPayload(), fromPayload(carried(event)).toPayload());
}

/** What an event carries where its type says, or undefined (the oracle for errorFromEvent). */
function carried(event) {
  const type = own(event, "type");
  const found = EVENTS.find((e) => e.type === type);
  if (typeof type !== "string" || found === undefined) return undefined;
  let node = event;
  for (const part of found.location.split(".")) {
    if (!isPlain(node)) return undefined;
    node = own(node, part);
  }
  return node === null ? undefined : node;
}

// ------------------------------------------------------------------------ the tests

describe(`fuzz (TAXOGEN_FUZZ_SEED=${SEED}, ${RUNS} runs each)`, () => {
  test("fromPayload takes any JSON value", () => forAll("fromPayload", anyPayload, checkFromPayload));

  test("fromPayload takes any JSON value after a JSON round trip", () =>
    forAll("fromPayload-text", anyPayload, (value) => {
      const text = JSON.stringify(value);
      if (text !== undefined) checkFromPayload(JSON.parse(text));
    }));

  test("errorFromEvent takes any JSON value", () => forAll("errorFromEvent", eventShaped, checkFromEvent));

  test("toError takes any value and never throws", () =>
    forAll("toError", jsonValue, (value) => {
      const error = toError(value);
      assertTaxonomyError(error);
      if (ex) assert.equal(error.constructor, api[ex.wrap.className]);
    }));
});

const good = () => ({ code: KNOWN[0], message: "m", retryable: true });

describe("values that are not JSON", () => {
  class Payload {
    constructor() {
      Object.assign(this, good());
    }
  }
  const notObjects = {
    undefined: undefined,
    function: () => good(),
    symbol: Symbol("payload"),
    bigint: 10n,
    Date: new Date(0),
    Map: new Map(Object.entries(good())),
    Set: new Set([1]),
    "class instance": new Payload(),
    "inherited fields": Object.create(good()),
    "boxed string": new String("x"),
    RegExp: /x/,
    Error: Object.assign(new Error("x"), good()),
    Promise: Promise.resolve(good()),
    "typed array": new Uint8Array(2),
    array: [good()],
  };
  for (const [name, value] of Object.entries(notObjects)) {
    test(`a ${name} is an invalid payload and an invalid event`, () => {
      assert.throws(() => fromPayload(value), (e) => e instanceof InvalidPayloadError && e.field === "payload");
      assert.throws(() => errorFromEvent(value), (e) => e instanceof InvalidPayloadError && e.field === "event");
      assertTaxonomyError(toError(value));
      assert.equal(guard(value), false);
    });
  }

  test("an object with a null prototype is an object, as a payload and as details", () => {
    const payload = Object.assign(Object.create(null), good());
    payload.details = Object.assign(Object.create(null), { a: Object.assign(Object.create(null), { b: [1] }) });
    const error = fromPayload(payload);
    assertTaxonomyError(error);
    assert.equal(JSON.stringify(error.toPayload().details), '{"a":{"b":[1]}}');
  });

  const badDetails = {
    undefined: { a: undefined },
    bigint: { a: 1n },
    function: { a: () => 1 },
    symbol: { a: Symbol("x") },
    Date: { a: new Date(0) },
    Map: { a: new Map() },
    NaN: { a: NaN },
    Infinity: { a: [1, Infinity] },
    "-Infinity": { a: { b: -Infinity } },
    "a hole": { a: [1, , 2] }, // eslint-disable-line no-sparse-arrays
    "a cycle": (() => { const c = { x: [] }; c.x.push(c); return { c }; })(),
    "a class instance": { a: new (class Thing {})() },
    "a boxed number": { a: new Number(1) },
  };
  for (const [name, details] of Object.entries(badDetails)) {
    test(`details holding ${name} are an invalid payload, and refused when an error is built`, () => {
      assert.throws(
        () => fromPayload({ ...good(), details }),
        (e) => e instanceof InvalidPayloadError && e.field === "details",
      );
      assert.throws(() => new Base("m", { details }), TypeError);
    });
  }

  test("symbol-keyed properties of details are not data: they are not carried", () => {
    const error = fromPayload({ ...good(), details: { a: 1, [Symbol("s")]: 2 } });
    assert.deepEqual(Object.getOwnPropertySymbols(error.toPayload().details), []);
    assert.equal(JSON.stringify(error.toPayload().details), '{"a":1}');
  });

  test("a getter read twice cannot slip NaN past the check", () => {
    let reads = 0;
    const details = Object.defineProperty({}, "x", { get: () => (reads++ ? NaN : 1), enumerable: true });
    let error;
    try {
      error = fromPayload({ ...good(), details });
    } catch (thrown) {
      assert.ok(thrown instanceof InvalidPayloadError);
      return;
    }
    assert.ok(isJSON(error.details), "the details kept are what was checked");
    assert.ok(isJSON(error.toPayload().details));
  });
});

describe("hostile objects", () => {
  const boom = () => {
    throw new Error("boom");
  };
  const revoked = () => {
    const { proxy, revoke } = Proxy.revocable({}, {});
    revoke();
    return proxy;
  };
  const traps = (target) =>
    new Proxy(target, { get: boom, getOwnPropertyDescriptor: boom, ownKeys: boom, has: boom, getPrototypeOf: boom });
  const getter = (key) => Object.defineProperty(good(), key, { get: boom, enumerable: true });
  const hostile = {
    "a revoked proxy": revoked,
    "a proxy whose traps throw": () => traps(good()),
    "a getter that throws on code": () => getter("code"),
    "a getter that throws on message": () => getter("message"),
    "a getter that throws on retryable": () => getter("retryable"),
    "a getter that throws on details": () => getter("details"),
    "details with a getter that throws": () => ({
      ...good(),
      details: Object.defineProperty({}, "x", { get: boom, enumerable: true }),
    }),
    "details that are a revoked proxy": () => ({ ...good(), details: revoked() }),
    "details holding a revoked proxy": () => ({ ...good(), details: { a: [revoked()] } }),
    "details that are a proxy whose traps throw": () => ({ ...good(), details: traps({}) }),
  };
  for (const [name, make] of Object.entries(hostile)) {
    test(`guard and toError never throw for ${name}`, () => {
      assert.equal(guard(make()), false);
      assertTaxonomyError(toError(make()));
    });
    test(`${name}: fromPayload throws only InvalidPayloadError`, () => {
      assert.throws(() => fromPayload(make()), InvalidPayloadError);
    });
    test(`${name}: errorFromEvent throws only InvalidPayloadError`, () => {
      const events = [make(), traps({}), revoked()];
      for (const { type, location } of EVENTS) {
        // The hostile value where the event type says its error is.
        const parts = location.split(".");
        const event = { type };
        parts.slice(0, -1).reduce((node, part) => (node[part] = {}), event)[parts.at(-1)] = make();
        events.push(event);
      }
      for (const event of events) {
        try {
          errorFromEvent(event);
        } catch (thrown) {
          assert.ok(thrown instanceof InvalidPayloadError, `threw ${thrown?.constructor?.name}: ${thrown?.message}`);
        }
      }
    });
  }
});
