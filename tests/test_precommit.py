"""taxogen's pre-commit hooks (``.pre-commit-hooks.yaml``), run by pre-commit itself.

``pre-commit try-repo`` of a local path takes its HEAD plus staged and modified
tracked files, but not untracked ones; so the checkout's working tree, as it is
now, is copied into a temporary git repository and committed there, and that
copy is what pre-commit installs (into its own virtualenv, from PyPI).  A second
temporary repository holds a taxonomy and its generated files: the hooks must
pass on it as committed, ``taxogen-check`` must fail once a generated file
drifts, and ``taxogen-lint`` (``--strict``) once the taxonomy breaks a lint rule.
Nothing is written outside the test's temporary folders but pip's own cache.
"""

from __future__ import annotations

import dataclasses
import importlib.util
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.test_install import REPO, clean_env, copy_working_tree, ok, require


@dataclasses.dataclass(frozen=True)
class Hooks:
    """The copied hook repository, the project to run it on, and where to run it."""

    repo: Path
    project: Path
    env: dict[str, str]
    git: str


def _commit(git: str, folder: Path) -> None:
    """Make ``folder`` a git repository (settings local to it) and commit all of it."""
    ok([git, "-c", "init.defaultBranch=main", "init", "-q"], folder)
    ok([git, "config", "user.name", "taxogen tests"], folder)
    ok([git, "config", "user.email", "tests@taxogen.invalid"], folder)
    ok([git, "config", "commit.gpgsign", "false"], folder)
    ok([git, "add", "-A"], folder)
    ok([git, "commit", "-q", "-m", "snapshot"], folder)


@pytest.fixture(scope="module")
def hooks(tmp_path_factory: pytest.TempPathFactory) -> Hooks:
    git = shutil.which("git")
    require(git is not None, "git")
    assert git is not None
    require(
        importlib.util.find_spec("pre_commit") is not None,
        "pre-commit (pip install -c constraints.txt -e '.[test]')",
    )
    root = tmp_path_factory.mktemp("pre-commit")
    repo = copy_working_tree(root / "taxogen")
    assert (repo / ".pre-commit-hooks.yaml").is_file()
    _commit(git, repo)

    project = root / "project"
    project.mkdir()
    shutil.copy2(REPO / "taxonomy.yaml", project / "taxonomy.yaml")
    ok([sys.executable, "-m", "taxogen", "generate", "-q"], project)
    assert (project / "generated" / "docs" / "errors.md").is_file()
    _commit(git, project)

    env = clean_env(
        PRE_COMMIT_HOME=str(root / "pre-commit-home"),
        VIRTUALENV_OVERRIDE_APP_DATA=str(root / "virtualenv-app-data"),
        TMPDIR=str(root),  # try-repo keeps its hook environments in a temporary folder
        PIP_CONSTRAINT=str(repo / "constraints.txt"),  # the pinned dependencies
    )
    return Hooks(repo=repo, project=project, env=env, git=git)


def _try(
    hooks: Hooks, hook: str, *, all_files: bool = True
) -> subprocess.CompletedProcess[str]:
    """Run ``hook`` on every file, or (as at commit time) on the staged ones only."""
    return subprocess.run(
        [sys.executable, "-m", "pre_commit", "try-repo", str(hooks.repo), hook]
        + (["--all-files"] if all_files else [])
        + ["--color", "never"],
        cwd=hooks.project,
        env=hooks.env,
        capture_output=True,
        text=True,
        check=False,
        timeout=600,
    )


@pytest.mark.parametrize("hook", ["taxogen-check", "taxogen-lint", "taxogen-generate"])
def test_the_hooks_pass_on_a_clean_tree(hooks: Hooks, hook: str) -> None:
    done = _try(hooks, hook)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Passed" in done.stdout, done.stdout


