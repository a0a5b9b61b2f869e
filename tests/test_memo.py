"""The no-op ``check`` answered from the memo: fast when it can be, never wrong.

``check``'s contract (README) is that it exits 0 only when the output folder is
exactly what ``generate`` would write, and issue 29 asks that the shortcut
answering a no-op ``check`` give a full render's answer for every input a
render reads.  So: an up-to-date folder is checked without rendering, and every
drift is caught, of the outputs or of any input (the table below changes each
input one at a time with the shortcut on, and shows that leaving that input out
of the digest would make ``check`` lie).  The taxonomy is read once per run,
whatever kind of file it is; a race that edits it during a run cannot pair one
version's digest with another's outputs.
"""

from __future__ import annotations

import builtins
import dataclasses
import io
import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import taxogen
import taxogen.pipeline
from taxogen import memo
from taxogen.cli import main
from tests.support import CASES_DIR, REPO

MANIFEST = ".taxogen-manifest.json"
# The shipped taxonomy's outputs, manifest included: the committed files of
# generated/, counted on disk rather than through taxogen's own plan.
SHIPPED_FILES = sum(
    1
    for path in (REPO / "generated").rglob("*")
    if path.is_file() and "__pycache__" not in path.parts
)
MINIMAL = CASES_DIR / "minimal" / "taxonomy.yaml"


@pytest.fixture(autouse=True)
def own_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Each test starts with an empty cache of its own."""
    folder = tmp_path / "cache"
    monkeypatch.setenv("TAXOGEN_CACHE_DIR", str(folder))
    return folder


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A scratch project of the shipped taxonomy, generated once."""
    work = tmp_path / "project"
    work.mkdir()
    shutil.copy(REPO / "taxonomy.yaml", work / "taxonomy.yaml")
    (work / "pyproject.toml").write_text(
        '[tool.taxogen]\ntaxonomy = "taxonomy.yaml"\nout = "generated"\n',
        encoding="utf-8",
    )
    monkeypatch.chdir(work)
    assert main(["generate", "-q"]) == 0
    return work


@pytest.fixture
def rendered(monkeypatch: pytest.MonkeyPatch) -> list[Path]:
    """The taxonomies ``check`` rendered (it renders through ``pipeline.build``)."""
    calls: list[Path] = []
    real = taxogen.pipeline.build

    def counting(path: Path, *args: Any) -> object:
        calls.append(path)
        return real(path, *args)

    monkeypatch.setattr(taxogen.pipeline, "build", counting)
    return calls


def test_an_up_to_date_folder_is_checked_without_rendering(
    project: Path, rendered: list[Path], capsys: pytest.CaptureFixture[str]
) -> None:
    capsys.readouterr()
    assert main(["check"]) == 0
    assert capsys.readouterr().out == f"generated: up to date ({SHIPPED_FILES} files)\n"
    assert rendered == []


def test_no_memo_is_kept_with_the_cache_turned_off(
    tmp_path: Path,
    own_cache: Path,
    monkeypatch: pytest.MonkeyPatch,
    rendered: list[Path],
) -> None:
    monkeypatch.setenv("TAXOGEN_NO_CACHE", "1")
    shutil.copy(REPO / "taxonomy.yaml", tmp_path / "taxonomy.yaml")
    monkeypatch.chdir(tmp_path)
    assert main(["generate", "-q"]) == 0
    assert main(["check"]) == 0
    assert len(rendered) == 2  # both rendered: there is no memo to answer from
    assert not own_cache.exists()


