"""Nested details (issue 30 §7) in TypeScript: interfaces, checks, paths.

``tests/cases/nested_details`` (an array of typed objects shared by every code,
a required object holding an object, members named ``class`` and ``type``) is
compiled with the repository's ``tsc`` under the package's strict tsconfig;
``tests/targets/typescript/ts/nested.test-d.ts`` is a consumer program compiled
against it (``err.details.causes?.[0]?.reason`` typed as the enum's union, the
misuses refused).  Node runs the constructor's checks, whose messages name the
deepest member as the decoder's do (the vectors check the decoder); the issue's
words are the oracle.  A clash of interface names is refused at generate time.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tests.support import REPO, TSC, cases, package, require_typescript_tools
from tests.targets.typescript.test_ts_typed import _compiled, _type_project

TS_TESTS = REPO / "tests" / "targets" / "typescript" / "ts"
TIMEOUT = 120


def _run(args: list[str], **kwargs: object) -> subprocess.CompletedProcess[str]:
    return subprocess.run(  # type: ignore[call-overload, no-any-return]
        args, capture_output=True, text=True, check=False, timeout=TIMEOUT, **kwargs
    )


def _case_package(tmp_path: Path) -> Path:
    case = next(c for c in cases() if c.name == "nested_details")
    return _compiled(package(case) / "typescript", tmp_path)


def test_a_consumer_reads_nested_members_typed_and_misuses_do_not_compile(
    tmp_path: Path,
) -> None:
    require_typescript_tools()
    pkg = _case_package(tmp_path)
    source = (TS_TESTS / "nested.test-d.ts").read_text(encoding="utf-8")
    files = {"nested.test-d.ts": source}
    result = _run([str(TSC), "-p", str(_type_project(pkg, tmp_path / "t", files))])
    assert result.returncode == 0, result.stdout + result.stderr
    assert source.count("// @ts-expect-error") >= 9
    # Each is needed: one more where nothing is wrong fails (TS2578).
    files["canary.ts"] = (
        'import type { ApiDetailsCausesItem } from "../pkg/dist/index.js";\n'
        "// @ts-expect-error\n"
        'export const ok: ApiDetailsCausesItem = { reason: "FieldValueRequired" };\n'
    )
    result = _run([str(TSC), "-p", str(_type_project(pkg, tmp_path / "c", files))])
    assert result.returncode != 0 and "TS2578" in result.stdout, result.stdout


#: What the constructor says of nested values that misfit (docs "Nested
#: objects": the path of the deepest member missing or misfitting; an item
#: that is no object, or an object of the wrong type, names the field).
CONSTRUCTED = """\
import * as m from "MODULE";
const resource = { kind: "Pod", name: "web" };
const said = (build) => {
  try { build(); return null; } catch (err) { return [err.name, err.message]; }
};
const cause = { reason: "FieldValueInvalid" };
process.stdout.write(JSON.stringify([
  said(() => new m.UnknownError({ details: { causes: [cause, { field: "f" }] } })),
  said(() => new m.UnknownError({ details: { causes: [cause, { reason: "No" }] } })),
  said(() => new m.UnknownError({ details: { causes: [cause, "x"] } })),
  said(() => new m.InvalidError({ details: { resource: { kind: "Pod" } } })),
  said(() => new m.InvalidError({ details: { resource: [] } })),
  said(() => new m.InvalidError({ details: { resource: { ...resource,
    owner: { uid: "u", generation: 0 } } } })),
  said(() => new m.InvalidError({ details: { resource: { ...resource,
    class: null } } })),
  new m.InvalidError({ details: { resource: { ...resource, zz: [1],
    owner: { uid: "u", more: true } }, causes: [{ ...cause, extra: 1 }] } })
    .toPayload().details,
]));
"""


def test_constructing_names_the_deepest_member_and_keeps_undeclared_ones(
    tmp_path: Path,
) -> None:
    node = require_typescript_tools()
    pkg = _case_package(tmp_path)
    probe = tmp_path / "probe.mjs"
    module = (pkg / "dist" / "index.js").as_uri()
    probe.write_text(CONSTRUCTED.replace("MODULE", module), "utf-8")
    done = _run([node, str(probe)])
    assert done.returncode == 0, done.stderr
    *refused, kept = json.loads(done.stdout)
    assert [name for name, _ in refused] == ["TypeError"] * 7
    assert [message.split(": ")[0] for _, message in refused] == [
        "details.causes[1].reason",
        "details.causes[1].reason",
        "details.causes[1]",  # an item of the array (as one of scalars reads)
        "details.resource.name",
        "details.resource",
        "details.resource.owner.generation",
        "details.resource.class",
    ]
    assert refused[0][1] == "details.causes[1].reason: required, missing"
    assert "FieldValueInvalid" in refused[1][1] and '"No"' in refused[1][1]
    assert refused[2][1].startswith("details.causes[1]: expected an object")
    assert kept == {
        "resource": {
            "kind": "Pod",
            "name": "web",
            "zz": [1],
            "owner": {"uid": "u", "more": True},
        },
        "causes": [{"reason": "FieldValueInvalid", "extra": 1}],
    }


#: Two members of one object that spell one interface name: both objects, so
#: both typed by an interface named from the path.
CLASH = """\
format: 1
name: clash
title: Clash
version: 1.0.0
base: ApiError
fallback: unknown_error
wrap: internal_error
domains:
  server:
    title: Server
    codes:
      unknown_error: {retryable: false, meaning: Unknown}
      internal_error:
        retryable: true
        meaning: Internal
        details:
          target:
            type: object
            fields:
              owner_ref: {type: object, fields: {uid: string}}
              ownerRef: {type: object, fields: {name: string}}
