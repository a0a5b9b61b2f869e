"""Real packages: the outputs install and work in other people's projects.

The Python project builds a wheel that installs and imports in a fresh venv with
nothing else in it; the npm package packs (compiled JS + .d.ts), installs into a
separate Node project and works there from ESM ``import``, CommonJS ``require``
and a strict TypeScript consumer.  Run for the shipped taxonomy, the
upper_snake case and the date-versioned HTTP API (whose package versions,
``2024.6.20``, pip and npm must take).

A project with both metadata tables (issue 33 §7) is built once more: its
wheel and tarball carry the README, the LICENSE and the metadata, and its
tarball, scoped, loads by ``require()`` and ``import`` from Node, Jest 29 and
Jest 30, with "are the types wrong" finding no problem.  It runs past 300
lines because each ecosystem's consumer is written out here, file by file.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import textwrap
import venv
import zipfile
from pathlib import Path

import pytest

from tests.spec_oracle import python_version, read_spec, readme_member
from tests.support import REPO, TSC, Case, cases, require_tool
from tests.support import package as whole
from tests.test_package_metadata import TABLES

PACKAGED = [c for c in cases() if c.name in ("shipped", "acme_upper", "http_api")]
# The lazy layout's domain modules must be in the wheel too.
WHEELS = [
    c for c in cases() if c.name in ("shipped", "acme_upper", "lazy_layout", "http_api")
]


def _release(case: Case) -> str | None:
    """README "Rules the loader enforces": the package version of a plain
    release or a date version (2024-06-20 → 2024.6.20, for pip and npm alike);
    None for others."""
    version = read_spec(case.taxonomy).version
    if re.fullmatch(r"\d+\.\d+\.\d+|\d{4}-\d{2}-\d{2}", version):
        return python_version(version)
    return None


def _run(cmd: list[str], cwd: Path, env: dict[str, str] | None = None) -> str:
    done = subprocess.run(
        cmd, cwd=cwd, capture_output=True, text=True, env=env, check=False
    )
    assert (
        done.returncode == 0
    ), f"{' '.join(cmd)} failed:\n{done.stdout}\n{done.stderr}"
    return done.stdout


@pytest.mark.parametrize("case", WHEELS, ids=[c.name for c in WHEELS])
def test_wheel_installs_and_imports_in_a_fresh_venv(case: Case, tmp_path: Path) -> None:
    spec = read_spec(case.taxonomy)
    project = tmp_path / "project"
    shutil.copytree(whole(case) / "python", project)
    _run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--no-deps",
            "--wheel-dir",
            str(tmp_path / "wheels"),
            str(project),
        ],
        tmp_path,
    )
    wheels = list((tmp_path / "wheels").glob("*.whl"))
    assert len(wheels) == 1, wheels

    env_dir = tmp_path / "venv"
    venv.create(env_dir, with_pip=True)
    python = env_dir / "bin" / "python"
    _run(
        [
            str(python),
            "-m",
            "pip",
            "install",
            "--no-index",
            "--no-deps",
            str(wheels[0]),
        ],
        tmp_path,
    )
    installed = _run([str(python), "-m", "pip", "list", "--format=json"], tmp_path)
    assert {p["name"] for p in json.loads(installed)} <= {
        "pip",
        "setuptools",
        spec.python_dist,
    }
    release = _release(case)
    if release is not None:
        dist = spec.python_dist
        assert {"name": dist, "version": release} in json.loads(installed)

    # The spec: an unknown code is treated as the fallback (or, README
    # "Hierarchies", as the domain whose match claims it).
    unknown = spec.other_wire("zz_not_a_code")
    fallback = spec.target(unknown)
    script = textwrap.dedent(f"""
        import importlib.resources, json, sys
        import {spec.python_package} as pkg
        assert "site-packages" in pkg.__file__, pkg.__file__
        assert (
            importlib.resources.files("{spec.python_package}")
            .joinpath("py.typed")
            .is_file()
        )
        err = pkg.from_payload(
            {{"code": {unknown!r}, "message": "m", "retryable": False}}
        )
        assert type(err).__name__ == "{fallback.class_name}"
        assert all(getattr(pkg, name) is not None for name in pkg.__all__)
        print(json.dumps(err.to_dict()))
        """)
    # -I: isolated, so the repository and user site cannot leak into the import.
    out = _run([str(python), "-I", "-c", script], tmp_path)
    assert json.loads(out)["code"] == unknown


@pytest.fixture(scope="module")
def npm_env() -> dict[str, str]:
    require_tool(TSC.exists(), f"{TSC} (`make test` installs it)")
    require_tool(shutil.which("npm") is not None, "npm")
    require_tool(shutil.which("node") is not None, "node (Node.js >= 20)")
    env = dict(os.environ)
    # `npm pack` runs the package's prepack script (tsc): use the repository's pinned
    # compiler.
    env["PATH"] = f"{TSC.parent}{os.pathsep}{env['PATH']}"
    env["npm_config_audit"] = "false"
    env["npm_config_fund"] = "false"
    env["npm_config_update_notifier"] = "false"
    return env


@pytest.mark.parametrize("case", PACKAGED, ids=[c.name for c in PACKAGED])
def test_npm_pack_installs_and_works_from_import_require_and_typescript(
    case: Case, tmp_path: Path, npm_env: dict[str, str]
) -> None:
    spec = read_spec(case.taxonomy)
    package = tmp_path / "package"
    shutil.copytree(whole(case) / "typescript", package)
    tarball_name = (
        _run(
            ["npm", "pack", "--silent", "--pack-destination", str(tmp_path)],
            package,
            npm_env,
        )
        .strip()
        .splitlines()[-1]
    )
    tarball = tmp_path / tarball_name
    release = _release(case)
    if release is not None:
        assert tarball_name == f"{spec.npm_package}-{release}.tgz", tarball_name
    listing = _run(["tar", "-tzf", str(tarball)], tmp_path)
    assert "package/dist/index.js" in listing and "package/dist/index.d.ts" in listing

    consumer = tmp_path / "consumer"
    consumer.mkdir()
    (consumer / "package.json").write_text(
        '{"name": "consumer", "private": true}\n', encoding="utf-8"
    )
    _run(["npm", "install", "--no-save", "--offline", str(tarball)], consumer, npm_env)
    npm_name = spec.npm_package
    code = spec.first
    guard = f"is{spec.base}"  # docs "Names": `is` + the base in TypeScript
    (consumer / "esm.mjs").write_text(
        f"import {{ fromPayload, {code.class_name}, {guard} }}"
        f' from "{npm_name}";\n'
        f"const err = fromPayload({{ code: {json.dumps(code.wire)}, message: 'm',"
        " retryable: true });\n"
        f"if (!(err instanceof {code.class_name}) || !{guard}(err))"
        ' throw new Error("wrong class");\n'
        "console.log(JSON.stringify(err));\n",
        encoding="utf-8",
    )
    (consumer / "cjs.cjs").write_text(
        f'const pkg = require("{npm_name}");\n'
        f'const err = new pkg.{code.class_name}("m");\n'
        f'if (err.name !== "{code.class_name}" || !pkg.{guard}(err))'
        ' throw new Error("wrong class");\n'
        "console.log(JSON.stringify(err));\n",
        encoding="utf-8",
    )
    for script in ("esm.mjs", "cjs.cjs"):
        out = _run(["node", script], consumer, npm_env)
        assert json.loads(out)["code"] == code.wire, script

    (consumer / "use.ts").write_text(
        f'import {{ ErrorCode, fromPayload, type ErrorPayload }} from "{npm_name}";\n'
        # docs "Names": enum members are the key in upper snake case.
        f"const code: ErrorCode = ErrorCode.{readme_member(code.code)};\n"
        "const payload: ErrorPayload ="
        ' fromPayload({ code, message: "m", retryable: false }).toPayload();\n'
        "// @ts-expect-error: not a code of the taxonomy\n"
        'const wrong: ErrorCode = "zz_not_a_code";\n'
        "export { payload, wrong };\n",
        encoding="utf-8",
    )
    (consumer / "tsconfig.json").write_text(
        json.dumps(
            {
                "compilerOptions": {
                    "strict": True,
                    "module": "NodeNext",
                    "moduleResolution": "NodeNext",
                    "target": "ES2022",
                    "lib": ["ES2022"],
                    "types": [],
                    "noEmit": True,
                    "exactOptionalPropertyTypes": True,
                },
                "files": ["use.ts"],
            }
        ),
        encoding="utf-8",
    )
    _run([str(TSC), "-p", "tsconfig.json"], consumer, npm_env)


@pytest.fixture(scope="module")
def metadata_project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The shipped taxonomy generated with both metadata tables
    (tests/test_package_metadata.py's), Python and TypeScript only."""
    project = tmp_path_factory.mktemp("metadata")
    shutil.copy(REPO / "taxonomy.yaml", project / "taxonomy.yaml")
    tables = TABLES.replace('"python", "typescript", "go"', '"python", "typescript"')
    (project / "pyproject.toml").write_text(tables, encoding="utf-8")
    _run([sys.executable, "-m", "taxogen", "generate", "-q"], project)
    return project / "generated"


