"""Injection-proof rendering, the TypeScript half: any text reaches the compiled
module verbatim.

tests/test_injection.py builds random taxonomies out of nasty text and checks
the Python, Markdown and black outputs with Python alone; this file takes the
same taxonomies (the same strategy, settings and explicit examples) and checks
that the generated TypeScript compiles with tsc under its strict tsconfig and
that every class's static ``meaning`` (and code, domain, retryable, the pinned
name, the version) read back in Node equals the input text.  It needs tsc and
node: without them it fails under CI and skips, naming the tool, elsewhere.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from hypothesis import given

from tests import spec_oracle as oracle
from tests.support import compile_typescript, require_typescript_tools
from tests.test_injection import (
    TAXONOMY_SETTINGS,
    Spec,
    expected_classes,
    generate,
    taxonomies,
    with_examples,
)

NODE_READER = """\
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
const [modulePath, namesPath] = process.argv.slice(2);
const mod = await import(pathToFileURL(modulePath).href);
const out = {
  version: mod.VERSION, codes: Object.values(mod.ErrorCode),
  domains: Object.values(mod.Domain), classes: {},
};
for (const name of JSON.parse(readFileSync(namesPath, "utf8"))) {
  const cls = mod[name];
  const error = new cls();
  out.classes[name] = {
    meaning: cls.meaning, code: cls.code, domain: cls.domain, retryable: cls.retryable,
    message: error.message, name: error.name,
  };
}
process.stdout.write(JSON.stringify(out));
"""


def check_typescript(
    node: str, spec: Spec, read: oracle.Spec, out: Path, work: Path
) -> None:
    compiled = compile_typescript(out / "typescript", work)
    assert compiled.returncode == 0, compiled.stdout + compiled.stderr
    expected = expected_classes(spec, read)
    (work / "names.json").write_text(json.dumps(list(expected)), "utf-8")
    (work / "read.mjs").write_text(NODE_READER, "utf-8")
    run = subprocess.run(
        [
            node,
            str(work / "read.mjs"),
            str(work / "pkg" / "dist" / "index.js"),
            str(work / "names.json"),
        ],
        capture_output=True,
        check=False,
    )
    assert run.returncode == 0, run.stderr.decode("utf-8", "replace")
    seen = json.loads(run.stdout.decode("utf-8"))
    assert seen["version"] == "1.0.0-rc.1"
    assert seen["codes"] == [c.code for c in spec.codes]
    assert seen["domains"] == [d.key for d in spec.domains]
    for class_name, want in expected.items():
        got = seen["classes"][class_name]
        assert got["meaning"] == want["meaning"], class_name
        assert got["message"] == want["meaning"], class_name
        assert got["name"] == class_name
        for key in ("code", "domain", "retryable"):
            if key in want:
                assert got[key] == want[key], (class_name, key)


@pytest.fixture(scope="module")
def node() -> str:
    """Checked once, before hypothesis runs: a failure under CI, else a skip naming
    the tool.
    """
    return require_typescript_tools()


@TAXONOMY_SETTINGS
@given(spec=taxonomies())
@with_examples
def test_any_text_reaches_the_typescript_module_verbatim(
    spec: Spec, node: str, tmp_path_factory: pytest.TempPathFactory
) -> None:
    _, read, out = generate(spec, tmp_path_factory.mktemp("inj-ts"))
    check_typescript(node, spec, read, out, out.parent / "ts")
