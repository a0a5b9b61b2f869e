// One real error body, received and written back by a generated TypeScript
// module: fromPayload then toPayload() (and JSON.stringify) give the same JSON
// (as parsed), and the error's httpStatus is the one the body was answered
// with (issue 30 §2). Run by tests/test_k8s_status_body.py:
//   TAXOGEN_MODULE=<index.js> TAXOGEN_BODY=<file> TAXOGEN_BODY_CODE=<code>
//   TAXOGEN_BODY_STATUS=<status> node --test body.test.mjs

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { pathToFileURL } from "node:url";

const api = await import(pathToFileURL(process.env.TAXOGEN_MODULE).href);
const text = readFileSync(process.env.TAXOGEN_BODY, "utf8");
const status = Number(process.env.TAXOGEN_BODY_STATUS);

test("the real body round-trips, its status read", () => {
  assert.ok(Number.isInteger(status), "TAXOGEN_BODY_STATUS must be set");
  const error = api.fromPayload(JSON.parse(text));
  assert.equal(error.wireCode, process.env.TAXOGEN_BODY_CODE);
  assert.equal(error.httpStatus, status);
  assert.deepEqual(JSON.parse(JSON.stringify(error.toPayload())), JSON.parse(text));
});
