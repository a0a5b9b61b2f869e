"""The command line as a user drives it: generate, edit, check, regenerate.

Runs ``taxogen`` in-process (``taxogen.cli.main``) in a scratch project, and
once as a real process for ``python -m taxogen``.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from taxogen import __version__, emit
from taxogen.cli import main
from taxogen.pipeline import build_plan
from tests.support import REPO, unanchored

NEW_CODE = (
    "      task_stalled: {retryable: true,"
    " meaning: Task made no progress before its watchdog fired}\n"
)


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A scratch project: the shipped taxonomy and a pyproject.toml naming it."""
    shutil.copy(REPO / "taxonomy.yaml", tmp_path / "taxonomy.yaml")
    (tmp_path / "pyproject.toml").write_text(
        '[tool.taxogen]\ntaxonomy = "taxonomy.yaml"\nout = "generated"\n',
        encoding="utf-8",
    )
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _snapshot(root: Path) -> dict[str, bytes]:
    return {
        p.relative_to(root).as_posix(): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file()
    }


def _add_code(taxonomy: Path) -> None:
    text = taxonomy.read_text(encoding="utf-8")
    anchor = "      task_cancelled: {retryable: false, meaning: Task was cancelled}\n"
    assert anchor in text
    taxonomy.write_text(text.replace(anchor, anchor + NEW_CODE), encoding="utf-8")


def test_generate_reports_what_it_wrote_then_what_was_unchanged(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["generate"]) == 0
    first = capsys.readouterr().out
    assert "wrote" in first and "python/src/harmovela_errors/__init__.py" in first
    assert main(["generate"]) == 0
    second = capsys.readouterr().out
    assert "wrote" not in second
    assert "0 written" in second and "unchanged" in second


def test_adding_a_code_makes_check_fail_until_generate(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["generate", "-q"]) == 0
    assert main(["check"]) == 0
    _add_code(project / "taxonomy.yaml")
    capsys.readouterr()

    assert main(["check"]) == 1
    out = capsys.readouterr().out
    for stale in (
        "python/src/harmovela_errors/__init__.py",
        "typescript/src/index.ts",
        "docs/errors.md",
    ):
        assert f"stale: generated/{stale}" in out
    assert '+    TASK_STALLED = "task_stalled"' in out  # the diff shows the change

    assert main(["generate", "-q"]) == 0
    generated = project / "generated"
    assert (
        'TASK_STALLED = "task_stalled"'
        in (generated / "python/src/harmovela_errors/__init__.py").read_text()
    )
    assert (
        "class TaskStalledError(TaskError)"
        in (generated / "python/src/harmovela_errors/__init__.py").read_text()
    )
    assert (
        "export class TaskStalledError extends TaskError"
        in (generated / "typescript/src/index.ts").read_text()
    )
    assert (
        "| `task_stalled` | yes | Task made no progress before its watchdog fired |"
        in unanchored((generated / "docs/errors.md").read_text())
    )
    assert main(["check"]) == 0


def test_check_writes_nothing_and_names_missing_files(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["check"]) == 1
    assert not (project / "generated").exists()
    assert "missing: generated/docs/errors.md" in capsys.readouterr().out


def _lazy_without_tool_domain(taxonomy: Path) -> Path:
    """Switch the taxonomy to the lazy layout (a module per domain); return the tool
    domain's module.
    """
    text = taxonomy.read_text(encoding="utf-8")
    taxonomy.write_text(
        text.replace(
            "wrap: internal_error\n", "wrap: internal_error\npython_layout: lazy\n"
        ),
        encoding="utf-8",
    )
    return Path("generated/python/src/harmovela_errors/_domain_tool.py")


def _drop_tool_domain(taxonomy: Path) -> None:
    text = taxonomy.read_text(encoding="utf-8")
    start = text.index("  tool:\n")
    taxonomy.write_text(
        text[:start] + text[text.index("\nevents:") + 1 :], encoding="utf-8"
    )


