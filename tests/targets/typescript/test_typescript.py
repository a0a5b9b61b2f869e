"""The generated TypeScript package of every case: it compiles, behaves, and types.

For each case the golden ``typescript/`` folder is compiled with the repository's
``tsc`` under its own strict tsconfig, then

* ``tests/targets/typescript/ts/api.test.mjs`` (``node --test``) checks the runtime API
of the
  compiled module against the case's expectations (``support.expectations``);
* ``tests/targets/typescript/ts/types.test-d.ts`` is compiled against the emitted
``index.d.ts``
  under the same compiler options, with a small per-case module (``case.ts``)
  mapping the case's class names to the fixed aliases that file uses.
"""

from __future__ import annotations

import dataclasses
import json
import os
import subprocess
from pathlib import Path
from typing import Any

import pytest

from tests.spec_oracle import read_spec
from tests.support import (
    REPO,
    package,
    TSC,
    Case,
    case_ids,
    cases,
    compile_typescript,
    expectations,
    require_typescript_tools,
    today_case_ids,
    today_cases,
)

TS_TESTS = REPO / "tests" / "targets" / "typescript" / "ts"
TIMEOUT = 120


@dataclasses.dataclass(frozen=True)
class Built:
    case: Case
    out: Path
    result: subprocess.CompletedProcess[str]

    @property
    def pkg(self) -> Path:
        return self.out / "pkg"

    def require_compiled(self) -> None:
        if self.result.returncode != 0:
            pytest.fail(
                f"{self.case.name}: the package did not compile (see test_compiles)\n"
                f"{_output(self.result)}"
            )


def _output(result: subprocess.CompletedProcess[str]) -> str:
    return f"--- stdout\n{result.stdout}\n--- stderr\n{result.stderr}"


def _require_tools() -> str:
    return require_typescript_tools()


def _run(
    args: list[str], *, env: dict[str, str] | None = None, cwd: Path | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        args,
        capture_output=True,
        text=True,
        check=False,
        env=env,
        cwd=cwd,
        timeout=TIMEOUT,
    )


