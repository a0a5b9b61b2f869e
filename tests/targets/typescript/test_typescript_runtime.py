"""The TypeScript runtime as code: ``generator/targets/typescript/runtime/runtime.ts``.

Every generated TypeScript package carries this file, unchanged under its header,
as ``src/runtime.ts`` beside ``src/index.ts``.  Here it is compiled on its own
under the generated package's strict tsconfig, then together with a small
taxonomy of toys written by hand (``tests/targets/typescript/ts/runtime/toy.ts``, bound
to the
runtime the way a generated ``index.ts`` binds it), and
``tests/targets/typescript/ts/runtime.test.mjs``
checks each rule on the compiled runtime itself, whatever any golden file holds:
the base class, decoding and its limits at each edge, the fallback, wrapping,
the guard and events.  The generated packages are exercised as a whole by
test_typescript, test_hostile_runtime and test_fuzz_payload.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from taxogen import render
from taxogen.targets.base import header_lines
from tests.spec_oracle import read_spec
from tests.support import REPO, TSC, case_ids, cases, package, require_typescript_tools

RUNTIME = REPO / "generator" / "targets" / "typescript" / "runtime" / "runtime.ts"
TS_TESTS = REPO / "tests" / "targets" / "typescript" / "ts"
# The shipped package's own configuration: its strict compiler options, and the
# package.json that makes its .js files ES modules.
PACKAGE = REPO / "generated" / "typescript"


def _package(work: Path, sources: list[Path]) -> subprocess.CompletedProcess[str]:
    """Compile ``sources`` as the src/ of a package configured like the shipped one."""
    (work / "src").mkdir(parents=True)
    for name in ("tsconfig.json", "package.json"):
        shutil.copy(PACKAGE / name, work / name)
    for source in sources:
        shutil.copy(source, work / "src" / source.name)
    return subprocess.run(
        [str(TSC), "-p", str(work / "tsconfig.json")],
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )


def _code_only(source: str) -> str:
    """The runtime without its comments (it holds no "//" or "/*" in a string)."""
    return re.sub(r"//[^\n]*", " ", re.sub(r"/\*.*?\*/", " ", source, flags=re.S))


def test_the_runtime_compiles_alone_under_the_package_s_strict_tsconfig(
    tmp_path: Path,
) -> None:
    require_typescript_tools()
    config = (PACKAGE / "tsconfig.json").read_text(encoding="utf-8")
    for option in ("strict", "exactOptionalPropertyTypes", "noUncheckedIndexedAccess"):
        assert f'"{option}": true' in config, option  # the strictness tested here
    done = _package(tmp_path, [RUNTIME])
    assert done.returncode == 0, done.stdout + done.stderr
    for emitted in ("runtime.js", "runtime.d.ts"):
        assert (tmp_path / "dist" / emitted).is_file(), emitted


def test_the_runtime_imports_nothing() -> None:
    code = _code_only(RUNTIME.read_text(encoding="utf-8"))
    assert re.search(r"^\s*import\b|\brequire\s*\(|\bimport\s*\(", code, re.M) is None


@pytest.mark.parametrize("case", cases(), ids=case_ids())
def test_the_runtime_knows_no_taxonomy(case: Any) -> None:
    """No name of any case (class, guard, code, member, brand) is in its code."""
    code = _code_only(RUNTIME.read_text(encoding="utf-8"))
    strings = r'"(?:\\.|[^"\\])*"|`(?:\\.|[^`\\])*`'
    # Its identifiers, and each whole string (as a code would be): its messages
    # may well hold a word that is some case's code ("plain").
    words = set(re.findall(r"[A-Za-z_$][\w$]*", re.sub(strings, " ", code)))
    words |= {literal[1:-1] for literal in re.findall(strings, code)}
    # The case's names by the README's rules (guard, options type, brand, enum
    # members), read from its YAML, not from the generator's naming.
    spec = read_spec(case.taxonomy)
    codes = spec.codes.values()
    own = (
        {spec.base, f"is{spec.base}", f"{spec.base}Options"}
        | {f"{spec.name}-errors.{spec.base}", spec.npm_package, spec.name}
        | set(spec.domains.values())
        | {c.class_name for c in codes}
        | {c.code.upper() for c in codes if len(c.code) > 3}
        | {c.code for c in codes if len(c.code) > 3}
    )
    assert own & words == set()
    assert "harmovela" not in RUNTIME.read_text(encoding="utf-8").lower()


@pytest.mark.parametrize("case", cases(), ids=case_ids())
def test_every_package_carries_the_runtime_verbatim_under_the_header(
    case: Any,
) -> None:
    names = case.names
    plan = render.render(names)
    path = "typescript/src/runtime.ts"
    head = "".join(f"// {line}\n" for line in header_lines(names.taxonomy.source))
    assert plan[path] == (head + RUNTIME.read_text(encoding="utf-8")).encode()
    assert (package(case) / path).read_bytes() == plan[path]
    assert 'from "./runtime.js"' in plan["typescript/src/index.ts"].decode()


def test_the_runtime_s_unit_tests_pass_under_node(tmp_path: Path) -> None:
    node = require_typescript_tools()
    done = _package(tmp_path, [RUNTIME, TS_TESTS / "runtime" / "toy.ts"])
    assert done.returncode == 0, done.stdout + done.stderr
    env = {
        **os.environ,
        "TAXOGEN_TOY": str(tmp_path / "dist" / "toy.js"),
        "TAXOGEN_RUNTIME": str(tmp_path / "dist" / "runtime.js"),
        "NODE_OPTIONS": "",
    }
    result = subprocess.run(
        [node, "--test", str(TS_TESTS / "runtime.test.mjs")],
        capture_output=True,
        text=True,
        check=False,
        env=env,
        cwd=tmp_path,
        timeout=300,
    )
    output = f"--- stdout\n{result.stdout}\n--- stderr\n{result.stderr}"
    assert result.returncode == 0, output
    passed = re.search(r"^# pass (\d+)$", result.stdout, re.M)
    assert passed is not None and int(passed.group(1)) >= 30, output
    assert "# fail 0" in result.stdout, output
