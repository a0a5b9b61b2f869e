"""The no-op ``check`` answered from the memo: as fast as it can be, never wrong.

The issue asks that a no-op ``taxogen check`` cost little more than the
interpreter's start-up, and ``check``'s own contract (README) is that it exits
1 unless the output folder is exactly what ``generate`` would write.  So once a
memo is there, ``check`` must not render for an up-to-date folder, and must
still catch every drift: an output edited, removed or added to the manifest, the
taxonomy edited, taxogen's own code or templates changed, another folder named
in pyproject.toml.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import generator.pipeline
from generator import memo
from generator.cli import main
from tests.support import REPO

MANIFEST = ".taxogen-manifest.json"
# The shipped taxonomy's outputs, manifest included: the committed files of
# generated/, counted on disk rather than through taxogen's own plan.
SHIPPED_FILES = sum(
    1
    for path in (REPO / "generated").rglob("*")
    if path.is_file() and "__pycache__" not in path.parts
)


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A scratch project, generated once, with the memo kept under ``tmp_path``."""
    monkeypatch.setattr(sys, "pycache_prefix", str(tmp_path / "pycache"))
    monkeypatch.setattr(sys, "dont_write_bytecode", False)
    work = tmp_path / "project"
    work.mkdir()
    shutil.copy(REPO / "taxonomy.yaml", work / "taxonomy.yaml")
    (work / "pyproject.toml").write_text(
        '[tool.taxogen]\ntaxonomy = "taxonomy.yaml"\nout = "generated"\n',
        encoding="utf-8",
    )
    monkeypatch.chdir(work)
    assert main(["generate", "-q"], use_memo=True) == 0
    return work


@pytest.fixture
def rendered(monkeypatch: pytest.MonkeyPatch) -> list[Path]:
    """The taxonomies ``check`` rendered (it renders through ``pipeline.build``)."""
    calls: list[Path] = []
    real = generator.pipeline.build

    def counting(path: Path, *args: Any) -> object:
        calls.append(path)
        return real(path, *args)

    monkeypatch.setattr(generator.pipeline, "build", counting)
    return calls


def test_an_up_to_date_folder_is_checked_without_rendering(
    project: Path, rendered: list[Path], capsys: pytest.CaptureFixture[str]
) -> None:
    capsys.readouterr()
    assert main(["check"], use_memo=True) == 0
    assert capsys.readouterr().out == f"generated: up to date ({SHIPPED_FILES} files)\n"
    assert rendered == []


def test_no_memo_is_written_where_python_writes_no_bytecode(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, rendered: list[Path]
) -> None:
    monkeypatch.setattr(sys, "pycache_prefix", str(tmp_path / "pycache"))
    monkeypatch.setattr(sys, "dont_write_bytecode", True)
    shutil.copy(REPO / "taxonomy.yaml", tmp_path / "taxonomy.yaml")
    monkeypatch.chdir(tmp_path)
    assert main(["generate", "-q"], use_memo=True) == 0
    assert main(["check"], use_memo=True) == 0
    assert len(rendered) == 2  # both rendered: there is no memo to answer from
    assert not (tmp_path / "pycache").exists()