def test_an_edited_output_is_stale(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    docs = project / "generated" / "docs" / "errors.md"
    docs.write_text(docs.read_text(encoding="utf-8") + "edited\n", encoding="utf-8")
    capsys.readouterr()
    assert main(["check"]) == 1
    assert (
        f"stale: {Path('generated') / 'docs' / 'errors.md'}" in capsys.readouterr().out
    )


def test_an_output_with_the_same_size_but_other_bytes_is_stale(project: Path) -> None:
    vectors = project / "generated" / "conformance" / "vectors.json"
    data = bytearray(vectors.read_bytes())
    data[-2] = ord(" ") if data[-2] != ord(" ") else ord("\t")
    vectors.write_bytes(bytes(data))
    assert main(["check"]) == 1


def test_a_removed_output_is_missing(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (project / "generated" / "typescript" / "tsconfig.json").unlink()
    capsys.readouterr()
    assert main(["check"]) == 1
    out = capsys.readouterr().out
    assert f"missing: {Path('generated') / 'typescript' / 'tsconfig.json'}" in out


def test_an_edited_manifest_is_not_up_to_date(project: Path) -> None:
    manifest = project / "generated" / MANIFEST
    manifest.write_bytes(manifest.read_bytes().replace(b'"files"', b'"files" '))
    assert main(["check"]) == 1


def test_a_manifest_naming_a_file_no_longer_generated_is_reported(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # A file generate would remove (an old domain module) listed in the manifest.
    gone = "python/src/harmovela_errors/_domain_old.py"
    (project / "generated" / gone).write_text("# old\n", encoding="utf-8")
    manifest = project / "generated" / MANIFEST
    text = manifest.read_text(encoding="utf-8")
    sha = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
    text = text.replace('"files": {\n', f'"files": {{\n    "{gone}": "{sha}",\n')
    manifest.write_text(text, encoding="utf-8")
    capsys.readouterr()
    assert main(["check"]) == 1
    assert f"extra: {Path('generated') / gone}" in capsys.readouterr().out


def test_another_folder_named_in_pyproject_is_the_one_checked(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (project / "pyproject.toml").write_text(
        '[tool.taxogen]\ntaxonomy = "taxonomy.yaml"\nout = "elsewhere"\n',
        encoding="utf-8",
    )
    capsys.readouterr()
    assert main(["check"]) == 1
    assert "missing: elsewhere" in capsys.readouterr().out


def test_a_folder_written_by_another_version_says_so_first(
    project: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(taxogen, "__version__", "99.0.0")
    capsys.readouterr()
    assert main(["check"]) == 1
    first = capsys.readouterr().out.splitlines()[0]
    assert first == (
        "generated was written by taxogen 0.1.0; this is taxogen 99.0.0, "
        "which writes it otherwise"
    )


# ------------------------------------------------------- every input, one by one
PLUGIN = """\
import json, pathlib, sys
sys.stdin.read()
text = pathlib.Path(__file__).with_name("plugin-output.txt").read_text()
print(json.dumps({"files": [{"path": "out.txt", "content": text}]}))
"""


@dataclasses.dataclass(frozen=True)
class Row:
    """One input of a plan: how a project uses it, how it changes, and the
    part of the digest (memo.inputs) that must see it (None: none can, and
    the shortcut must step aside)."""

    name: str
    part: str | None
    change: Callable[[Path, pytest.MonkeyPatch], None]
    settings: str = ""
    argv: tuple[str, ...] = ()
    #: The ``check`` arguments after the change (default: ``argv``).
    after: tuple[str, ...] | None = None


def _edit(path: str, old: str, new: str) -> Callable[[Path, pytest.MonkeyPatch], None]:
    def change(work: Path, monkeypatch: pytest.MonkeyPatch) -> None:
        target = work / path
        text = target.read_text(encoding="utf-8")
        assert old in text, f"{old!r} not in {path}"
        target.write_text(text.replace(old, new), encoding="utf-8")

    return change


def _copy_taxonomy(work: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    shutil.copy(work / "taxonomy.yaml", work / "spec.yaml")


def _new_version(work: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(taxogen, "__version__", "0.1.0+next")


_TEMPLATES = '\ntemplates = "tpl"\n'
_GO = '\ntargets = ["go", "docs"]\ngo_module = "example.com/acme/errors"\n'
_GO_TABLE = (
    '\ntargets = ["go", "docs"]\n\n'
    '[tool.taxogen.go]\nmodule = "example.com/acme/errors"\n'
)
ROWS = [
    Row(
        "taxonomy bytes",
        "taxonomy",
        _edit("taxonomy.yaml", "Something went wrong", "Something went amiss"),
    ),
    Row(
        "taxonomy path",
        "taxonomy path",
        _copy_taxonomy,
        after=("--taxonomy", "spec.yaml"),
    ),
    Row(
        "targets in the settings",
        "targets",
        _edit(
            "pyproject.toml", "[tool.taxogen]\n", '[tool.taxogen]\ntargets = ["docs"]\n'
        ),
    ),
    Row(
        "targets on the command line",
        "targets",
        lambda w, m: None,
        after=("--target", "docs"),
    ),
    Row(
        "a target's option",
        "options",
        _edit("pyproject.toml", "acme/errors", "acme/other"),
        settings=_GO,
    ),
    Row(
        "a target's option in its table",
        "options",
        _edit("pyproject.toml", "acme/errors", "acme/other"),
        settings=_GO_TABLE,
    ),
    Row(
        "a user template reached through a link",
        "templates",
        _edit("real-docs/catalogue.md.j2", "Catalogue", "Index"),
        settings=_TEMPLATES,
    ),
    Row(
        "a part in a folder named __pycache__",
        "templates",
        _edit("real-docs/__pycache__/_part.j2", "part", "piece"),
        settings=_TEMPLATES,
    ),
    Row("taxogen's version", "taxogen", _new_version),
    Row(
        "a plugin",
        None,
        _edit("plugin-output.txt", "first", "second"),
        settings=(
            "\n[tool.taxogen.plugins]\n"
            'mine = {command = [%r, %r], out = "plugged"}\n'
        ),
    ),
]


def _project(root: Path, row: Row) -> Path:
    work = root / "project"
    work.mkdir()
    shutil.copy(MINIMAL, work / "taxonomy.yaml")
    settings = row.settings
    if "plugins" in settings:
        (work / "plugin.py").write_text(PLUGIN, encoding="utf-8")
        (work / "plugin-output.txt").write_text("first\n", encoding="utf-8")
        settings = settings % (sys.executable, str(work / "plugin.py"))
    (work / "pyproject.toml").write_text(
        f'[tool.taxogen]\nout = "generated"\n{settings}', encoding="utf-8"
    )
    # A template folder whose docs/ is a link to a folder elsewhere, holding an
    # extra output that includes a part kept in a folder named __pycache__.
    real = work / "real-docs"
    (real / "__pycache__").mkdir(parents=True)
    (real / "catalogue.md.j2").write_text(
        "# Catalogue of {{ title }}\n{% include 'docs/__pycache__/_part.j2' %}\n",
        encoding="utf-8",
    )
    (real / "__pycache__" / "_part.j2").write_text("a part\n", encoding="utf-8")
    (work / "tpl").mkdir()
    (work / "tpl" / "docs").symlink_to(real, target_is_directory=True)
    return work


def _without(monkeypatch: pytest.MonkeyPatch, part: str) -> None:
    real = memo.inputs

    def leaving_out(**kwargs: Any) -> dict[str, bytes]:
        found = real(**kwargs)
        assert part in found, f"memo.inputs has no part {part!r}"
        del found[part]
        return found

    monkeypatch.setattr(memo, "inputs", leaving_out)


# Each row with the digest as it is, and each row that has a part without it.
_RUNS = [(row, False) for row in ROWS] + [
    (row, True) for row in ROWS if row.part is not None
]


@pytest.mark.parametrize(
    ("row", "left_out"),
    _RUNS,
    ids=[f"{row.name}{' left out' if left else ''}" for row, left in _RUNS],
)
def test_each_input_changed_alone_makes_check_fail(
    row: Row,
    left_out: bool,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """With the shortcut on, a change to any one input is stale (exit 1); with
    that input left out of the digest, the shortcut answers "up to date" (exit
    0), which shows the row tests what it names."""
    work = _project(tmp_path, row)
    monkeypatch.chdir(work)
    if left_out:
        _without(monkeypatch, row.part or "")
    argv = ["check", *row.argv]
    assert main(["generate", "-q", *row.argv]) == 0
    assert main(argv) == 0
    row.change(work, monkeypatch)
    after = ["check", *(row.after if row.after is not None else row.argv)]
    assert main(after) == (0 if left_out else 1)
    # And the render agrees with the shortcut's refusal: the full check says 1.
    assert main(after, use_memo=False) == 1


@pytest.mark.parametrize(
    ("row", "left_out"),
    _RUNS,
    ids=[f"{row.name}{' left out' if left else ''}" for row, left in _RUNS],
)
def test_each_input_changed_alone_makes_generate_write(
    row: Row,
    left_out: bool,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A no-op ``generate`` is answered from the memo too (issue 34): with the
    shortcut on, a change to any one input is generated (the full check then
    passes); with that input left out of the digest, generate answers "nothing
    to do" and leaves the folder stale, which the full check then finds."""
    work = _project(tmp_path, row)
    monkeypatch.chdir(work)
    if left_out:
        _without(monkeypatch, row.part or "")
    assert main(["generate", "-q", *row.argv]) == 0
    assert main(["generate", "-q", *row.argv]) == 0  # the no-op, from the memo
    row.change(work, monkeypatch)
    after = row.after if row.after is not None else row.argv
    assert main(["generate", "-q", *after]) == 0
    assert main(["check", "-q", *after], use_memo=False) == (1 if left_out else 0)


def test_a_no_op_generate_says_what_a_render_says_without_rendering(
    project: Path, rendered: list[Path], capsys: pytest.CaptureFixture[str]
) -> None:
    capsys.readouterr()
    assert main(["generate"]) == 0
    answered = capsys.readouterr()
    assert rendered == []  # answered from the memo
    assert main(["generate"], use_memo=False) == 0
    assert rendered == [Path("taxonomy.yaml")]
    assert answered == capsys.readouterr()
    assert answered.out == f"0 written, {SHIPPED_FILES - 1} unchanged, 0 removed\n"


def test_a_no_op_generate_still_refuses_a_hand_edit(
    project: Path, rendered: list[Path], capsys: pytest.CaptureFixture[str]
) -> None:
    docs = project / "generated" / "docs" / "errors.md"
    docs.write_text(docs.read_text(encoding="utf-8") + "edited\n", encoding="utf-8")
    capsys.readouterr()
    assert main(["generate"]) == 1  # rendered, compared, and refused
    assert rendered == [Path("taxonomy.yaml")]
    assert "was edited by hand" in capsys.readouterr().err


# ------------------------------------------------------- the taxonomy read once
def test_a_taxonomy_edited_during_a_run_cannot_leave_a_false_memo(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A → B → A on successive opens of the taxonomy during one ``generate`` (an
    editor saving twice while it runs): whatever the run wrote, a later
    ``check`` with the shortcut says what a full render says.  The opens are
    driven one by one, not raced: each open of the file is served the next
    version."""
    a = MINIMAL.read_bytes()
    b = a.replace(b"Something went wrong", b"Something else went wrong")
    monkeypatch.chdir(tmp_path)
    taxonomy = tmp_path / "taxonomy.yaml"
    taxonomy.write_bytes(a)
    versions = [a, b, a, a, a]
    real_open = builtins.open

    def serving(file: Any, mode: str = "r", *args: Any, **kwargs: Any) -> Any:
        if Path(file).resolve() == taxonomy and "r" in mode and versions:
            data = versions.pop(0)
            return io.BytesIO(data) if "b" in mode else io.StringIO(data.decode())
        return real_open(file, mode, *args, **kwargs)

    with monkeypatch.context() as patched:
        patched.setattr(builtins, "open", serving)
        assert main(["generate", "-q"]) == 0
    opened = 5 - len(versions)
    assert opened >= 1
    assert taxonomy.read_bytes() == a
    assert main(["check"]) == main(["check"], use_memo=False)
    assert opened == 1  # read once: the digest's bytes are the bytes parsed


@pytest.mark.parametrize(
    "command",
    [
        ["generate", "-q", "--taxonomy", "/dev/stdin"],
        ["check", "--taxonomy", "/dev/stdin"],
        ["lint", "--taxonomy", "/dev/stdin"],
        ["model", "--taxonomy", "/dev/stdin"],
        ["diff", "/dev/stdin", "taxonomy.yaml"],
    ],
    ids=lambda argv: argv[0],
)
def test_a_taxonomy_on_a_pipe_works_in_every_command(
    command: list[str], tmp_path: Path, own_cache: Path
) -> None:
    shutil.copy(MINIMAL, tmp_path / "taxonomy.yaml")
    env = {**os.environ, "TAXOGEN_CACHE_DIR": str(own_cache)}

    def taxogen(argv: list[str]) -> subprocess.CompletedProcess[bytes]:
        return subprocess.run(
            [sys.executable, "-m", "taxogen", *argv],
            cwd=tmp_path,
            env=env,
            input=MINIMAL.read_bytes(),
            capture_output=True,
            check=False,
            timeout=120,
        )

    if command[0] == "check":  # something to check: the same path, generated
        assert taxogen(["generate", "-q", "--taxonomy", "/dev/stdin"]).returncode == 0
    done = taxogen(command)
    assert done.returncode == 0, done.stderr.decode()
    assert b"file is empty" not in done.stderr
    if command[0] == "model":
        assert b'"tiny"' in done.stdout
    if command[0] == "check":  # and a second time, answered from the memo
        again = taxogen(command)
        assert (again.returncode, again.stdout) == (0, done.stdout)


@pytest.mark.parametrize("command", ["generate", "check", "lint", "model", "diff"])
@pytest.mark.parametrize("where", ["default", "pyproject"])
def test_a_taxonomy_the_user_did_not_name_is_never_waited_on(
    command: str, where: str, tmp_path: Path, own_cache: Path
) -> None:
    """A cloned repository's taxonomy (the default taxonomy.yaml, or the one its
    pyproject.toml names) that is a link to a FIFO is refused at once, exit 2,
    where a run waited for a writer forever; a named pipe is for --taxonomy."""
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    name = "taxonomy.yaml" if where == "default" else "spec.yaml"
    (tmp_path / name).symlink_to(fifo)
    if where == "pyproject":
        (tmp_path / "pyproject.toml").write_text(
            '[tool.taxogen]\ntaxonomy = "spec.yaml"\n', encoding="utf-8"
        )
    shutil.copy(MINIMAL, tmp_path / "old.yaml")
    argv = {"diff": ["diff", "old.yaml"], "generate": ["generate", "-q"]}
    done = subprocess.run(
        [sys.executable, "-m", "taxogen", *argv.get(command, [command])],
        cwd=tmp_path,
        env={**os.environ, "TAXOGEN_CACHE_DIR": str(own_cache)},
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )
    assert done.returncode == 2, done.stderr
    assert done.stderr.startswith(
        f"{name}: error: not a regular file; a taxonomy named by pyproject.toml"
    ), done.stderr
    assert not (tmp_path / "generated").exists()


def test_the_taxogen_process_keeps_the_memo_and_still_catches_drift(
    tmp_path: Path, own_cache: Path
) -> None:
    # As a pre-commit hook runs it: a fresh `python -m taxogen` per command.
    env = {**os.environ, "TAXOGEN_CACHE_DIR": str(own_cache)}
    shutil.copy(REPO / "taxonomy.yaml", tmp_path / "taxonomy.yaml")

    def taxogen(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "taxogen", *args],
            cwd=tmp_path,
            env=env,
            capture_output=True,
            text=True,
            check=False,
        )

    assert taxogen("generate", "-q").returncode == 0
    assert len(list((own_cache / "memo").iterdir())) == 1
    done = taxogen("check")
    assert (done.returncode, done.stdout) == (
        0,
        f"generated: up to date ({SHIPPED_FILES} files)\n",
    )
    index = tmp_path / "generated" / "typescript" / "src" / "index.ts"
    index.write_bytes(index.read_bytes().replace(b"export", b"export ", 1))
    done = taxogen("check")
    assert done.returncode == 1 and "stale:" in done.stdout


def test_the_memo_reads_what_emit_writes() -> None:
    # memo keeps its own copies so that a no-op check does not import emit.
    from taxogen import emit

    assert memo._MANIFEST == emit.MANIFEST
    assert memo._MANIFEST_LIMIT == emit.MANIFEST_LIMIT


def test_a_change_to_taxogen_itself_changes_the_digest(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Templates, runtime files, a link inside them: every file counts, by content.
    code = tmp_path / "code"
    shutil.copytree(REPO / "templates", code / "templates")
    monkeypatch.setattr(memo, "ROOTS", (code,))

    def digest() -> str:
        return memo.key(
            memo.inputs(
                taxonomy=b"", shown="t", targets=None, options={}, templates=None
            )
        )

    before = digest()
    assert digest() == before
    template = code / "templates" / "docs" / "errors.md.j2"
    template.write_bytes(template.read_bytes() + b" ")
    edited = digest()
    assert edited != before
    (code / "templates" / "docs" / "new.j2").write_text("", encoding="utf-8")
    assert digest() not in (before, edited)
