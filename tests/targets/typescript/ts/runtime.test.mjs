// The TypeScript runtime (generator/targets/typescript/runtime/runtime.ts) as code.
//
// Run by tests/targets/typescript/test_typescript_runtime.py against the compiled toy taxonomy of
// tests/targets/typescript/ts/runtime/toy.ts and the runtime beside it (TAXOGEN_TOY, TAXOGEN_RUNTIME:
// their dist/*.js). Every expected value comes from the table below (what toy.ts
// declares) or from the wire format's own rules, never from generated code.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { pathToFileURL } from "node:url";

const toy = await import(pathToFileURL(process.env.TAXOGEN_TOY).href);
const runtime = await import(pathToFileURL(process.env.TAXOGEN_RUNTIME).href);
const { fromPayload, errorFromEvent, isToyError, toError, lookup } = toy;
const { InvalidPayloadError, TaxonomyError } = runtime;

// What toy.ts declares: code → [class, retryable, meaning].
const TABLE = {
  toy_error: ["ToyError", false, "Unspecified toy error"],
  toy_broken: ["ToyBrokenError", false, "The toy is broken"],
  toy_slow: ["ToySlowError", true, "The toy is slow"],
  toy_old: ["ToyOldError", false, "An old toy"],
  toy_crash: ["ToyCrashError", false, "The toy box crashed"],
};
const FALLBACK = "toy_error";
const WRAP = "toy_crash";
// The limits the README and the JSON Schema state.
const LIMITS = {
  MAX_CODE_LENGTH: 256,
  MAX_DETAILS_DEPTH: 64,
  MAX_DETAILS_NODES: 100_000,
};

const good = (fields = {}) => ({
  code: "toy_broken",
  message: "m",
  retryable: false,
  ...fields,
});

function invalid(payload, field, read = fromPayload) {
  let caught;
  try {
    read(payload);
  } catch (err) {
    caught = err;
  }
  assert.ok(caught instanceof InvalidPayloadError, `got ${caught}`);
  assert.equal(caught.field, field, caught.message);
  assert.ok(caught.message.startsWith(field), caught.message);
  return caught.message;
}

/** Details `depth` deep: the details object is depth 1. */
function nested(depth) {
  let inner = {};
  for (let level = 1; level < depth; level++) inner = { a: inner };
  return inner;
}

function deeplyFrozen(value) {
  if (typeof value !== "object" || value === null) return true;
  return Object.isFrozen(value) && Object.values(value).every(deeplyFrozen);
}