def test_the_wheel_carries_the_readme_license_and_metadata(
    metadata_project: Path, tmp_path: Path
) -> None:
    """PEP 639: the LICENSE under .dist-info/licenses/ and License-Expression;
    the README is the wheel's description (METADATA's body), as PEP 621's
    ``readme`` puts it."""
    project = tmp_path / "project"
    shutil.copytree(metadata_project / "python", project)
    wheels = tmp_path / "wheels"
    _run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-w", str(wheels), "."],
        project,
    )
    (wheel,) = wheels.glob("*.whl")
    assert wheel.name == "acme_errors-0.2.0-py3-none-any.whl"
    with zipfile.ZipFile(wheel) as archive:
        members = set(archive.namelist())
        info = "acme_errors-0.2.0.dist-info"
        assert f"{info}/licenses/LICENSE" in members, members
        license_text = archive.read(f"{info}/licenses/LICENSE").decode()
        metadata = archive.read(f"{info}/METADATA").decode()
    assert license_text.startswith("SPDX-License-Identifier: Apache-2.0 OR MIT\n")
    headers, _, body = metadata.partition("\n\n")
    assert "License-Expression: Apache-2.0 OR MIT" in headers.splitlines()
    assert "Author-email: Ada Lovelace <ada@example.com>" in headers.splitlines()
    assert "Project-URL: Repository, https://github.com/acme/errors" in headers
    assert "Summary: Acme's error codes" in headers.splitlines()
    readme = (project / "README.md").read_text(encoding="utf-8")
    assert "# acme-errors" in readme and body.strip() == readme.strip()


