// Generated runtimes that no payload can break (issue 12, section 6): the TypeScript side.
//
// Run by tests/test_hostile_runtime.py, once per case, against the compiled module, under
// a small heap (--max-old-space-size=256), so a runtime that allocated what a sparse array
// or a proxy claims dies instead of passing:
//   TAXOGEN_MODULE=<pkg>/dist/index.js TAXOGEN_EXPECT=<expectations.json> node --test hostile.test.mjs
// TAXOGEN_EXPECT is tests/support.py: expectations() plus {limits: {maxDetailsNodes}}.
//
// The contract (the words; the expected outcomes come from them, not from the module):
// * fromPayload stays total over anything a caller can pass, not only what JSON can produce:
//   a Proxy whose traps throw, a sparse array of length 1e8, a 20 MB code string, details
//   nested 100,000 deep. Each gives InvalidPayloadError (or the fallback) within bounded time
//   and memory, never an escaping exception, a hang or an out-of-memory crash.
// * Limits are exported constants, the same as Python's and the schema's: details nested at
//   most 64 deep (the details object is depth 1, each object or array inside adds one), a code
//   at most 256 characters; past them, InvalidPayloadError with field "details" / "code".
// * The deepest accepted payload round-trips: toPayload() and JSON.stringify(err) give back
//   equal data (no RangeError). The type guard never throws, whatever it is handed.

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, test } from "node:test";
import { pathToFileURL } from "node:url";

const MODULE = process.env.TAXOGEN_MODULE;
if (!MODULE || !process.env.TAXOGEN_EXPECT) throw new Error("set TAXOGEN_MODULE and TAXOGEN_EXPECT");
const api = await import(pathToFileURL(MODULE).href);
const ex = JSON.parse(readFileSync(process.env.TAXOGEN_EXPECT, "utf8"));
const { InvalidPayloadError, fromPayload, errorFromEvent, toError } = api;
const guard = api[ex.guard];
const Base = api[ex.base];
const Fallback = api[ex.fallback.className];

// The numbers, written here, not read from the module under test.
const MAX_DEPTH = 64;
const MAX_CODE = 256;
const SANITY_MS = 5000; // a generous sanity guard: performance targets belong to the benchmarks

const first = ex.codes[0];
const good = () => ({ code: first.code, message: "m", retryable: first.retryable });
const unknown = (length) => {
  const code = `zz_${"x".repeat(length - 3)}`;
  return ex.codeCase === "upper_snake" ? code.toUpperCase() : code;
};

/** Details `levels` deep: objects and arrays in turn inside the details object, a string at the bottom. */
function nested(levels) {
  let node = "bottom"; // scalars add no depth
  for (let level = levels; level > 1; level--) node = level % 2 ? { d: node } : [node];
  return { d: node };
}

/** The depth, counted independently. */
function depth(value) {
  if (typeof value !== "object" || value === null) return 0;
  const items = Array.isArray(value) ? value : Object.values(value);
  return 1 + Math.max(0, ...items.map(depth));
}

/** Details `levels` deep, built without recursion (100,000 levels and more). */
function deep(levels, array = false) {
  let node = array ? [] : {};
  for (let i = 0; i < levels - 2; i++) node = array ? [node] : { d: node };
  return { d: node };
}

/** Run `call` in bounded time: it must throw InvalidPayloadError about `field` and nothing else. */
function refused(call, field, what) {
  const start = performance.now();
  let thrown;
  try {
    call();
  } catch (error) {
    thrown = error;
  }
  const elapsed = performance.now() - start;
  assert.ok(thrown !== undefined, `${what}: accepted`);
  assert.ok(thrown instanceof InvalidPayloadError, `${what}: ${thrown?.constructor?.name} escaped: ${thrown?.message}`);
  if (field !== undefined) assert.equal(thrown.field, field, `${what}: ${thrown.message}`);
  assert.ok(thrown.message.length < 500, `${what}: a message of ${thrown.message.length} characters`);
  assert.ok(elapsed < SANITY_MS, `${what} took ${elapsed} ms`);
  return thrown;
}

function timed(what, call) {
  const start = performance.now();
  const result = call();
  const elapsed = performance.now() - start;
  assert.ok(elapsed < SANITY_MS, `${what} took ${elapsed} ms`);
  return result;
}

describe("the limits", () => {
  test("are exported constants, the issue's numbers", () => {
    assert.equal(api.MAX_DETAILS_DEPTH, MAX_DEPTH);
    assert.equal(api.MAX_CODE_LENGTH, MAX_CODE);
    assert.equal(api.MAX_DETAILS_NODES, ex.limits.maxDetailsNodes);
  });
});

