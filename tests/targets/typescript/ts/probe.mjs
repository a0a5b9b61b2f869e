// Runs a batch of probes against a compiled TypeScript module, in one process,
// and prints what it observed as JSON (the shape of tests/spec_oracle.py's
// observe_python): the Python side compares it with the spec.
// Usage: node probe.mjs MODULE.js PROBES.json  (PROBES: [[op, input], ...])
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";

const [modulePath, probesPath] = process.argv.slice(2);
const mod = await import(pathToFileURL(modulePath).href);
const probes = JSON.parse(readFileSync(probesPath, "utf8"));

function ancestors(err) {
  const names = [];
  for (let p = Object.getPrototypeOf(err); p !== null; p = Object.getPrototypeOf(p)) {
    names.push(p.constructor.name);
  }
  return names.sort();
}

// What a class (or an error) maps to, JSON's null for TypeScript's undefined.
function mapped(owner) {
  return {
    http_status: owner.httpStatus ?? null,
    grpc_status: owner.grpcStatus ?? null,
    throttling: owner.throttling,
    doc_url: owner.docUrl ?? null,
  };
}

function describe(err) {
  if (err === undefined) return { ok: true, none: true };
  return {
    ok: true,
    class: err.constructor.name,
    name: err.name,
    code: err.code,
    domain: err.domain ?? null, // none for an unknown code kept as itself
    retryable: err.retryable,
    wire_code: err.wireCode,
    payload: err.toPayload(),
    message: err.message,
    message_absent: err.messageAbsent,
    ...mapped(err),
    ancestors: ancestors(err),
  };
}

function said(call) {
  try {
    call();
    return { ok: true };
  } catch (err) {
    return { field: err.field ?? null, message: err.message };
  }
}

const calls = {
  from_payload: (x) => describe(mod.fromPayload(x)),
  error_from_event: (x) => describe(mod.errorFromEvent(x)),
  to_error: (x) => describe(mod.toError(x)),
  // What a refusal says (the message, not only the field): the payload given,
  // or with `error`, a JavaScript Error whose message is the input.
  refusal: (x) => said(() => mod.fromPayload(x)),
  refusal_of_error: (x) => said(() => mod.fromPayload(new Error(x))),
  lookup: (x) => ({
    class: mod.lookup(x).name,
    retryable: mod.isRetryable(x),
    ...mapped(mod.lookup(x)),
  }),
};

const out = probes.map(([op, input]) => {
  try {
    return calls[op](input);
  } catch (err) {
    if (err instanceof mod.InvalidPayloadError) return { ok: false, field: err.field };
    return { threw: `${err?.name}: ${err?.message}` };
  }
});
process.stdout.write(JSON.stringify(out));