@pytest.fixture(scope="module")
def metadata_tarball(
    metadata_project: Path, tmp_path_factory: pytest.TempPathFactory
) -> Path:
    """The npm package of :func:`metadata_project`, packed once."""
    require_tool(TSC.exists(), f"{TSC} (`make test` installs it)")
    require_tool(shutil.which("npm") is not None, "npm")
    env = dict(os.environ)
    env["PATH"] = f"{TSC.parent}{os.pathsep}{env['PATH']}"
    where = tmp_path_factory.mktemp("tarball")
    package = where / "package"
    shutil.copytree(metadata_project / "typescript", package)
    name = _run(
        ["npm", "pack", "--silent", "--pack-destination", str(where)], package, env
    )
    return where / name.strip().splitlines()[-1]


def _member(archive: tarfile.TarFile, name: str) -> str:
    found = archive.extractfile(name)
    assert found is not None, name
    return found.read().decode("utf-8")


def test_the_tarball_carries_the_readme_and_license(metadata_tarball: Path) -> None:
    assert metadata_tarball.name == "acme-errors-0.2.0.tgz"  # npm's name of a scope
    with tarfile.open(metadata_tarball) as archive:
        members = set(archive.getnames())
        manifest = json.loads(_member(archive, "package/package.json"))
        license_text = _member(archive, "package/LICENSE")
    assert {"package/README.md", "package/LICENSE"} <= members, members
    assert license_text.startswith("SPDX-License-Identifier: MIT\n")
    assert manifest["name"] == "@acme/errors" and manifest["license"] == "MIT"


#: The Node tools of the module-format test, pinned by package.json (two Jest
#: majors under aliases, and "are the types wrong").
JEST = {
    major: REPO / "node_modules" / f"jest{major}" / "bin" / "jest.js"
    for major in (29, 30)
}
ATTW = REPO / "node_modules" / ".bin" / "attw"

_REQUIRE_TEST = """\
const errors = require("@acme/errors");
test("require() loads the CommonJS build", () => {
  const err = errors.fromPayload({ code: CODE, message: "m", retryable: false });
  expect(errors.isHarmovelaError(err)).toBe(true);
  expect(err.toPayload().code).toBe(CODE);
});
"""
_IMPORT_TEST = """\
import { fromPayload, isHarmovelaError } from "@acme/errors";
test("import loads the ES modules", () => {
  const err = fromPayload({ code: CODE, message: "m", retryable: false });
  expect(isHarmovelaError(err)).toBe(true);
});
"""


