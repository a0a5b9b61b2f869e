"""The manifest's rules, through emit's public surface: what is trusted, owned, pending.

The oracle is the README ("What taxogen touches") and emit's own contract: the
manifest records the owning taxonomy and the SHA-256 of every file taxogen
wrote; a damaged one is ``FILE: damaged manifest: WHY`` (exit 2) that
``--force`` recovers from; an entry that is not a normalised relative path of a
shape a target writes is never acted on; a file is overwritten or removed only
while its bytes are the ones taxogen wrote, and never when taxogen never wrote
it.  The plans here are small and hand-made (two shapes, a few files), so each
rule is seen on its own and the tests stay fast.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import threading
from pathlib import Path
from typing import Any

import pytest

import taxogen

from taxogen import emit
from taxogen.folder import Folder

MANIFEST = ".taxogen-manifest.json"
SHAPES = (r"docs/[a-z_]+\.md", r"pkg/[a-z_]+/[a-z_]+\.py", r"top\.txt")
DIGEST = "0" * 64  # a well-formed SHA-256 that matches no file here


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _plan(files: dict[str, bytes], owner: str = "alpha") -> emit.Plan:
    return emit.Plan.of(owner, files, SHAPES)


FILES = {"docs/errors.md": b"# Errors\n", "pkg/core/api.py": b"X = 1\n"}


def _manifest(out: Path) -> dict[str, Any]:
    document = json.loads((out / MANIFEST).read_text(encoding="utf-8"))
    assert isinstance(document, dict)
    return document


def _write_manifest(out: Path, document: object) -> None:
    (out / MANIFEST).write_text(json.dumps(document), encoding="utf-8")


# ------------------------------------------------------------------ the format
def test_manifest_bytes_lists_owner_and_sha256_of_each_file_sorted() -> None:
    files = {"pkg/b.py": b"b\n", "docs/a.md": b"a\n"}
    sha_a, sha_b = _sha(b"a\n"), _sha(b"b\n")
    expected = (
        "{\n"
        '  "//": "Written by taxogen: the files it generated in this folder.'
        ' Do not edit.",\n'
        f'  "generator": "taxogen {taxogen.__version__}",\n'
        '  "taxonomy": "alpha",\n'
        '  "files": {\n'
        f'    "docs/a.md": "{sha_a}",\n'
        f'    "pkg/b.py": "{sha_b}"\n'
        "  }\n"
        "}\n"
    )
    assert emit.manifest_bytes("alpha", files) == expected.encode("ascii")
    # No pending section unless something is pending; sorted when there is.
    with_pending = json.loads(
        emit.manifest_bytes("alpha", files, {"z.md": DIGEST, "a.md": "1" * 64})
    )
    assert list(with_pending["pending"]) == ["a.md", "z.md"]
    assert "pending" not in json.loads(emit.manifest_bytes("alpha", files, {}))


def test_manifest_bytes_escapes_non_ascii_so_the_file_is_ascii() -> None:
    data = emit.manifest_bytes("caf\u00e9", {"docs/\u00e9.md": b""})
    data.decode("ascii")
    assert json.loads(data)["taxonomy"] == "caf\u00e9"


def test_a_plan_holds_the_files_and_their_manifest() -> None:
    plan = _plan(FILES)
    assert plan.owner == "alpha"
    assert list(plan) == [*FILES, MANIFEST]
    assert len(plan) == 3
    assert plan["docs/errors.md"] == FILES["docs/errors.md"]
    assert plan[MANIFEST] == emit.manifest_bytes("alpha", FILES)
    assert plan.may_write("docs/errors.md")
    assert not plan.may_write("docs/errors.md.bak")  # a whole match, not a prefix
    assert not plan.may_write("x/docs/errors.md")


def test_generate_writes_the_plan_and_a_manifest_that_owns_it(tmp_path: Path) -> None:
    out = tmp_path / "out"
    report = emit.write(out, _plan(FILES))
    assert report == emit.Report(
        written=tuple(FILES), unchanged=(), removed=(), untrusted=()
    )
    for path, data in FILES.items():
        assert (out / path).read_bytes() == data
    assert _manifest(out) == {
        "//": "Written by taxogen: the files it generated in this folder. Do not edit.",
        "generator": f"taxogen {taxogen.__version__}",
        "taxonomy": "alpha",
        "files": {path: _sha(data) for path, data in FILES.items()},
    }
    assert emit.compare(out, _plan(FILES)) == emit.Difference(
        missing=(), stale=(), extra=(), untrusted=(), diffs=()
    )


def test_an_up_to_date_folder_is_not_written_at_all(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "out"
    emit.write(out, _plan(FILES))
    writes: list[str] = []
    real = Folder.write_atomic

    def recording(self: Folder, path: str, data: bytes) -> None:
        writes.append(path)
        real(self, path, data)

    monkeypatch.setattr(Folder, "write_atomic", recording)
    report = emit.write(out, _plan(FILES))
    assert report == emit.Report(
        written=(), unchanged=tuple(FILES), removed=(), untrusted=()
    )
    assert writes == []  # not even the manifest


def test_a_manifest_that_differs_alone_is_rewritten(tmp_path: Path) -> None:
    out = tmp_path / "out"
    emit.write(out, _plan(FILES))
    (out / MANIFEST).write_bytes(emit.manifest_bytes("alpha", FILES, {"x": DIGEST}))
    report = emit.write(out, _plan(FILES))
    assert report.written == () and report.unchanged == tuple(FILES)
    assert (out / MANIFEST).read_bytes() == _plan(FILES)[MANIFEST]


# ------------------------------------------------------------ damaged manifest
def _damaged(out: Path, why: str) -> str:
    return (
        f"{out / MANIFEST}: damaged manifest: {why}; rerun `taxogen generate "
        "--force` to rebuild it (it then treats as its own only the files whose "
        "bytes it would write)"
    )


_LONG = "docs/" + "a" * 1017 + ".md"  # 1,025 characters: one too many
DAMAGED = [
    (b"\xff{}", "not UTF-8"),
    (b"[" * 100_000 + b"]" * 100_000, "nested too deeply"),
    (b"[]", "not a JSON object"),
    (b'"files"', "not a JSON object"),
    (b'{"taxonomy": 3}', '"taxonomy" is not a name'),
    (b'{"taxonomy": "al\\npha"}', '"taxonomy" is not a name'),
    (b'{"files": []}', '"files" is not an object'),
    (b'{"files": {}, "pending": "x"}', '"pending" is not an object'),
    (
        b'{"files": {"docs/errors.md": 3}}',
        '"files" entry "docs/errors.md": the digest is not a SHA-256',
    ),
    (
        b'{"pending": {"docs/errors.md": "' + b"A" * 64 + b'"}}',
        '"pending" entry "docs/errors.md": the digest is not a SHA-256',
    ),
    (
        b'{"files": {"docs/errors.md": "' + b"0" * 63 + b'"}}',
        '"files" entry "docs/errors.md": the digest is not a SHA-256',
    ),
    (
        b'{"files": {"docs/errors.md": "' + b"0" * 64 + b'0"}}',
        '"files" entry "docs/errors.md": the digest is not a SHA-256',
    ),
    (b'{"files": {"": "' + DIGEST.encode() + b'"}}', '"files" entry "": an empty path'),
    (
        b'{"files": {"' + _LONG.encode() + b'": "' + DIGEST.encode() + b'"}}',
        '"files" entry ' + json.dumps(_LONG)[:80] + ": a path over 1024 characters",
    ),
    (
        b'{"files": {"docs/a\\u0000.md": "' + DIGEST.encode() + b'"}}',
        '"files" entry "docs/a\\u0000.md": a path with control characters',
    ),
    (
        b'{"files": {"docs/\\ud800.md": "' + DIGEST.encode() + b'"}}',
        '"files" entry "docs/\\ud800.md": a path that is not valid Unicode',
    ),
    (
        b'{"files": {"docs/' + b"a" * 256 + b'": "' + DIGEST.encode() + b'"}}',
        '"files" entry ' + json.dumps("docs/" + "a" * 256)[:80] + ": a path "
        "component over 255 bytes",
    ),
    (
        # 128 two-byte letters: 128 characters but 256 bytes in UTF-8.
        ('{"files": {"docs/' + "\u00e9" * 128 + '": "' + DIGEST + '"}}').encode(),
        '"files" entry '
        + json.dumps("docs/" + "\u00e9" * 128)[:80]
        + ": a path component over 255 bytes",
    ),
]


@pytest.mark.parametrize(
    ("text", "why"), DAMAGED, ids=[f"damaged-{i}" for i in range(len(DAMAGED))]
)
def test_a_damaged_manifest_says_what_is_wrong_and_force_rebuilds_it(
    tmp_path: Path, text: bytes, why: str
) -> None:
    out = tmp_path / "out"
    emit.write(out, _plan(FILES))
    (out / MANIFEST).write_bytes(text)
    with pytest.raises(emit.FolderError) as checked:
        emit.compare(out, _plan(FILES))
    assert str(checked.value) == _damaged(out, why)
    with pytest.raises(emit.FolderError) as generated:
        emit.write(out, _plan(FILES))
    assert str(generated.value) == _damaged(out, why)
    assert (out / MANIFEST).read_bytes() == text  # nothing written
    emit.write(out, _plan(FILES), force=True)
    assert emit.compare(out, _plan(FILES)).clean


def test_a_manifest_over_16_mib_is_reported_not_read(tmp_path: Path) -> None:
    out = tmp_path / "out"
    emit.write(out, _plan(FILES))
    limit = 16 * 1024 * 1024  # the README's bound on the manifest
    assert emit.MANIFEST_LIMIT == limit
    (out / MANIFEST).write_bytes(b"{}" + b" " * (limit - 2))  # at the bound: read
    assert emit.compare(out, _plan(FILES)).stale == (MANIFEST,)
    (out / MANIFEST).write_bytes(b"{}" + b" " * (limit - 1))
    with pytest.raises(emit.UnsafePath) as caught:
        emit.compare(out, _plan(FILES))
    assert (caught.value.path, caught.value.reason) == (
        MANIFEST,
        f"is {limit + 1} bytes, over taxogen's limit of {limit}",
    )


def test_invalid_json_names_the_parser_error(tmp_path: Path) -> None:
    out = tmp_path / "out"
    emit.write(out, _plan(FILES))
    (out / MANIFEST).write_bytes(b"{not json")
    with pytest.raises(emit.FolderError) as caught:
        emit.compare(out, _plan(FILES))
    why = "not JSON (Expecting property name enclosed in double quotes: line 1 column 2"
    assert str(caught.value) == _damaged(out, why + " (char 1))")


def test_the_longest_allowed_path_and_name_are_not_damage(tmp_path: Path) -> None:
    out = tmp_path / "out"
    emit.write(out, _plan(FILES))
    # Exactly 1,024 characters, and parts of exactly 255 bytes.
    longest = "/".join(["a" * 255] * 3 + ["a" * 254, "b"])
    assert len(longest) == 1024
    document = _manifest(out)
    document["files"] = {**document["files"], longest: DIGEST}
    _write_manifest(out, document)
    difference = emit.compare(out, _plan(FILES))
    assert difference.untrusted == ((longest, "not a file taxogen generates"),)


def test_a_manifest_without_owner_or_sections_is_accepted(tmp_path: Path) -> None:
    """An older manifest (no ``taxonomy``) or an empty one is no damage."""
    out = tmp_path / "out"
    out.mkdir()
    _write_manifest(out, {})
    difference = emit.compare(out, _plan(FILES))
    assert difference.missing == tuple(FILES) and difference.stale == (MANIFEST,)
    emit.write(out, _plan(FILES))
    assert emit.compare(out, _plan(FILES)).clean
    _write_manifest(out, {"files": {p: _sha(d) for p, d in FILES.items()}})
    # Owned (by an ownerless manifest) and unedited, so replaced without --force.
    new = {**FILES, "docs/errors.md": b"# Errors v2\n"}
    assert emit.write(out, _plan(new)).written == ("docs/errors.md",)


# ---------------------------------------------------------------------- owner
def test_another_taxonomys_folder_is_refused_naming_both(tmp_path: Path) -> None:
    out = tmp_path / "out"
    emit.write(out, _plan(FILES, owner="alpha"))
    before = (out / MANIFEST).read_bytes()
    message = (
        f"{out} holds the outputs of taxonomy 'alpha', not of 'beta'; pass --out "
        "to generate 'beta' into a folder of its own (nothing was written)"
    )
    for run in (
        lambda: emit.compare(out, _plan(FILES, owner="beta")),
        lambda: emit.write(out, _plan(FILES, owner="beta")),
        lambda: emit.write(out, _plan(FILES, owner="beta"), force=True),
    ):
        with pytest.raises(emit.FolderError) as caught:
            run()
        assert str(caught.value) == message
    assert (out / MANIFEST).read_bytes() == before


# ------------------------------------------------------------- trusted entries
UNTRUSTED = [
    ("/etc/passwd", "not a normalised relative path inside the folder"),
    ("docs\\errors.md", "not a normalised relative path inside the folder"),
    ("docs//errors.md", "not a normalised relative path inside the folder"),
    ("docs/./errors.md", "not a normalised relative path inside the folder"),
    ("pkg/../docs/errors.md", "not a normalised relative path inside the folder"),
    ("docs/", "not a normalised relative path inside the folder"),
    ("NOTES.txt", "not a file taxogen generates"),
    (MANIFEST, "not a file taxogen generates"),
]


@pytest.mark.parametrize(
    ("path", "why"), UNTRUSTED, ids=[f"untrusted-{i}" for i in range(len(UNTRUSTED))]
)
def test_an_untrusted_entry_is_reported_and_never_acted_on(
    tmp_path: Path, path: str, why: str
) -> None:
    out = tmp_path / "out"
    emit.write(out, _plan(FILES))
    (out / "NOTES.txt").write_bytes(b"mine\n")
    document = _manifest(out)
    document["files"] = {**document["files"], path: DIGEST}
    document["pending"] = {path: _sha(b"mine\n")}
    _write_manifest(out, document)
    difference = emit.compare(out, _plan(FILES))
    assert difference.untrusted == ((path, why),)  # once, though listed twice
    assert not difference.clean
    assert difference.missing == difference.extra == ()
    assert difference.stale == (MANIFEST,)  # edited above
    report = emit.write(out, _plan(FILES))
    assert report.untrusted == ((path, why),) and report.removed == ()
    assert (out / "NOTES.txt").read_bytes() == b"mine\n"
    assert emit.compare(out, _plan(FILES)).clean  # the entry was dropped


def test_untrusted_entries_are_reported_sorted(tmp_path: Path) -> None:
    out = tmp_path / "out"
    emit.write(out, _plan(FILES))
    document = _manifest(out)
    document["files"] = {
        **document["files"],
        "zz.txt": DIGEST,
        "/abs": DIGEST,
        "aa.txt": DIGEST,
    }
    _write_manifest(out, document)
    assert [path for path, _ in emit.compare(out, _plan(FILES)).untrusted] == [
        "/abs",
        "aa.txt",
        "zz.txt",
    ]


# ------------------------------------------------------------------- compare
def test_check_of_a_missing_folder_lists_every_file_and_creates_nothing(
    tmp_path: Path,
) -> None:
    out = tmp_path / "out"
    difference = emit.compare(out, _plan(FILES))
    assert difference == emit.Difference(
        missing=(*FILES, MANIFEST), stale=(), extra=(), untrusted=(), diffs=()
    )
    assert not difference.clean
    assert not out.exists()


def test_check_lists_missing_stale_and_extra_with_a_diff(tmp_path: Path) -> None:
    out = tmp_path / "out"
    old = {**FILES, "top.txt": b"gone\n", "pkg/old/mod.py": b"old\n"}
    emit.write(out, _plan(old))
    (out / "pkg" / "core" / "api.py").unlink()
    (out / "pkg" / "old" / "mod.py").unlink()  # owned, planned no more, but gone
    new = {"docs/errors.md": b"# Errors\nline\n", "pkg/core/api.py": b"X = 1\n"}
    difference = emit.compare(out, _plan(new))
    assert difference.missing == ("pkg/core/api.py",)
    assert difference.stale == ("docs/errors.md", MANIFEST)
    assert difference.extra == ("top.txt",)
    assert difference.untrusted == ()
    assert difference.diffs[0] == (
        "--- a/docs/errors.md\n+++ b/docs/errors.md\n@@ -1 +1,2 @@\n"
        " # Errors\n+line\n"
    )
    assert len(difference.diffs) == 2  # the manifest's too
    assert not difference.clean


@pytest.mark.parametrize(
    "field", ["missing", "stale", "extra", "untrusted"], ids=lambda f: f
)
def test_any_one_kind_of_difference_makes_it_unclean(field: str) -> None:
    fields: dict[str, tuple[Any, ...]] = dict.fromkeys(
        ("missing", "stale", "extra", "untrusted", "diffs"), ()
    )
    assert emit.Difference(**fields).clean
    fields[field] = ("x",)
    assert not emit.Difference(**fields).clean


def test_a_long_diff_is_cut_and_says_how_much_was_left_out(tmp_path: Path) -> None:
    out = tmp_path / "out"
    old = b"".join(b"old %d\n" % i for i in range(30))
    new = b"".join(b"new %d\n" % i for i in range(30))
    emit.write(out, _plan({"top.txt": old}))
    (diff,) = emit.compare(out, _plan({"top.txt": new})).diffs[:1]
    lines = diff.splitlines()
    # 3 header lines + 60 changed lines = 63; 40 are shown, then a line for the rest.
    assert len(lines) == 41
    assert lines[:3] == ["--- a/top.txt", "+++ b/top.txt", "@@ -1,30 +1,30 @@"]
    assert lines[-2] == "+new 6"
    assert lines[-1] == "... (23 more diff lines)"


def test_a_diff_of_exactly_the_limit_is_not_cut(tmp_path: Path) -> None:
    out = tmp_path / "out"
    # 3 header lines + 37 changed lines = 40 lines: the limit, shown whole.
    old = b"".join(b"old %d\n" % i for i in range(18))
    new = b"".join(b"new %d\n" % i for i in range(19))
    emit.write(out, _plan({"top.txt": old}))
    diff = emit.compare(out, _plan({"top.txt": new})).diffs[0]
    assert len(diff.splitlines()) == 40
    assert "more diff lines" not in diff


def test_a_diff_line_without_newline_still_ends_one(tmp_path: Path) -> None:
    out = tmp_path / "out"
    emit.write(out, _plan({"top.txt": b"a\nb"}))
    diff = emit.compare(out, _plan({"top.txt": b"a\nc"})).diffs[0]
    assert diff == "--- a/top.txt\n+++ b/top.txt\n@@ -1,2 +1,2 @@\n a\n-b\n+c\n"


def test_a_diff_shows_a_lost_final_newline(tmp_path: Path) -> None:
    out = tmp_path / "out"
    emit.write(out, _plan({"top.txt": b"a"}))
    diff = emit.compare(out, _plan({"top.txt": b"a\n"})).diffs[0]
    assert diff == "--- a/top.txt\n+++ b/top.txt\n@@ -1 +1 @@\n-a\n+a\n"


@pytest.mark.parametrize(
    ("old", "new"),
    [(b"\xff\xfe", b"text\n"), (b"text\n", b"\xff\xfe")],
    ids=["was-binary", "becomes-binary"],
)
def test_a_binary_difference_is_one_line(
    tmp_path: Path, old: bytes, new: bytes
) -> None:
    out = tmp_path / "out"
    emit.write(out, _plan({"top.txt": old}))
    diff = emit.compare(out, _plan({"top.txt": new})).diffs[0]
    assert diff == "Binary files a/top.txt and b/top.txt differ\n"


def test_check_reports_a_link_at_an_owned_path_as_untrusted(tmp_path: Path) -> None:
    out = tmp_path / "out"
    emit.write(out, _plan({**FILES, "top.txt": b"t\n"}))
    (out / "top.txt").unlink()
    (out / "top.txt").symlink_to(tmp_path)
    difference = emit.compare(out, _plan(FILES))
    assert difference.untrusted == (
        ("top.txt", "is a symbolic link, not a regular file"),
    )
    assert difference.extra == ()


# ------------------------------------------------------------------- write
def test_generate_removes_its_old_files_and_the_folders_left_empty(
    tmp_path: Path,
) -> None:
    out = tmp_path / "out"
    old = {**FILES, "pkg/old/mod.py": b"old\n", "top.txt": b"t\n"}
    emit.write(out, _plan(old))
    (out / "pkg" / "old" / "mine.txt").write_bytes(b"mine\n")
    report = emit.write(out, _plan(FILES))
    assert report == emit.Report(
        written=(),
        unchanged=tuple(FILES),
        removed=("pkg/old/mod.py", "top.txt"),
        untrusted=(),
    )
    assert not (out / "top.txt").exists() and not (out / "pkg/old/mod.py").exists()
    assert (out / "pkg" / "old" / "mine.txt").read_bytes() == b"mine\n"
    (out / "pkg" / "old" / "mine.txt").unlink()
    emit.write(out, _plan({**FILES, "pkg/old/mod.py": b"old\n"}))
    emit.write(out, _plan(FILES))
    assert not (out / "pkg" / "old").exists()  # emptied by the removal: pruned
    assert (out / "pkg" / "core").is_dir()


def test_extra_and_removed_files_are_listed_sorted(tmp_path: Path) -> None:
    out = tmp_path / "out"
    old = {**FILES, "top.txt": b"t\n", "docs/zeta.md": b"z\n", "docs/alpha.md": b"a\n"}
    emit.write(out, _plan(old))
    document = _manifest(out)
    files = document["files"]
    assert isinstance(files, dict)
    document["files"] = dict(reversed(files.items()))  # as a hand might reorder it
    _write_manifest(out, document)
    expected = ("docs/alpha.md", "docs/zeta.md", "top.txt")
    assert emit.compare(out, _plan(FILES)).extra == expected
    assert emit.write(out, _plan(FILES)).removed == expected


def test_an_old_file_already_gone_is_not_reported_removed(tmp_path: Path) -> None:
    out = tmp_path / "out"
    emit.write(out, _plan({**FILES, "docs/alpha.md": b"a\n", "top.txt": b"t\n"}))
    (out / "docs" / "alpha.md").unlink()
    report = emit.write(out, _plan(FILES))
    assert report.removed == ("top.txt",) and report.written == ()  # the next still
    assert not (out / "top.txt").exists()
    assert emit.compare(out, _plan(FILES)).clean  # and the manifest forgets both


def test_a_file_deleted_by_hand_is_written_again(tmp_path: Path) -> None:
    out = tmp_path / "out"
    emit.write(out, _plan(FILES))
    (out / "docs" / "errors.md").unlink()  # the manifest alone is still up to date
    assert emit.write(out, _plan(FILES)).written == ("docs/errors.md",)
    assert (out / "docs" / "errors.md").read_bytes() == FILES["docs/errors.md"]


def test_a_link_at_an_old_path_is_dropped_and_left_alone(tmp_path: Path) -> None:
    out = tmp_path / "out"
    victim = tmp_path / "victim.txt"
    victim.write_bytes(b"a\n")
    emit.write(out, _plan({**FILES, "docs/alpha.md": b"a\n", "top.txt": b"t\n"}))
    (out / "docs" / "alpha.md").unlink()
    (out / "docs" / "alpha.md").symlink_to(victim)
    report = emit.write(out, _plan(FILES))
    assert report.untrusted == (
        ("docs/alpha.md", "is a symbolic link, not a regular file"),
    )
    assert report.removed == ("top.txt",)  # the old files after it are still seen
    assert (out / "docs" / "alpha.md").is_symlink() and victim.read_bytes() == b"a\n"


def _conflicts(caught: pytest.ExceptionInfo[emit.EmitError]) -> set[emit.Conflict]:
    assert str(caught.value) == "refusing to overwrite or remove files"
    return set(caught.value.conflicts)


def test_hand_edits_are_refused_unless_forced(tmp_path: Path) -> None:
    out = tmp_path / "out"
    emit.write(out, _plan({**FILES, "top.txt": b"t\n"}))
    (out / "docs" / "errors.md").write_bytes(b"# Mine\n")
    (out / "top.txt").write_bytes(b"edited\n")
    new = {"docs/errors.md": b"# Errors v2\n", "pkg/core/api.py": b"X = 1\n"}
    before = {p: (out / p).read_bytes() for p in ("docs/errors.md", "top.txt")}
    with pytest.raises(emit.EmitError) as caught:
        emit.write(out, _plan(new))
    assert _conflicts(caught) == {
        emit.Conflict(
            path="docs/errors.md",
            reason="was edited by hand since taxogen wrote it",
            forceable=True,
        ),
        emit.Conflict(
            path="top.txt",
            reason="is no longer generated but was edited by hand",
            forceable=True,
        ),
    }
    assert {p: (out / p).read_bytes() for p in before} == before
    report = emit.write(out, _plan(new), force=True)
    assert report.written == ("docs/errors.md",) and report.removed == ("top.txt",)
    assert emit.compare(out, _plan(new)).clean


def test_a_file_taxogen_never_wrote_is_refused_even_when_forced(
    tmp_path: Path,
) -> None:
    out = tmp_path / "out"
    emit.write(out, _plan({"pkg/core/api.py": b"X = 1\n"}))
    (out / "docs").mkdir()
    (out / "docs" / "errors.md").write_bytes(b"a person's page\n")
    for force in (False, True):
        with pytest.raises(emit.EmitError) as caught:
            emit.write(out, _plan(FILES), force=force)
        assert _conflicts(caught) == {
            emit.Conflict(
                path="docs/errors.md",
                reason="exists and was not generated by taxogen",
                forceable=False,
            )
        }
        assert (out / "docs" / "errors.md").read_bytes() == b"a person's page\n"


def test_a_conflict_defaults_to_forceable_and_an_emit_error_to_none() -> None:
    assert emit.Conflict(path="p", reason="r").forceable is True
    assert emit.EmitError("files are in the way").conflicts == ()


def test_a_damaged_manifest_forced_owns_only_identical_files(tmp_path: Path) -> None:
    out = tmp_path / "out"
    emit.write(out, _plan({**FILES, "top.txt": b"t\n"}))
    (out / "docs" / "errors.md").write_bytes(b"# Edited\n")
    (out / MANIFEST).write_bytes(b"{not json")
    with pytest.raises(emit.EmitError) as caught:
        emit.write(out, _plan(FILES), force=True)
    assert [c.forceable for c in caught.value.conflicts] == [False]
    assert (out / "top.txt").read_bytes() == b"t\n"  # no longer known: left alone


def test_the_manifest_records_what_is_in_flight_before_writing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "out"
    emit.write(out, _plan({**FILES, "top.txt": b"t\n"}))
    new = {"docs/errors.md": b"# Errors v2\n", "pkg/core/api.py": b"X = 1\n"}
    seen: list[tuple[str, bytes]] = []
    real = Folder.write_atomic

    def recording(self: Folder, path: str, data: bytes) -> None:
        seen.append((path, data))
        real(self, path, data)

    monkeypatch.setattr(Folder, "write_atomic", recording)
    emit.write(out, _plan(new))
    assert [path for path, _ in seen] == [MANIFEST, "docs/errors.md", MANIFEST]
    first = seen[0][1]
    assert json.loads(first) == {
        "//": "Written by taxogen: the files it generated in this folder. Do not edit.",
        "taxonomy": "alpha",
        # What is on disk now at the paths it will touch, and what it will write.
        "files": {"docs/errors.md": _sha(b"# Errors\n"), "top.txt": _sha(b"t\n")},
        "pending": {"docs/errors.md": _sha(b"# Errors v2\n")},
    }
    # In the manifest's one format (as manifest_bytes writes it: see the first test).
    assert first == (json.dumps(json.loads(first), indent=2) + "\n").encode("ascii")
    assert seen[-1][1] == _plan(new)[MANIFEST]


def test_a_pending_entry_is_owned_so_a_killed_run_is_finished(tmp_path: Path) -> None:
    out = tmp_path / "out"
    emit.write(out, _plan(FILES))
    new = {"docs/errors.md": b"# Errors v2\n", "pkg/core/api.py": b"X = 1\n"}
    (out / "docs" / "errors.md").write_bytes(new["docs/errors.md"])
    (out / "top.txt").write_bytes(b"half\n")
    # As a run killed half way leaves it: old hashes in files, new ones pending.
    _write_manifest(
        out,
        {
            "taxonomy": "alpha",
            "files": {"docs/errors.md": _sha(FILES["docs/errors.md"])},
            "pending": {"top.txt": _sha(b"half\n")},
        },
    )
    report = emit.write(out, _plan(new))  # no force needed
    assert report.removed == ("top.txt",)
    assert emit.compare(out, _plan(new)).clean


# --------------------------------------------------------------- the folder
def test_an_output_path_that_is_a_file_or_a_broken_link_is_refused(
    tmp_path: Path,
) -> None:
    afile = tmp_path / "afile"
    afile.write_bytes(b"")
    broken = tmp_path / "broken"
    broken.symlink_to(tmp_path / "nowhere")
    for out, message in (
        (afile, "is not a folder"),
        (broken, "is a broken symbolic link"),
    ):
        for run in (
            lambda: emit.compare(out, _plan(FILES)),
            lambda: emit.write(out, _plan(FILES)),
        ):
            with pytest.raises(emit.FolderError) as caught:
                run()
            assert str(caught.value) == f"{out}: {message}"
    assert afile.read_bytes() == b"" and not (tmp_path / "nowhere").exists()


def test_the_output_folder_may_be_a_link(tmp_path: Path) -> None:
    (tmp_path / "real").mkdir()
    (tmp_path / "link").symlink_to(tmp_path / "real")
    emit.write(tmp_path / "link", _plan(FILES))
    assert (tmp_path / "real" / "docs" / "errors.md").read_bytes() == b"# Errors\n"
    assert emit.compare(tmp_path / "link", _plan(FILES)).clean


def _open_fds() -> int:
    return len(os.listdir("/proc/self/fd"))


@pytest.mark.parametrize("run", ["check", "generate"])
def test_a_held_lock_times_out_naming_the_holder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, run: str
) -> None:
    out = tmp_path / "out"
    emit.write(out, _plan(FILES))
    monkeypatch.setenv("TAXOGEN_LOCK_TIMEOUT", "0")
    waited: list[str] = []
    holder = os.open(out, os.O_RDONLY | os.O_DIRECTORY)
    try:
        fcntl.flock(holder, fcntl.LOCK_EX | fcntl.LOCK_NB)  # as another run would
        fds = _open_fds()
        with pytest.raises(emit.FolderError) as caught:
            if run == "check":
                emit.compare(out, _plan(FILES), waiting=waited.append)
            else:
                emit.write(out, _plan(FILES), waiting=waited.append)
        assert _open_fds() == fds  # the folder it opened is closed again
    finally:
        os.close(holder)
    who = f"process {os.getpid()}"
    assert len(waited) == 1 and waited[0].startswith(who)
    message = str(caught.value)
    assert message.startswith(f"{out}: still locked after 0 s by {who}")
    assert message.endswith(
        "; another taxogen run is using this folder (nothing was written)"
    )


@pytest.mark.parametrize(
    ("setting", "seconds"),
    [
        (None, 60.0),
        ("", 60.0),
        ("soon", 60.0),
        ("2.5", 2.5),
        ("0", 0.0),
        ("-1", 60.0),
        ("999999", 999999.0),
        ("1e6", 60.0),
        ("nan", 60.0),
    ],
)
def test_the_lock_timeout_comes_from_the_environment_when_it_is_sensible(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    setting: str | None,
    seconds: float,
) -> None:
    if setting is None:
        monkeypatch.delenv("TAXOGEN_LOCK_TIMEOUT", raising=False)
    else:
        monkeypatch.setenv("TAXOGEN_LOCK_TIMEOUT", setting)
    assert emit.LOCK_TIMEOUT == 60.0  # the README's default
    asked: list[float] = []

    def lock(self: Folder, *, timeout: float, waiting: object) -> None:
        asked.append(timeout)

    monkeypatch.setattr(Folder, "lock", lock)
    emit.write(tmp_path / "out", _plan(FILES))
    assert asked == [seconds]


def test_an_interrupted_lock_wait_closes_the_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def lock(self: Folder, *, timeout: float, waiting: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(Folder, "lock", lock)
    (tmp_path / "out").mkdir()
    fds = _open_fds()
    with pytest.raises(KeyboardInterrupt):
        emit.compare(tmp_path / "out", _plan(FILES))
    assert _open_fds() == fds


def test_writing_one_file_and_the_largest_first(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    order: list[str] = []
    real = Folder.write_atomic

    def recording(self: Folder, path: str, data: bytes) -> None:
        order.append(path)
        real(self, path, data)

    monkeypatch.setattr(Folder, "write_atomic", recording)
    monkeypatch.setattr(emit, "_WRITERS", 1)  # one writer: the order is the plan's
    files = {"a.txt": b"1", "b.txt": b"333", "c.txt": b"22"}
    with Folder(tmp_path, create=False) as folder:
        emit._write_all(folder, files)
        assert order == ["b.txt", "c.txt", "a.txt"]
        order.clear()
        emit._write_all(folder, {"d.txt": b"4"})
        assert order == ["d.txt"]
    assert (tmp_path / "b.txt").read_bytes() == b"333"
    assert (tmp_path / "d.txt").read_bytes() == b"4"


def test_the_writer_threads_end_cleanly(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No writer thread dies with an exception (a traceback on the user's stderr)."""
    crashed: list[object] = []
    monkeypatch.setattr(threading, "excepthook", crashed.append)
    files = {f"f{i}.txt": b"%d" % i for i in range(20)}
    with Folder(tmp_path, create=False) as folder:
        emit._write_all(folder, files)
    assert crashed == []
    assert {p.name for p in tmp_path.iterdir()} == set(files)


def test_each_planned_file_is_hashed_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The plan keeps the digests its manifest lists, and staging the write uses
    them (issue 34: every written file was hashed twice); each is the file's
    own SHA-256."""
    files = {**FILES, "top.txt": b"t\n"}
    hashed: list[bytes] = []
    real = emit._sha256

    def counting(data: bytes) -> str:
        hashed.append(data)
        return real(data)

    monkeypatch.setattr(emit, "_sha256", counting)
    plan = _plan(files)
    assert dict(plan.digests) == {path: _sha(data) for path, data in files.items()}
    emit.write(tmp_path / "out", plan)  # nothing on disk: every file is pending
    assert sorted(hashed) == sorted(files.values())