def test_an_edited_output_is_stale(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    docs = project / "generated" / "docs" / "errors.md"
    docs.write_text(docs.read_text(encoding="utf-8") + "edited\n", encoding="utf-8")
    capsys.readouterr()
    assert main(["check"], use_memo=True) == 1
    assert (
        f"stale: {Path('generated') / 'docs' / 'errors.md'}" in capsys.readouterr().out
    )


def test_an_output_with_the_same_size_but_other_bytes_is_stale(project: Path) -> None:
    vectors = project / "generated" / "conformance" / "vectors.json"
    data = bytearray(vectors.read_bytes())
    data[-2] = ord(" ") if data[-2] != ord(" ") else ord("\t")
    vectors.write_bytes(bytes(data))
    assert main(["check"], use_memo=True) == 1


def test_a_removed_output_is_missing(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (project / "generated" / "typescript" / "tsconfig.json").unlink()
    capsys.readouterr()
    assert main(["check"], use_memo=True) == 1
    out = capsys.readouterr().out
    assert f"missing: {Path('generated') / 'typescript' / 'tsconfig.json'}" in out


def test_an_edited_manifest_is_not_up_to_date(project: Path) -> None:
    manifest = project / "generated" / MANIFEST
    manifest.write_bytes(manifest.read_bytes().replace(b'"files"', b'"files" '))
    assert main(["check"], use_memo=True) == 1


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
    assert main(["check"], use_memo=True) == 1
    assert f"extra: {Path('generated') / gone}" in capsys.readouterr().out


def test_an_edited_taxonomy_is_rendered_and_found_out_of_date(
    project: Path, rendered: list[Path]
) -> None:
    taxonomy = project / "taxonomy.yaml"
    text = taxonomy.read_text(encoding="utf-8")
    assert "meaning: Task was cancelled}" in text
    taxonomy.write_text(
        text.replace("meaning: Task was cancelled}", "meaning: Task was called off}"),
        encoding="utf-8",
    )
    assert main(["check"], use_memo=True) == 1
    assert len(rendered) == 1


def test_another_folder_named_in_pyproject_is_the_one_checked(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (project / "pyproject.toml").write_text(
        '[tool.taxogen]\ntaxonomy = "taxonomy.yaml"\nout = "elsewhere"\n',
        encoding="utf-8",
    )
    capsys.readouterr()
    assert main(["check"], use_memo=True) == 1
    assert "missing: elsewhere" in capsys.readouterr().out


def test_the_same_taxonomy_under_another_name_is_rendered(
    project: Path, rendered: list[Path]
) -> None:
    # The headers quote the taxonomy's path, so another path is another plan.
    shutil.copy(project / "taxonomy.yaml", project / "spec.yaml")
    assert main(["check", "--taxonomy", "spec.yaml"], use_memo=True) == 1
    assert rendered == [Path("spec.yaml")]


def test_a_change_to_taxogen_itself_changes_the_digest(tmp_path: Path) -> None:
    # Templates, runtime files, the version in __init__.py: every file counts.
    code = tmp_path / "code"
    shutil.copytree(REPO / "templates", code / "templates")
    taxonomy = REPO / "taxonomy.yaml"
    before = memo.digest(taxonomy, roots=(code,))
    assert before and memo.digest(taxonomy, roots=(code,)) == before
    template = code / "templates" / "docs" / "errors.md.j2"
    template.write_bytes(template.read_bytes() + b" ")
    edited = memo.digest(taxonomy, roots=(code,))
    assert edited != before
    (code / "templates" / "docs" / "new.j2").write_text("", encoding="utf-8")
    assert memo.digest(taxonomy, roots=(code,)) not in (before, edited)
    assert memo.digest(tmp_path / "absent.yaml", roots=(code,)) == ""


def test_main_in_process_renders_unless_asked_to_use_the_memo(
    project: Path, rendered: list[Path]
) -> None:
    assert main(["check"]) == 0
    assert rendered == [Path("taxonomy.yaml")]


def test_the_taxogen_process_keeps_the_memo_and_still_catches_drift(
    tmp_path: Path,
) -> None:
    # As a pre-commit hook runs it: a fresh `python -m generator` per command.
    prefix = tmp_path / "pycache"
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPYCACHEPREFIX"] = str(prefix)
    shutil.copy(REPO / "taxonomy.yaml", tmp_path / "taxonomy.yaml")

    def taxogen(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "generator", *args],
            cwd=tmp_path,
            env=env,
            capture_output=True,
            text=True,
            check=False,
        )

    assert taxogen("generate", "-q").returncode == 0
    assert memo.location(str(prefix)).is_file()
    done = taxogen("check")
    assert (done.returncode, done.stdout) == (
        0,
        f"generated: up to date ({SHIPPED_FILES} files)\n",
    )
    index = tmp_path / "generated" / "typescript" / "src" / "index.ts"
    index.write_bytes(index.read_bytes().replace(b"export", b"export ", 1))
    done = taxogen("check")
    assert done.returncode == 1 and "stale:" in done.stdout


def test_the_memo_reads_what_emit_writes_and_source_reads() -> None:
    # memo keeps its own copies so that a no-op check imports neither module.
    from generator import emit, source

    assert memo._MANIFEST == emit.MANIFEST
    assert memo._MANIFEST_LIMIT == emit.MANIFEST_LIMIT
    assert memo._TAXONOMY_LIMIT == source.MAX_BYTES + 1


def test_another_selection_of_targets_is_not_answered_from_the_memo(
    project: Path, rendered: list[Path], capsys: pytest.CaptureFixture[str]
) -> None:
    """The memo of every target's plan says nothing of one target's: the docs
    alone would leave the others' files extra, so check renders and says so."""
    capsys.readouterr()
    assert main(["check", "--target", "docs"], use_memo=True) == 1
    assert rendered == [Path("taxonomy.yaml")]
    assert f"extra: {Path('generated') / 'typescript' / 'tsconfig.json'}" in (
        capsys.readouterr().out
    )
    assert memo.digest(Path("taxonomy.yaml"), ("docs",)) != memo.digest(
        Path("taxonomy.yaml")
    )