def test_the_tarball_loads_by_require_and_import_in_node_and_jest(
    metadata_tarball: Path, tmp_path: Path
) -> None:
    """Issue 33 §7: a CommonJS build beside the ES modules, chosen by the
    ``exports`` conditions, each with its declarations and their maps;
    ``require()`` and ``import`` from Node, Jest 29 and Jest 30 (CommonJS
    tests, and ESM ones under --experimental-vm-modules), and attw finding
    no problem in the tarball."""
    for jest in JEST.values():
        require_tool(jest.is_file(), f"{jest} (`npm ci` installs it)")
    require_tool(ATTW.is_file(), f"{ATTW} (`npm ci` installs it)")
    env = dict(os.environ, npm_config_audit="false", npm_config_fund="false")
    with tarfile.open(metadata_tarball) as archive:
        members = set(archive.getnames())
        for build in ("dist", "cjs"):
            for module in ("index", "runtime"):
                for suffix in (".js", ".d.ts", ".d.ts.map"):
                    assert f"package/{build}/{module}{suffix}" in members
            mapped = json.loads(_member(archive, f"package/{build}/index.d.ts.map"))
            assert mapped["sources"] == ["../src/index.ts"], mapped  # shipped too
        assert "package/src/index.ts" in members

    consumer = tmp_path / "consumer"
    consumer.mkdir()
    (consumer / "package.json").write_text(
        '{"name": "consumer", "private": true}\n', encoding="utf-8"
    )
    _run(
        ["npm", "install", "--no-save", "--offline", str(metadata_tarball)],
        consumer,
        env,
    )
    code = json.dumps(read_spec(REPO / "taxonomy.yaml").first.wire)
    # Plain Node: each file loads the package its own way.
    (consumer / "plain.cjs").write_text(
        f'const errors = require("@acme/errors");\nconst CODE = {code};\n'
        "const err = errors.fromPayload({ code: CODE, message: 'm', "
        "retryable: false });\nif (!errors.isHarmovelaError(err)) throw err;\n"
        "console.log(require.resolve('@acme/errors'));\n",
        encoding="utf-8",
    )
    (consumer / "plain.mjs").write_text(
        'import { fromPayload, isHarmovelaError } from "@acme/errors";\n'
        f"const err = fromPayload({{ code: {code}, message: 'm', "
        "retryable: false });\n"
        "if (!isHarmovelaError(err)) throw err;\n"
        "console.log(import.meta.resolve('@acme/errors'));\n",
        encoding="utf-8",
    )
    assert (
        _run(["node", "plain.cjs"], consumer, env)
        .strip()
        .endswith("/node_modules/@acme/errors/cjs/index.js")
    )
    assert (
        _run(["node", "plain.mjs"], consumer, env)
        .strip()
        .endswith("/node_modules/@acme/errors/dist/index.js")
    )
    (consumer / "require.test.cjs").write_text(
        f"const CODE = {code};\n{_REQUIRE_TEST}", encoding="utf-8"
    )
    (consumer / "import.test.mjs").write_text(
        f"const CODE = {code};\n{_IMPORT_TEST}", encoding="utf-8"
    )
    for major, jest in JEST.items():
        config = {
            "testMatch": ["**/*.test.cjs", "**/*.test.mjs"],
            "moduleFileExtensions": ["js", "cjs", "mjs", "json"],
            "transform": {},
            "cacheDirectory": str(tmp_path / f"jest{major}-cache"),
        }
        (consumer / "jest.config.json").write_text(json.dumps(config), "utf-8")
        out = subprocess.run(
            ["node", str(jest), "--ci", "--watchman=false", "--rootDir", "."],
            cwd=consumer,
            capture_output=True,
            text=True,
            env=dict(env, NODE_OPTIONS="--experimental-vm-modules"),
            check=False,
        )
        assert out.returncode == 0, f"Jest {major}:\n{out.stdout}\n{out.stderr}"
        assert "Tests:       2 passed, 2 total" in out.stderr, out.stderr

    # The package README's example compiles, strict, as an ES module and as
    # CommonJS: TypeScript itself resolves each condition's declarations.
    readme = (consumer / "node_modules/@acme/errors/README.md").read_text("utf-8")
    (example,) = re.findall(r"```ts\n(.*?)```", readme, re.S)
    for name in ("readme.mts", "readme.cts"):
        (consumer / name).write_text(example + "export {};\n", encoding="utf-8")
    (consumer / "tsconfig.json").write_text(
        json.dumps(
            {
                "compilerOptions": {
                    "strict": True,
                    "module": "NodeNext",
                    "moduleResolution": "NodeNext",
                    "target": "ES2022",
                    "lib": ["ES2022"],
                    "types": [],
                    "noEmit": True,
                },
                "files": ["readme.mts", "readme.cts"],
            }
        ),
        encoding="utf-8",
    )
    _run([str(TSC), "-p", "tsconfig.json"], consumer, env)

    attw = subprocess.run(
        [str(ATTW), "--format", "json", str(metadata_tarball)],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    report = json.loads(attw.stdout)
    assert attw.returncode == 0 and not report["problems"], attw.stdout