def test_check_names_files_that_generate_would_remove(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    module = _lazy_without_tool_domain(project / "taxonomy.yaml")
    assert main(["generate", "-q"]) == 0
    assert (project / module).is_file()
    _drop_tool_domain(project / "taxonomy.yaml")
    capsys.readouterr()
    assert main(["check"]) == 1
    out = capsys.readouterr().out
    assert f"extra: {module}" in out
    assert main(["generate", "-q"]) == 0
    assert not (project / module).exists()
    assert main(["check"]) == 0


def test_a_renamed_taxonomy_does_not_take_over_the_folder(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["generate", "-q"]) == 0
    before = _snapshot(project / "generated")
    text = (project / "taxonomy.yaml").read_text(encoding="utf-8")
    (project / "taxonomy.yaml").write_text(
        text.replace("name: harmovela", "name: harmo"), encoding="utf-8"
    )
    capsys.readouterr()
    for command in (["generate"], ["generate", "--force"], ["check"]):
        assert main(command) == 2, command
        err = capsys.readouterr().err
        assert "'harmovela'" in err and "'harmo'" in err and "--out" in err
        assert _snapshot(project / "generated") == before


def test_hand_edits_are_refused_naming_the_file_unless_forced(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["generate", "-q"]) == 0
    docs = project / "generated/docs/errors.md"
    docs.write_text(
        docs.read_text(encoding="utf-8") + "\nmy precious notes\n", encoding="utf-8"
    )
    _add_code(project / "taxonomy.yaml")
    before = _snapshot(project / "generated")
    capsys.readouterr()

    assert main(["generate"]) == 1
    err = capsys.readouterr().err
    assert "generated/docs/errors.md: error: was edited by hand" in err
    assert "--force" in err
    assert _snapshot(project / "generated") == before  # nothing at all was written

    assert main(["generate", "--force", "-q"]) == 0
    assert "my precious notes" not in docs.read_text(encoding="utf-8")
    assert main(["check"]) == 0


def test_foreign_files_survive_and_are_never_overwritten(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    generated = project / "generated"
    (generated / "docs").mkdir(parents=True)
    (generated / "docs/errors.md").write_text("written by a person\n", encoding="utf-8")
    (generated / "README.md").write_text("ours, not taxogen's\n", encoding="utf-8")
    assert main(["generate"]) == 1
    assert (
        "generated/docs/errors.md: error: exists and was not generated by taxogen"
        in capsys.readouterr().err
    )
    assert (generated / "docs/errors.md").read_text(
        encoding="utf-8"
    ) == "written by a person\n"

    (generated / "docs/errors.md").unlink()
    assert main(["generate", "-q"]) == 0
    assert (generated / "README.md").read_text(
        encoding="utf-8"
    ) == "ours, not taxogen's\n"
    assert main(["check"]) == 0  # a foreign file is not taxogen's business


def test_a_removed_output_that_was_hand_edited_is_kept(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    module = project / _lazy_without_tool_domain(project / "taxonomy.yaml")
    assert main(["generate", "-q"]) == 0
    module.write_text(module.read_text(encoding="utf-8") + "# mine\n", encoding="utf-8")
    _drop_tool_domain(project / "taxonomy.yaml")
    assert main(["generate"]) == 1
    assert (
        "_domain_tool.py: error: is no longer generated but was edited by hand"
        in capsys.readouterr().err
    )
    assert module.read_text(encoding="utf-8").endswith("# mine\n")
    assert (
        main(["generate", "--force", "-q"]) == 0
    )  # a hand-edited file taxogen wrote: --force may remove it
    assert not module.exists()


def test_bad_taxonomy_exits_2_and_writes_nothing(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["generate", "-q"]) == 0
    before = _snapshot(project / "generated")
    text = (project / "taxonomy.yaml").read_text(encoding="utf-8")
    (project / "taxonomy.yaml").write_text(
        text.replace(
            "      task_timeout:\n        retryable: true",
            "      task_timeout:\n        retryable: yes",
        ),
        encoding="utf-8",
    )
    assert main(["generate"]) == 2
    err = capsys.readouterr().err
    assert "taxonomy.yaml:" in err
    assert (
        "domains.task.codes.task_timeout.retryable: expected true or false, got 'yes'"
        in err
    )
    assert _snapshot(project / "generated") == before
    assert main(["check"]) == 2


def test_options_override_pyproject_defaults(project: Path, tmp_path: Path) -> None:
    other = tmp_path / "elsewhere"
    assert (
        main(
            [
                "generate",
                "-q",
                "--taxonomy",
                str(REPO / "tests/cases/minimal/taxonomy.yaml"),
                "--out",
                str(other),
            ]
        )
        == 0
    )
    assert (other / "python/src/tiny_errors/__init__.py").is_file()
    assert not (project / "generated").exists()
    assert (
        main(
            [
                "check",
                "--taxonomy",
                str(REPO / "tests/cases/minimal/taxonomy.yaml"),
                "--out",
                str(other),
            ]
        )
        == 0
    )


def test_defaults_come_from_the_nearest_pyproject(project: Path) -> None:
    (project / "pyproject.toml").write_text(
        '[tool.taxogen]\ntaxonomy = "spec/errors.yaml"\nout = "out"\n', encoding="utf-8"
    )
    (project / "spec").mkdir()
    shutil.move(project / "taxonomy.yaml", project / "spec/errors.yaml")
    sub = project / "deeper"
    sub.mkdir()
    os.chdir(sub)
    assert main(["generate", "-q"]) == 0
    assert (project / "out/docs/errors.md").is_file()
    assert "Generated by taxogen from errors.yaml" in (
        project / "out/docs/errors.md"
    ).read_text(encoding="utf-8")


def test_python_dash_m_taxogen_is_the_same_program(tmp_path: Path) -> None:
    out = tmp_path / "out"
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST")}
    done = subprocess.run(
        [sys.executable, "-m", "taxogen", "generate", "--out", str(out)],
        cwd=REPO,
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert emit.compare(out, build_plan(REPO / "taxonomy.yaml")).clean
    assert _snapshot(out) == {
        p: d for p, d in _snapshot(REPO / "generated").items() if p in _snapshot(out)
    }
    checked = subprocess.run(
        [sys.executable, "-m", "taxogen", "check", "--out", str(out)],
        cwd=REPO,
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr


def test_the_command_exits_at_once_with_its_status_and_all_its_output(
    tmp_path: Path,
) -> None:
    """``run`` skips the interpreter's teardown (os._exit) but loses nothing it
    printed.
    """
    # Buffered output, as for most users: what run() does not flush would be lost.
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith("PYTEST") and k != "PYTHONUNBUFFERED"
    }
    # Many lines to stdout through a pipe (block-buffered), then exit 1: all must
    # arrive.
    bad = tmp_path / "taxonomy.yaml"
    old = tmp_path / "old.yaml"
    shutil.copy(REPO / "taxonomy.yaml", old)
    text = (REPO / "taxonomy.yaml").read_text(encoding="utf-8")
    bad.write_text(
        text.replace("retryable: true", "retryable: false"), encoding="utf-8"
    )
    expected = main(["diff", str(old), str(bad), "--format", "json"])
    diffed = subprocess.run(
        [
            sys.executable,
            "-m",
            "taxogen",
            "diff",
            str(old),
            str(bad),
            "--format",
            "json",
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    assert diffed.returncode == expected == 1, diffed.stderr
    changes = json.loads(diffed.stdout)
    assert len(changes["changes"]) == text.count("retryable: true") > 1
    # Errors on stderr, exit 2.
    bad.write_text("format: 1\n", encoding="utf-8")
    refused = subprocess.run(
        [
            sys.executable,
            "-m",
            "taxogen",
            "generate",
            "--taxonomy",
            str(bad),
            "--out",
            str(tmp_path / "out"),
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    assert refused.returncode == 2
    assert (
        refused.stderr.endswith("nothing was written\n")
        and refused.stderr.count("error:") == 7
    )


def test_a_reader_that_stops_early_is_no_internal_error(tmp_path: Path) -> None:
    """`taxogen diff ... | head -0`: the closed pipe ends the run quietly with 141."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST")}
    old, new = tmp_path / "old.yaml", tmp_path / "new.yaml"
    shutil.copy(REPO / "taxonomy.yaml", old)
    text = (REPO / "taxonomy.yaml").read_text(encoding="utf-8")
    new.write_text(
        text.replace("retryable: true", "retryable: false"), encoding="utf-8"
    )
    read, write = os.pipe()
    os.close(read)  # the reader is gone before taxogen prints anything
    try:
        done = subprocess.run(
            [sys.executable, "-m", "taxogen", "diff", str(old), str(new)],
            cwd=tmp_path,
            stdout=write,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
            check=False,
        )
    finally:
        os.close(write)
    assert (done.returncode, done.stderr) == (141, "")


def test_version_is_the_distribution_s_and_the_manifest_records_it(
    tmp_path: Path,
) -> None:
    """``taxogen --version`` says the version pyproject.toml distributes, and a
    generated folder's manifest names the same writer (issue 33 §1)."""
    import tomllib

    version = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))[
        "project"
    ]["version"]
    done = subprocess.run(
        [sys.executable, "-m", "taxogen", "--version"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert (done.returncode, done.stdout, done.stderr) == (
        0,
        f"taxogen {version}\n",
        "",
    )
    manifest = json.loads((REPO / "generated" / emit.MANIFEST).read_text())
    assert manifest["generator"] == f"taxogen {version}"


def test_check_quiet_and_the_command_it_names(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 30 §11: ``check -q`` is accepted (silent when up to date, from the
    memo or not), and the stale message names ``taxogen generate``, never a
    make target of taxogen's own repository."""
    assert main(["generate", "-q"]) == 0
    capsys.readouterr()
    for use_memo in (False, True, True):  # rendered; recorded, then answered
        assert main(["check", "-q"], use_memo=use_memo) == 0
        assert capsys.readouterr().out == ""
    assert main(["check", "--quiet"], use_memo=False) == 0
    assert main(["check"], use_memo=False) == 0
    assert "up to date" in capsys.readouterr().out
    _add_code(project / "taxonomy.yaml")
    assert main(["check", "-q"]) == 1
    out, err = capsys.readouterr()
    assert "stale: generated/typescript/src/index.ts" in out  # what differs, still
    assert "run `taxogen generate`" in err and "make" not in err


# What the child prints when taxogen.cli starts to be imported: whether the
# cycle collector is on then (taxogen/__main__.py pauses it first).
_WATCH_COLLECTOR = """
import gc, sys
class Watch:
    def find_spec(self, name, path=None, target=None):
        if name == "taxogen.cli":
            print("collector", "on" if gc.isenabled() else "off", flush=True)
        return None
sys.meta_path.insert(0, Watch())
sys.argv = ["taxogen", "--version"]
"""


@pytest.mark.parametrize(
    "start",
    [
        "from taxogen.__main__ import entry\nentry()",  # the console script
        "import runpy\nrunpy.run_module('taxogen', run_name='__main__')",  # -m
    ],
    ids=["console-script", "python-m"],
)
def test_the_cycle_collector_is_paused_before_the_command_is_imported(
    start: str,
) -> None:
    done = subprocess.run(
        [sys.executable, "-c", _WATCH_COLLECTOR + start],
        capture_output=True,
        text=True,
        check=True,
    )
    assert done.stdout.splitlines() == ["collector off", f"taxogen {__version__}"]


def test_the_console_script_is_the_entry_that_pauses_the_collector() -> None:
    import tomllib

    scripts = tomllib.loads((REPO / "pyproject.toml").read_text("utf-8"))["project"][
        "scripts"
    ]
    assert scripts["taxogen"] == "taxogen.__main__:entry"
