"""Typed details and message templates in TypeScript, compiled and run (issue 10).

``tests/cases/typed_details`` (every kind of field, shared domain fields,
defaults, enums, arrays, an object, literal braces) and a hostile variant whose
fields are named after properties every JavaScript object inherits are
compiled with the repository's ``tsc`` and run under node by
``tests/targets/typescript/ts/typed.test.mjs``, whose oracle is the case's YAML as
``tests/spec_oracle.py`` reads it.  ``tests/targets/typescript/ts/typed.test-d.ts`` is
compiled
against the fixture's declarations: the typed API and its misuses.
"""

from __future__ import annotations

import dataclasses
import json
import os
import subprocess
import sys
from pathlib import Path


from tests.spec_oracle import read_spec
from tests.support import (
    REPO,
    TSC,
    cases,
    compile_typescript,
    package,
    require_typescript_tools,
)

FIXTURE = REPO / "tests" / "cases" / "typed_details"
TS_TESTS = REPO / "tests" / "targets" / "typescript" / "ts"
TIMEOUT = 120

#: Names every JavaScript object inherits (or a thenable or array-like has): as
#: details fields they must stay plain own properties of the details.
HOSTILE = ("constructor", "toString", "hasOwnProperty", "valueOf", "prototype")
HOSTILE_YAML = """\
format: 1
name: hostile
title: Hostile Field Names
version: 1.0.0
base: HostileError
fallback: unknown_error
wrap: internal_error
domains:
  general:
    title: General
    description: The fallback and the wrap.
    codes:
      unknown_error: {retryable: false, meaning: Unknown}
      internal_error: {retryable: true, meaning: Internal}
  proto:
    title: Proto
    description: Fields with hostile names, the first shared by the domain.
    details:
      constructor: {type: string}
    codes:
      proto_names:
        retryable: false
        meaning: Fields named after inherited properties
        message: "MESSAGE"
        details:
          toString: {type: string}
          hasOwnProperty: {type: integer, minimum: 0}
          valueOf: {type: number, required: false, default: 1.5}
          prototype: {type: boolean, required: false, default: true}
          then: {type: string, enum: [a, b], required: false, default: b}
          length: {type: integer}
""".replace("MESSAGE", " ".join(f"{{{name}}}" for name in (*HOSTILE, "then", "length")))


def _fixture_package() -> Path:
    """The fixture's whole generated package: its golden files and the runtime
    copies (:func:`tests.support.package`)."""
    return package(next(c for c in cases() if c.name == "typed_details"))


def _run(args: list[str], **kwargs: object) -> subprocess.CompletedProcess[str]:
    return subprocess.run(  # type: ignore[call-overload, no-any-return]
        args, capture_output=True, text=True, check=False, timeout=TIMEOUT, **kwargs
    )


def _compiled(package: Path, out: Path) -> Path:
    result = compile_typescript(package, out)
    assert result.returncode == 0, result.stdout + result.stderr
    return out / "pkg"


def _run_typed(node: str, taxonomy: Path, pkg: Path, out: Path) -> None:
    spec = out / "spec.json"
    # The spec as the Node side reads it: its data, not the file it came from.
    data = dataclasses.asdict(read_spec(taxonomy))
    del data["path"]
    # (sets, such as the domains that keep unknown codes, as sorted lists)
    spec.write_text(json.dumps(data, default=sorted), "utf-8")
    env = {
        **os.environ,
        "TAXOGEN_MODULE": str(pkg / "dist" / "index.js"),
        "TAXOGEN_SPEC": str(spec),
        "NODE_OPTIONS": "",
    }
    result = _run([node, "--test", str(TS_TESTS / "typed.test.mjs")], env=env)
    output = result.stdout + result.stderr
    assert result.returncode == 0, output
    assert "# pass 0\n" not in result.stdout and "# fail 0" in result.stdout, output


def test_the_fixture_constructs_renders_and_decodes_as_its_yaml_says(
    tmp_path: Path,
) -> None:
    node = require_typescript_tools()
    pkg = _compiled(_fixture_package() / "typescript", tmp_path)
    _run_typed(node, FIXTURE / "taxonomy.yaml", pkg, tmp_path)


def test_fields_named_after_inherited_properties_are_plain_details(
    tmp_path: Path,
) -> None:
    node = require_typescript_tools()
    taxonomy = tmp_path / "taxonomy.yaml"
    taxonomy.write_text(HOSTILE_YAML, "utf-8")
    generated = tmp_path / "generated"
    done = _run(
        [sys.executable, "-m", "taxogen", "generate", "--taxonomy", str(taxonomy)]
        + ["--out", str(generated), "-q"],
        cwd=REPO,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    pkg = _compiled(generated / "typescript", tmp_path)
    _run_typed(node, taxonomy, pkg, tmp_path)
    # Beyond the generic checks: the names stay data, never the object's machinery.
    probe = tmp_path / "probe.mjs"
    probe.write_text(
        f'import * as m from "{(pkg / "dist" / "index.js").as_uri()}";\n'
        "const d = {constructor: 'c', toString: 't', hasOwnProperty: 1, length: 2};\n"
        "const e = new m.ProtoNamesError({details: d});\n"
        "const p = m.fromPayload(e.toPayload());\n"
        "console.log(JSON.stringify([e.message, Object.keys(e.details),"
        " typeof e.details.toString, p.details.valueOf, String(e)]));\n",
        "utf-8",
    )
    seen = json.loads(_run([node, str(probe)]).stdout)
    assert seen[0] == "c t 1 1.5 true b 2"
    assert sorted(seen[1]) == sorted((*HOSTILE, "then", "length"))
    assert seen[2] == "string" and seen[3] == 1.5
    assert seen[4] == "ProtoNamesError: c t 1 1.5 true b 2"


def _type_project(pkg: Path, folder: Path, files: dict[str, str]) -> Path:
    folder.mkdir()
    (folder / "package.json").write_text('{"type": "module", "private": true}\n')
    tsconfig = {
        "extends": "../pkg/tsconfig.json",
        "compilerOptions": {
            "noEmit": True,
            "declaration": False,
            "declarationMap": False,
            "isolatedDeclarations": False,
            "rootDir": ".",
        },
        "files": sorted(files),
        "include": [],
    }
    (folder / "tsconfig.json").write_text(json.dumps(tsconfig, indent=2))
    for name, text in files.items():
        (folder / name).write_text(text, encoding="utf-8")
    return folder / "tsconfig.json"


def test_the_typed_api_types_and_its_misuses_do_not_compile(tmp_path: Path) -> None:
    require_typescript_tools()
    pkg = _compiled(_fixture_package() / "typescript", tmp_path)
    source = (TS_TESTS / "typed.test-d.ts").read_text(encoding="utf-8")
    files = {"typed.test-d.ts": source}
    result = _run([str(TSC), "-p", str(_type_project(pkg, tmp_path / "t", files))])
    assert result.returncode == 0, result.stdout + result.stderr
    # Each @ts-expect-error must be needed: remove one and it compiles no more...
    expected = source.count("// @ts-expect-error")
    assert expected >= 8
    # ...and an unneeded one is an error (TS2578) under these options.
    files["canary.ts"] = (
        'import { TaskTimeoutError } from "../pkg/dist/index.js";\n'
        "// @ts-expect-error\n"
        "export const ok = new TaskTimeoutError({ details:"
        ' { task_id: "t", timeout_ms: 1 } });\n'
    )
    result = _run([str(TSC), "-p", str(_type_project(pkg, tmp_path / "c", files))])
    assert result.returncode != 0 and "TS2578" in result.stdout, result.stdout