@pytest.fixture(scope="module", params=today_cases(), ids=today_case_ids())
def built(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Built:
    _require_tools()
    case: Case = request.param
    out = tmp_path_factory.mktemp(f"ts-{case.name}")
    return Built(case, out, compile_typescript(package(case) / "typescript", out))


def test_compiles(built: Built) -> None:
    assert (
        built.result.returncode == 0
    ), f"tsc failed for {built.case.name}\n{_output(built.result)}"
    for emitted in ("index.js", "index.d.ts"):
        assert (
            built.pkg / "dist" / emitted
        ).is_file(), f"tsc did not emit dist/{emitted}"


def _expectations(case: Case) -> dict[str, Any]:
    """support.expectations, each code marked ``typed`` when its YAML declares
    details fields (the domain's or its own)."""
    ex: dict[str, Any] = expectations(case.taxonomy)
    spec = read_spec(case.taxonomy)
    for code in ex["codes"]:
        code["typed"] = bool(spec.codes[code["key"]].fields)
    return ex


def test_runtime_api(built: Built) -> None:
    node = _require_tools()
    built.require_compiled()
    ex = _expectations(built.case)
    # (A case whose every code declares fields is deselected: tests/conftest.py.)
    assert not all(code["typed"] for code in ex["codes"]), built.case.name
    expect = built.out / "expectations.json"
    expect.write_text(json.dumps(ex, indent=2), encoding="utf-8")
    env = {
        **os.environ,
        "TAXOGEN_MODULE": str(built.pkg / "dist" / "index.js"),
        "TAXOGEN_EXPECT": str(expect),
        "NODE_OPTIONS": "",
    }
    result = _run(
        [node, "--test", str(TS_TESTS / "api.test.mjs")], env=env, cwd=built.out
    )
    assert (
        result.returncode == 0
    ), f"node --test failed for {built.case.name}\n{_output(result)}"
    # Guard against a run that passed by running nothing.
    assert "# pass 0\n" not in result.stdout
    assert "# fail 0" in result.stdout, _output(result)


def _case_module(built: Built) -> str:
    """case.ts: the case's names under the fixed aliases types.test-d.ts imports."""
    ex: dict[str, Any] = expectations(built.case.taxonomy)
    module = "../pkg/dist/index.js"
    members = [c["member"] for c in ex["codes"]]
    codes = {c["code"] for c in ex["codes"]}
    first = members[0]
    misspelt = (
        first[:-1] if len(first) > 1 and first[:-1] not in members else f"{first}X"
    )
    while misspelt in members:
        misspelt += "X"
    lower_member = first.lower()
    first_code = ex["codes"][0]["code"]
    integer = ex["wireType"] == "integer"
    # A code no ErrorCode is: the other case, or (docs "Wire codes") an integer
    # code as a string, or a wire code that has no other case with a letter added.
    if isinstance(first_code, int):
        other_case = str(first_code)
    else:
        other_case = (
            first_code.lower()
            if ex["codeCase"] == "upper_snake"
            # docs "Codes as written": a key with its letters' case swapped.
            else (
                first_code.swapcase()
                if ex["codeCase"] == "as_written"
                else first_code.upper()
            )
        )
        while other_case in codes:
            other_case += "x"
    assert lower_member not in members and other_case not in codes
    classes = sorted(
        {c["className"] for c in ex["codes"]} | {d["className"] for d in ex["domains"]}
    )
    # The classes whose code the YAML gives details fields take them typed (see
    # typed.test-d.ts); the others take any JSON details, as this file's loop does.
    spec = read_spec(built.case.taxonomy)
    typed = {c.class_name for c in spec.codes.values() if c.fields}
    plain = [name for name in classes if name not in typed]

    def literal_object(pairs: list[tuple[str, str]]) -> str:
        return (
            "{\n"
            + "".join(f"  {key}: {json.dumps(value)};\n" for key, value in pairs)
            + "}"
        )

    lines = [
        "// Written by tests/targets/typescript/test_typescript.py for one case:"
        " see types.test-d.ts.",
        f'export * from "{module}";',
        f'import {{ {", ".join(classes)} }} from "{module}";',
        f"export {{ {ex['base']} as Base, {ex['guard']} as guard, "
        f"{ex['fallback']['className']} as Fallback, "
        f"{ex['wrap']['className']} as Wrap }} from \"{module}\";",
        # docs "TypeScript": the constructors' options type, <base>Options.
        f'export type {{ {ex["base"]}Options as Options }} from "{module}";',
        f"export const classes = [{', '.join(plain)}] as const;",
        f"export const allClasses = [{', '.join(classes)}] as const;",
        "export interface ExpectedErrorCode "
        + literal_object(
            [(c["member"], c["code"]) for c in ex["codes"]]
            # docs "Aliases": an alias is a member with its code's value.
            + [(member, code) for member, code in ex["aliasMembers"]]
        ),
        "export interface ExpectedDomain "
        + literal_object([(d["member"], d["key"]) for d in ex["domains"]]),
        f"export type FirstMember = {json.dumps(first)};",
        f"export type Misspelt = {json.dumps(misspelt)};",
        f"export type LowerMember = {json.dumps(lower_member)};",
        f"export type OtherCaseCode = {json.dumps(other_case)};",
        # docs "Wire codes": the type of a code on the wire, a value of it no
        # code has, and a value of the other type.
        f"export type Wire = {'number' if integer else 'string'};",
        f"export const anyWire: Wire = {json.dumps(424242 if integer else 'x y z')};",
        f"export const notAWire = {json.dumps('5' if integer else 5)};",
        "",
    ]
    return "\n".join(lines)


def _write_type_project(built: Built, folder: Path, files: dict[str, str]) -> None:
    folder.mkdir()
    (folder / "package.json").write_text(
        '{"type": "module", "private": true}\n', encoding="utf-8"
    )
    # The package's own compiler options, minus what only building the package needs.
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
    (folder / "tsconfig.json").write_text(
        json.dumps(tsconfig, indent=2), encoding="utf-8"
    )
    for name, text in files.items():
        (folder / name).write_text(text, encoding="utf-8")


def test_types(built: Built) -> None:
    _require_tools()
    built.require_compiled()
    files = {
        "case.ts": _case_module(built),
        "types.test-d.ts": (TS_TESTS / "types.test-d.ts").read_text(encoding="utf-8"),
    }
    folder = built.out / "types"
    _write_type_project(built, folder, files)
    result = _run([str(TSC), "-p", str(folder / "tsconfig.json")])
    assert (
        result.returncode == 0
    ), f"the type tests failed for {built.case.name}\n{_output(result)}"

    # The same project with one guarded line that is legal must fail: proof that the
    # files are checked and an unused @ts-expect-error is an error under these options.
    canary = built.out / "canary"
    files["canary.ts"] = (
        'import { ErrorCode } from "./case.js";\n// @ts-expect-error\n'
        "export const legal: ErrorCode[] = Object.values(ErrorCode);\n"
    )
    _write_type_project(built, canary, files)
    result = _run([str(TSC), "-p", str(canary / "tsconfig.json")])
    assert result.returncode != 0 and "TS2578" in result.stdout, _output(result)


def _large_taxonomy(count: int) -> str:
    """A valid taxonomy of ``count`` codes in domains of 100, each code its own
    class (and so its own literal ``code`` type)."""
    lines = [
        "format: 1",
        "name: large",
        "title: Large",
        "version: 1.0.0",
        "base: LargeError",
        "fallback: d0_error",
        "wrap: d0_error",
        "domains:",
    ]
    for domain in range(count // 100):
        lines += [f"  d{domain}:", f"    title: D{domain}", "    codes:"]
        lines.append(f"      d{domain}_error: {{retryable: false, meaning: Any}}")
        lines += [
            f"      d{domain}_c{i}: {{retryable: {str(i % 2 == 0).lower()}, "
            f"meaning: Code {i}}}"
            for i in range(1, 100)
        ]
    return "\n".join(lines) + "\n"


def test_ten_thousand_codes_compile_strictly(tmp_path: Path) -> None:
    """The bench's ts-compile-large as a test: every class has its own literal
    ``code``, and a type built from all of them at once (the lookup table's
    element type) was a union tsc refused at this size (TS2590)."""
    _require_tools()
    from taxogen.pipeline import build_plan

    taxonomy = tmp_path / "taxonomy.yaml"
    taxonomy.write_text(_large_taxonomy(10_000), encoding="utf-8")
    source = tmp_path / "typescript"
    for path, data in build_plan(taxonomy).items():
        if path.startswith("typescript/"):
            (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
            (tmp_path / path).write_bytes(data)
    result = compile_typescript(source, tmp_path / "out")
    assert result.returncode == 0, _output(result)
