// Type-level contract of nested details (issue 30 §7), for tests/cases/nested_details.
//
// Compiled (never run) by tests/targets/typescript/test_ts_nested.py against the
// case's emitted dist/index.d.ts, under the package's own strict tsconfig. The
// names are the case's (its YAML: a top-level `causes`, an array of objects whose
// `reason` is an enum; the `resource` domain's required `resource` object with
// `class` and an optional `owner` object) and the interface names docs/typescript.md
// gives them. Each `@ts-expect-error` guards a misuse beside the legal use it
// differs from; an unneeded one is an error (TS2578).

import { ApiError, InvalidError, NotFoundError, UnknownError, fromPayload } from "../pkg/dist/index.js";
import type {
  ApiDetailsCausesItem,
  KnownError,
  NotFoundDetails,
  ResourceDetailsResource,
  ResourceDetailsResourceOwner,
} from "../pkg/dist/index.js";

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
function holds<T extends readonly true[]>(checks: T): T {
  return checks;
}

type Reason = "FieldValueInvalid" | "FieldValueRequired";

// --- The interfaces: members read-only, optional ones `?`, enums as unions, a
// member named `class` kept as the property's name; one interface per declaration.
holds([
  true as Equal<
    ApiDetailsCausesItem,
    { readonly reason: Reason; readonly message?: string; readonly field?: string }
  >,
  true as Equal<
    ResourceDetailsResourceOwner,
    { readonly uid: string; readonly type?: string; readonly generation?: number }
  >,
  true as Equal<ResourceDetailsResource["class"], string | undefined>,
  true as Equal<ResourceDetailsResource["owner"], ResourceDetailsResourceOwner | undefined>,
  true as Equal<NotFoundDetails["causes"], readonly ApiDetailsCausesItem[] | undefined>,
  true as Equal<NotFoundDetails["resource"], ResourceDetailsResource>,
  // The top-level field is the same interface in every code, the domain's in each of its codes.
  true as Equal<UnknownError["details"]["causes"], NotFoundError["details"]["causes"]>,
  true as Equal<InvalidError["details"]["resource"], NotFoundError["details"]["resource"]>,
]);

// --- A consumer reading a decoded error: typed access down the path.
function firstReason(err: ApiError): Reason | undefined {
  if (err instanceof NotFoundError) return err.details.causes?.[0]?.reason;
  return undefined;
}
function describe(err: KnownError): string {
  switch (err.code) {
    case "not_found": {
      const reason: Reason | undefined = err.details.causes?.[0]?.reason;
      const kind: string = err.details.resource.kind;
      const klass: string | undefined = err.details.resource.class;
      const generation: number | undefined = err.details.resource.owner?.generation;
      // @ts-expect-error owner is optional: read through `?.`
      void err.details.resource.owner.uid;
      // @ts-expect-error a cause's reason is the enum, not any string
      const loose: "Other" | undefined = err.details.causes?.[0]?.reason;
      return `${reason} ${kind} ${klass} ${generation} ${loose}`;
    }
    case "invalid":
      // @ts-expect-error no such member
      return err.details.resource.uid;
    default:
      return err.message;
  }
}
const decoded = fromPayload({});
const reason = firstReason(decoded);

// --- Constructors take the nested values, typed.
const resource = { kind: "Pod", name: "web", class: "gold", owner: { uid: "u1", generation: 2 } } as const;
const found = new NotFoundError({
  details: { kind_hint: "Pod", resource, causes: [{ reason: "FieldValueInvalid", field: "spec" }] },
});
const invalid = new InvalidError("m", { details: { resource: { kind: "Pod", name: "web" }, tags: [{ any: 1 }] } });
// @ts-expect-error a required member (name) missing
new InvalidError({ details: { resource: { kind: "Pod" } } });
// @ts-expect-error a cause's reason outside the enum
new UnknownError({ details: { causes: [{ reason: "Bogus" }] } });
// @ts-expect-error a cause without its required reason
new UnknownError({ details: { causes: [{ field: "spec" }] } });
// @ts-expect-error a nested member of the wrong type
new InvalidError({ details: { resource: { kind: "Pod", name: "web", owner: { uid: "u", generation: "2" } } } });
// @ts-expect-error nested members are read-only
found.details.resource.kind = "Node";
// @ts-expect-error items are read-only
found.details.causes?.push({ reason: "FieldValueRequired" });

// --- docs/typescript.md "Nested objects", as written there (bar the import path).
declare const body: unknown;
const err = fromPayload(body);
if (err instanceof NotFoundError) {
  const reason = err.details.causes?.[0]?.reason; // "FieldValueInvalid" | "FieldValueRequired" | undefined
  const kind: string = err.details.resource.kind;
  const klass = err.details.resource.class; // string | undefined: the wire name, kept
  const uid = err.details.resource.owner?.uid; // string | undefined
  holds([
    true as Equal<typeof reason, Reason | undefined>,
    true as Equal<typeof klass, string | undefined>,
    true as Equal<typeof uid, string | undefined>,
  ]);
  void kind;
  // An interface is no Record, its spread is.
  const record: Readonly<Record<string, unknown>> = { ...err.details.resource };
  // @ts-expect-error an interface has no index signature
  const direct: Readonly<Record<string, unknown>> = err.details.resource;
  void [record, direct];
}
new NotFoundError({
  details: { kind_hint: "Pod", resource: { kind: "Pod", name: "web" }, causes: [{ reason: "FieldValueInvalid" }] },
});

export const used: unknown[] = [describe, reason, found, invalid];