describe("the classes", () => {
  test("each class carries its code, domain, meaning and retryability", () => {
    for (const [code, [className, retryable, meaning]] of Object.entries(TABLE)) {
      const Cls = toy[className];
      const statics = [Cls.code, Cls.domain, Cls.meaning, Cls.retryable];
      assert.deepEqual(statics, [code, "toy", meaning, retryable]);
      const error = new Cls();
      assert.equal(error.message, meaning, "the message defaults to the meaning");
      assert.deepEqual([error.code, error.wireCode, error.domain], [code, code, "toy"]);
      assert.equal(error.retryable, retryable);
      assert.deepEqual(error.details, {});
      for (const Ancestor of [toy.ToyError, TaxonomyError, Error]) {
        assert.ok(error instanceof Ancestor, Ancestor.name);
      }
    }
  });

  test("name is the class's own, pinned on its prototype, and assignable", () => {
    for (const [className] of Object.values(TABLE)) {
      const error = new toy[className]("m");
      assert.equal(error.name, className);
      assert.equal(toy[className].prototype.name, className);
      assert.equal(Object.hasOwn(error, "name"), false, "never an own key");
      assert.match(error.stack, new RegExp(`^${className}: m`), "known to Error");
      assert.equal(String(error), `${className}: m`);
    }
    // The pinned literal wins over what the class is called (as after a minifier).
    const Renamed = class X extends toy.ToyBrokenError {
      static errorName = "Pinned";
    };
    assert.equal(new Renamed().name, "Pinned");
    assert.equal(new Renamed().code, "toy_broken");
    // A subclass that pins nothing keeps its parent's name.
    assert.equal(new (class Y extends toy.ToySlowError {})().name, "ToySlowError");
    // Assigning a name gives that one error its own, as for a plain Error.
    const named = new toy.ToySlowError("m");
    named.name = "Custom";
    assert.equal(named.name, "Custom");
    assert.equal(Object.getOwnPropertyDescriptor(named, "name").enumerable, true);
    assert.equal(new toy.ToySlowError("m").name, "ToySlowError");
    const refused = new runtime.InvalidPayloadError("x: y", "x");
    assert.equal(refused.name, "InvalidPayloadError");
    assert.match(refused.stack, /^InvalidPayloadError: x: y/);
    refused.name = "Other";
    assert.equal(refused.name, "Other");
    assert.equal(new runtime.InvalidPayloadError("x: y", "x").name, "InvalidPayloadError");
  });

  test("deprecation and replacement are statics, undefined unless set", () => {
    const { deprecated, replacedBy } = toy.ToyOldError;
    assert.deepEqual([deprecated, replacedBy], ["Too vague", "toy_broken"]);
    assert.equal(toy.ToyError.deprecated, undefined);
    assert.equal(toy.ToyBrokenError.replacedBy, undefined);
  });

  test("what a code maps to: statics, read by getters that add no key", () => {
    const slow = new toy.ToySlowError("m");
    const mapped = (x) => [x.httpStatus, x.grpcStatus, x.throttling, x.docUrl];
    const declared = [429, "RESOURCE_EXHAUSTED", true, "https://toys.example/toy_slow"];
    assert.deepEqual(mapped(toy.ToySlowError), declared);
    assert.deepEqual(mapped(slow), declared);
    // Nothing declared: undefined, and false for throttling.
    const none = [undefined, undefined, false, undefined];
    assert.deepEqual(mapped(toy.ToyBrokenError), none);
    assert.deepEqual(mapped(new toy.ToyBrokenError()), none);
    assert.deepEqual(mapped(TaxonomyError), none);
    for (const key of ["httpStatus", "grpcStatus", "throttling", "docUrl"]) {
      assert.ok(!Object.hasOwn(slow, key), key);
      assert.throws(() => {
        "use strict";
        slow[key] = 1;
      }, TypeError);
    }
    assert.deepEqual(Object.keys(slow.toJSON()), ["name", "code", "message", "retryable", "details"]);
  });

  test("details are a frozen deep copy; retryable and cause are per error", () => {
    const details = { toy: { ids: [1, 2] }, ok: true, none: null };
    const root = new Error("root");
    const options = { details, cause: root, retryable: true };
    const error = new toy.ToyBrokenError("it broke", options);
    assert.deepEqual(error.details, details);
    assert.notEqual(error.details.toy, details.toy);
    assert.ok(deeplyFrozen(error.details));
    details.toy.ids.push(3);
    assert.deepEqual(error.details.toy.ids, [1, 2]);
    assert.equal(error.retryable, true);
    assert.equal(error.cause, root);
    assert.equal(Object.getOwnPropertyDescriptor(error, "cause").enumerable, false);
    const withCause = new toy.ToyBrokenError("m", { cause: undefined });
    assert.equal(Object.hasOwn(withCause, "cause"), true);
    assert.equal("cause" in new toy.ToyBrokenError("m"), false);
    assert.equal(new toy.ToySlowError("m", { retryable: false }).retryable, false);
  });

  test("details are defined as JSON.parse defines them, whatever Object.prototype holds", () => {
    // A setter or a read-only key on a prototype (a polluted or a frozen one) is
    // not the copy's: each key of the details stays the copy's own, with its value.
    const text = '{"trap": 1, "fixed": 2, "__proto__": {"own": true}, "list": [{"trap": 3}, 4]}';
    const hooks = [
      [Object.prototype, "trap", { set() { calls.push("trap"); }, configurable: true }],
      [Object.prototype, "fixed", { value: "inherited", writable: false, configurable: true }],
    ];
    const calls = [];
    const made = [];
    for (const [target, key, descriptor] of hooks) Object.defineProperty(target, key, descriptor);
    try {
      made.push(new toy.ToyBrokenError("m", { details: JSON.parse(text) }));
      made.push(fromPayload(good({ details: JSON.parse(text) })));
    } finally {
      for (const [target, key] of hooks) delete target[key];
    }
    assert.deepEqual(calls, []);
    for (const error of made) {
      const { details } = error;
      assert.deepEqual(Object.keys(details), ["trap", "fixed", "__proto__", "list"]);
      const value = (object, key) => Object.getOwnPropertyDescriptor(object, key)?.value;
      assert.equal(value(details, "trap"), 1);
      assert.equal(value(details, "fixed"), 2);
      assert.equal(value(value(details, "__proto__"), "own"), true);
      assert.equal(Object.getPrototypeOf(details), Object.prototype);
      assert.equal(value(details.list[0], "trap"), 3);
      assert.equal(value(details.list, "1"), 4);
      assert.ok(deeplyFrozen(details));
    }
  });

  test("the stack is the caller's: captured where the error is made", () => {
    function makeOne() {
      return new toy.ToySlowError("m", { details: { a: 1 } });
    }
    const error = makeOne();
    assert.ok(Object.hasOwn(error, "stack"));
    const [head, first] = error.stack.split("\n");
    assert.equal(head, "ToySlowError: m");
    // No frame of the class chain or the runtime: the caller comes first.
    assert.match(first, /^ {4}at makeOne \(.*runtime\.test\.mjs:\d+:\d+\)$/);
  });

  test("the constructor refuses what the wire cannot carry", () => {
    const cycle = {};
    cycle.self = cycle;
    const bad = [{ n: NaN }, { n: Infinity }, { f() {} }, { d: new Date(0) }];
    for (const details of [...bad, { u: undefined }, cycle, [1]]) {
      assert.throws(() => new toy.ToyBrokenError("m", { details }), TypeError);
    }
    const message = /^TypeError: message: expected a string, got a number$/;
    assert.throws(() => new toy.ToyBrokenError(5), message);
    const retryable = /^TypeError: retryable: /;
    assert.throws(() => new toy.ToyBrokenError("m", { retryable: "yes" }), retryable);
  });

  test("toPayload and toJSON: the wire form and the {name, code, ...} log form", () => {
    const error = new toy.ToySlowError("slow", { details: { a: [1] } });
    const details = { a: [1] };
    const payload = { code: "toy_slow", message: "slow", retryable: true, details };
    assert.deepEqual(error.toPayload(), payload);
    const keys = ["code", "message", "retryable", "details"];
    assert.deepEqual(Object.keys(error.toPayload()), keys);
    assert.ok(!Object.isFrozen(error.toPayload().details), "the caller's to change");
    assert.deepEqual(error.toJSON(), { name: "ToySlowError", ...payload });
    const logged = JSON.parse(JSON.stringify(error));
    assert.deepEqual(logged, { name: "ToySlowError", ...payload });
  });
});

