"""A bundle of the TypeScript package carries only what its program uses.

docs "TypeScript": the module has no top-level side effects and its
package.json says ``"sideEffects": false``, so a bundler drops every class a
program does not import.  For each case the compiled package is bundled with the
repository's esbuild (``--bundle --minify --format=esm``) from small consumers:

* one that imports a single code's class: no class name of any other code or
  domain is in the bundle (a class's name is pinned as a string literal, so it is
  what survives minification), and the bundle is at most 1.2 times one that
  imports the root class alone;
* one that imports ``fromPayload``: every class is kept, and run with node it
  decodes a payload of each code to an error of that code's class name;
* one that imports the module for nothing: the bundle is empty, even when the
  package.json's ``sideEffects`` is not there to say so.

What each consumer must see comes from the case's YAML (``tests/spec_oracle``).
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.spec_oracle import Spec, SpecCode, read_spec, sample_details
from tests.support import (
    REPO,
    Case,
    case_ids,
    cases,
    require_tool,
    require_typescript_tools,
    today_case_ids,
    today_cases,
)

ESBUILD = REPO / "node_modules" / ".bin" / "esbuild"
#: The issue's bound: a one-class bundle is at most this times a root-only one.
MOST = 1.2


def _esbuild() -> Path:
    require_tool(
        ESBUILD.is_file(),
        f"esbuild ({ESBUILD.relative_to(REPO)}; `npm ci` installs it)",
    )
    return ESBUILD


def bundle(consumer: str, work: Path, name: str) -> str:
    """The minified ESM bundle of ``consumer`` (JavaScript source), as text."""
    entry = work / f"{name}.mjs"
    entry.write_text(consumer, encoding="utf-8")
    out = work / f"{name}.bundle.mjs"
    done = subprocess.run(
        [
            str(_esbuild()),
            str(entry),
            "--bundle",
            "--minify",
            "--format=esm",
            "--platform=neutral",
            "--log-level=error",
            f"--outfile={out}",
        ],
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return out.read_text(encoding="utf-8")


def literals(name: str, text: str) -> bool:
    """Whether ``name`` is a whole string literal of the minified ``text``."""
    return re.search(f"([\"'`]){re.escape(name)}\\1", text) is not None


def chosen(spec: Spec) -> SpecCode:
    """The code whose class the one-class consumer imports: the first that is not
    its domain's base (so some class other than its ancestors exists), if any.
    """
    live = list(spec.codes.values())
    leaves = [c for c in live if c.class_name != spec.domains[c.domain]]
    return (leaves or live)[0]


def every_class(spec: Spec) -> set[str]:
    """docs "Names": the class of each code and of each domain."""
    return {c.class_name for c in spec.codes.values()} | set(spec.domains.values())


def _constructs(module: Path, cls: str, details: object) -> str:
    """A consumer that imports ``cls`` alone and logs an error of it."""
    return (
        f"import {{ {cls} }} from {json.dumps(module.as_posix())};\n"
        f"const error = new {cls}('m', {{ details: {json.dumps(details)} }});\n"
        "console.log(error.name, error.code);\n"
    )


@pytest.mark.parametrize("case", today_cases(), ids=today_case_ids())
def test_a_one_class_bundle_holds_no_other_class(
    case: Case, compiled_ts: Callable[[Case], Path], tmp_path: Path
) -> None:
    require_typescript_tools()
    module = compiled_ts(case)
    spec = read_spec(case.taxonomy)
    code = chosen(spec)
    details = sample_details(spec, code.code)
    one = bundle(_constructs(module, code.class_name, details), tmp_path, "one")
    root = bundle(_constructs(module, spec.base, {}), tmp_path, "root")

    # docs "Hierarchies": its domain's class and every parent domain's.
    kept = {code.class_name, *(spec.domains[d] for d in spec.lineage(code.domain))}
    kept.add(spec.base)
    assert all(literals(name, one) for name in kept), sorted(kept)
    extra = sorted(name for name in every_class(spec) - kept if literals(name, one))
    assert not extra, f"importing {code.class_name} kept {extra}"
    assert len(one) <= MOST * len(root), (len(one), len(root))
    # The bundles run, and the name survives minification.
    node = require_typescript_tools()
    # docs "Wire codes": the code printed is the wire code.
    for text, cls, wire in (
        (one, code.class_name, str(code.wire)),
        (root, spec.base, str(spec.wire_of(spec.fallback))),
    ):
        ran = _node(node, tmp_path, text)
        assert ran.split() == [cls, wire]


def _node(node: str, work: Path, text: str) -> str:
    script = work / "run.mjs"
    script.write_text(text, encoding="utf-8")
    done = subprocess.run(
        [node, str(script)], capture_output=True, text=True, check=False, timeout=120
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.mark.parametrize("case", today_cases(), ids=today_case_ids())
def test_a_from_payload_bundle_keeps_every_class_and_decodes_each_code(
    case: Case, compiled_ts: Callable[[Case], Path], tmp_path: Path
) -> None:
    node = require_typescript_tools()
    module = compiled_ts(case)
    spec = read_spec(case.taxonomy)
    unknown = spec.other_wire("never_defined")
    payloads = [
        {
            "code": c.wire,
            "message": "m",
            "retryable": c.retryable,
            "details": sample_details(spec, c.code),
        }
        for c in spec.codes.values()
    ]
    payloads.append({"code": unknown, "message": "m", "retryable": False})
    consumer = (
        f"import {{ fromPayload }} from {json.dumps(module.as_posix())};\n"
        f"const payloads = {json.dumps(payloads)};\n"
        "console.log(JSON.stringify(payloads.map((p) => fromPayload(p).name)));\n"
    )
    text = bundle(consumer, tmp_path, "decode")

    missing = sorted(name for name in every_class(spec) if not literals(name, text))
    assert not missing, f"the fromPayload bundle lacks {missing}"
    names = json.loads(_node(node, tmp_path, text))
    want = [c.class_name for c in spec.codes.values()]
    assert names == [*want, spec.target(unknown).class_name]


@pytest.mark.parametrize("case", today_cases(), ids=today_case_ids())
def test_importing_the_module_for_nothing_bundles_nothing(
    case: Case, compiled_ts: Callable[[Case], Path], tmp_path: Path
) -> None:
    require_typescript_tools()
    package = compiled_ts(case).parent.parent
    manifest = json.loads((package / "package.json").read_text(encoding="utf-8"))
    assert manifest["sideEffects"] is False
    # Without the manifest's word for it, every top-level statement must be one
    # esbuild can drop: no static block, no call that is not marked pure.
    copy = tmp_path / "pkg"
    shutil.copytree(package / "dist", copy / "dist")
    del manifest["sideEffects"]
    (copy / "package.json").write_text(json.dumps(manifest), encoding="utf-8")
    index = json.dumps((copy / "dist" / "index.js").as_posix())
    kept = len(bundle(f"import {index};\n", tmp_path, "bare").strip())
    assert kept == 0, f"a bare import keeps {kept} bytes"
