// Issue 30 §2 in generated TypeScript modules: each error's own HTTP status.
//
// Run by tests/targets/typescript/test_ts_statuses.py:
//   TAXOGEN_OAUTH=<oauth_statuses index.js> TAXOGEN_TYPED=<http_api index.js>
//   TAXOGEN_K8S=<k8s_status index.js> TAXOGEN_SPEC=<specs.json> node --test statuses.test.mjs
// The spec is what each case's taxonomy.yaml says (tests/spec_oracle.py): the
// statuses a code may take, its default first, and the payload's status member.
// "Every error has its own HTTP status (TypeScript err.httpStatus): the received
// one where the payload carries it, else a constructor argument, else its class's."

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { pathToFileURL } from "node:url";

const load = (name) => import(pathToFileURL(process.env[name]).href);
const oauth = await load("TAXOGEN_OAUTH");
const typed = await load("TAXOGEN_TYPED");
const k8s = await load("TAXOGEN_K8S");
const spec = JSON.parse(readFileSync(process.env.TAXOGEN_SPEC, "utf8"));

test("the constructor's httpStatus is the error's own, not its class's", () => {
  const listed = spec.oauth.invalid_client;
  assert.deepEqual(listed, [400, 401]);
  const { InvalidClientError, InvalidGrantError } = oauth;
  assert.equal(InvalidClientError.httpStatus, listed[0]);
  assert.equal(new InvalidClientError().httpStatus, listed[0]);
  const err = new InvalidClientError("bad client", { httpStatus: listed[1] });
  assert.equal(err.httpStatus, 401);
  assert.equal(new InvalidClientError(undefined, { httpStatus: 401 }).httpStatus, 401);
  // The class, and every other error of it, keep the default.
  assert.equal(InvalidClientError.httpStatus, 400);
  assert.equal(new InvalidClientError("m").httpStatus, 400);
  // Still no key of the error: JSON, keys and the payload are unchanged.
  assert.ok(!Object.keys(err).includes("httpStatus"));
  assert.ok(!JSON.stringify(err).includes("401"));
  assert.deepEqual(err.toPayload(), new InvalidClientError("bad client").toPayload());
  // A status the code does not list is still an HTTP status: taken.
  assert.equal(new InvalidGrantError(undefined, { httpStatus: 503 }).httpStatus, 503);
  assert.equal(new InvalidGrantError(undefined, { httpStatus: 100 }).httpStatus, 100);
  assert.equal(new InvalidGrantError(undefined, { httpStatus: 599 }).httpStatus, 599);
});

test("a typed constructor takes httpStatus beside its details", () => {
  const { ParameterMissingError, ParameterInvalidIntegerError } = typed;
  const err = new ParameterMissingError({ details: { param: "amount" }, httpStatus: 422 });
  assert.equal(err.httpStatus, 422);
  assert.equal(err.details.param, "amount");
  const plain = new ParameterMissingError({ details: { param: "amount" } });
  assert.equal(plain.httpStatus, spec.typed.parameter_missing[0]);
  assert.equal(new ParameterInvalidIntegerError({ httpStatus: 422 }).httpStatus, 422);
});

test("a status that is no HTTP status is refused", () => {
  const { InvalidClientError } = oauth;
  for (const value of ["401", 401.5, true, null, {}]) {
    assert.throws(
      () => new InvalidClientError(undefined, { httpStatus: value }),
      (e) => e instanceof TypeError && /httpStatus: expected an integer/.test(e.message),
      String(value),
    );
  }
  for (const value of [99, 600, -1]) {
    assert.throws(
      () => new InvalidClientError(undefined, { httpStatus: value }),
      (e) => e instanceof RangeError && /from 100 to 599, got/.test(e.message),
      String(value),
    );
  }
});

test("the constructor's status is written in the status member", () => {
  const member = spec.k8s.member;
  assert.equal(member, "code");
  const { NotFoundError, fromPayload } = k8s;
  assert.equal(new NotFoundError("m", { httpStatus: 418 }).toPayload()[member], 418);
  assert.equal(new NotFoundError("m").toPayload()[member], spec.k8s.not_found[0]);
  const got = fromPayload({ reason: "NotFound", message: "m", [member]: 418 });
  assert.equal(got.httpStatus, 418);
  assert.equal(got.toPayload()[member], 418);
  assert.equal(got.constructor.httpStatus, 404);
});
