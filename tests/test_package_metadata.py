"""Package metadata: ``[tool.taxogen.python]`` and ``[tool.taxogen.typescript]``.

Issue 33 §7: the distribution / npm name (a scope included), description,
license (an SPDX expression), authors, homepage and repository URLs, written
where each ecosystem reads them (PEP 621's ``[project]``, npm's package.json)
and into a LICENSE; each value checked where it stands.  The oracles are the
ecosystems' own rules: PEP 621 and PEP 639 for pyproject.toml, npm's
package.json fields and validate-npm-package-name, SPDX's Annex D grammar.
A project without the tables writes what it wrote before: the golden cases
(tests/test_golden.py) hold that byte for byte.
"""

from __future__ import annotations

import json
import shutil
import tomllib
from pathlib import Path

import pytest

from taxogen.cli import main
from taxogen.targets.metadata import spdx_problem
from tests.support import REPO

TABLES = """\
[tool.taxogen]
targets = ["python", "typescript", "go"]

[tool.taxogen.python]
name = "acme-errors"
description = "Acme's error codes"
license = "Apache-2.0 OR MIT"
authors = [{name = "Ada Lovelace", email = "ada@example.com"}, {name = "Acme"}]
homepage = "https://example.com/errors"
repository = "https://github.com/acme/errors"

[tool.taxogen.typescript]
name = "@acme/errors"
description = "Acme's error codes, for TypeScript"
license = "MIT"
authors = [{name = "Ada Lovelace", email = "ada@example.com"}, {name = "Acme"}]
homepage = "https://example.com/errors"
repository = "https://github.com/acme/errors"
"""


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    shutil.copy(REPO / "taxonomy.yaml", tmp_path / "taxonomy.yaml")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_the_tables_reach_pyproject_package_json_and_license(project: Path) -> None:
    (project / "pyproject.toml").write_text(TABLES, encoding="utf-8")
    assert main(["generate", "-q"]) == 0
    out = project / "generated"
    pyproject = tomllib.loads((out / "python" / "pyproject.toml").read_text())
    meta = pyproject["project"]
    assert meta["name"] == "acme-errors"
    assert meta["description"] == "Acme's error codes"
    # PEP 639: the license is an SPDX expression, its files listed.
    assert meta["license"] == "Apache-2.0 OR MIT"
    assert meta["license-files"] == ["LICENSE"]
    assert meta["authors"] == [
        {"name": "Ada Lovelace", "email": "ada@example.com"},
        {"name": "Acme"},
    ]
    assert meta["urls"] == {
        "Homepage": "https://example.com/errors",
        "Repository": "https://github.com/acme/errors",
    }
    # The import package keeps its name (docs "Package metadata").
    assert (out / "python" / "src" / "harmovela_errors" / "__init__.py").is_file()
    assert "# acme-errors\n" in (out / "python" / "README.md").read_text()

    package = json.loads((out / "typescript" / "package.json").read_text())
    assert package["name"] == "@acme/errors"
    assert package["description"] == "Acme's error codes, for TypeScript"
    assert package["license"] == "MIT"
    # npm: one author, everyone else a contributor, each {name, email}.
    assert package["author"] == {"name": "Ada Lovelace", "email": "ada@example.com"}
    assert package["contributors"] == [{"name": "Acme"}]
    assert package["homepage"] == "https://example.com/errors"
    assert package["repository"] == {
        "type": "git",
        "url": "https://github.com/acme/errors",
    }
    for folder, spdx in (("python", "Apache-2.0 OR MIT"), ("typescript", "MIT")):
        license_text = (out / folder / "LICENSE").read_text()
        assert license_text.splitlines()[0] == f"SPDX-License-Identifier: {spdx}"
        assert "Copyright (c) Ada Lovelace <ada@example.com>, Acme" in license_text
    # The Go module's default derives from the taxonomy's name, not the npm
    # package's (a scope is no module path): it stays.
    assert "\nmodule harmovela-errors\n" in (out / "go" / "go.mod").read_text()
    assert main(["check"]) == 0


