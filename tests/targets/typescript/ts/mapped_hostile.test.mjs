// A mapped payload's decoder (issue 14 §2) keeps the guards of today's: the TypeScript side.
//
// Run by tests/test_payload_mapping.py, once per case whose payload is mapped, against the
// compiled module, under a small heap:
//   TAXOGEN_MODULE=<pkg>/dist/index.js TAXOGEN_GOOD=<a valid payload, JSON> \
//   TAXOGEN_MEMBERS=<the members the mapping reads, JSON> node --test mapped_hostile.test.mjs
// Whatever it is handed (a Proxy whose traps throw, a getter that throws on any member, a
// sparse array of length 1e8, details 100,000 deep, a 20 MB string), fromPayload gives an
// error of the taxonomy or throws InvalidPayloadError, within bounded time and memory.

import assert from "node:assert/strict";
import { test } from "node:test";
import { pathToFileURL } from "node:url";

const MODULE = process.env.TAXOGEN_MODULE;
if (!MODULE || !process.env.TAXOGEN_GOOD) throw new Error("set TAXOGEN_MODULE and TAXOGEN_GOOD");
const api = await import(pathToFileURL(MODULE).href);
const { InvalidPayloadError, fromPayload } = api;
const GOOD = JSON.parse(process.env.TAXOGEN_GOOD);
const ENVELOPE = process.env.TAXOGEN_ENVELOPE || "";
const MEMBERS = JSON.parse(process.env.TAXOGEN_MEMBERS);
const SANITY_MS = 5000;

const body = () => structuredClone(ENVELOPE ? GOOD[ENVELOPE] : GOOD);
const wrap = (inner) => (ENVELOPE ? { [ENVELOPE]: inner } : inner);

function total(call, what) {
  const started = Date.now();
  try {
    call();
  } catch (err) {
    assert.ok(err instanceof InvalidPayloadError, `${what}: threw ${err}`);
  }
  assert.ok(Date.now() - started < SANITY_MS, `${what}: took too long`);
}

test("the good payload decodes", () => {
  assert.ok(fromPayload(GOOD));
});

test("a getter that throws on any member is invalid, nothing else", () => {
  for (const member of MEMBERS) {
    const inner = Object.defineProperty(body(), member, {
      get() {
        throw new Error("boom");
      },
      enumerable: true,
    });
    assert.throws(() => fromPayload(wrap(inner)), InvalidPayloadError, member);
  }
});

test("a proxy whose traps throw is invalid", () => {
  const trap = () => {
    throw new Error("trap");
  };
  const proxy = new Proxy(body(), { get: trap, has: trap, ownKeys: trap, getOwnPropertyDescriptor: trap, getPrototypeOf: trap });
  total(() => fromPayload(wrap(proxy)), "proxy");
  total(() => fromPayload(proxy), "proxy outside");
});

test("huge, sparse and deep values in every member never break it", () => {
  let deep = {};
  for (let i = 0; i < 100_000; i++) deep = { d: deep };
  const sparse = [];
  sparse.length = 1e8;
  for (const value of [deep, sparse, "x".repeat(20_000_000), [deep], Number.NaN, 10n, Symbol("s")]) {
    for (const member of [...MEMBERS, "zz_extra"]) {
      total(() => fromPayload(wrap({ ...body(), [member]: value })), `${member}`);
    }
  }
});

test("anything at all", () => {
  for (const value of [null, undefined, 1, "x", [], [GOOD], new Map(), Object.create(null), () => 1]) {
    total(() => fromPayload(value), typeof value);
  }
});
