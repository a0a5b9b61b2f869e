// Issue 30 §8 in a generated TypeScript module: err.retryAfter is the value of
// the details field retry_after names, in seconds; undefined where the field is
// absent or the code names none. Run by tests/test_retry_after.py:
//   TAXOGEN_MODULE=<oauth_device index.js> node --test retry.test.mjs
import assert from "node:assert/strict";
import { test } from "node:test";
import { pathToFileURL } from "node:url";

const api = await import(pathToFileURL(process.env.TAXOGEN_MODULE).href);
const { SlowDownError, InvalidRequestError, AuthorizationPendingError, fromPayload } = api;

test("retryAfter is the field's seconds", () => {
  assert.equal(SlowDownError.retryAfterField, "interval");
  assert.equal(new SlowDownError({ details: { interval: 10 } }).retryAfter, 10);
  assert.equal(new SlowDownError().retryAfter, undefined);
  assert.equal(new InvalidRequestError().retryAfter, undefined);
  assert.equal(InvalidRequestError.retryAfterField, undefined);
  // A getter: no key of the error, nothing in its JSON.
  const err = new SlowDownError({ details: { interval: 10 } });
  assert.ok(!Object.keys(err).includes("retryAfter"));
  assert.ok(!JSON.stringify(err).includes("retryAfter"));
});

test("retryAfter is read from the wire", () => {
  assert.equal(fromPayload({ error: "slow_down", error_description: "d", interval: 5 }).retryAfter, 5);
  assert.equal(fromPayload({ error: "slow_down", error_description: "d" }).retryAfter, undefined);
  const pending = fromPayload({ error: "authorization_pending", error_description: "d", interval: 5 });
  assert.ok(pending instanceof AuthorizationPendingError);
  assert.equal(pending.retryAfter, undefined);
});