describe("code", () => {
  test("256 characters fall back, keeping the code; 257 are refused", () => {
    if (ex.wireType === "integer") {
      // docs "Wire codes": integer codes stop at 2 ** 53 - 1 either side, and no
      // string is a code.
      for (const limit of [Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER]) {
        const error = fromPayload({ ...good(), code: limit });
        assert.equal(error.constructor, Fallback);
        assert.equal(error.toPayload().code, limit);
        refused(() => fromPayload({ ...good(), code: limit * 2 }), "code", "past the limit");
      }
      refused(() => fromPayload({ ...good(), code: "x".repeat(MAX_CODE) }), "code", "a string");
      return;
    }
    const longest = unknown(MAX_CODE);
    const error = fromPayload({ ...good(), code: longest });
    assert.equal(error.constructor, Fallback);
    assert.equal(error.wireCode, longest);
    assert.equal(error.toPayload().code, longest);
    refused(() => fromPayload({ ...good(), code: longest + longest.at(-1) }), "code", "a 257-character code");
  });

  test("a 20 MB code is refused in bounded time, and the message stays short", () => {
    refused(() => fromPayload({ ...good(), code: unknown(20_000_000) }), "code", "a 20 MB well-formed code");
    refused(() => fromPayload({ ...good(), code: "\n".repeat(20_000_000) }), "code", "a 20 MB malformed code");
    // A 20 MB key is no code, but it is named in the message of what is wrong under it.
    const details = { ["k".repeat(20_000_000)]: [NaN] };
    refused(() => fromPayload({ ...good(), details }), "details", "a 20 MB key");
  });
});

describe("details", () => {
  test("64 deep are kept, and the error round-trips through toPayload and JSON", () => {
    const details = nested(MAX_DEPTH);
    assert.equal(depth(details), MAX_DEPTH);
    const payload = { ...good(), details };
    const error = fromPayload(payload);
    assert.deepEqual(error.details, details);
    const sent = error.toPayload();
    assert.deepEqual(sent, payload);
    assert.deepEqual(JSON.parse(JSON.stringify(sent)), payload);
    const logged = JSON.parse(JSON.stringify(error));
    assert.deepEqual({ ...logged, name: undefined }, { ...payload, name: undefined });
    assert.equal(logged.name, first.className);
    assert.deepEqual(fromPayload(JSON.parse(JSON.stringify(error))).toPayload(), payload);
    assert.deepEqual(structuredClone(sent), payload);
    assert.deepEqual(new Base("m", { details }).toPayload().details, details);
  });

  test("65 deep are refused: as a payload (InvalidPayloadError) and when an error is built (TypeError)", () => {
    const details = nested(MAX_DEPTH + 1);
    assert.equal(depth(details), MAX_DEPTH + 1);
    refused(() => fromPayload({ ...good(), details }), "details", "details 65 deep");
    refused(() => fromPayload({ ...good(), details: deep(MAX_DEPTH + 1) }), "details", "empty objects 65 deep");
    fromPayload({ ...good(), details: deep(MAX_DEPTH) });
    assert.throws(() => new Base("m", { details }), TypeError);
  });

  for (const array of [false, true]) {
    test(`100,000 deep (${array ? "arrays" : "objects"}) are refused in bounded time, no RangeError`, () => {
      const details = deep(100_000, array);
      refused(() => fromPayload({ ...good(), details }), "details", "details 100,000 deep");
      timed("building an error with details 100,000 deep", () =>
        assert.throws(() => new Base("m", { details }), TypeError));
    });
  }

  test("a sparse array of length 1e8 is refused without being walked", () => {
    const sparse = [];
    sparse.length = 1e8;
    refused(() => fromPayload({ ...good(), details: { a: sparse } }), "details", "a sparse array of length 1e8");
    const tail = [1];
    tail[1e8 - 1] = 2;
    refused(() => fromPayload({ ...good(), details: { a: tail } }), "details", "an array with an item at 1e8 - 1");
    timed("building an error with a sparse array", () =>
      assert.throws(() => new Base("m", { details: { a: sparse } }), TypeError));
  });

  test("a proxy claiming 1e8 items, or endless nesting, is refused without believing it", () => {
    const long = new Proxy([], { get: (target, key) => (key === "length" ? 1e8 : 1) });
    refused(() => fromPayload({ ...good(), details: { a: long } }), "details", "a proxy of length 1e8");
    const liar = new Proxy([], { get: (target, key) => (key === "length" ? "lots" : 1) });
    refused(() => fromPayload({ ...good(), details: { a: liar } }), "details", "a proxy whose length is no number");
    const endless = () => new Proxy({}, {
      ownKeys: () => ["a", "b"],
      getOwnPropertyDescriptor: () => ({ value: 1, enumerable: true, configurable: true }),
      get: () => endless(),
    });
    refused(() => fromPayload({ ...good(), details: endless() }), "details", "proxies all the way down");
  });

  test("shared values cannot multiply the work: 64 levels of [x, x]", () => {
    let node = "leaf";
    for (let i = 0; i < MAX_DEPTH - 1; i++) node = [node, node];
    refused(() => fromPayload({ ...good(), details: { d: node } }), "details", "a doubling DAG");
  });

  test("the node limit: exactly the limit is kept, one more is refused", () => {
    const limit = ex.limits.maxDetailsNodes;
    // The details object, the array and its items.
    fromPayload({ ...good(), details: { l: new Array(limit - 2).fill(null) } });
    refused(() => fromPayload({ ...good(), details: { l: new Array(limit - 1).fill(null) } }), "details", "one too many");
  });

  test("a cycle is refused", () => {
    const cycle = {};
    cycle.self = [cycle];
    refused(() => fromPayload({ ...good(), details: cycle }), "details", "details holding themselves");
  });
});

