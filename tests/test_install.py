"""taxogen as pip installs it: the wheel and the sdist carry the templates.

The checkout's working tree (tracked and untracked files, as git sees them now)
is copied to a temporary folder and built there, so nothing is written into the
checkout: an sdist, a wheel built from that sdist, and a wheel built from the
tree (``pip wheel``), all with this virtualenv's setuptools (no build
isolation).  The wheel is installed into a fresh virtual environment outside
the checkout, with its dependencies pinned by ``constraints.txt``, and its
console script must write, check, diff and lint exactly as the checkout does:
the outputs byte for byte the golden files.  Before the templates were package
data, the installed ``taxogen generate`` exited 70 with ``TemplateNotFound``.
"""

from __future__ import annotations

import dataclasses
import importlib.metadata
import importlib.util
import os
import shutil
import subprocess
import sys
import tarfile
import tomllib
import zipfile
from collections.abc import Sequence
from pathlib import Path

import pytest

from tests.spec_oracle import read_spec
from tests.support import Case, cases
from tests.support import package as whole

REPO = Path(__file__).resolve().parent.parent
TEMPLATES = REPO / "templates"
MANIFEST = ".taxogen-manifest.json"

#: The shipped taxonomy and one with upper_snake codes; ``tests.support.package``
#: gives the whole folder ``generate`` writes for each.
GOLDEN = [case for case in cases() if case.name in ("shipped", "acme_upper")]


def require(present: bool, what: str) -> None:
    """Fail when ``what`` is missing and CI is set; elsewhere skip, naming it."""
    if present:
        return
    if os.environ.get("CI"):
        pytest.fail(f"{what} is missing (CI is set, so this fails instead of skipping)")
    pytest.skip(f"{what} is missing")


def clean_env(**extra: str) -> dict[str, str]:
    """The environment for a child: nothing that could point it at the checkout."""
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in {"PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV"}
        and not key.startswith("GIT_")
    }
    env.update(extra)
    return env


def run(
    args: Sequence[str | Path], cwd: Path, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """Run ``args`` in ``cwd``, capturing its output; never raises on exit codes."""
    return subprocess.run(
        [str(arg) for arg in args],
        cwd=cwd,
        env=clean_env() if env is None else env,
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
    )


def ok(args: Sequence[str | Path], cwd: Path, env: dict[str, str] | None = None) -> str:
    """Run ``args`` and insist on exit 0; its stdout."""
    done = run(args, cwd, env)
    shown = " ".join(str(arg) for arg in args)
    assert (
        done.returncode == 0
    ), f"{shown} exited {done.returncode}:\n{done.stdout}\n{done.stderr}"
    return done.stdout


def copy_working_tree(dest: Path) -> Path:
    """Copy the checkout as it is now (not HEAD) to ``dest``: what git would add."""
    git = shutil.which("git")
    require(git is not None, "git (to list the checkout's files)")
    assert git is not None
    listed = ok(
        [git, "ls-files", "-z", "--cached", "--others", "--exclude-standard"], REPO
    )
    for name in listed.split("\0"):
        source = REPO / name
        if name and source.is_file():  # a tracked file may be deleted in the tree
            target = dest / name
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target)
    return dest


def template_files() -> list[str]:
    """Every file of the checkout's ``templates/``, found by globbing it."""
    return sorted(
        path.relative_to(TEMPLATES).as_posix()
        for path in TEMPLATES.rglob("*")
        if path.is_file() and "__pycache__" not in path.parts
    )


def files(root: Path) -> dict[str, bytes]:
    """Every file under ``root`` (relative, with ``/``) and its bytes."""
    return {
        path.relative_to(root).as_posix(): path.read_bytes()
        for path in sorted(root.rglob("*"))
        if path.is_file() and "__pycache__" not in path.relative_to(root).parts
    }


def _setuptools_builds_wheels() -> bool:
    try:
        major, minor = importlib.metadata.version("setuptools").split(".")[:2]
    except importlib.metadata.PackageNotFoundError:
        return False
    return (int(major), int(minor)) >= (70, 1)  # bdist_wheel built in


@dataclasses.dataclass(frozen=True)
class Built:
    """What the build produced from the copied tree."""

    tree: Path  # the copy of the working tree that was built
    sdist: Path
    wheel: Path  # built from the sdist (as pip does from PyPI's sdist)
    tree_wheel: Path  # built from the tree (`pip wheel .`)


