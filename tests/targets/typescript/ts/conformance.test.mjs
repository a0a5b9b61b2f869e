// Runs every conformance vector (generated/conformance/vectors.json of a case)
// against the compiled TypeScript module: the same file the Python suite runs.
// Env: TAXOGEN_MODULE (compiled index.js), TAXOGEN_VECTORS (vectors.json).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";

const mod = await import(pathToFileURL(process.env.TAXOGEN_MODULE).href);
const document = JSON.parse(readFileSync(process.env.TAXOGEN_VECTORS, "utf8"));

// docs "What a code maps to": a vector that says none of them expects none
// (TypeScript's undefined for JSON's null).
function checkMapped(owner, expect, id) {
  assert.equal(owner.httpStatus, expect.http_status ?? undefined, `${id}: httpStatus`);
  assert.equal(owner.grpcStatus, expect.grpc_status ?? undefined, `${id}: grpcStatus`);
  assert.equal(owner.throttling, expect.throttling ?? false, `${id}: throttling`);
  assert.equal(owner.docUrl, expect.doc_url ?? undefined, `${id}: docUrl`);
}

function checkAccepted(err, expect, id) {
  checkMapped(err, expect, id);
  // Issue 30 §2: a status received is the error's own, not its class's.
  const statics =
    "class_http_status" in expect
      ? { ...expect, http_status: expect.class_http_status }
      : expect;
  checkMapped(err.constructor, statics, id);
  assert.equal(err.constructor.name, expect.class, id);
  assert.equal(err.name, expect.class, id);
  assert.equal(err.code, expect.code, id);
  assert.equal(err.domain ?? null, expect.domain, id); // null: no domain (fallback: null)
  assert.equal(err.retryable, expect.retryable, id);
  assert.equal(err.wireCode, expect.wire_code, id);
  assert.deepEqual(err.toPayload(), expect.payload, id);
  // Issue 30 §1: received without its message.
  if ("message" in expect) {
    assert.equal(err.message, expect.message, `${id}: message`);
    assert.equal(err.messageAbsent, true, `${id}: messageAbsent`);
  }
}

const runners = {
  from_payload: (v) => runPayload(mod.fromPayload, v),
  error_from_event: (v) => runPayload(mod.errorFromEvent, v),
  lookup: (v) => {
    assert.equal(mod.lookup(v.input).name, v.expect.class, v.id);
    assert.equal(mod.isRetryable(v.input), v.expect.retryable, v.id);
    checkMapped(mod.lookup(v.input), v.expect, v.id);
  },
  to_error: (v) => {
    const err = mod.toError(v.input);
    checkMapped(err, v.expect, v.id);
    assert.equal(err.name, v.expect.class, v.id);
    assert.deepEqual([err.code, err.domain, err.retryable], [v.expect.code, v.expect.domain, v.expect.retryable], v.id);
    assert.deepEqual(err.cause, v.input, v.id);
  },
  // docs "TypeScript": a class with declared fields takes them as options.details.
  construct: (v) => {
    const Cls = mod.lookup(v.input.code);
    const err = new Cls({ details: v.input.details });
    checkMapped(err, v.expect, v.id);
    assert.equal(err.name, v.expect.class, v.id);
    assert.equal(err.code, v.expect.code, v.id);
    assert.equal(err.message, v.expect.message, v.id);
    assert.deepEqual({ ...err.details }, v.expect.details, v.id);
  },
  // Issue 30 §8: err.retryAfter, seconds, undefined for none.
  retry_after: (v) => {
    const err = mod.fromPayload(inputOf(v));
    assert.equal(err.name, v.expect.class, v.id);
    assert.equal(err.code, v.expect.code, v.id);
    assert.equal(err.retryAfter, v.expect.retry_after ?? undefined, v.id);
  },
};

// docs "Schema, vectors and docs": a vector whose input holds a number the
// language's own JSON parser must meet (1e400, 309 or 5,000 digits) carries it as
// JSON text, input_json, read here by JSON.parse as a user's program reads it.
function inputOf(v) {
  return v.input_json === undefined ? v.input : JSON.parse(v.input_json);
}

function runPayload(call, v) {
  const input = inputOf(v);
  if (!v.expect.ok) {
    assert.throws(
      () => call(input),
      (err) =>
        err instanceof mod.InvalidPayloadError &&
        err.field === v.expect.field &&
        // Issue 30 §1: a message the same in every language.
        (v.expect.message === undefined || err.message === v.expect.message),
      v.id,
    );
    return;
  }
  const result = call(input);
  if (v.expect.none) assert.equal(result, undefined, v.id);
  else checkAccepted(result, v.expect, v.id);
}

test("every kind of vector has a runner", () => {
  for (const kind of Object.keys(document.kinds)) assert.ok(runners[kind], kind);
});

let ran = 0;
for (const vector of document.vectors) {
  test(vector.id, () => {
    ran += 1;
    runners[vector.kind](vector);
  });
}

// Issue 31 §3: a runner that ran no vector, or fewer than the file holds,
// proves nothing (top-level tests run one after another, so this runs last).
test("every vector ran", () => {
  assert.ok(document.vectors.length > 0, "no vectors");
  assert.equal(ran, document.vectors.length);
});