"""


def test_two_members_spelling_one_interface_are_refused_where_declared(
    tmp_path: Path,
) -> None:
    taxonomy = tmp_path / "taxonomy.yaml"
    taxonomy.write_text(CLASH, "utf-8")
    done = _run(
        [sys.executable, "-m", "taxogen", "check", "--taxonomy", str(taxonomy)],
        cwd=REPO,
    )
    assert done.returncode == 2, done.stdout + done.stderr
    lines = [line for line in done.stderr.splitlines() if "TypeScript" in line]
    assert len(lines) == 1, done.stderr
    where = f"{taxonomy}:21:15: error: "
    key = "domains.server.codes.internal_error.details.target.fields.ownerRef"
    assert lines[0].startswith(where + key + ": "), lines[0]
    assert "'InternalDetailsTargetOwnerRef'" in lines[0]
    assert "Traceback" not in done.stderr


#: Members named with TypeScript's reserved words and the properties every
#: object inherits: an interface names its properties so, and the checks read
#: only a member the object holds itself.
RESERVED = """\
format: 1
name: reserved_members
title: Reserved Members
version: 1.0.0
base: ApiError
fallback: unknown_error
wrap: internal_error
domains:
  server:
    title: Server
    codes:
      unknown_error: {retryable: false, meaning: Unknown}
      internal_error: {retryable: true, meaning: Internal}
      odd:
        retryable: false
        meaning: Odd members
        details:
          meta:
            type: object
            fields:
              constructor: string
              delete: {type: integer, required: false}
              toString: {type: array, required: false, items: {type: object,
                fields: {function: boolean, new: string}}}
