"""The JSON Schema of the taxonomy format (``taxogen schema``) against the validator.

The schema and the validator cannot drift: every good taxonomy of the
repository (the shipped one, every golden and template case, the starter
``taxogen init`` writes) must be valid against it, and every bad case of
``tests/bad/`` invalid, unless tests/bad/SCHEMA.md lists it with the reason a
schema cannot say it (a cross-reference, a clash of names, a YAML-level
problem...); a listed case the schema does reject is a stale entry, and fails.
Every key the validator accepts, at every level, must be in the schema.

Files are read as an editor's YAML language server reads them: YAML 1.2's core
schema (``yes`` is text, ``010`` is ten, a date is text), which PyYAML's own
loader (YAML 1.1) is not.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import yaml

from taxogen import taxonomy_schema
from taxogen.model import PAYLOAD_KEYS
from taxogen.starter import starter
from taxogen.validate import codes, docs, domains, fields, top

REPO = Path(__file__).resolve().parent.parent
BAD = REPO / "tests" / "bad"
COMMITTED = REPO / "schema" / "taxonomy.schema.json"
GOOD = sorted(
    [
        REPO / "taxonomy.yaml",
        *(REPO / "tests" / "cases").glob("*/taxonomy.yaml"),
        *(REPO / "tests" / "template_cases").glob("*/taxonomy.yaml"),
    ]
)
MODELINE = f"# yaml-language-server: $schema={taxonomy_schema.SCHEMA_ID}\n"


class Yaml12Loader(yaml.SafeLoader):
    """PyYAML's safe loader resolving plain scalars as YAML 1.2's core schema
    does (what editors' YAML language servers read)."""


Yaml12Loader.yaml_implicit_resolvers = {}
for tag, pattern, first in (
    ("bool", r"^(?:true|True|TRUE|false|False|FALSE)$", "tTfF"),
    ("null", r"^(?:~|null|Null|NULL|)$", ["~", "n", "N", ""]),
    ("int", r"^(?:[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+)$", "-+0123456789"),
    (
        "float",
        r"^(?:[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?"
        r"|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$",
        "-+0123456789.",
    ),
):
    Yaml12Loader.add_implicit_resolver(
        f"tag:yaml.org,2002:{tag}", re.compile(pattern), list(first)
    )


def _int12(loader: yaml.SafeLoader, node: yaml.ScalarNode) -> int:
    text = str(loader.construct_scalar(node))
    if text.startswith(("0o", "0x")):
        return int(text[2:], 8 if text[1] == "o" else 16)
    return int(text)


Yaml12Loader.add_constructor("tag:yaml.org,2002:int", _int12)


def load(text: str) -> Any:
    return yaml.load(text, Loader=Yaml12Loader)  # noqa: S506 (a safe loader)


VALIDATOR = jsonschema.Draft202012Validator(taxonomy_schema.schema())


def problems(data: Any) -> list[str]:
    return [
        f"{'/'.join(map(str, e.absolute_path))}: {e.message}"
        for e in VALIDATOR.iter_errors(data)
    ]


def listed() -> dict[str, str]:
    """tests/bad/SCHEMA.md: each bad case the schema cannot refuse, and why."""
    entries = {}
    for line in (BAD / "SCHEMA.md").read_text(encoding="utf-8").splitlines():
        found = re.fullmatch(r"- `([\w-]+)`: (\S.*)", line)
        if found is not None:
            entries[found.group(1)] = found.group(2)
    return entries


def test_the_schema_is_a_draft_2020_12_schema_with_a_stable_id() -> None:
    value = taxonomy_schema.schema()
    jsonschema.Draft202012Validator.check_schema(value)
    assert value["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert value["$id"] == taxonomy_schema.SCHEMA_ID
    assert value["$id"].endswith("/schema/taxonomy.schema.json")


def test_taxogen_schema_prints_the_committed_file() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "taxogen", "schema"],
        cwd=REPO,
        capture_output=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stderr == b""
    assert json.loads(done.stdout) == taxonomy_schema.schema()
    # The copy SchemaStore reads; `make golden` rewrites it.
    assert COMMITTED.read_bytes() == done.stdout, "run make golden"


def test_taxogen_schema_has_help() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "taxogen", "schema", "--help"],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0
    assert "JSON Schema" in done.stdout


def _keys(node: dict[str, Any]) -> set[str]:
    return set(node["properties"])