def test_taxogen_check_fails_on_a_drifted_tree(hooks: Hooks) -> None:
    page = hooks.project / "generated" / "docs" / "errors.md"
    original = page.read_bytes()
    page.write_bytes(original + b"edited by hand\n")
    try:
        done = _try(hooks, "taxogen-check")
    finally:
        page.write_bytes(original)
    assert done.returncode == 1, done.stdout + done.stderr
    assert "Failed" in done.stdout and "- exit code: 1" in done.stdout, done.stdout
    assert "docs/errors.md" in done.stdout, done.stdout


def test_taxogen_generate_regenerates_a_stale_tree_and_fails_the_commit(
    hooks: Hooks,
) -> None:
    """Issue 33 §5, the hook that regenerates: the taxonomy was edited and
    generate not run; as a fixer does, the hook rewrites the files and fails,
    so the change is reviewed and staged; run again, it passes.  (A file
    edited by hand it refuses to overwrite, as generate does.)"""
    taxonomy = hooks.project / "taxonomy.yaml"
    page = hooks.project / "generated" / "docs" / "errors.md"
    original = taxonomy.read_text(encoding="utf-8")
    meaning = "meaning: Unspecified protocol violation}"
    assert meaning in original
    taxonomy.write_text(
        original.replace(meaning, "meaning: An unspecified protocol violation}"),
        encoding="utf-8",
    )
    try:
        done = _try(hooks, "taxogen-generate")
        fixed = page.read_text(encoding="utf-8")
        again = _try(hooks, "taxogen-generate")
    finally:
        taxonomy.write_text(original, encoding="utf-8")
        ok([sys.executable, "-m", "taxogen", "generate", "-q"], hooks.project)
    assert done.returncode == 1, done.stdout + done.stderr
    assert "files were modified by this hook" in done.stdout, done.stdout
    assert "An unspecified protocol violation" in fixed
    assert again.returncode == 0 and "Passed" in again.stdout, again.stdout


def test_taxogen_lint_fails_when_a_rule_fails(hooks: Hooks) -> None:
    taxonomy = hooks.project / "taxonomy.yaml"
    original = taxonomy.read_text(encoding="utf-8")
    meaning = "meaning: Unspecified protocol violation}"
    assert meaning in original
    # Two codes with one meaning: a warning of the default set (issue 30 §9:
    # a meaning's period is one style's, opt-in), which --strict makes fail.
    taxonomy.write_text(
        original.replace(meaning, "meaning: Unexpected internal processing failure}"),
        encoding="utf-8",
    )
    try:
        done = _try(hooks, "taxogen-lint")
    finally:
        taxonomy.write_text(original, encoding="utf-8")
    assert done.returncode == 1, done.stdout + done.stderr
    assert "- exit code: 1" in done.stdout and "meaning-unique" in done.stdout


def test_taxogen_check_follows_a_custom_taxonomy_and_out(hooks: Hooks) -> None:
    """The hooks run whatever the taxonomy and output folder are called."""
    custom = hooks.project.parent / "custom"
    (custom / "spec").mkdir(parents=True)
    shutil.copy2(REPO / "taxonomy.yaml", custom / "spec" / "errors.yaml")
    (custom / "pyproject.toml").write_text(
        '[tool.taxogen]\ntaxonomy = "spec/errors.yaml"\nout = "src/errors"\n',
        encoding="utf-8",
    )
    ok([sys.executable, "-m", "taxogen", "generate", "-q"], custom)
    page = custom / "src" / "errors" / "docs" / "errors.md"
    assert page.is_file()
    _commit(hooks.git, custom)
    custom_hooks = dataclasses.replace(hooks, project=custom)
    for hook in ("taxogen-check", "taxogen-lint"):
        done = _try(custom_hooks, hook)
        assert done.returncode == 0, done.stdout + done.stderr
        assert "Passed" in done.stdout, done.stdout
    page.write_bytes(page.read_bytes() + b"edited by hand\n")
    # As at commit time: only the drifted file is staged, no taxonomy, no pyproject.
    ok([hooks.git, "add", str(page)], custom)
    done = _try(custom_hooks, "taxogen-check", all_files=False)
    assert done.returncode == 1, done.stdout + done.stderr
    assert "src/errors/docs/errors.md" in done.stdout, done.stdout
