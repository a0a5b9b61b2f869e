"""A new language needs only its folders: docs "How it works", the checklist.

Issue 31, Done when: a throw-away target is added to a scratch copy of the
tree, as the README's checklist says and nothing more (a folder under
``generator/targets/`` with its ``target.toml``, ``target.py`` holding a view
and one template, and ``naming.py`` with one reserved word; the template in
``templates/<name>/``), and that copy's wheel, unpacked and run, must find the
target, select it with ``--target``, write its file and list it in the
manifest (and remove it as taxogen's once deselected), name its identifiers in
the model document (and its schema), and refuse a class named by its reserved
word.  No other file of the copy differs from the checkout.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from tests.test_install import copy_working_tree, files
from tests.test_wheel import build_wheel, shipped

REPO = Path(__file__).resolve().parent.parent

#: The checklist's files, by path in the tree: all a new target is.
TOY = {
    "generator/targets/toy/__init__.py": '"""A toy target: one line per code."""\n',
    "generator/targets/toy/target.toml": (
        '[[targets]]\nname = "toy"\norder = 1000\ndefault = false\n'
        'writes = "toy/codes.txt"\nsummary = "one line per code"\n'
    ),
    "generator/targets/toy/target.py": '''\
"""The toy target: its view and its one template."""

from __future__ import annotations

import dataclasses

from taxogen.naming import Names
from taxogen.targets.base import Options, Target, Template


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class ToyView:
    lines: tuple[str, ...]


def view(names: Names, options: Options) -> ToyView:
    return ToyView(lines=tuple(f"{c.code.code} {c.class_name}" for c in names.codes))


TARGET = Target(
    name="toy",
    view=view,
    templates=(Template(template="toy/codes.txt.j2", output="toy/codes.txt"),),
)
TARGETS = (TARGET,)
''',
    "generator/targets/toy/naming.py": '''\
"""The toy target's names: a word per domain and code, and one reserved word."""

from __future__ import annotations

from typing import TypedDict

from taxogen.diagnostics import Diagnostic
from taxogen.language import Language


class ToyPackage(TypedDict):
    file: str


class ToyWord(TypedDict):
    word: str


def check(domains, refused, path):
    return [
        Diagnostic(
            path=path,
            position=c.code.position,
            key=f"domains.{d.domain.key}.codes.{c.code.code}",
            message=f"class name {c.class_name!r} is a Toy keyword",
        )
        for d in domains
        for c in d.codes
        if c.class_name == "Frob"
    ]


LANGUAGES = {
    "toy": Language(
        package_type=ToyPackage,
        domain_type=ToyWord,
        code_type=ToyWord,
        package=lambda names: {"file": "codes.txt"},
        domain=lambda named: {"word": named.domain.key.upper()},
        code=lambda named: {"word": named.code.code.upper()},
        check=check,
    )
}
''',
    "templates/toy/codes.txt.j2": "{% for line in lines %}{{ line }}\n{% endfor %}",
}

TAXONOMY = """\
format: 1
name: tiny
title: Tiny
version: 0.0.1
base: TinyError
fallback: oops
wrap: oops
domains:
  misc:
    title: Miscellaneous
    codes:
      oops: {retryable: false, meaning: Something went wrong}
      frob: {retryable: false, meaning: Frobbed, class: %s}
"""


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The scratch tree's wheel, unpacked: what pip would install."""
    root = tmp_path_factory.mktemp("new-target")
    tree = copy_working_tree(root / "taxogen")
    for name, text in TOY.items():
        (tree / name).parent.mkdir(parents=True, exist_ok=True)
        (tree / name).write_text(text, encoding="utf-8")
    # Nothing but the checklist's files differs from the checkout.
    before, after = files(REPO), files(tree)
    changed = {name for name in after if before.get(name) != after[name]}
    assert changed == set(TOY)
    wheel = build_wheel(tree, root / "dist")
    # generator/ ships as the package taxogen, templates/ inside it.
    wheeled = {
        "taxogen/" + name.split("/", 1)[1] if name.startswith("generator/") else name
        for name in TOY
    }
    wheeled = {
        "taxogen/" + name if name.startswith("templates/") else name for name in wheeled
    }
    assert wheeled <= shipped(wheel)
    with zipfile.ZipFile(wheel) as archive:
        archive.extractall(root / "site")
    return root / "site"


def _run(site: Path, project: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """``python -m taxogen ARGS`` in ``project``, from the unpacked wheel."""
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in {"PYTHONPATH", "PYTHONHOME"}
    }
    env.update(PYTHONPATH=str(site), TAXOGEN_CACHE_DIR=str(project / ".cache"))
    return subprocess.run(
        [sys.executable, "-m", "taxogen", *args],
        cwd=project,
        env=env,
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )


@pytest.fixture
def project(tmp_path: Path) -> Path:
    (tmp_path / "taxonomy.yaml").write_text(TAXONOMY % "FrobbedError")
    return tmp_path


def test_the_new_target_is_found_selected_written_and_in_the_manifest(
    site: Path, project: Path
) -> None:
    done = _run(site, project, "generate", "-q", "--target", "toy")
    assert done.returncode == 0, done.stderr
    out = project / "generated"
    assert (out / "toy" / "codes.txt").read_text() == (
        "oops OopsError\nfrob FrobbedError\n"
    )
    manifest = json.loads((out / ".taxogen-manifest.json").read_text())
    assert list(manifest["files"]) == ["toy/codes.txt"]
    assert _run(site, project, "check", "--target", "toy").returncode == 0
    # Deselected, its file is recognised as taxogen's and removed.
    assert _run(site, project, "generate", "-q", "--target", "docs").returncode == 0
    assert not (out / "toy").exists()


def test_the_new_target_is_a_name_the_command_line_knows(
    site: Path, project: Path
) -> None:
    done = _run(site, project, "generate", "--target", "nope")
    assert done.returncode == 2
    assert "'toy')" in done.stderr  # the last of argparse's choices


def test_the_new_target_names_things_in_the_model_document(
    site: Path, project: Path
) -> None:
    done = _run(site, project, "model")
    assert done.returncode == 0, done.stderr
    model = json.loads(done.stdout)
    assert model["names"]["toy"] == {"file": "codes.txt"}
    assert model["domains"][0]["names"]["toy"] == {"word": "MISC"}
    assert [code["names"]["toy"] for code in model["codes"]] == [
        {"word": "OOPS"},
        {"word": "FROB"},
    ]
    schema = json.loads(_run(site, project, "model", "--schema").stdout)
    assert schema["$defs"]["PackageNames"]["properties"]["toy"] == {
        "$ref": "#/$defs/ToyPackage"
    }


def test_the_new_target_refuses_its_reserved_word(site: Path, project: Path) -> None:
    (project / "taxonomy.yaml").write_text(TAXONOMY % "Frob")
    done = _run(site, project, "generate", "--target", "python")
    assert done.returncode == 2
    assert done.stderr.splitlines()[0] == (
        "taxonomy.yaml:13:7: error: domains.misc.codes.frob: class name 'Frob' is "
        "a Toy keyword"
    )
    assert not (project / "generated").exists()


def test_the_checkout_has_no_toy_target() -> None:
    # The scratch copy is the only place it exists (the test leaves no trace).
    assert not (REPO / "generator" / "targets" / "toy").exists()
    assert not (REPO / "templates" / "toy").exists()