@dataclasses.dataclass(frozen=True)
class Installed:
    """A fresh virtual environment, outside the checkout, holding taxogen's wheel."""

    root: Path
    python: Path
    taxogen: Path


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Built:
    require(
        importlib.util.find_spec("build") is not None,
        "the Python package build (pip install -c constraints.txt -e '.[test]')",
    )
    require(
        _setuptools_builds_wheels(),
        "setuptools>=70.1 in this virtualenv (pip install -c constraints.txt -e"
        " '.[test]')",
    )
    root = tmp_path_factory.mktemp("build")
    tree = copy_working_tree(root / "taxogen")
    dist = root / "dist"
    # The sdist, then a wheel from the unpacked sdist: situation (c).
    ok([sys.executable, "-m", "build", "--no-isolation", "--outdir", dist, tree], root)
    # A wheel straight from the tree, the way `pip wheel .` builds it.
    ok(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--quiet",
            "--no-deps",
            "--no-build-isolation",
            "--wheel-dir",
            root / "tree-wheel",
            tree,
        ],
        root,
    )
    (sdist,) = dist.glob("*.tar.gz")
    (wheel,) = dist.glob("*.whl")
    (tree_wheel,) = (root / "tree-wheel").glob("*.whl")
    return Built(tree=tree, sdist=sdist, wheel=wheel, tree_wheel=tree_wheel)


@pytest.fixture(scope="module")
def installed(built: Built, tmp_path_factory: pytest.TempPathFactory) -> Installed:
    root = tmp_path_factory.mktemp("venv") / "venv"
    assert not root.is_relative_to(REPO)
    ok([sys.executable, "-m", "venv", "--without-pip", root], root.parent)
    python = root / "bin" / "python"
    ok(
        [
            sys.executable,
            "-m",
            "pip",
            "--python",
            python,
            "install",
            "--quiet",
            "-c",
            built.tree / "constraints.txt",
            built.tree_wheel,
        ],
        root.parent,
    )
    return Installed(root=root, python=python, taxogen=root / "bin" / "taxogen")


@pytest.fixture
def work(tmp_path: Path) -> Path:
    """An empty working folder outside the checkout (no pyproject.toml above it)."""
    folder = tmp_path / "work"
    folder.mkdir()
    assert not folder.is_relative_to(REPO)
    assert not any((parent / "pyproject.toml").exists() for parent in folder.parents)
    return folder


# --------------------------------------------------------------- what is shipped
def test_the_sdist_carries_every_template(built: Built) -> None:
    expected = template_files()
    assert "__init__.py" in expected and any(name.endswith(".j2") for name in expected)
    with tarfile.open(built.sdist) as sdist:
        members = {
            member.name.split("/", 1)[1]: member
            for member in sdist.getmembers()
            if member.isfile()
        }
        for name in expected:
            member = members.get(f"templates/{name}")
            assert member is not None, f"the sdist lacks templates/{name}"
            extracted = sdist.extractfile(member)
            assert extracted is not None
            assert extracted.read() == (built.tree / "templates" / name).read_bytes()


@pytest.mark.parametrize("which", ["wheel", "tree_wheel"])
def test_the_wheels_carry_every_template(built: Built, which: str) -> None:
    with zipfile.ZipFile(getattr(built, which)) as wheel:
        names = set(wheel.namelist())
        for name in template_files():
            member = f"taxogen/templates/{name}"
            assert member in names, f"the wheel lacks {member}"
            assert wheel.read(member) == (built.tree / "templates" / name).read_bytes()
        # The data, not the checkout's layout: no top-level templates/ in the wheel.
        assert not any(member.startswith("templates/") for member in names)


def test_the_wheel_from_the_sdist_is_the_wheel_from_the_tree(built: Built) -> None:
    with (
        zipfile.ZipFile(built.wheel) as from_sdist,
        zipfile.ZipFile(built.tree_wheel) as from_tree,
    ):
        assert sorted(from_sdist.namelist()) == sorted(from_tree.namelist())
        for name in from_tree.namelist():
            assert from_sdist.read(name) == from_tree.read(name), name


def test_the_installed_package_and_its_templates_are_the_venvs(
    installed: Installed, work: Path
) -> None:
    script = (
        "import taxogen, taxogen.render as r\n"
        "print(taxogen.__file__)\n"
        "print(r.TEMPLATES)\n"
    )
    module, templates = ok([installed.python, "-c", script], work).splitlines()
    for path in (Path(module), Path(templates)):
        assert path.is_relative_to(installed.root), path
        assert not path.is_relative_to(REPO), path
    assert sorted(files(Path(templates))) == template_files()