describe("decoding", () => {
  test("a known code decodes to its class, with the payload's own fields", () => {
    for (const [code, [className]] of Object.entries(TABLE)) {
      const details = { a: [1, "x", null] };
      const error = fromPayload({ code, message: "m", retryable: true, details });
      assert.equal(error.constructor, toy[className]);
      const read = [error.code, error.wireCode, error.message, error.retryable];
      assert.deepEqual(read, [code, code, "m", true]);
      assert.deepEqual(error.details, { a: [1, "x", null] });
      assert.ok(deeplyFrozen(error.details));
    }
    assert.deepEqual(fromPayload(good()).details, {});
    assert.deepEqual(fromPayload(good({ details: null })).details, {});
  });

  test("received details are the error's own frozen copy, equal to what was sent", () => {
    const details = { toy: { ids: [1, 2] }, ok: true, none: null };
    const error = fromPayload(good({ details }));
    assert.deepEqual(error.details, details);
    assert.notEqual(error.details, details);
    assert.notEqual(error.details.toy, details.toy);
    assert.ok(deeplyFrozen(error.details));
    details.toy.ids.push(3);
    details.ok = false;
    assert.deepEqual(error.details, { toy: { ids: [1, 2] }, ok: true, none: null });
    // Each error its own: two decodings of one payload share nothing.
    const again = fromPayload(good({ details }));
    assert.notEqual(again.details.toy, error.details.toy);
  });

  test("a decoded error's stack leads to fromPayload's caller through the decoder alone", () => {
    function receive() {
      return fromPayload(good());
    }
    const frames = receive().stack.split("\n").slice(1);
    const caller = frames.findIndex((line) => /^ {4}at receive \(/.test(line));
    // The runtime's reader and the package's fromPayload, nothing between them.
    assert.equal(caller, 2, frames.join("\n"));
    assert.match(frames[1], /\bfromPayload\b/);
  });

  test("an unknown well-formed code falls back, keeps and re-emits the code", () => {
    const error = fromPayload(good({ code: "toy_unheard_of" }));
    assert.equal(error.constructor, toy[TABLE[FALLBACK][0]]);
    assert.deepEqual([error.code, error.wireCode], [FALLBACK, "toy_unheard_of"]);
    assert.equal(error.toPayload().code, "toy_unheard_of");
    assert.equal(lookup("toy_unheard_of"), toy[TABLE[FALLBACK][0]]);
  });

  const BAD = [
    [null, "payload"],
    [[], "payload"],
    ["{}", "payload"],
    [new (class Payload {})(), "payload"],
    [{ message: "m", retryable: false }, "code"],
    [good({ code: 5 }), "code"],
    [good({ code: "Toy_Broken" }), "code"],
    [good({ code: "toy-broken" }), "code"],
    [good({ code: "" }), "code"],
    [good({ message: undefined }), "message"],
    [good({ message: 1 }), "message"],
    [good({ retryable: "false" }), "retryable"],
    [good({ details: [] }), "details"],
    [good({ details: "x" }), "details"],
    [good({ details: { n: NaN } }), "details"],
    [good({ details: { d: new Date(0) } }), "details"],
  ];
  for (const [payload, field] of BAD) {
    const shown = JSON.stringify(payload)?.slice(0, 60);
    test(`a bad ${field} is refused as ${field}: ${shown}`, () => {
      invalid(payload, field);
    });
  }

  test("an inherited field is not the payload's", () => {
    const fields = { message: "m", retryable: false };
    const inherited = Object.assign(Object.create({ code: "toy_broken" }), fields);
    invalid(inherited, "payload");
    const bare = Object.assign(Object.create(null), good());
    assert.equal(fromPayload(bare).code, "toy_broken");
  });

  test("what cannot be read is invalid as that field, nothing else thrown", () => {
    const getter = good();
    const boom = () => {
      throw new Error("boom");
    };
    Object.defineProperty(getter, "message", { enumerable: true, get: boom });
    assert.match(invalid(getter, "message"), /cannot be read \(boom\)/);
    const trap = new Proxy({}, { getPrototypeOf: () => { throw new Error("trap"); } });
    invalid(trap, "payload");
    const details = new Proxy({}, { ownKeys: () => { throw new Error("keys"); } });
    invalid(good({ details: { inner: details } }), "details");
    const { proxy, revoke } = Proxy.revocable({}, {});
    revoke();
    invalid(proxy, "payload");
  });

  test("a cycle in received details is refused", () => {
    const cycle = { a: [] };
    cycle.a.push(cycle);
    assert.match(invalid(good({ details: cycle }), "details"), /contains itself/);
  });
});

describe("limits, at each edge", () => {
  test("the limits are exported with the values the format states", () => {
    for (const [name, value] of Object.entries(LIMITS)) {
      assert.equal(runtime[name], value, name);
    }
  });

  test("a code of MAX_CODE_LENGTH characters is read, one more is refused", () => {
    const longest = "a".repeat(LIMITS.MAX_CODE_LENGTH);
    assert.equal(fromPayload(good({ code: longest })).wireCode, longest);
    invalid(good({ code: `${longest}a` }), "code");
  });

  test("details MAX_DETAILS_DEPTH deep are read, one level deeper is refused", () => {
    const deepest = nested(LIMITS.MAX_DETAILS_DEPTH);
    assert.deepEqual(fromPayload(good({ details: deepest })).details, deepest);
    const deeper = good({ details: nested(LIMITS.MAX_DETAILS_DEPTH + 1) });
    assert.match(invalid(deeper, "details"), /deeper than 64/);
    // Scalars add no depth: a scalar at the deepest level is still within.
    const withScalar = nested(LIMITS.MAX_DETAILS_DEPTH);
    let at = withScalar;
    while (at.a !== undefined) at = at.a;
    at.leaf = 1;
    fromPayload(good({ details: withScalar }));
  });

  test("details of MAX_DETAILS_NODES values are read, one more is refused", () => {
    // The details object (1), the array under "a" (1) and its items.
    const items = LIMITS.MAX_DETAILS_NODES - 2;
    const most = { a: new Array(items).fill(0) };
    assert.equal(fromPayload(good({ details: most })).details.a.length, items);
    const over = { a: new Array(items + 1).fill(0) };
    const message = invalid(good({ details: over }), "details");
    assert.match(message, /holds more than 100000 values/);
    // An array's claimed length counts, not what it holds: a sparse one is
    // refused at once.
    invalid(good({ details: { a: new Array(2 ** 32 - 1) } }), "details");
  });
});

describe("the guard", () => {
  test("accepts every error of the taxonomy, and one of another copy", () => {
    for (const [className] of Object.values(TABLE)) {
      assert.equal(isToyError(new toy[className]()), true);
    }
    assert.equal(isToyError(fromPayload(good({ code: "toy_unheard_of" }))), true);
    const mark = { value: true };
    const branded = Object.defineProperty({}, Symbol.for(toy.BRAND_KEY), mark);
    const otherCopy = Object.create(branded);
    assert.equal(isToyError(otherCopy), true);
    // Each error carries the brand itself, hidden: no key, no JSON, no log line.
    const error = new toy.ToyBrokenError("m");
    const own = Object.getOwnPropertyDescriptor(error, Symbol.for(toy.BRAND_KEY));
    assert.deepEqual(own, { value: true, writable: false, enumerable: false, configurable: false });
  });

  test("refuses anything else and never throws", () => {
    const { proxy, revoke } = Proxy.revocable({}, {});
    revoke();
    const hostile = new Proxy({}, { get: () => { throw new Error("get"); } });
    const lookalike = {
      ...good({ details: {} }),
      name: "ToyBrokenError",
    };
    const wrongBrand = { [Symbol.for(toy.BRAND_KEY)]: "yes" };
    const values = [null, undefined, 0, "toy_broken", new Error("x"), lookalike];
    values.push(wrongBrand, proxy, hostile);
    for (const [index, value] of values.entries()) {
      assert.equal(isToyError(value), false, `value ${index}`);
    }
    assert.equal(isToyError(new InvalidPayloadError("code: x", "code")), false);
  });
});

describe("toError", () => {
  const Wrap = () => toy[TABLE[WRAP][0]];

  test("keeps an error of the taxonomy as it is", () => {
    const error = new toy.ToySlowError("m");
    assert.equal(toError(error), error);
  });

  test("wraps an Error with the wrap code, the error as its cause", () => {
    const original = new TypeError("boom");
    const wrapped = toError(original);
    assert.equal(wrapped.constructor, Wrap());
    const seen = [wrapped.code, wrapped.message, wrapped.cause];
    assert.deepEqual(seen, [WRAP, "TypeError: boom", original]);
  });

  test("wraps any other value, shown in the message", () => {
    assert.equal(toError("x").message, 'non-error value: "x"');
    assert.equal(toError(42).message, "non-error value: 42");
    assert.equal(toError(undefined).message, "non-error value: undefined");
    assert.equal(toError(null).cause, null);
    const long = toError("y".repeat(200)).message;
    assert.equal(long.length, "non-error value: ".length + 80);
    const unprintable = { toString() { throw new Error("no"); } };
    assert.equal(toError(unprintable).message, "non-error value: <an object>");
    const badError = new Error("x");
    Object.defineProperty(badError, "name", { get() { throw new Error("no"); } });
    assert.equal(toError(badError).message, "non-error value");
    assert.equal(toError(badError).cause, badError);
  });
});

describe("errorFromEvent", () => {
  test("reads the error where the event table says", () => {
    const payload = good({ code: "toy_slow" });
    const failed = { type: "toy.failed", payload: { error: payload } };
    assert.equal(errorFromEvent(failed).code, "toy_slow");
    const gone = { type: "toy.gone", error: payload };
    assert.equal(errorFromEvent(gone).constructor, toy.ToySlowError);
  });

  test("an event without an error, or of another type, has none", () => {
    for (const event of [
      { type: "toy.other", error: good() },
      { type: "toy.failed" },
      { type: "toy.failed", payload: "x" },
      { type: "toy.gone", error: null },
      { error: good() },
      { type: "toString", error: good() },
      { type: "toy.failed", payload: Object.create({ error: good() }) },
    ]) {
      assert.equal(errorFromEvent(event), undefined, JSON.stringify(event));
    }
  });

  test("a bad event, or a bad error in it, is invalid", () => {
    invalid("event", "event", errorFromEvent);
    // Not a plain object: its inherited type is not read.
    const typed = Object.create({ type: "toy.gone" });
    invalid(Object.assign(typed, { error: good() }), "event", errorFromEvent);
    const trap = () => {
      throw new Error("t");
    };
    invalid(new Proxy({}, { getPrototypeOf: trap }), "event", errorFromEvent);
    const inner = { type: "toy.gone", error: good({ retryable: 1 }) };
    invalid(inner, "retryable", errorFromEvent);
  });
});

describe("render: a message template over details (issue 10)", () => {
  // The rule of a placeholder value, the same in every language: strings as they
  // are, booleans true/false, numbers as JavaScript's String(number) writes them.
  const TABLE = [
    ["text", "text"],
    ["", ""],
    ["{not a placeholder}", "{not a placeholder}"],
    [true, "true"],
    [false, "false"],
    [3, "3"],
    [3.0, "3"],
    [-0, "0"],
    [0.5, "0.5"],
    [1e21, "1e+21"],
    [1e20, "100000000000000000000"],
    [1.5e-7, "1.5e-7"],
    [0.000001, "0.000001"],
    [0.1 + 0.2, "0.30000000000000004"],
    [-2.5, "-2.5"],
  ];
  test("each kind of value", () => {
    for (const [value, text] of TABLE) {
      assert.equal(runtime.render(["<", "v", ">"], { v: value }), `<${text}>`, String(value));
    }
  });
  test("literal text and fields alternate, the first a literal", () => {
    assert.equal(runtime.render(["only text"], {}), "only text");
    assert.equal(runtime.render(["", "a", "", "b", ""], { a: 1, b: "x" }), "1x");
    assert.equal(runtime.render(["a ", "constructor", " b"], { constructor: "c" }), "a c b");
  });
});

describe("matcher: where the unknown codes a domain's match: claims go", () => {
  // Given shortest first and outer first: the runtime orders them itself.
  const match = runtime.matcher(
    [
      ["shelf_", "Shelf"],
      ["shelf_top_", "TopShelf"],
    ],
    [
      [-32768, -32000, "Reserved"],
      [-32099, -32000, "Server"],
    ],
  );
  test("the longest prefix a string code starts with", () => {
    assert.equal(match("shelf_low"), "Shelf");
    assert.equal(match("shelf_top_left"), "TopShelf");
    assert.equal(match("shelf_to"), "Shelf");
    assert.equal(match("shelf"), undefined);
    assert.equal(match("zz"), undefined);
  });
  test("the innermost inclusive range an integer code is in", () => {
    assert.equal(match(-32768), "Reserved");
    assert.equal(match(-32100), "Reserved");
    assert.equal(match(-32099), "Server");
    assert.equal(match(-32000), "Server");
    assert.equal(match(-32769), undefined);
    assert.equal(match(-31999), undefined);
  });
  test("a string is never read as a number, nor a number as a prefix", () => {
    assert.equal(match("-32050"), undefined);
    assert.equal(runtime.matcher([["1", "One"]], [])(12), undefined);
  });
});
