"""The per-code import figure preloads a module's imports, its package's too.

psycopg.errors' own helpers (``.pq.abc``, ``.pq._enums``) are loaded by
``import psycopg`` before its body is timed, so the generated package's body is
timed the same way: its ``from . import _runtime`` preloaded, and the body itself
run once, by the timed load (benchmarks/README.md, "Per-code import cost").
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from benchmarks import children
from benchmarks.python_import import _module_imports

BODY = """\
from __future__ import annotations
import json
from collections.abc import Mapping
from . import _helper
from ._other import VALUE
from .. import nothing_above  # not the package's own: never preloaded
import pathlib as renamed
with open(LOG, "a") as log:
    log.write("body\\n")
"""


def _package(tmp_path: Path) -> Path:
    package = tmp_path / "pkg"
    package.mkdir()
    log = tmp_path / "log.txt"
    (package / "__init__.py").write_text(
        BODY.replace("LOG", repr(str(log))).replace(
            "from .. import nothing_above  # not the package's own: never preloaded\n",
            "",
        ),
        encoding="utf-8",
    )
    for name in ("_helper", "_other"):
        (package / f"{name}.py").write_text(
            f"with open({str(log)!r}, 'a') as log:\n    log.write('{name}\\n')\n"
            "VALUE = 1\n",
            encoding="utf-8",
        )
    return package


def test_the_package_s_own_imports_are_preloaded_by_name(tmp_path: Path) -> None:
    source = tmp_path / "module.py"
    source.write_text(BODY, encoding="utf-8")
    assert _module_imports(source) == [
        "json",
        "collections.abc",
        "._helper",
        "._other",
        "pathlib",
    ]


def test_the_body_runs_once_after_its_own_modules(tmp_path: Path) -> None:
    package = _package(tmp_path)
    init = package / "__init__.py"
    script = tmp_path / "child.py"
    script.write_text(children.EXEC_MODULE, encoding="utf-8")
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(package)], check=True)
    done = subprocess.run(
        [
            sys.executable,
            str(script),
            "pkg",
            str(init),
            ",".join(_module_imports(init)),
        ],
        cwd=tmp_path,
        env={"PYTHONPATH": str(tmp_path)},
        capture_output=True,
        text=True,
        check=True,
    )
    assert json.loads(done.stdout)["pyc"] is True
    # Each helper once, before the body; the body once (not also by a preload).
    assert (tmp_path / "log.txt").read_text().splitlines() == [
        "_helper",
        "_other",
        "body",
    ]