def test_the_model_document_names_the_packages_as_the_tables_do(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (project / "pyproject.toml").write_text(TABLES, encoding="utf-8")
    capsys.readouterr()
    assert main(["model"]) == 0
    names = json.loads(capsys.readouterr().out)["names"]
    assert names["typescript"]["package"] == "@acme/errors"
    assert names["python"]["dist"] == "acme-errors"
    assert names["python"]["package"] == "harmovela_errors"


def test_without_the_tables_nothing_is_added(project: Path) -> None:
    assert main(["generate", "-q"]) == 0
    out = project / "generated"
    assert not (out / "python" / "LICENSE").exists()
    assert not (out / "typescript" / "LICENSE").exists()
    package = json.loads((out / "typescript" / "package.json").read_text())
    assert package["name"] == "harmovela-errors"
    assert not {"license", "author", "homepage", "repository"} & set(package)


def test_a_scoped_name_must_be_lower_case(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (project / "pyproject.toml").write_text(
        '[tool.taxogen.typescript]\nname = "@Acme/Errors"\n', encoding="utf-8"
    )
    assert main(["generate"]) == 2
    assert capsys.readouterr().err.splitlines()[:-1] == [
        "pyproject.toml:2:8: error: tool.taxogen.typescript.name: expected an "
        "npm package name (lower case letters, digits and -._~, not starting "
        "with . or _, at most 214 characters, optionally scoped as "
        "@acme/errors), got '@Acme/Errors'"
    ]


@pytest.mark.parametrize(
    "table",
    [
        'name = "_private"',
        'name = "@acme/"',
        'name = "a b"',
        'name = "node_modules"',
        'name = "' + "a" * 215 + '"',
        'license = "MIT OR"',
        'license = "(MIT"',
        'license = "MIT and Apache-2.0"',
        'license = "GPL-2.0 WITH"',
        "license = 3",
        'homepage = "ftp://example.com"',
        'repository = "github.com/acme/errors"',
        'description = "two\\nlines"',
        'description = ""',
        'authors = [{name = "Ada", mail = "a@example.com"}]',
        'authors = [{name = "Ada", email = "not an address"}]',
        'authors = [{email = "a@example.com"}]',
        'authors = [{name = "Ada, Bob"}]',
        "authors = []",
        'licence = "MIT"',
    ],
)
def test_a_wrong_value_is_refused_where_it_stands(
    project: Path, capsys: pytest.CaptureFixture[str], table: str
) -> None:
    (project / "pyproject.toml").write_text(
        f"[tool.taxogen.typescript]\n{table}\n", encoding="utf-8"
    )
    assert main(["generate"]) == 2
    errors = capsys.readouterr().err.splitlines()[:-1]
    key = table.split(" ")[0]
    column = len(key) + 4  # where the value stands
    assert errors == [errors[0]] and errors[0].startswith(
        f"pyproject.toml:2:{column}: error: tool.taxogen.typescript.{key}: "
    ), errors
    assert not (project / "generated").exists()


@pytest.mark.parametrize(
    ("table", "message"),
    [
        (
            'name = "acme errors"',
            "pyproject.toml:2:8: error: tool.taxogen.python.name: expected a "
            "distribution name (PEP 508: letters, digits and ._- inside, as "
            "acme-errors), got 'acme errors'",
        ),
        (
            'name = "-acme"',
            "pyproject.toml:2:8: error: tool.taxogen.python.name: expected a "
            "distribution name (PEP 508: letters, digits and ._- inside, as "
            "acme-errors), got '-acme'",
        ),
        (
            'license = "MIT/Apache"',
            "pyproject.toml:2:11: error: tool.taxogen.python.license: expected an "
            "SPDX license expression (as MIT or Apache-2.0 OR MIT), got "
            "'MIT/Apache': '/' is not in one",
        ),
    ],
)
def test_the_python_table_is_checked_by_pep_508_and_spdx(
    project: Path, capsys: pytest.CaptureFixture[str], table: str, message: str
) -> None:
    (project / "pyproject.toml").write_text(
        f"[tool.taxogen.python]\n{table}\n", encoding="utf-8"
    )
    assert main(["generate"]) == 2
    assert capsys.readouterr().err.splitlines()[:-1] == [message]


@pytest.mark.parametrize(
    "expression",
    # SPDX 2.3 Annex D's own examples of license expressions.
    [
        "LGPL-2.1-only",
        "GPL-2.0-or-later",
        "GPL-2.0+",
        "LicenseRef-23",
        "DocumentRef-spdx-tool-1.2:LicenseRef-MIT-Style-2",
        "LGPL-2.1-only OR MIT",
        "LGPL-2.1-only OR MIT OR BSD-3-Clause",
        "LGPL-2.1-only AND MIT",
        "LGPL-2.1-only AND MIT AND BSD-2-Clause",
        "GPL-2.0-or-later WITH Bison-exception-2.2",
        "MIT AND (LGPL-2.1-or-later OR BSD-3-Clause)",
        "(MIT)",
    ],
)
def test_spdx_expressions_of_the_spec_are_accepted(expression: str) -> None:
    assert spdx_problem(expression) is None


@pytest.mark.parametrize(
    "expression",
    ["", "MIT OR", "AND MIT", "MIT WITH", "(MIT", "MIT)", "MIT GPL-2.0", "M!T"],
)
def test_what_is_no_spdx_expression_is_refused(expression: str) -> None:
    assert spdx_problem(expression) is not None