const boom = () => {
  throw new Error("boom");
};
const TRAPS = ["get", "has", "ownKeys", "getOwnPropertyDescriptor", "getPrototypeOf"];
/** A proxy of `target` whose `trap` throws (or whose every trap throws, for "all"). */
function throwing(target, trap) {
  const handler = {};
  for (const name of trap === "all" ? TRAPS : [trap]) handler[name] = boom;
  return new Proxy(target, handler);
}
function revoked() {
  const { proxy, revoke } = Proxy.revocable({}, {});
  revoke();
  return proxy;
}

describe("proxies whose traps throw", () => {
  for (const trap of [...TRAPS, "all"]) {
    test(`${trap}: as a payload, fromPayload gives an error or InvalidPayloadError, nothing else`, () => {
      let result;
      try {
        result = fromPayload(throwing(good(), trap));
      } catch (thrown) {
        assert.ok(thrown instanceof InvalidPayloadError, `${thrown?.constructor?.name} escaped: ${thrown?.message}`);
        return;
      }
      assert.notEqual(trap, "all", "a payload whose every trap throws was accepted");
      assert.equal(guard(result), true);
      assert.deepEqual(result.toPayload(), { ...good(), details: {} });
    });

    test(`${trap}: as details, or inside them, fromPayload gives an error or InvalidPayloadError about details`, () => {
      for (const details of [throwing({ a: 1 }, trap), { a: [throwing({ b: 1 }, trap)] }]) {
        let result;
        try {
          result = fromPayload({ ...good(), details });
        } catch (thrown) {
          assert.ok(thrown instanceof InvalidPayloadError, `${thrown?.constructor?.name} escaped: ${thrown?.message}`);
          assert.equal(thrown.field, "details", thrown.message);
          continue;
        }
        assert.notEqual(trap, "all", "details whose every trap throws were accepted");
        assert.equal(guard(result), true);
        JSON.stringify(result);
      }
    });

    test(`${trap}: the guard and toError never throw`, () => {
      for (const value of [throwing({}, trap), throwing(good(), trap), throwing([], trap), throwing(() => 1, trap)]) {
        assert.equal(typeof guard(value), "boolean");
        assert.equal(guard(toError(value)), true);
      }
    });
  }

  test("every trap throwing: the payload field is named", () => {
    refused(() => fromPayload(throwing(good(), "all")), "payload", "a payload whose every trap throws");
    refused(() => fromPayload({ ...good(), details: throwing({}, "all") }), "details", "details whose traps throw");
  });

  test("a getter that throws names the field it guards", () => {
    for (const field of ["code", "message", "retryable", "details"]) {
      const payload = Object.defineProperty(good(), field, { get: boom, enumerable: true });
      refused(() => fromPayload(payload), field, `a getter of ${field} that throws`);
    }
  });

  test("revoked proxies: as payload, as details, deep in details, as an event", () => {
    refused(() => fromPayload(revoked()), "payload", "a revoked payload");
    refused(() => fromPayload({ ...good(), details: revoked() }), "details", "revoked details");
    refused(() => fromPayload({ ...good(), details: { a: [{ b: revoked() }] } }), "details", "a revoked value in details");
    refused(() => errorFromEvent(revoked()), "event", "a revoked event");
  });
});