"""

READ_RESERVED = """\
import * as m from "MODULE";
const meta = { constructor: "c", delete: 1, toString: [{ function: true, new: "n" }] };
const e = new m.OddError({ details: { meta } });
const said = (build) => {
  try { build(); return null; } catch (err) { return [err.name, err.field ?? null]; }
};
const payload = (meta) => (
  { code: "odd", message: "m", retryable: false, details: { meta } }
);
process.stdout.write(JSON.stringify([
  m.fromPayload(e.toPayload()).toPayload().details,
  said(() => m.fromPayload(payload({}))),
  said(() => m.fromPayload(payload({ constructor: "c", toString: [{ new: "n" }] }))),
  said(() => new m.OddError({ details: { meta: { constructor: "c", delete: "1" } } })),
]));
"""

TYPED_RESERVED = """\
import { OddError } from "../pkg/dist/index.js";
import type { OddDetailsMeta, OddDetailsMetaToStringItem } from "../pkg/dist/index.js";
const meta = { constructor: "c", toString: [{ function: true, new: "n" }] } as const;
const e = new OddError({ details: { meta } });
const c: string = e.details.meta.constructor;
const d: number | undefined = e.details.meta.delete;
const f: boolean | undefined = e.details.meta.toString?.[0]?.function;
const item: OddDetailsMetaToStringItem = { function: false, new: "x" };
export const used: unknown[] = [c, d, f, item, {} as OddDetailsMeta];
"""


def test_members_named_as_reserved_words_or_inherited_properties_are_plain(
    tmp_path: Path,
) -> None:
    node = require_typescript_tools()
    taxonomy = tmp_path / "taxonomy.yaml"
    taxonomy.write_text(RESERVED, "utf-8")
    generated = tmp_path / "generated"
    done = _run(
        [sys.executable, "-m", "taxogen", "generate", "--taxonomy", str(taxonomy)]
        + ["--out", str(generated), "-q", "--target", "typescript"],
        cwd=REPO,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    pkg = _compiled(generated / "typescript", tmp_path)  # tsc --strict: no error
    files = {"reserved.ts": TYPED_RESERVED}
    result = _run([str(TSC), "-p", str(_type_project(pkg, tmp_path / "t", files))])
    assert result.returncode == 0, result.stdout + result.stderr
    probe = tmp_path / "probe.mjs"
    module = (pkg / "dist" / "index.js").as_uri()
    probe.write_text(READ_RESERVED.replace("MODULE", module), "utf-8")
    done = _run([node, str(probe)])
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == [
        {
            "meta": {
                "constructor": "c",
                "delete": 1,
                "toString": [{"function": True, "new": "n"}],
            }
        },
        # `{}` inherits a constructor, which is no member it holds.
        ["InvalidPayloadError", "details.meta.constructor"],
        ["InvalidPayloadError", "details.meta.toString[0].function"],
        ["TypeError", None],
    ]


KUBERNETES = REPO / "tests" / "catalogues" / "kubernetes" / "bodies"

ROUND_TRIP = """\
import * as m from "MODULE";
import { readFileSync } from "node:fs";
const bodies = JSON.parse(readFileSync(process.argv[2], "utf8"));
process.stdout.write(JSON.stringify(bodies.map((body) => {
  const err = m.fromPayload(body);
  return [err.details.causes, err.toPayload()];
})));
"""


def test_real_kubernetes_causes_decode_typed_and_are_written_back(
    tmp_path: Path,
) -> None:
    """The catalogue's live Status bodies with ``details.causes`` (StatusCause
    objects) decode through the kubernetes case's package with every cause as
    received, and are written back exactly as received (``metadata: {}``
    beside the error too: the case says ``outside: keep``)."""
    node = require_typescript_tools()
    case = next(c for c in cases() if c.name == "kubernetes")
    pkg = _compiled(package(case) / "typescript", tmp_path)
    bodies = [
        json.loads(path.read_text("utf-8"))
        for path in sorted(KUBERNETES.glob("*.json"))
        if path.name != "index.json"
    ]
    bodies = [body for body in bodies if body.get("details", {}).get("causes")]
    assert len(bodies) >= 2
    given = tmp_path / "bodies.json"
    given.write_text(json.dumps(bodies), "utf-8")
    probe = tmp_path / "probe.mjs"
    module = (pkg / "dist" / "index.js").as_uri()
    probe.write_text(ROUND_TRIP.replace("MODULE", module), "utf-8")
    done = _run([node, str(probe), str(given)])
    assert done.returncode == 0, done.stderr
    for body, (causes, written) in zip(bodies, json.loads(done.stdout)):
        assert causes == body["details"]["causes"]
        assert written == body
