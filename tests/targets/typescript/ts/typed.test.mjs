// Typed details and message templates of a generated TypeScript module (issue 10).
//
// Run by tests/targets/typescript/test_ts_typed.py:
//   TAXOGEN_MODULE=<compiled pkg>/dist/index.js TAXOGEN_SPEC=<spec.json> node --test typed.test.mjs
// The spec is what the case's taxonomy.yaml says (tests/spec_oracle.py read_spec):
// each code's class, fields ([name, shape]) and message template. Every value and
// every expected outcome below is derived from it and from the words,
// never from the generated module.

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, test } from "node:test";
import { pathToFileURL } from "node:url";

const api = await import(pathToFileURL(process.env.TAXOGEN_MODULE).href);
const spec = JSON.parse(readFileSync(process.env.TAXOGEN_SPEC, "utf8"));
const { fromPayload, InvalidPayloadError } = api;

const shapeOf = (raw) => (typeof raw === "string" ? { type: raw } : raw);
const required = (shape) => shape.required ?? true;

/** A value that fits `shape` (docs "The format"). */
function sample(raw) {
  const shape = shapeOf(raw);
  switch (shape.type) {
    case "string":
      return shape.enum?.[0] ?? "s-1";
    case "integer":
      return shape.minimum ?? shape.maximum ?? 3;
    case "number":
      return shape.minimum !== undefined ? shape.minimum + 0.5 : 0.5;
    case "boolean":
      return true;
    case "array":
      return shape.items === undefined ? [] : [sample(shape.items)];
    default:
      return { k: "v" };
  }
}

/** Values that do not fit `shape`, each with what it is. */
function misfits(raw) {
  const shape = shapeOf(raw);
  const out = [];
  switch (shape.type) {
    case "string":
      out.push(["a number", 7], ["null", null]);
      if (shape.enum) out.push(["a string not listed", "zz_not_listed"]);
      break;
    case "integer":
      out.push(["a string", "3"], ["a fraction", 2.5], ["a boolean", true]);
      break;
    case "number":
      out.push(["a string", "0.5"], ["a boolean", false]);
      break;
    case "boolean":
      out.push(["a string", "true"], ["a number", 1]);
      break;
    case "array":
      out.push(["a string", "x"], ["an object", {}]);
      for (const [what, bad] of shape.items === undefined ? [] : misfits(shape.items)) {
        if (bad !== null) out.push([`an item that is ${what}`, [sample(shape.items), bad]]);
      }
      break;
    default:
      out.push(["an array", ["x"]], ["a string", "x"]);
  }
  if (shape.minimum !== undefined) out.push(["below the minimum", past(shape.minimum, -1)]);
  if (shape.maximum !== undefined) out.push(["above the maximum", past(shape.maximum, 1)]);
  return out;
}

/** A number past `bound` (`sign` -1: below, 1: above) as JavaScript reads it: ±1,
 * or, where 1 is lost in rounding (past 2**53), a few units of its last place. */
function past(bound, sign) {
  const step = bound + sign;
  return step !== bound ? step : bound + sign * Math.abs(bound) * Number.EPSILON;
}

/** README "Message templates": `{field}` placeholders, `{{`/`}}` literal braces, values as String(). */
function rendered(template, details) {
  return template.replace(/\{\{|\}\}|\{([A-Za-z][A-Za-z0-9_]*)\}/g, (match, name) =>
    name === undefined ? match[0] : String(details[name]),
  );
}

const typed = Object.values(spec.codes).filter((c) => c.fields.length > 0);
const plainOf = (value) => JSON.parse(JSON.stringify(value));

test("the fixture has typed codes", () => assert.ok(typed.length > 0));