# ------------------------------------------------------------ what it does, installed
def test_the_installed_tool_answers_its_version_and_runs_as_python_m_taxogen(
    installed: Installed, work: Path
) -> None:
    """Issue 33 §1: the import package is ``taxogen``, and a project's own
    folders cannot stand in for the tool or its libraries.  The work folder
    holds a ``generator/`` package (the tool's old import name) and a ``yaml.py``
    and ``jinja2/`` that would fail if imported; ``python -m`` puts that folder
    first on the path."""
    version = tomllib.loads((REPO / "pyproject.toml").read_text("utf-8"))["project"][
        "version"
    ]
    poison = "raise SystemExit('a project folder ran in place of the tool')\n"
    for name in ("generator/__init__.py", "generator/__main__.py", "yaml.py"):
        (work / name).parent.mkdir(exist_ok=True)
        (work / name).write_text(poison, encoding="utf-8")
    (work / "jinja2").mkdir()
    (work / "jinja2" / "__init__.py").write_text(poison, encoding="utf-8")
    shutil.copy2(REPO / "tests" / "cases" / "minimal" / "taxonomy.yaml", work)
    for command in ([installed.taxogen], [installed.python, "-m", "taxogen"]):
        assert ok([*command, "--version"], work).strip() == f"taxogen {version}"
        ok([*command, "generate", "-q", "--out", "out"], work)
        assert "up to date" in ok([*command, "check", "--out", "out"], work)
    shadowed = run([installed.python, "-m", "generator", "--version"], work)
    assert "a project folder ran" in shadowed.stderr  # the poison is live


def test_the_installed_init_then_generate_then_check_in_an_empty_folder(
    installed: Installed, work: Path
) -> None:
    """Issue 33 §2, as a user meets it: the starter ships in the wheel."""
    ok([installed.taxogen, "init", "shop"], work)
    for argv in (["generate", "-q"], ["check"], ["lint", "--strict"]):
        ok([installed.taxogen, *argv], work / "shop")


def test_the_installed_schema_is_the_repositorys(
    installed: Installed, work: Path
) -> None:
    """Issue 33 §3: `taxogen schema` from a wheel prints the committed file."""
    printed = ok([installed.taxogen, "schema"], work)
    committed = REPO / "schema" / "taxonomy.schema.json"
    assert printed == committed.read_text(encoding="utf-8")


@pytest.mark.parametrize("case", GOLDEN, ids=[case.name for case in GOLDEN])
def test_the_installed_tool_writes_the_golden_files_and_checks_them(
    installed: Installed, work: Path, case: Case
) -> None:
    shutil.copy2(case.taxonomy, work / "taxonomy.yaml")
    ok([installed.taxogen, "generate"], work)
    written = files(work / "generated")
    golden = whole(case)
    expected = files(golden)
    # Every golden file byte for byte (the manifest too, when the golden folder
    # has one), and nothing else but the manifest.
    for name, data in expected.items():
        assert name in written, f"generate did not write {name}"
        assert written[name] == data, f"{name} differs from {golden / name}"
    assert set(written) == set(expected) | {MANIFEST}

    ok([installed.taxogen, "check"], work)
    page = work / "generated" / "docs" / "errors.md"
    assert page.is_file()
    page.write_bytes(page.read_bytes() + b"edited by hand\n")
    drifted = run([installed.taxogen, "check"], work)
    assert drifted.returncode == 1, drifted.stdout + drifted.stderr
    assert "docs/errors.md" in drifted.stdout + drifted.stderr


