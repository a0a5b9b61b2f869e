"""The output folder is taxogen's only: links, FIFOs and forged manifests cannot
turn it.

Issue 12, section 3: taxogen reads, writes and deletes only regular files inside
the output folder, never through a link; a damaged or forged manifest can never
make it delete a user's file.  Each case runs the real command line.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest
import yaml

from taxogen.cli import main
from tests.support import REPO

MANIFEST = ".taxogen-manifest.json"


@pytest.fixture
def out(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A project with the shipped taxonomy, generated once."""
    shutil.copy(REPO / "taxonomy.yaml", tmp_path / "taxonomy.yaml")
    monkeypatch.chdir(tmp_path)
    assert main(["generate", "-q"]) == 0
    return tmp_path / "generated"


def _tree(root: Path) -> dict[str, bytes | str]:
    found: dict[str, bytes | str] = {}
    for path in sorted(root.rglob("*")):
        key = path.relative_to(root).as_posix()
        if path.is_symlink():
            found[key] = "link:" + os.readlink(path)
        elif path.is_file():
            found[key] = path.read_bytes()
    return found


def test_a_link_at_a_generated_path_is_refused_and_not_followed(
    out: Path, tmp_path: Path
) -> None:
    victim = tmp_path / "victim.txt"
    victim.write_text("precious\n")
    docs = out / "docs" / "errors.md"
    docs.unlink()
    docs.symlink_to(victim)
    before = _tree(out)
    for command in (["generate"], ["generate", "--force"], ["check"]):
        assert main(command) == 2, command
        assert victim.read_text() == "precious\n"
        assert _tree(out) == before


def test_a_link_at_a_folder_above_a_generated_path_is_refused(
    out: Path, tmp_path: Path
) -> None:
    elsewhere = tmp_path / "elsewhere"
    shutil.move(out / "docs", elsewhere)
    (out / "docs").symlink_to(elsewhere)
    before_outside = _tree(elsewhere)
    (tmp_path / "taxonomy.yaml").write_text(
        (tmp_path / "taxonomy.yaml")
        .read_text()
        .replace("Task exceeded its deadline", "Task ran late")
    )
    for command in (["generate", "--force"], ["check"]):
        assert main(command) == 2, command
    assert _tree(elsewhere) == before_outside  # nothing written through the link


