"""The Node scripts the benchmark runs in fresh processes, as text.

Like :mod:`benchmarks.children`: each is written to the temporary folder and
run there, and prints one JSON document on its last line of stdout.
"""

from __future__ import annotations

__all__ = ["NODE_FROM_PAYLOAD", "NODE_IMPORT", "NODE_TYPED_DECODE"]

#: Times a dynamic import of one ES module inside a fresh Node process.
NODE_IMPORT = r"""
const start = performance.now();
await import(process.argv[2]);
const elapsed = performance.now() - start;
console.log(JSON.stringify({ ms: elapsed }));
"""

#: fromPayload against a zod schema doing the same validation, then the same
#: construction.
NODE_FROM_PAYLOAD = r"""
import { z } from "zod";
import { createRequire } from "node:module";
const errors = await import(process.argv[2]);
const pattern = new RegExp(process.argv[3]);
const reps = Number(process.argv[4]);
const code = process.argv[5];
const zodVersion = createRequire(import.meta.url)("zod/package.json").version;
const { fromPayload, lookup } = errors;

const schema = z.object({
  code: z.string().regex(pattern),
  message: z.string(),
  retryable: z.boolean(),
  details: z.record(z.string(), z.json()).nullable().optional(),
});

function viaZod(payload) {
  const valid = schema.parse(payload);
  // What fromPayload does once the payload is checked, spelled the same way.
  const error = new (lookup(valid.code))(valid.message, {
    details: valid.details ?? undefined,
    retryable: valid.retryable,
  });
  error.wireCode = valid.code;
  return error;
}

const full = {
  code, message: "billing gateway timed out after 30s", retryable: true,
  details: { task_id: "task_01", timeout_ms: 300000, elapsed_ms: 302150 },
};
const bare = { code, message: "billing gateway timed out after 30s", retryable: true };
const cases = [
  full, bare, { ...full, extra: 1 }, { ...full, details: null },
  { ...full, code: "no_such_code_here" }, { ...full, code: "Bad-Code" },
  { ...full, code: 7 }, { ...full, message: null }, { ...full, retryable: 1 },
  { ...full, retryable: "true" }, { ...full, details: [] },
  { ...full, details: { x: NaN } }, { ...full, details: { x: new Date(0) } },
  { ...full, details: { x: undefined } }, "not a payload",
];
let agree = 0;
const differ = [];
for (const item of cases) {
  const outcome = [fromPayload, viaZod].map((fn) => {
    try {
      const e = fn(item);
      return JSON.stringify([e.name, e.wireCode, e.message, e.retryable, e.details]);
    } catch {
      return "rejected";
    }
  });
  if (outcome[0] === outcome[1]) agree++;
  else {
    const [ours, theirs] = outcome.map((o) =>
      o === "rejected" ? "rejects" : "accepts",
    );
    differ.push(`${JSON.stringify(item)}: fromPayload ${ours}, zod ${theirs}`);
  }
}

function batch(fn, arg, n) {
  const start = process.hrtime.bigint();
  let sink;
  for (let i = 0; i < n; i++) sink = fn(arg);
  const spent = Number(process.hrtime.bigint() - start);
  if (sink === undefined) throw new Error("nothing built");
  return spent;
}
function calibrate(fn, arg) {
  for (let i = 0; i < 3; i++) batch(fn, arg, 2000); // warm up the JIT
  let n = 1000;
  while (batch(fn, arg, n) < 50e6) n *= 2;
  return n;
}
const parsed = schema.parse(full);
const constructOnly = (valid) => {
  const error = new (lookup(valid.code))(valid.message, {
    details: valid.details ?? undefined,
    retryable: valid.retryable,
  });
  error.wireCode = valid.code;
  return error;
};
const candidates = {
  ours: [fromPayload, full], zod: [viaZod, full],
  construct_only: [constructOnly, parsed],
  zod_parse_only: [(p) => schema.parse(p), full],
  bare_error: [(m) => new Error(m), full.message],
  ours_bare: [fromPayload, bare], zod_bare: [viaZod, bare],
};
const numbers = {};
for (const [label, [fn, arg]] of Object.entries(candidates)) {
  numbers[label] = calibrate(fn, arg);
}
const samples = {};
for (const label of Object.keys(candidates)) samples[label] = [];
for (let r = 0; r < reps; r++) {
  for (const [label, [fn, arg]] of Object.entries(candidates)) {
    samples[label].push(batch(fn, arg, numbers[label]) / numbers[label]);
  }
}
console.log(JSON.stringify({
  samples_ns: samples, agree, cases: cases.length, differ, zod: zodVersion,
}));
"""

#: fromPayload of a code with declared details fields against the same payload with
#: a code that declares none (children.TYPED_DECODE's twin).
NODE_TYPED_DECODE = r"""
const { fromPayload } = await import(process.argv[2]);
const [typed, untyped] = process.argv.slice(3, 5);
const details = JSON.parse(process.argv[5]);
const reps = Number(process.argv[6]);
const payloads = {};
for (const [label, code] of [["typed", typed], ["untyped", untyped]]) {
  payloads[label] = { code, message: "m", retryable: true, details };
}
for (const payload of Object.values(payloads)) {
  const got = JSON.stringify(fromPayload(payload).details);
  if (got !== JSON.stringify(details)) throw new Error(`decoded ${got}`);
}
function batch(payload, n) {
  const start = process.hrtime.bigint();
  let sink;
  for (let i = 0; i < n; i++) sink = fromPayload(payload);
  if (sink === undefined) throw new Error("nothing built");
  return Number(process.hrtime.bigint() - start);
}
const numbers = {};
for (const [label, payload] of Object.entries(payloads)) {
  for (let i = 0; i < 3; i++) batch(payload, 2000); // warm up the JIT
  let n = 1000;
  while (batch(payload, n) < 50e6) n *= 2;
  numbers[label] = n;
}
const samples = { typed: [], untyped: [] };
for (let r = 0; r < reps; r++) {
  for (const [label, payload] of Object.entries(payloads)) {
    samples[label].push(batch(payload, numbers[label]) / numbers[label]);
  }
}
console.log(JSON.stringify({ samples_ns: samples }));
"""