def test_every_key_validation_accepts_is_in_the_schema() -> None:
    value = taxonomy_schema.schema()
    defs = value["$defs"]
    pending = taxonomy_schema.PENDING
    shape = defs["fieldShape"]
    where = {
        "top": (_keys(value), set(top._TOP_KEYS)),
        "domain": (_keys(defs["domain"]), set(domains._DOMAIN_KEYS)),
        "code": (_keys(defs["code"]), set(codes._CODE_KEYS)),
        "field": (_keys(shape), set(fields._FIELD_KEYS)),
        "items": (_keys(defs["itemShape"]), set(fields._ITEM_KEYS)),
        "payload": (_keys(defs["payload"]), set(PAYLOAD_KEYS)),
    }
    for part, (schema_keys, accepted) in where.items():
        assert accepted <= schema_keys, (part, accepted - schema_keys)
        assert schema_keys - accepted <= set(pending[part]), part
        # A key taxogen now takes is no longer pending.
        assert not accepted & set(pending[part]), (part, accepted & set(pending[part]))
    code = defs["code"]["properties"]
    assert set(code["deprecated"]["properties"]) == set(codes._DEPRECATED_KEYS)
    assert set(code["removed"]["properties"]) == set(codes._REMOVED_KEYS)
    page = defs["docs"] if "docs" in defs else value["properties"]["docs"]
    assert set(page["properties"]) == set(docs._DOCS_KEYS)
    assert set(page["properties"]["example"]["properties"]) == set(docs._EXAMPLE_KEYS)
    # A mapping that refuses unknown keys in validation refuses them here.
    for node in (value, defs["domain"], defs["code"], shape, defs["payload"], page):
        assert node["additionalProperties"] is False


@pytest.mark.parametrize("path", GOOD, ids=lambda p: str(p.relative_to(REPO)))
def test_every_good_taxonomy_is_valid(path: Path) -> None:
    assert problems(load(path.read_text(encoding="utf-8"))) == []


def test_the_starter_is_valid_and_carries_the_modeline() -> None:
    text = starter("acme")["taxonomy.yaml"]
    assert text.startswith(MODELINE)
    assert problems(load(text)) == []


def test_the_shipped_taxonomy_carries_the_modeline() -> None:
    assert (REPO / "taxonomy.yaml").read_text(encoding="utf-8").startswith(MODELINE)


def test_the_readme_says_where_the_schema_is_and_how_to_use_it() -> None:
    readme = (REPO / "docs" / "taxonomy.md").read_text(encoding="utf-8")
    assert "## Editor support" in readme
    assert "taxogen schema" in readme
    assert MODELINE in readme
    assert f'"{taxonomy_schema.SCHEMA_ID}": ["taxonomy.yaml"' in readme


BAD_CASES = sorted(BAD.glob("*.yaml"))


@pytest.mark.parametrize("path", BAD_CASES, ids=lambda p: p.stem)
def test_every_bad_case_the_schema_can_express_is_invalid(path: Path) -> None:
    reason = listed().get(path.stem)
    try:
        data = load(path.read_text(encoding="utf-8"))
    except (yaml.YAMLError, UnicodeDecodeError, ValueError):
        data = None  # no YAML 1.2 reader gets as far as the schema
        assert reason is not None, f"{path.stem}: unreadable YAML, so list it"
        return
    found = problems(data)
    if reason is None:
        assert found, f"{path.stem}: valid against the schema, and not listed"
    else:
        assert not found, f"{path.stem} is listed ({reason}) but refused: {found}"


def test_every_listed_case_exists() -> None:
    assert set(listed()) <= {path.stem for path in BAD_CASES}


GOOD_TEXT = """\
format: 1
name: acme
title: Acme Errors
version: 1.0.0
base: AcmeError
fallback: unknown_error
wrap: unknown_error
domains:
  general:
    title: General Errors
    codes:
      unknown_error:
        retryable: false
        meaning: An error this client does not know
"""


@pytest.mark.parametrize(
    ("old", "new", "where"),
    [
        # A key typo.
        ("        retryable: false", "        retryabel: false", "unknown_error"),
        # A code's key indented to the domain level.
        ("    codes:\n", "    retryable: false\n    codes:\n", "general"),
        # A YAML 1.1 boolean, text in YAML 1.2.
        ("retryable: false", "retryable: yes", "retryable"),
    ],
    ids=["key-typo", "bad-indentation", "bad-boolean"],
)
def test_the_common_editor_mistakes_are_flagged(old: str, new: str, where: str) -> None:
    assert problems(load(GOOD_TEXT)) == []
    text = GOOD_TEXT.replace(old, new)
    assert text != GOOD_TEXT
    found = problems(load(text))
    assert any(where in problem for problem in found), found