describe("the guard", () => {
  test("never throws, whatever it is handed, and knows real errors", () => {
    const values = [
      revoked(), throwing({}, "all"), throwing(new Base("m"), "all"), Object.create(null),
      Object.create(Object.create(null)), undefined, null, 0, 0n, "", Symbol("s"), () => 1, [], new Error("x"),
      new Proxy({}, { get: () => { throw new Error("get"); } }), Base, Base.prototype,
    ];
    for (const value of values) {
      const answer = guard(value);
      assert.equal(typeof answer, "boolean");
      assert.equal(guard(toError(value)), true);
    }
    assert.equal(guard(Object.create(null)), false);
    assert.equal(guard(revoked()), false);
    assert.equal(guard(new Base("m")), true);
    assert.equal(guard(fromPayload(good())), true);
  });
});

// Issue 29: what a getter or a trap throws is no more trusted than what it returns. A
// thrown value may itself be a proxy whose every trap throws (so even `instanceof` on
// it throws), a revoked proxy, or no Error at all; errorFromEvent and fromPayload
// still give an InvalidPayloadError (or their documented result), never let it escape.
function hostileThrown() {
  const thrown = {
    "a proxy whose traps throw": () => throwing(new Error("inner"), "all"),
    "a revoked proxy": revoked,
    "a number": () => 42,
    undefined: () => undefined,
    null: () => null,
    "a symbol": () => Symbol("thrown"),
    "a function": () => () => 1,
    "a forged InvalidPayloadError": () =>
      Object.create(InvalidPayloadError.prototype, { field: { get: boom }, message: { get: boom } }),
  };
  return Object.entries(thrown);
}

/** Where a hostile read can throw `make()`: a value whose reading it throws. */
function throwingReads(make, body) {
  const raise = () => {
    throw make();
  };
  const reads = {
    "a getter": (key) => Object.defineProperty({ ...body }, key, { get: raise, enumerable: true }),
  };
  for (const trap of TRAPS) reads[`a ${trap} trap`] = () => new Proxy({ ...body }, { [trap]: raise });
  return reads;
}

/** The outcome of `call`: what it returned, or the InvalidPayloadError it threw. */
function total(call, what) {
  let thrown;
  try {
    return { value: call() };
  } catch (error) {
    thrown = error;
  }
  let own;
  try {
    own = Object.getPrototypeOf(thrown) === InvalidPayloadError.prototype;
  } catch {
    assert.fail(`${what}: a hostile value escaped`);
  }
  assert.ok(own, `${what}: ${typeof thrown} ${String(thrown?.constructor?.name)} escaped`);
  assert.equal(typeof thrown.field, "string", `${what}: field`);
  assert.equal(typeof thrown.message, "string", `${what}: message`);
  return { invalid: thrown };
}

describe("what a read throws, whatever it is", () => {
  for (const [kind, make] of hostileThrown()) {
    test(`${kind}: errorFromEvent gives an InvalidPayloadError about the event`, () => {
      const event = { type: "zz.any", error: good() };
      for (const [where, read] of Object.entries(throwingReads(make, event))) {
        for (const key of ["type", "error"]) {
          const outcome = total(() => errorFromEvent(read(key)), `${where} of ${key}`);
          if (outcome.invalid !== undefined) {
            assert.equal(outcome.invalid.field, "event", `${where} of ${key}`);
          } else {
            // A read that never happens (no such event type) cannot throw.
            assert.equal(outcome.value, undefined, `${where} of ${key}`);
          }
        }
      }
    });

    test(`${kind}: fromPayload gives an InvalidPayloadError or an error`, () => {
      for (const [where, read] of Object.entries(throwingReads(make, good()))) {
        for (const key of ["code", "message", "retryable", "details"]) {
          const outcome = total(() => fromPayload(read(key)), `${where} of ${key}`);
          if (outcome.value !== undefined) assert.equal(guard(outcome.value), true);
        }
        const details = total(() => fromPayload({ ...good(), details: read("x") }), `details: ${where}`);
        if (details.invalid !== undefined) assert.equal(details.invalid.field, "details");
      }
    });

    test(`${kind}: the guard and toError never throw`, () => {
      for (const read of Object.values(throwingReads(make, good()))) {
        const value = read("code");
        assert.equal(typeof guard(value), "boolean");
        assert.equal(guard(toError(value)), true);
      }
    });
  }
});