@pytest.mark.parametrize(
    "taxonomy", [case.taxonomy for case in GOLDEN], ids=[case.name for case in GOLDEN]
)
def test_the_installed_diff_lint_and_model_behave_as_from_the_checkout(
    installed: Installed, work: Path, taxonomy: Path
) -> None:
    shutil.copy2(taxonomy, work / "taxonomy.yaml")
    for extra in ([], ["--schema"]):  # the schema ships inside the wheel too
        mine = run([installed.taxogen, "model", *extra], work)
        theirs = run([sys.executable, "-m", "taxogen", "model", *extra], work)
        assert mine.returncode == 0, mine.stdout + mine.stderr
        assert mine.stdout == theirs.stdout
    same = run([installed.taxogen, "diff", "taxonomy.yaml", "taxonomy.yaml"], work)
    assert same.returncode == 0, same.stdout + same.stderr
    checkout = run(
        [sys.executable, "-m", "taxogen", "diff", "taxonomy.yaml", "taxonomy.yaml"],
        work,
    )
    assert (same.returncode, same.stdout) == (checkout.returncode, checkout.stdout)
    generic_missing, statuses = _lint_outcome(taxonomy)
    # domain-generic-code is one style's convention, opt-in (issue 30 §9): the
    # project selects it, so the installed command reads its settings too.
    (work / "pyproject.toml").write_text(
        '[tool.taxogen.lint]\nextend-select = ["domain-generic-code"]\n',
        encoding="utf-8",
    )
    for extra, status in zip(([], ["--strict"]), statuses):
        mine = run([installed.taxogen, "lint", *extra], work)
        theirs = run([sys.executable, "-m", "taxogen", "lint", *extra], work)
        assert mine.returncode == status, mine.stdout + mine.stderr
        findings = [line for line in mine.stdout.splitlines() if ": warning " in line]
        assert len(findings) == len(generic_missing), mine.stdout
        assert all(" warning domain-generic-code: " in line for line in findings)
        assert ": error " not in mine.stdout
        assert (mine.returncode, mine.stdout) == (theirs.returncode, theirs.stdout)


def _lint_outcome(taxonomy: Path) -> tuple[list[str], tuple[int, int]]:
    """The domains ``lint`` warns of, and its exit status without and with
    ``--strict``, from the taxonomy's data and README "Lint".

    Both taxonomies follow every rule but ``domain-generic-code`` (opt-in, and
    selected by the test's project), which a domain without its
    ``<domain>_error`` code breaks (acme_upper's TOOL and LLM, as its header
    says); that rule is a warning, so it fails only under
    ``--strict`` (exit 1, "a rule failed"); no error-level rule applies (every
    live code records its meaning, none is deprecated; the caller checks that
    no finding is an error).
    """
    spec = read_spec(taxonomy)
    assert all(code.meaning for code in spec.codes.values())
    assert all(not code.deprecated for code in spec.codes.values())
    missing = [domain for domain in spec.domains if domain not in spec.domain_codes]
    return missing, (0, 1 if missing else 0)


def test_the_installed_cache_of_compiled_templates_fails_soft(
    installed: Installed, work: Path, tmp_path: Path
) -> None:
    """Compiled templates go to the cache folder (TAXOGEN_CACHE_DIR here, else
    the user's cache), never beside the installed templates; a cache folder
    that cannot be made only means compiling."""
    shutil.copy2(GOLDEN[0].taxonomy, work / "taxonomy.yaml")
    expected = files(whole(GOLDEN[0]))
    templates = Path(
        ok(
            [
                installed.python,
                "-c",
                "import taxogen.targets.environment as r; print(r.TEMPLATES)",
            ],
            work,
        ).strip()
    )
    package = templates.parent

    def generate(env: dict[str, str]) -> None:
        shutil.rmtree(work / "generated", ignore_errors=True)
        ok([installed.taxogen, "generate", "-q"], work, env)
        written = files(work / "generated")
        assert {name: written.get(name) for name in expected} == expected

    chosen = tmp_path / "chosen"
    generate(clean_env(TAXOGEN_CACHE_DIR=str(chosen)))
    assert list((chosen / "templates").glob("*.jinja")), "no entry in the cache"
    home = tmp_path / "home"
    home.mkdir()
    without = {
        k: v
        for k, v in clean_env(HOME=str(home)).items()
        if k not in ("TAXOGEN_CACHE_DIR", "XDG_CACHE_HOME")
    }
    generate(without)
    assert list((home / ".cache" / "taxogen" / "templates").glob("*.jinja"))
    generate(without)  # from the cache
    for found in (package, templates):
        assert not list(found.rglob("*.jinja")), "an entry beside taxogen"
        assert not list(found.rglob("*.memo")), "a memo beside taxogen"

    # A cache folder that cannot be created (a file in its way): rendering works.
    blocked = tmp_path / "blocked"
    blocked.write_bytes(b"")
    generate(clean_env(TAXOGEN_CACHE_DIR=str(blocked / "cache")))