for (const c of typed) {
  const Cls = api[c.class_name];
  const fields = c.fields.map(([name, raw]) => [name, shapeOf(raw)]);
  const minimal = Object.fromEntries(fields.filter(([, s]) => required(s)).map(([n, s]) => [n, sample(s)]));
  const full = Object.fromEntries(fields.map(([n, s]) => [n, sample(s)]));
  const defaults = Object.fromEntries(fields.filter(([, s]) => "default" in s).map(([n, s]) => [n, s.default]));
  const withDefaults = { ...defaults, ...minimal };
  const payload = (details) => ({ code: c.code, message: "m", retryable: c.retryable, details });

  describe(`${c.code} (${c.class_name})`, () => {
    test("constructed from its fields, alone or after a message: details with defaults, message from the template", () => {
      for (const err of [new Cls({ details: minimal }), new Cls(undefined, { details: minimal })]) {
        assert.equal(err.code, c.code);
        assert.deepEqual(plainOf(err.details), plainOf(withDefaults));
        assert.ok(Object.isFrozen(err.details));
        const message = c.message === null ? c.meaning : rendered(c.message, withDefaults);
        assert.equal(err.message, message);
      }
      const all = new Cls({ details: full });
      assert.deepEqual(plainOf(all.details), plainOf(full));
      if (c.message !== null) assert.equal(all.message, rendered(c.message, full));
    });

    test("an explicit message wins, in either form; cause and retryable are taken", () => {
      const cause = new Error("root");
      const alone = new Cls({ details: minimal, message: "explicit", cause, retryable: !c.retryable });
      const after = new Cls("explicit", { details: minimal, cause, retryable: !c.retryable });
      for (const err of [alone, after]) {
        assert.equal(err.message, "explicit");
        assert.equal(err.cause, cause);
        assert.equal(err.retryable, !c.retryable);
      }
    });

    test("numbers in a message are written as JavaScript's String() writes them", () => {
      for (const [name, shape] of fields) {
        if (shape.type !== "number" || !(c.message ?? "").includes(`{${name}}`)) continue;
        for (const value of [3.0, 1e21, 1.5e-7, 0.1 + 0.2]) {
          const fits = (shape.minimum ?? -Infinity) <= value && value <= (shape.maximum ?? Infinity);
          if (!fits) continue;
          const err = new Cls({ details: { ...minimal, [name]: value } });
          assert.ok(err.message.includes(String(value)), `${err.message} lacks ${String(value)}`);
        }
      }
    });

    test("the constructor refuses a missing required field and a misfit, naming the field", () => {
      for (const [name, shape] of fields) {
        if (required(shape)) {
          const { [name]: _, ...rest } = minimal;
          assert.throws(() => new Cls({ details: rest }), (e) => e instanceof TypeError && e.message.startsWith(`details.${name}`), name);
        }
        for (const [what, bad] of misfits(shape)) {
          assert.throws(
            () => new Cls({ details: { ...minimal, [name]: bad } }),
            (e) => e instanceof TypeError && e.message.startsWith(`details.${name}`),
            `${name}: ${what}`,
          );
        }
      }
    });

    test("fromPayload keeps valid details as received (no default filled in), extra keys too, and round-trips", () => {
      for (const details of [minimal, full, { ...minimal, zz_extra: [1, "x"] }]) {
        const err = fromPayload(payload(details));
        assert.equal(err.constructor, Cls);
        assert.deepEqual(plainOf(err.details), plainOf(details));
        assert.equal(err.message, "m");
        assert.deepEqual(err.toPayload(), plainOf(payload(details)));
        assert.deepEqual(fromPayload(JSON.parse(JSON.stringify(err.toPayload()))).toPayload(), err.toPayload());
      }
    });

    test("fromPayload refuses each kind of invalid detail with field details.<name>", () => {
      const expectField = (input, field, label) =>
        assert.throws(() => fromPayload(input), (e) => e instanceof InvalidPayloadError && e.field === field, label);
      for (const [name, shape] of fields) {
        if (required(shape)) {
          const { [name]: _, ...rest } = minimal;
          expectField(payload(rest), `details.${name}`, `${name} missing`);
        }
        for (const [what, bad] of misfits(shape)) expectField(payload({ ...minimal, [name]: bad }), `details.${name}`, `${name}: ${what}`);
      }
      const first = fields.find(([, s]) => required(s));
      if (first) {
        for (const details of [null, undefined, {}]) expectField(payload(details), `details.${first[0]}`, `details ${details}`);
      }
    });

    test("details are plain own properties, whatever the fields are called", () => {
      const err = new Cls({ details: full });
      for (const [name] of fields) {
        assert.ok(Object.hasOwn(err.details, name), name);
        assert.deepEqual(plainOf(err.details[name]), plainOf(full[name]), name);
      }
      const decoded = fromPayload(payload(full));
      for (const [name] of fields) assert.ok(Object.hasOwn(decoded.details, name), name);
    });
  });
}

test("an unknown code's details are not checked against the fallback's fields", () => {
  const fallback = spec.codes[spec.fallback];
  const code = spec.code_case === "upper_snake" ? "ZZ_UNKNOWN_CODE" : "zz_unknown_code";
  const misfit = Object.fromEntries(fallback.fields.map(([name]) => [name, { not: "a scalar" }]));
  const err = fromPayload({ code, message: "m", retryable: false, details: misfit });
  assert.equal(err.constructor, api[fallback.class_name]);
  assert.equal(err.wireCode, code);
  assert.deepEqual(plainOf(err.details), misfit);
});

test("toError wraps with the wrap code's defaults filled in", () => {
  const wrap = spec.codes[spec.wrap];
  const err = api.toError(new Error("x"));
  const defaults = Object.fromEntries(wrap.fields.map(([n, s]) => [n, shapeOf(s)]).filter(([, s]) => "default" in s).map(([n, s]) => [n, s.default]));
  assert.deepEqual(plainOf(err.details), defaults);
});
