"""Each language's reserved names, held to that language's own list.

Issue 31 §4: ``class: Self`` once made Rust that did not compile, because the
reserved tables were only ever tested against themselves.  Here each table is
compared with the source of truth of its language: Python's ``keyword`` module
and its builtins, the keyword table of the TypeScript compiler in
``node_modules`` (its scanner's ``textToKeywordObj`` and the ``SyntaxKind``
ranges of reserved and strict-mode words), and Go's own ``go/token`` (the
specification's 25 keywords) and ``go/types`` universe (its predeclared
identifiers).  The few differences each table keeps are named here, each with
its reason.  A test that needs node or Go fails under CI when it is missing.
"""

from __future__ import annotations

import builtins
import json
import keyword
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

from taxogen.targets.go.reserved import GO_KEYWORDS, GO_PREDECLARED
from taxogen.targets.python.reserved import (
    PYTHON_BUILTINS,
    PYTHON_HARD_KEYWORDS,
    PYTHON_KEYWORDS,
)
from taxogen.targets.typescript.reserved import JS_RESERVED, TS_RESERVED
from tests.support import REPO, require_tool

# ---------------------------------------------------------------------- Python


def test_python_keywords_are_the_keyword_module_s() -> None:
    assert PYTHON_HARD_KEYWORDS == set(keyword.kwlist)
    soft = PYTHON_KEYWORDS - PYTHON_HARD_KEYWORDS
    # `type` is soft from Python 3.12 on (keyword.softkwlist there); the table
    # serves 3.11 to 3.14.
    later = {"type"} if sys.version_info < (3, 12) else set()
    assert soft == set(keyword.softkwlist) | later


def test_python_builtins_hold_every_builtin_of_this_python() -> None:
    public = {name for name in dir(builtins) if not name.startswith("_")}
    # True, False and None are builtins and keywords: the keyword table has them.
    assert public - PYTHON_BUILTINS == {"False", "None", "True"}
    assert {"False", "None", "True"} <= PYTHON_HARD_KEYWORDS
    # What the table holds beyond this Python: builtins of the later ones it serves.
    later = {"PythonFinalizationError"} if sys.version_info < (3, 13) else set()
    assert PYTHON_BUILTINS - public == later


# ------------------------------------------------------------------ TypeScript
_KEYWORDS_SCRIPT = """\
import { pathToFileURL } from "node:url";
const root = process.argv[2];
const at = (p) => pathToFileURL(`${root}/${p}`).href;
const { textToKeywordObj: table } = await import(at("dist/ast/scanner.js"));
const { SyntaxKind: kind } = await import(at("dist/enums/syntaxKind.js"));
const within = (low, high) =>
  Object.keys(table).filter((word) => table[word] >= low && table[word] <= high);
console.log(JSON.stringify({
  keywords: Object.keys(table),
  reserved: within(kind.FirstReservedWord, kind.LastReservedWord),
  strict: within(kind.FirstFutureReservedWord, kind.LastFutureReservedWord),
}));
"""


def _typescript_keywords(tmp_path: Path) -> dict[str, list[str]]:
    """The TypeScript compiler's keywords, read from node_modules/typescript."""
    node = shutil.which("node")
    require_tool(node is not None, "node (Node.js >= 20)")
    package = REPO / "node_modules" / "typescript"
    require_tool(
        (package / "dist" / "ast" / "scanner.js").is_file(),
        "the typescript package (node_modules/typescript; `npm ci` installs it)",
    )
    assert node is not None
    script = tmp_path / "keywords.mjs"
    script.write_text(_KEYWORDS_SCRIPT, encoding="utf-8")
    done = subprocess.run(
        [node, str(script), str(package)],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    found: dict[str, list[str]] = json.loads(done.stdout)
    assert len(found["keywords"]) > 80  # the table was read, not an empty one
    return found


def test_typescript_reserved_words_are_the_compiler_s_keywords(tmp_path: Path) -> None:
    found = _typescript_keywords(tmp_path)
    # Beyond the keywords: the names strict mode forbids as a binding (ECMAScript
    # 13.1.1, "arguments" and "eval"), which a class cannot be either.
    assert TS_RESERVED == set(found["keywords"]) | {"arguments", "eval"}


def test_javascript_reserved_words_are_ecmascript_s(tmp_path: Path) -> None:
    found = _typescript_keywords(tmp_path)
    # ECMAScript's ReservedWord (12.7.2) is the compiler's reserved words plus
    # await and yield, which TypeScript's scanner files among the contextual and
    # strict-mode ones; the other strict-mode words (let, static...) may be a
    # property, which is all a details field is in TypeScript.
    assert JS_RESERVED == set(found["reserved"]) | {"await", "yield"}
    assert "yield" in found["strict"]


# -------------------------------------------------------------------------- Go
_GO_PROGRAM = """\
package main

import (
\t"fmt"
\t"go/token"
\t"go/types"
\t"runtime"
)

func main() {
\tfmt.Println("version", runtime.Version())
\tfor tok := token.Token(0); tok < token.Token(256); tok++ {
\t\tif tok.IsKeyword() {
\t\t\tfmt.Println("keyword", tok.String())
\t\t}
\t}
\tfor _, name := range types.Universe.Names() {
\t\tfmt.Println("predeclared", name)
\t}
}
"""


def _go_names(tmp_path: Path) -> dict[str, set[str]]:
    """Go's keywords and predeclared identifiers, from its own go/token and
    go/types, and the toolchain's version."""
    go = shutil.which("go")
    require_tool(go is not None, "Go (go; `apt-get install golang-go`)")
    assert go is not None
    (tmp_path / "names.go").write_text(_GO_PROGRAM, encoding="utf-8")
    env = {
        **os.environ,
        "GOCACHE": str(tmp_path / "cache"),
        "GOPATH": str(tmp_path / "path"),
        "GO111MODULE": "off",
        "GOTOOLCHAIN": "local",
        "GOTELEMETRY": "off",
        "CGO_ENABLED": "0",
    }
    done = subprocess.run(
        [go, "run", "names.go"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        check=True,
        timeout=300,
    )
    found: dict[str, set[str]] = {}
    for line in done.stdout.splitlines():
        kind, name = line.split()
        found.setdefault(kind, set()).add(name)
    return found


def test_go_keywords_and_predeclared_identifiers_are_go_s(tmp_path: Path) -> None:
    found = _go_names(tmp_path)
    assert len(found["keyword"]) == 25  # the specification, "Keywords"
    assert GO_KEYWORDS == found["keyword"]
    (version,) = found["version"]
    minor = re.fullmatch(r"go1\.(\d+)(?:\.\d+)?\S*", version)
    assert minor is not None, version
    # Go 1.21 predeclared clear, min and max; the table names them for every Go
    # the generated module may be built with.
    later = {"clear", "max", "min"} if int(minor.group(1)) < 21 else set()
    assert GO_PREDECLARED == found["predeclared"] | later
