"""Real packages: the outputs install and work in other people's projects.

The Python project builds a wheel that installs and imports in a fresh venv with
nothing else in it; the npm package packs (compiled JS + .d.ts), installs into a
separate Node project and works there from ESM ``import``, CommonJS ``require``
and a strict TypeScript consumer.  Run for the shipped taxonomy, the
upper_snake case and the date-versioned HTTP API (whose package versions,
``2024.6.20``, pip and npm must take).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import textwrap
import venv
from pathlib import Path

import pytest

from tests.spec_oracle import python_version, read_spec, readme_member
from tests.support import TSC, Case, cases, require_tool
from tests.support import package as whole

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
    guard = f"is{spec.base}"  # README "Names": `is` + the base in TypeScript
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
        # README "Names": enum members are the key in upper snake case.
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