def test_a_file_where_a_folder_belongs_is_named_as_a_file(
    out: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    shutil.rmtree(out / "docs")
    (out / "docs").write_text("mine\n")
    capsys.readouterr()
    for command in (["generate"], ["check"]):
        assert main(command) == 2, command
        first = capsys.readouterr().err.splitlines()[0]
        assert first == (
            f"{out.name}/docs: error: is a regular file, not a folder; taxogen "
            "reads and writes only regular files, never through a link"
        )
    assert (out / "docs").read_text() == "mine\n"


def test_a_forged_manifest_never_deletes_a_users_file(
    out: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    mine = out / "NOTES.txt"
    mine.write_text("mine\n")
    outside = tmp_path / "outside.txt"
    outside.write_text("outside\n")
    (out / "python" / "link").symlink_to(tmp_path)
    document = json.loads((out / MANIFEST).read_text())
    digest = "0" * 64
    for forged in (
        "NOTES.txt",
        "../outside.txt",
        str(outside),
        "python/link/outside.txt",
        "docs/../NOTES.txt",
    ):
        document["files"][forged] = digest
    (out / MANIFEST).write_text(json.dumps(document))
    capsys.readouterr()
    assert main(["check"]) == 1
    printed = capsys.readouterr().out
    assert "untrusted: generated/NOTES.txt" in printed
    assert main(["generate", "--force", "-q"]) == 0
    assert mine.read_text() == "mine\n" and outside.read_text() == "outside\n"
    assert main(["check"]) == 0  # the forged entries were dropped from the manifest


@pytest.mark.parametrize("where", ["docs/errors.md", MANIFEST])
def test_a_fifo_where_a_file_belongs_is_an_error_not_a_hang(
    out: Path, where: str
) -> None:
    target = out / where
    target.unlink()
    os.mkfifo(target)
    for command in (["generate"], ["check"]):
        assert main(command) == 2, command  # a blocking open would hang here forever
    assert (out / where).exists() and not (out / where).is_file()


@pytest.mark.parametrize(
    "text",
    [
        "{not json",
        "[" * 100_000 + "]" * 100_000,
        '{"files": {"docs/errors.md\\u0000x": "' + "0" * 64 + '"}}',
        '{"files": {"\\ud800": "' + "0" * 64 + '"}}',
        '{"files": {"' + "a/" * 600 + 'b": "' + "0" * 64 + '"}}',
        '{"files": []}',
        '{"files": {"docs/errors.md": 3}}',
        "[]",
    ],
    ids=[
        "invalid",
        "deep",
        "nul",
        "surrogate",
        "long",
        "files-list",
        "digest-type",
        "not-object",
    ],
)
def test_a_damaged_manifest_is_exit_2_and_force_recovers(out: Path, text: str) -> None:
    (out / MANIFEST).write_text(text)
    mine = out / "NOTES.txt"
    mine.write_text("mine\n")
    assert main(["check"]) == 2
    assert main(["generate"]) == 2
    assert main(["generate", "--force", "-q"]) == 0
    assert main(["check"]) == 0
    assert mine.read_text() == "mine\n"


def test_force_never_overwrites_a_file_taxogen_did_not_write(out: Path) -> None:
    (out / MANIFEST).unlink()
    docs = out / "docs" / "errors.md"
    docs.write_text("a person's page\n")
    assert main(["generate", "--force"]) == 1
    assert docs.read_text() == "a person's page\n"


def test_a_file_over_the_read_limit_is_reported_not_read(out: Path) -> None:
    big = out / "docs" / "errors.md"
    with open(big, "r+b") as handle:
        handle.truncate(
            300 * 1024 * 1024
        )  # sparse: no disk, but over the 256 MiB bound
    assert main(["check"]) == 2


def _name(taxonomy: Path) -> str:
    """The taxonomy's ``name``, read from the YAML itself."""
    value = yaml.safe_load(taxonomy.read_text(encoding="utf-8"))["name"]
    assert isinstance(value, str)
    return value


def test_another_taxonomy_cannot_take_over_the_folder(
    out: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    other = tmp_path / "other.yaml"
    shutil.copy(REPO / "tests" / "cases" / "minimal" / "taxonomy.yaml", other)
    owner, intruder = _name(tmp_path / "taxonomy.yaml"), _name(other)
    assert owner != intruder
    before = _tree(out)
    for command in (
        ["generate", "--taxonomy", "other.yaml"],
        ["generate", "--taxonomy", "other.yaml", "--force"],
    ):
        capsys.readouterr()
        assert main(command) == 2, command
        err = capsys.readouterr().err
        assert repr(owner) in err and repr(intruder) in err and "--out" in err, err
        assert _tree(out) == before  # nothing written, nothing removed
    # Its own folder is fine, and the owner still checks clean.
    assert main(["generate", "--taxonomy", "other.yaml", "--out", "other", "-q"]) == 0
    assert main(["check"]) == 0


def test_the_same_taxonomy_by_another_path_still_owns_the_folder(
    out: Path, tmp_path: Path
) -> None:
    (tmp_path / "copy").mkdir()
    shutil.copy(tmp_path / "taxonomy.yaml", tmp_path / "copy" / "spec.yaml")
    taxonomy = tmp_path / "copy" / "spec.yaml"
    taxonomy.write_text(
        taxonomy.read_text().replace("Task exceeded its deadline", "Task ran late")
    )
    args = ["--taxonomy", str(taxonomy), "--out", str(out)]
    assert main(["generate", "-q", *args]) == 0
    assert main(["check", *args]) == 0
    assert "Task ran late" in (out / "docs" / "errors.md").read_text()
