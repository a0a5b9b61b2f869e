// The runtime contract of a generated TypeScript module, for any taxonomy.
//
// Run by tests/targets/typescript/test_typescript.py, once per case:
//   TAXOGEN_MODULE=<compiled pkg>/dist/index.js TAXOGEN_EXPECT=<expectations.json> node --test api.test.mjs
// The expectations (tests/support.py: expectations()) say what the taxonomy holds;
// every check below loops over them, so no taxonomy's names are written here.

import assert from "node:assert/strict";
import { cpSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { after, describe, test } from "node:test";
import { pathToFileURL } from "node:url";

import * as hierarchy from "./hierarchy.mjs";

const MODULE = process.env.TAXOGEN_MODULE;
const EXPECT = process.env.TAXOGEN_EXPECT;
if (!MODULE || !EXPECT) {
  throw new Error("set TAXOGEN_MODULE (the compiled dist/index.js) and TAXOGEN_EXPECT (the expectations JSON)");
}

const api = await import(pathToFileURL(MODULE).href);
/** @type {{name: string, version: string, base: string, guard: string, codeCase: string,
 *   fallback: {code: string, className: string}, wrap: {code: string, className: string},
 *   domains: {key: string, member: string, className: string, title: string, synthesized: boolean, parentClass: string}[],
 *   matches: {prefix?: string, low?: number, high?: number, className: string}[],
 *   codes: {code: string, member: string, className: string, parent: string, domain: string, retryable: boolean, meaning: string}[],
 *   events: {type: string, location: string}[]}} */
const ex = JSON.parse(readFileSync(EXPECT, "utf8"));

// A second copy of the compiled package, as when two dependencies each bundle it.
const copyRoot = mkdtempSync(join(tmpdir(), "taxogen-copy-"));
const pkgDir = dirname(dirname(MODULE));
cpSync(join(pkgDir, "package.json"), join(copyRoot, "package.json"));
cpSync(join(pkgDir, "dist"), join(copyRoot, "dist"), { recursive: true });
const other = await import(pathToFileURL(join(copyRoot, "dist", "index.js")).href);
after(() => rmSync(copyRoot, { recursive: true, force: true }));

const Base = api[ex.base];
const guard = api[ex.guard];
const { InvalidPayloadError, lookup, isRetryable, fromPayload, toError, errorFromEvent, ERROR_EVENTS } = api;
const cls = (name) => api[name];
const Wrap = cls(ex.wrap.className);
const codeSet = new Set(ex.codes.map((c) => c.code));
// The codes whose YAML declares no details fields: their classes take any JSON
// details, which is what most checks here build. The typed ones (constructed from
// their fields) are tests/targets/typescript/ts/typed.test.mjs's.
const plainCodes = ex.codes.filter((c) => !c.typed);
const domainOf = new Map(ex.domains.map((d) => [d.key, d]));

const unknownClassName = (code) => hierarchy.unknownClassName(ex, code);
const carried = (className) => hierarchy.carried(ex, className);

/** A word in the taxonomy's code case. */
const inCase = (text) => (ex.codeCase === "upper_snake" ? text.toUpperCase() : text.toLowerCase());
const otherCase = (text) => (ex.codeCase === "upper_snake" ? text.toLowerCase() : text.toUpperCase());
// docs "Wire codes": integer codes, or any printable ASCII once a code gives a wire:.
const INTEGER = ex.wireType === "integer";
const CASE = ex.codeCase === "upper_snake" ? /^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*$/ : /^[a-z][a-z0-9]*(?:_[a-z0-9]+)*$/;
/** Whether a code is well-formed on the wire, known or not. */
function isWellFormed(code) {
  if (INTEGER) return typeof code === "number" && Number.isSafeInteger(code);
  // docs "Codes as written": keys as written are printable ASCII too.
  const printable = ex.wireDeclared || ex.codeCase === "as_written";
  return typeof code === "string" && code.length <= 256 && (printable ? /^[!-~]+$/ : CASE).test(code);
}
/** A well-formed code the taxonomy does not have. */
function unknownCode(stem = "zz_not_a_known_code") {
  if (INTEGER) {
    let number = 424242;
    while (codeSet.has(number)) number += 1;
    return number;
  }
  let code = inCase(stem);
  while (codeSet.has(code)) code = `${code}${inCase("_x")}`;
  return code;
}
// Names that live on Object.prototype or Function.prototype: a lookup table built on
// a plain object would find them.
const PROTO_NAMES = ["constructor", "toString", "valueOf", "hasOwnProperty", "__proto__", "__defineGetter__", "isPrototypeOf"];

const DETAILS = Object.freeze({
  id: "x-1",
  count: 3,
  ratio: -0.5,
  ok: true,
  none: null,
  list: [1, "two", null, false, { deep: [[]] }],
  nested: { a: { b: { c: "d" } } },
  "": "empty key",
  "unicode \u2028 \u{1F389}": "é",
});

/** Runs `fn`, expecting an InvalidPayloadError about `field` (a field of a payload or event). */
function assertInvalid(fn, field, label) {
  let caught;
  try {
    fn();
  } catch (error) {
    caught = error;
  }
  assert.ok(caught !== undefined, `${label}: expected InvalidPayloadError, nothing was thrown`);
  assert.ok(caught instanceof InvalidPayloadError, `${label}: expected InvalidPayloadError, got ${caught}`);
  assert.equal(caught.field, field, `${label}: field`);
  assert.ok(caught.message.startsWith(field), `${label}: message ${JSON.stringify(caught.message)} does not name ${field}`);
  return caught;
}

/** Walks `chain` from `Cls` up through prototypes of the constructors, as class names. */
function ancestry(Cls) {
  const names = [];
  for (let at = Cls; at !== null && at !== Function.prototype; at = Object.getPrototypeOf(at)) names.push(at.name);
  return names;
}

/** Puts `value` at the dotted `location` of a fresh event of `type`. */
function eventWith(type, location, value) {
  const event = { type };
  const parts = location.split(".");
  let at = event;
  for (const part of parts.slice(0, -1)) {
    const next = {};
    Object.defineProperty(at, part, { value: next, enumerable: true, writable: true, configurable: true });
    at = next;
  }
  Object.defineProperty(at, parts.at(-1), { value, enumerable: true, writable: true, configurable: true });
  return event;
}

/** Sets a property on Object.prototype for the duration of `fn` (a prototype-pollution attack). */
function withPolluted(key, value, fn) {
  const had = Object.getOwnPropertyDescriptor(Object.prototype, key);
  Object.defineProperty(Object.prototype, key, { value, configurable: true, writable: true, enumerable: false });
  try {
    return fn();
  } finally {
    if (had) Object.defineProperty(Object.prototype, key, had);
    else delete Object.prototype[key];
  }
}

function payloadOf(c, overrides = {}) {
  return { code: c.code, message: `message of ${c.code}`, retryable: c.retryable, details: structuredClone(DETAILS), ...overrides };
}

describe("exports", () => {
  test("the taxonomy has codes and every class the expectations name is exported", () => {
    assert.ok(ex.codes.length > 0);
    for (const name of [ex.base, ex.guard, ex.fallback.className, ex.wrap.className, ...ex.domains.map((d) => d.className), ...ex.codes.map((c) => c.className)]) {
      assert.equal(typeof api[name], "function", `${name} is not exported`);
    }
    for (const name of ["InvalidPayloadError", "lookup", "isRetryable", "fromPayload", "toError", "errorFromEvent"]) {
      assert.equal(typeof api[name], "function", `${name} is not exported`);
    }
  });

  test("VERSION is the taxonomy's version", () => {
    assert.equal(api.VERSION, ex.version);
  });

  test("ErrorCode maps every UPPER_SNAKE member to its code, and nothing else", () => {
    // docs "Aliases": an alias is a member too, its code's value.
    const members = [...ex.codes.map((c) => [c.member, c.code]), ...ex.aliasMembers];
    assert.deepEqual({ ...api.ErrorCode }, Object.fromEntries(members));
    for (const c of ex.codes) assert.match(c.member, /^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*$/);
  });

  test("Domain maps every UPPER_SNAKE member to its domain key, and nothing else", () => {
    assert.deepEqual({ ...api.Domain }, Object.fromEntries(ex.domains.map((d) => [d.member, d.key])));
  });

  test("ERROR_EVENTS is the event table, frozen", () => {
    assert.deepEqual({ ...ERROR_EVENTS }, Object.fromEntries(ex.events.map((e) => [e.type, e.location])));
    assert.ok(Object.isFrozen(ERROR_EVENTS));
  });
});

describe("classes", () => {
  test("the base class extends Error, is named after the taxonomy's base and carries the fallback's code", () => {
    // Through the one class of the package's src/runtime.ts that index.ts does not
    // export, the same for every taxonomy: TaxonomyError, which extends Error.
    assert.equal(Object.getPrototypeOf(Object.getPrototypeOf(Base)), Error);
    assert.deepEqual(ancestry(Base), [ex.base, "TaxonomyError", "Error"]);
    assert.equal(Base.name, ex.base);
    const fallback = plainCodes.find((c) => c.code === ex.fallback.code);
    assert.equal(Base.code, fallback.code);
    assert.equal(Base.domain, fallback.domain);
    assert.equal(Base.meaning, fallback.meaning);
    assert.equal(Base.retryable, fallback.retryable);
    const error = new Base("m");
    assert.equal(error.name, ex.base);
    assert.equal(error.code, ex.fallback.code);
    assert.equal(error.wireCode, ex.fallback.code);
    assert.ok(guard(error));
  });

  test("every domain has a base class directly under its parent domain's, else the base", () => {
    for (const d of ex.domains) {
      const Domain = cls(d.className);
      assert.equal(Object.getPrototypeOf(Domain), cls(d.parentClass), `${d.className} does not extend ${d.parentClass}`);
      assert.equal(Domain.domain, d.key, d.className);
      if (d.synthesized) {
        // No code of its own: like the bare base, it carries the fallback's code.
        assert.equal(Domain.meaning, d.title, d.className);
        assert.equal(Domain.code, ex.fallback.code, d.className);
        assert.ok(!ex.codes.some((c) => c.className === d.className), `${d.className} is also a code's class`);
      } else {
        const own = ex.codes.filter((c) => c.className === d.className);
        assert.equal(own.length, 1, `${d.className}: one code must own the domain base`);
        assert.equal(own[0].domain, d.key);
        assert.equal(Domain.code, own[0].code);
      }
    }
  });

  for (const c of plainCodes) {
    test(`${c.code}: ${c.className}`, () => {
      const Cls = cls(c.className);
      const Domain = cls(domainOf.get(c.domain).className);
      assert.equal(Cls.name, c.className);
      assert.equal(Cls.code, c.code);
      assert.equal(Cls.domain, c.domain);
      assert.equal(Cls.meaning, c.meaning);
      assert.equal(Cls.retryable, c.retryable);
      assert.equal(Cls.deprecated, c.deprecated ?? undefined, "deprecated");
      assert.equal(Cls.replacedBy, c.replacedBy ?? undefined, "replacedBy");
      // Hierarchy: parent as in Python, through the domain base to the base, the
      // runtime's TaxonomyError and Error.
      assert.equal(Object.getPrototypeOf(Cls), cls(c.parent), `${c.className} must extend ${c.parent}`);
      const chain = ancestry(Cls);
      const top = [ex.base, "TaxonomyError", "Error"];
      assert.deepEqual(chain.slice(-3), top, chain.join(" < "));
      assert.ok(chain.includes(Domain.name), `${chain.join(" < ")} skips ${Domain.name}`);
      assert.equal(Object.getPrototypeOf(Cls.prototype), cls(c.parent).prototype);

      const error = new Cls("something broke");
      for (const Ancestor of [Cls, Domain, Base, Error]) assert.ok(error instanceof Ancestor, `not instanceof ${Ancestor.name}`);
      assert.equal(error.message, "something broke");
      assert.equal(error.code, c.code);
      assert.equal(error.wireCode, c.code);
      assert.equal(error.domain, c.domain);
      assert.equal(error.retryable, c.retryable);
      assert.deepEqual(error.details, {});
      assert.equal("cause" in error, false);
      assert.equal(error.name, c.className);
      assert.equal(String(error.stack).split("\n")[0], `${c.className}: something broke`);
      assert.equal(String(error), `${c.className}: something broke`);
      // The name is a literal of the class (its errors read it through their
      // prototype, never an own key), not the constructor's name, which minifiers
      // rename.
      assert.equal(Cls.prototype.name, c.className);
      assert.equal(Object.hasOwn(error, "name"), false);
      const descriptor = Object.getOwnPropertyDescriptor(Cls, "name");
      Object.defineProperty(Cls, "name", { value: "t", configurable: true });
      try {
        assert.equal(new Cls("m").name, c.className);
        assert.equal(new Cls("m").toJSON().name, c.className);
      } finally {
        Object.defineProperty(Cls, "name", descriptor);
      }
    });
  }

  test("without a message, an error's message is its class's meaning", () => {
    for (const c of plainCodes) {
      assert.equal(new (cls(c.className))().message, c.meaning, c.code);
      assert.equal(new (cls(c.className))(undefined, { details: { a: 1 } }).message, c.meaning, c.code);
    }
    assert.equal(new (cls(plainCodes[0].className))("").message, "", "an empty message is a message");
  });

  test("a message that is not a string is refused, as in Python", () => {
    const Cls = cls(plainCodes[0].className);
    for (const bad of [5, null, {}, ["m"], true]) {
      assert.throws(() => new Cls(bad), (err) => err instanceof TypeError && /^message: /.test(err.message), String(bad));
    }
  });
});

describe("constructor options", () => {
  const c = plainCodes.at(-1);
  const Cls = cls(c.className);

  test("details are copied deeply: later changes to the caller's object do not reach the error", () => {
    const input = structuredClone(DETAILS);
    const error = new Cls("m", { details: input });
    assert.deepEqual(error.details, DETAILS);
    assert.notEqual(error.details, input);
    input.id = "changed";
    input.list.push(Number.NaN);
    input.nested.a.b.self = input;
    assert.deepEqual(error.details, DETAILS);
    assert.deepEqual(error.toPayload().details, DETAILS);
    assert.doesNotThrow(() => JSON.stringify(error));
  });

  test("details are read-only on the error, and payloads are the caller's to change", () => {
    const error = new Cls("m", { details: { a: { b: [1] } } });
    assert.throws(() => {
      error.details.a = 2;
    }, TypeError);
    assert.throws(() => {
      error.details.a.b.push(Number.NaN);
    }, TypeError);
    const payload = error.toPayload();
    payload.details.a.b.push(2);
    payload.details.extra = true;
    assert.deepEqual(error.details, { a: { b: [1] } });
    assert.deepEqual(error.toPayload().details, { a: { b: [1] } });
  });

  test("details keep what JSON keeps: key order, a __proto__ key, shared (acyclic) references, frozen input", () => {
    const parsed = JSON.parse('{"z": 1, "a": 2, "__proto__": {"polluted": true}, "m": [3]}');
    const error = new Cls("m", { details: parsed });
    assert.deepEqual(Object.keys(error.details), ["z", "a", "__proto__", "m"]);
    assert.deepEqual(error.details, parsed);
    assert.equal(Object.getPrototypeOf(error.details), Object.prototype);
    assert.equal({}.polluted, undefined);
    assert.deepEqual(JSON.parse(JSON.stringify(error)).details, parsed);
    const shared = { s: 1 };
    assert.deepEqual(new Cls("m", { details: { a: shared, b: [shared, shared] } }).details, { a: { s: 1 }, b: [{ s: 1 }, { s: 1 }] });
    assert.deepEqual(new Cls("m", { details: Object.freeze({ a: Object.freeze([1]) }) }).details, { a: [1] });
    const bare = Object.assign(Object.create(null), { k: Object.assign(Object.create(null), { v: 1 }) });
    assert.equal(new Cls("m", { details: bare }).toPayload().details.k.v, 1);
  });

  test("deeply nested details do not exhaust the stack: past 64 levels they are refused", () => {
    // The limit: the details object is depth 1, each object or array inside adds one.
    const nest = (levels) => {
      let deep = { leaf: true }; // depth 1 of its own
      for (let i = 1; i < levels; i++) deep = i % 2 ? { d: deep } : [deep];
      return { d: deep }; // the details object: one more level
    };
    const depth = (value) => {
      let n = 0;
      for (let at = value; typeof at === "object" && at !== null; n++) at = Array.isArray(at) ? at[0] : at.d;
      return n;
    };
    const limit = nest(63);
    assert.equal(depth(limit), 64);
    const error = new Cls("m", { details: limit });
    assert.equal(depth(error.details), 64);
    assert.equal(depth(error.toPayload().details), 64);
    assert.throws(() => new Cls("m", { details: nest(64) }), (e) => e instanceof TypeError && /deeper than 64/.test(e.message));
    assert.throws(() => new Cls("m", { details: nest(50_000) }), (e) => e instanceof TypeError && /deeper than 64/.test(e.message));
    let cyclic = {};
    const top = cyclic;
    for (let i = 0; i < 50_000; i++) cyclic = cyclic.next = {};
    cyclic.back = top;
    assert.throws(() => new Cls("m", { details: top }), TypeError);
  });

  test("no details, undefined or null details give empty details", () => {
    for (const options of [undefined, {}, { details: undefined }, { details: null }]) {
      const error = new Cls("m", options);
      assert.deepEqual(error.details, {});
      assert.deepEqual(error.toPayload().details, {});
    }
  });

  test("details JSON cannot carry are refused when the error is made, naming where", () => {
    const cycle = { a: 1 };
    cycle.self = cycle;
    const viaArray = { list: [] };
    viaArray.list.push({ up: viaArray });
    // eslint-disable-next-line no-sparse-arrays
    const sparse = [1, , 3];
    const refused = [
      [{ n: Number.NaN }, "details.n"],
      [{ n: Number.POSITIVE_INFINITY }, "details.n"],
      [{ n: Number.NEGATIVE_INFINITY }, "details.n"],
      [{ f() {} }, "details.f"],
      [{ s: Symbol("s") }, "details.s"],
      [{ b: 10n }, "details.b"],
      [{ u: undefined }, "details.u"],
      [{ d: new Date(0) }, "details.d"],
      [{ m: new Map([["a", 1]]) }, "details.m"],
      [{ set: new Set() }, "details.set"],
      [{ e: new Error("x") }, "details.e"],
      [{ r: /x/ }, "details.r"],
      [{ boxed: new String("s") }, "details.boxed"],
      [{ typed: new Uint8Array(2) }, "details.typed"],
      [{ instance: new (class Point {})() }, "details.instance"],
      [{ list: [1, { deep: [Number.NaN] }] }, "details.list[1].deep[0]"],
      [{ sparse }, "details.sparse[1]"],
      [cycle, "details.self"],
      [viaArray, "details.list[0].up"],
    ];
    for (const [details, where] of refused) {
      assert.throws(
        () => new Cls("m", { details }),
        (error) => error instanceof TypeError && error.message.startsWith(`${where}:`),
        `${where} should be refused`,
      );
    }
    // The first problem in document order is the one named.
    assert.throws(() => new Cls("m", { details: { a: Number.NaN, b: () => 0 } }), /^TypeError: details\.a:/);
  });

  test("details that are not a plain object are refused", () => {
    for (const details of [[], [1], "text", 5, true, new Date(0), new Map(), new (class Details {})(), () => 0]) {
      assert.throws(() => new Cls("m", { details }), (error) => error instanceof TypeError && /^details\b/.test(error.message), String(details));
    }
  });

  test("cause is passed through as the ES2022 cause", () => {
    const cause = new Error("root");
    const error = new Cls("m", { cause });
    assert.equal(error.cause, cause);
    assert.equal(Object.getOwnPropertyDescriptor(error, "cause")?.enumerable, false);
    for (const value of ["text", 0, null, { any: "thing" }]) assert.equal(new Cls("m", { cause: value }).cause, value);
    // As with `new Error(m, {cause: undefined})`, an explicit undefined is a cause.
    assert.equal(Object.hasOwn(new Cls("m", { cause: undefined }), "cause"), true);
    assert.equal(Object.hasOwn(new Cls("m", { details: {} }), "cause"), false);
    assert.equal("cause" in new Cls("m", { cause }).toJSON(), false, "toJSON does not carry the cause");
  });

  test("retryable overrides the class's retryability, both ways, and must be a boolean", () => {
    for (const k of plainCodes) {
      const K = cls(k.className);
      assert.equal(new K("m", { retryable: !k.retryable }).retryable, !k.retryable, k.code);
      assert.equal(new K("m", { retryable: k.retryable }).retryable, k.retryable, k.code);
      assert.equal(new K("m", { retryable: undefined }).retryable, k.retryable, k.code);
      assert.equal(K.retryable, k.retryable, "the override must not change the class");
    }
    for (const retryable of ["yes", "true", 1, 0, null, new Boolean(true)]) {
      assert.throws(() => new Cls("m", { retryable }), (error) => error instanceof TypeError && error.message.startsWith("retryable"), String(retryable));
    }
  });
});

describe("toPayload and toJSON", () => {
  test("every error gives {code, message, retryable, details} and, for logs, the same plus its name", () => {
    for (const c of plainCodes) {
      const Cls = cls(c.className);
      for (const retryable of [true, false]) {
        const error = new Cls(`m ${c.code}`, { details: DETAILS, retryable });
        const payload = { code: c.code, message: `m ${c.code}`, retryable, details: structuredClone(DETAILS) };
        assert.deepEqual(error.toPayload(), payload);
        assert.deepEqual(Object.keys(error.toPayload()), ["code", "message", "retryable", "details"]);
        assert.deepEqual(error.toJSON(), { name: c.className, ...payload });
        assert.deepEqual(Object.keys(error.toJSON()).sort(), ["code", "details", "message", "name", "retryable"]);
        assert.deepEqual(JSON.parse(JSON.stringify(error)), { name: c.className, ...payload });
        assert.deepEqual(JSON.parse(JSON.stringify({ wrapped: error })).wrapped, error.toJSON());
      }
    }
  });
});

describe("lookup and isRetryable", () => {
  test("every code finds its class and its retryability", () => {
    for (const c of ex.codes) {
      assert.equal(lookup(c.code), cls(c.className), c.code);
      assert.equal(isRetryable(c.code), c.retryable, c.code);
    }
  });

  test("removed codes are not generated and fall back like unknown ones", () => {
    for (const code of ex.removed) {
      assert.ok(!Object.values(api.ErrorCode).includes(code), code);
      assert.equal(api.lookup(code), cls(unknownClassName(code)), code);
    }
  });

  test("codes the taxonomy lacks give the fallback's class, or a matching domain's", () => {
    const odd = [
      unknownCode(),
      "",
      " ",
      ...PROTO_NAMES,
      ...PROTO_NAMES.map(inCase),
      ...ex.codes.map((c) => otherCase(String(c.code))).filter((code) => !codeSet.has(code)),
      ...ex.codes.map((c) => `${c.code}\n`),
      ...ex.codes.map((c) => c.member).filter((member) => !codeSet.has(member)),
      ...ex.codes.map((c) => c.className),
    ].filter((code) => !codeSet.has(code));
    for (const code of odd) {
      const name = unknownClassName(code);
      assert.equal(lookup(code), cls(name), JSON.stringify(code));
      assert.equal(isRetryable(code), carried(name).retryable, JSON.stringify(code));
    }
  });
});

describe("fromPayload", () => {
  test("every code: the right class, fields as sent, and toPayload gives back exactly the payload", () => {
    for (const c of plainCodes) {
      for (const retryable of [c.retryable, !c.retryable]) {
        const payload = payloadOf(c, { retryable });
        const sent = structuredClone(payload);
        const error = fromPayload(payload);
        assert.equal(error.constructor, cls(c.className), c.code);
        assert.ok(error instanceof Base && guard(error));
        assert.equal(error.code, c.code);
        assert.equal(error.wireCode, c.code);
        assert.equal(error.domain, c.domain);
        assert.equal(error.message, sent.message);
        assert.equal(error.retryable, retryable);
        assert.deepEqual(error.details, sent.details);
        assert.deepEqual(error.toPayload(), sent);
        assert.deepEqual(fromPayload(JSON.parse(JSON.stringify(error.toPayload()))).toPayload(), sent);
        // The error does not share the caller's objects.
        payload.details.nested.a.b.c = "changed";
        assert.deepEqual(error.details, sent.details);
      }
    }
  });

  test("a well-formed code the taxonomy lacks gives the fallback class, keeping the code as received", () => {
    const wellFormed = (name) => isWellFormed(name) && !codeSet.has(name);
    const received = INTEGER
      ? [unknownCode(), Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER, 0].filter(wellFormed)
      : [unknownCode(), ...PROTO_NAMES.map(inCase).filter(wellFormed)];
    assert.ok(received.length > 1);
    for (const code of received) {
      const payload = { code, message: "from a newer peer", retryable: true, details: { v: [1] } };
      const error = fromPayload(structuredClone(payload));
      const name = unknownClassName(code);
      assert.equal(error.constructor, cls(name), code);
      assert.equal(error.code, carried(name).code);
      assert.equal(error.wireCode, code);
      assert.equal(error.retryable, true);
      assert.deepEqual(error.toPayload(), payload, "re-emitted exactly as received");
      assert.equal(error.toJSON().code, code);
    }
  });

  test("null or missing details give empty details", () => {
    const c = plainCodes[0];
    for (const payload of [payloadOf(c, { details: null }), { code: c.code, message: "m", retryable: false }]) {
      const error = fromPayload(payload);
      assert.deepEqual(error.details, {});
      assert.deepEqual(error.toPayload().details, {});
    }
  });

  test("extra top-level fields are ignored", () => {
    for (const c of plainCodes) {
      const plain = payloadOf(c);
      const noisy = {
        ...plain,
        name: "SomethingElse",
        wireCode: unknownCode(),
        domain: "elsewhere",
        stack: "forged",
        cause: "forged",
        extra: { anything: [1] },
        ["__proto__"]: { own: "not a prototype" },
      };
      const error = fromPayload(noisy);
      assert.equal(error.constructor, cls(c.className));
      assert.equal(error.name, c.className);
      assert.equal(error.wireCode, c.code);
      assert.equal(error.domain, c.domain);
      assert.equal("cause" in error, false);
      assert.deepEqual(error.toPayload(), plain);
    }
  });

  test("a payload that is not a plain object is refused as `payload`", () => {
    const valid = payloadOf(plainCodes[0]);
    for (const payload of [null, undefined, 0, 1, "text", JSON.stringify(valid), true, [], [valid], new Date(0), new Map(Object.entries(valid)), Object.create(valid), () => valid]) {
      assertInvalid(() => fromPayload(payload), "payload", String(payload));
    }
  });

  test("a missing or mistyped code is refused as `code`", () => {
    const c = plainCodes[0];
    const { code: _drop, ...missing } = payloadOf(c);
    assertInvalid(() => fromPayload(missing), "code", "missing code");
    // docs "Wire codes": a string where codes are integers, a number where not.
    const other = INTEGER ? String(c.code) : 1;
    for (const code of [null, other, true, {}, [c.code], new String(c.code), new Number(1)]) {
      assertInvalid(() => fromPayload(payloadOf(c, { code })), "code", `code ${String(code)}`);
    }
  });

  test("a code that does not match the taxonomy's code case exactly is refused as `code`", () => {
    const malformed = [
      "",
      " ",
      "\n",
      inCase("two__underscores"),
      inCase("_leading"),
      inCase("trailing_"),
      inCase("1digit_first"),
      inCase("has-dash"),
      inCase("has.dot"),
      inCase("has space"),
      inCase("caf\u00e9"),
      inCase("nul\u0000byte"),
      ...plainCodes.flatMap((c) => [`${c.code}\n`, `${c.code} `, ` ${c.code}`, `\t${c.code}`, `${c.code}\r\n`, `${c.code}\u2028`]),
      // The other case: a lower-case taxonomy refuses upper-case codes and vice versa.
      ...plainCodes.map((c) => otherCase(String(c.code))),
      ...plainCodes.map((c) => otherCase(String(c.code).slice(0, 1)) + String(c.code).slice(1)),
      ...plainCodes.map((c) => String(c.code).slice(0, -1) + otherCase(String(c.code).slice(-1))),
    ].filter((code) => !codeSet.has(code) && !isWellFormed(code));
    for (const code of malformed) {
      const error = assertInvalid(() => fromPayload(payloadOf(plainCodes[0], { code })), "code", JSON.stringify(code));
      assert.ok(!codeSet.has(code));
      assert.ok(error.message.length <= 200, "the message stays short");
    }
    const long = inCase("a".repeat(10_000));
    assert.ok(assertInvalid(() => fromPayload(payloadOf(plainCodes[0], { code: `${long} ` })), "code", "long").message.length <= 200);
  });

  test("a missing or mistyped message is refused as `message`", () => {
    const c = plainCodes[0];
    const { message: _drop, ...missing } = payloadOf(c);
    assertInvalid(() => fromPayload(missing), "message", "missing message");
    for (const message of [null, 5, false, {}, ["m"], new String("m")]) {
      assertInvalid(() => fromPayload(payloadOf(c, { message })), "message", `message ${String(message)}`);
    }
  });

  test("retryable must be a real boolean, else it is refused as `retryable`", () => {
    const c = plainCodes[0];
    const { retryable: _drop, ...missing } = payloadOf(c);
    assertInvalid(() => fromPayload(missing), "retryable", "missing retryable");
    for (const retryable of ["true", "false", 1, 0, null, "", new Boolean(true), [true], {}]) {
      assertInvalid(() => fromPayload(payloadOf(c, { retryable })), "retryable", `retryable ${JSON.stringify(retryable)}`);
    }
  });

  test("details that are not an object, or that JSON cannot carry, are refused as `details`", () => {
    const c = plainCodes[0];
    const cycle = {};
    cycle.self = cycle;
    for (const details of ["{}", 1, true, [], [{}], new Date(0), new Map(), { n: Number.NaN }, { f: () => 0 }, { u: undefined }, cycle, { a: [1, new Set()] }]) {
      assertInvalid(() => fromPayload(payloadOf(c, { details })), "details", `details ${String(details)}`);
    }
  });

  test("only the payload's own fields count: a polluted Object.prototype supplies nothing", () => {
    const c = plainCodes[0];
    const { retryable: _r, ...noRetryable } = payloadOf(c);
    withPolluted("retryable", !c.retryable, () => assertInvalid(() => fromPayload(noRetryable), "retryable", "inherited retryable"));
    const { code: _c, ...noCode } = payloadOf(c);
    withPolluted("code", c.code, () => assertInvalid(() => fromPayload(noCode), "code", "inherited code"));
    const { details: _d, ...noDetails } = payloadOf(c);
    withPolluted("details", { injected: true }, () => assert.deepEqual(fromPayload(noDetails).details, {}));
  });

  test("InvalidPayloadError is an Error, named, and no error of the taxonomy", () => {
    const error = assertInvalid(() => fromPayload(null), "payload", "null");
    assert.ok(error instanceof Error);
    assert.equal(error.name, "InvalidPayloadError");
    assert.equal(String(error.stack).split("\n")[0], `InvalidPayloadError: ${error.message}`);
    assert.equal(guard(error), false);
    assert.equal(error instanceof Base, false);
  });
});

describe("toError", () => {
  const wrapCode = ex.codes.find((c) => c.code === ex.wrap.code);

  function assertWrapped(value, label) {
    const error = toError(value);
    assert.equal(error.constructor, Wrap, label);
    assert.ok(guard(error) && error instanceof Base, label);
    assert.equal(error.code, ex.wrap.code, label);
    assert.equal(error.retryable, wrapCode.retryable, label);
    assert.ok(Object.hasOwn(error, "cause"), label);
    assert.equal(error.cause, value, label);
    assert.equal(typeof error.message, "string", label);
    assert.doesNotThrow(() => JSON.stringify(error), label);
    return error;
  }

  test("errors of the taxonomy are returned unchanged", () => {
    for (const c of plainCodes) {
      const error = new (cls(c.className))("m");
      assert.equal(toError(error), error, c.code);
      const received = fromPayload(payloadOf(c));
      assert.equal(toError(received), received, c.code);
    }
    const unknown = fromPayload({ code: unknownCode(), message: "m", retryable: false });
    assert.equal(toError(unknown), unknown);
    const bare = new Base("m");
    assert.equal(toError(bare), bare);
  });

  test("an Error is wrapped as the wrap code with the original as cause, its message kept", () => {
    for (const original of [new Error("disk full"), new TypeError("bad type"), new RangeError(""), new InvalidPayloadError("code: bad", "code")]) {
      const error = assertWrapped(original, original.name);
      assert.ok(error.message.includes(original.message), error.message);
      assert.ok(error.message.includes(original.name), error.message);
    }
  });

  test("anything else thrown is wrapped too, and toError never throws", () => {
    const throwing = {
      toString() {
        throw new Error("toString");
      },
      valueOf() {
        throw new Error("valueOf");
      },
    };
    const nameThrows = new Error("x");
    Object.defineProperty(nameThrows, "name", {
      get() {
        throw new Error("name");
      },
    });
    const revoked = Proxy.revocable({}, {});
    revoked.revoke();
    const trapping = new Proxy(
      {},
      {
        get() {
          throw new Error("get trap");
        },
        getPrototypeOf() {
          throw new Error("getPrototypeOf trap");
        },
      },
    );
    const values = [
      "a string",
      "",
      42,
      Number.NaN,
      0,
      undefined,
      null,
      true,
      10n,
      Symbol("s"),
      { code: plainCodes[0].code, message: "looks like one" },
      Object.assign(new Error("with code"), { code: plainCodes[0].code }),
      [1, 2],
      Object.create(null),
      () => "fn",
      throwing,
      nameThrows,
      revoked.proxy,
      trapping,
      { ...new Base("spread") },
    ];
    for (const value of values) {
      let label;
      try {
        label = String(value);
      } catch {
        label = typeof value;
      }
      assertWrapped(value, label);
    }
    assert.ok(toError("a string").message.includes("a string"));
    assert.ok(toError(42).message.includes("42"));
  });
});

describe("the guard and its brand", () => {
  test("recognises every error of the taxonomy", () => {
    assert.equal(guard.name, ex.guard);
    for (const c of plainCodes) assert.equal(guard(new (cls(c.className))("m")), true, c.code);
    const typedClasses = new Set(ex.codes.filter((c) => c.typed).map((c) => c.className));
    for (const d of ex.domains.filter((d) => !typedClasses.has(d.className))) {
      assert.equal(guard(new (cls(d.className))("m")), true, d.className);
    }
  });

  test("recognises nothing else, whatever it looks like", () => {
    const c = plainCodes[0];
    const revoked = Proxy.revocable({}, {});
    revoked.revoke();
    const lookalikes = [
      undefined,
      null,
      0,
      c.code,
      true,
      { code: "x", message: "y" },
      { code: c.code, message: "y", retryable: false, details: {}, name: c.className },
      Object.assign(new Error("e"), { code: c.code, retryable: false, details: {}, wireCode: c.code }),
      Object.assign(new Error("e"), { name: c.className, code: c.code }),
      { ...new (cls(c.className))("m") },
      JSON.parse(JSON.stringify(new (cls(c.className))("m"))),
      new (cls(c.className))("m").toPayload(),
      structuredClone(new (cls(c.className))("m")),
      new InvalidPayloadError("m", "code"),
      cls(c.className),
      Base,
      revoked.proxy,
    ];
    lookalikes.forEach((value, index) => assert.equal(guard(value), false, `lookalike #${index}`));
  });

  test("a second copy of the package: guards recognise each other's errors, instanceof does not", () => {
    assert.notEqual(other[ex.base], Base, "the copy must be a separate module instance");
    const otherGuard = other[ex.guard];
    for (const c of plainCodes) {
      const mine = new (cls(c.className))("m");
      const theirs = new other[c.className]("m");
      assert.equal(guard(theirs), true, c.code);
      assert.equal(otherGuard(mine), true, c.code);
      assert.equal(theirs instanceof Base, false);
      assert.equal(mine instanceof other[ex.base], false);
      assert.equal(toError(theirs), theirs, "toError returns another copy's error unchanged");
      assert.equal(other.toError(mine), mine);
      assert.deepEqual(fromPayload(theirs.toPayload()).toPayload(), theirs.toPayload());
    }
    assert.equal(otherGuard({ code: "x", message: "y" }), false);
    assert.equal(otherGuard(Object.assign(new Error(), { code: plainCodes[0].code })), false);
    assert.equal(otherGuard(new InvalidPayloadError("m", "code")), false);
  });
});

describe("errorFromEvent", () => {
  test("every event in the table: the error at its location, for every code", () => {
    assert.equal(Object.keys(ERROR_EVENTS).length, ex.events.length);
    for (const e of ex.events) {
      for (const c of plainCodes) {
        const payload = payloadOf(c);
        const error = errorFromEvent(eventWith(e.type, e.location, payload));
        assert.ok(error !== undefined, `${e.type} at ${e.location}`);
        assert.equal(error.constructor, cls(c.className), `${e.type}: ${c.code}`);
        assert.deepEqual(error.toPayload(), payloadOf(c));
      }
      const unknown = { code: unknownCode(), message: "m", retryable: true, details: {} };
      const error = errorFromEvent(eventWith(e.type, e.location, unknown));
      assert.equal(error.constructor, cls(unknownClassName(unknown.code)));
      assert.deepEqual(error.toPayload(), unknown);
      // Also through JSON, as events arrive.
      const wire = JSON.parse(JSON.stringify(eventWith(e.type, e.location, payloadOf(plainCodes[0]))));
      assert.deepEqual(errorFromEvent(wire).toPayload(), payloadOf(plainCodes[0]));
    }
  });

  test("an event type that is not in the table carries no error", () => {
    const payload = payloadOf(plainCodes[0]);
    const types = [
      "no.such.event",
      "",
      ...PROTO_NAMES,
      ...ex.events.map((e) => e.type.toUpperCase()).filter((t) => !Object.hasOwn(ERROR_EVENTS, t)),
      ...ex.events.map((e) => `${e.type} `),
      ...ex.events.map((e) => e.location),
    ].filter((t) => !Object.hasOwn(ERROR_EVENTS, t));
    const locations = [...new Set(["payload.error", "error", ...ex.events.map((e) => e.location)])];
    for (const type of types) {
      for (const location of locations) {
        assert.equal(errorFromEvent(eventWith(type, location, payload)), undefined, `${JSON.stringify(type)} at ${location}`);
      }
    }
    for (const type of [undefined, null, 1, true, {}, ["x"]]) {
      assert.equal(errorFromEvent({ type, payload: { error: payload }, error: payload }), undefined, String(type));
    }
    assert.equal(errorFromEvent({}), undefined);
  });

  test("an event without an error at its location carries none", () => {
    for (const e of ex.events) {
      const parts = e.location.split(".");
      assert.equal(errorFromEvent({ type: e.type }), undefined, `${e.type}: bare`);
      assert.equal(errorFromEvent(eventWith(e.type, e.location, null)), undefined, `${e.type}: null error`);
      assert.equal(errorFromEvent(eventWith(e.type, e.location, undefined)), undefined, `${e.type}: undefined error`);
      // Each step of the path missing, null, or not an object.
      for (let depth = 1; depth < parts.length; depth++) {
        const prefix = parts.slice(0, depth).join(".");
        for (const blocker of [null, "text", 5, true, [payloadOf(plainCodes[0])], new Date(0)]) {
          assert.equal(errorFromEvent(eventWith(e.type, prefix, blocker)), undefined, `${e.type}: ${prefix} = ${String(blocker)}`);
        }
        assert.equal(errorFromEvent(eventWith(e.type, `${prefix}.unrelated`, payloadOf(plainCodes[0]))), undefined);
      }
      // Right payload, one level off.
      if (parts.length > 1) {
        assert.equal(errorFromEvent(eventWith(e.type, parts.slice(0, -1).join("."), payloadOf(plainCodes[0]))), undefined);
      }
      // Something at the location that is not a payload is a malformed error, not no error.
      assertInvalid(() => errorFromEvent(eventWith(e.type, `${e.location}.inner`, payloadOf(plainCodes[0]))), "code", e.type);
    }
  });

  test("inherited properties are not followed", () => {
    const payload = payloadOf(plainCodes[0]);
    for (const e of ex.events) {
      const parts = e.location.split(".");
      // The last step inherited from a non-plain holder, and from a polluted Object.prototype.
      const holderPath = parts.slice(0, -1).join(".");
      const leaf = parts.at(-1);
      const inheriting = Object.create({ [leaf]: payload });
      const event = holderPath ? eventWith(e.type, holderPath, inheriting) : Object.assign(Object.create({ [leaf]: payload }), { type: e.type });
      if (holderPath) assert.equal(errorFromEvent(event), undefined, `${e.type}: inherited ${leaf}`);
      else assertInvalid(() => errorFromEvent(event), "event", `${e.type}: event with a prototype`);
      // Only plain objects (what JSON.parse makes) are walked, even with the key as their own.
      if (holderPath) {
        const instance = Object.assign(new (class Holder {})(), { [leaf]: payload });
        const array = Object.assign([], { [leaf]: payload });
        for (const holder of [instance, array]) {
          assert.equal(errorFromEvent(eventWith(e.type, holderPath, holder)), undefined, `${e.type}: ${holderPath} not plain`);
        }
      }
      for (let depth = 0; depth < parts.length; depth++) {
        const prefix = parts.slice(0, depth).join(".");
        const rest = parts.slice(depth);
        const polluted = rest.slice(1).reduceRight((inner, part) => ({ [part]: inner }), payload);
        const bare = prefix ? eventWith(e.type, prefix, {}) : { type: e.type };
        withPolluted(rest[0], polluted, () => {
          assert.equal(errorFromEvent(bare), undefined, `${e.type}: polluted Object.prototype.${rest[0]}`);
        });
      }
      // The type itself inherited.
      const typeless = eventWith("placeholder", e.location, payload);
      delete typeless.type;
      withPolluted("type", e.type, () => assert.equal(errorFromEvent(typeless), undefined, `${e.type}: inherited type`));
    }
  });

  test("an event with a null prototype works like a plain one", () => {
    for (const e of ex.events) {
      const event = Object.assign(Object.create(null), eventWith(e.type, e.location, payloadOf(plainCodes[0])));
      assert.equal(errorFromEvent(event)?.code, plainCodes[0].code);
    }
  });

  test("an error that is present but malformed is refused, naming the field", () => {
    for (const e of ex.events) {
      assertInvalid(() => errorFromEvent(eventWith(e.type, e.location, "an error string")), "payload", e.type);
      assertInvalid(() => errorFromEvent(eventWith(e.type, e.location, payloadOf(plainCodes[0], { retryable: "true" }))), "retryable", e.type);
      assertInvalid(() => errorFromEvent(eventWith(e.type, e.location, payloadOf(plainCodes[0], { code: ` ${plainCodes[0].code}` }))), "code", e.type);
    }
  });

  test("an event that is not a plain object is refused as `event`", () => {
    for (const event of [null, undefined, 0, "text", true, [], [{ type: "x" }], new Date(0), () => 0]) {
      assertInvalid(() => errorFromEvent(event), "event", String(event));
    }
  });
});
