"""Revision: a taxonomy as it was at a git revision, for ``diff --against``.

Read with ``git`` without a work tree (``rev-parse``, ``ls-tree``,
``cat-file``): nothing is checked out and nothing written.  The revision is user
text, refused before git sees it if it could pass for an option; the file is
read at most ``MAX_BYTES``.  A revision without the file is a new taxonomy
(``None``), not an error.
"""

from __future__ import annotations

import json
from pathlib import Path

from taxogen.source import MAX_BYTES

__all__ = ["UsageError", "taxonomy_at"]


class UsageError(Exception):
    """A revision or path the command cannot use: exit 2, said in one line."""


def _git(args: list[str], folder: Path) -> tuple[int, bytes, str]:
    """Run ``git`` in ``folder``: its exit status, output and error text."""
    import subprocess  # here: only diff --against needs it, and it costs generate 9 ms

    try:
        done = subprocess.run(
            ["git", *args],
            cwd=folder,
            capture_output=True,
            check=False,
            stdin=subprocess.DEVNULL,
        )
    except OSError as exc:
        raise UsageError(f"cannot run git: {exc.strerror}") from None
    return done.returncode, done.stdout, done.stderr.decode("utf-8", "replace").strip()


def taxonomy_at(ref: str, taxonomy: Path) -> tuple[str | None, str]:
    """The text of ``taxonomy`` at git revision ``ref`` (None: that commit has
    no file there, a new taxonomy), and how to name it.

    The ref is user text: one that could pass for an option, or that does not
    name a commit, is refused before git reads anything, and git only ever
    sees it after ``--end-of-options``.
    """
    if not ref or ref.startswith("-") or not ref.isprintable():
        raise UsageError(
            f"--against {_shown(ref)}: "
            "expected a git revision (a branch, tag or commit)"
        )
    folder = taxonomy.resolve().parent
    if not folder.is_dir():
        raise UsageError(f"{taxonomy}: no such folder: {folder}")
    status, out, err = _git(["rev-parse", "--show-toplevel"], folder)
    if status != 0:
        raise UsageError(f"{taxonomy} is not in a git repository: {err}")
    top = Path(out.decode("utf-8", "surrogateescape").strip()).resolve()
    try:
        inside = taxonomy.resolve().relative_to(top).as_posix()
    except ValueError:
        raise UsageError(f"{taxonomy} is outside the git repository at {top}") from None
    status, out, err = _git(
        ["rev-parse", "--verify", "--quiet", "--end-of-options", f"{ref}^{{commit}}"],
        folder,
    )
    if status != 0:
        raise UsageError(f"--against {_shown(ref)}: not a commit in {top}")
    commit = out.decode("ascii", "replace").strip()
    # ``ls-tree`` answers whether the path is in the commit, where ``cat-file``
    # fails alike for "not there" and for a path that is a folder there.
    status, out, err = _git(
        ["ls-tree", "--full-tree", "--name-only", commit, "--", inside], folder
    )
    if status == 0 and not out.strip():
        return None, f"{ref}:{inside}"
    status, out, err = _git(["cat-file", "-s", f"{commit}:{inside}"], folder)
    if status != 0:
        raise UsageError(f"cannot read {inside} at {ref}: it is not in that commit")
    if int(out.strip() or 0) > MAX_BYTES:
        raise UsageError(
            f"{inside} at {ref} is larger than {MAX_BYTES // (1024 * 1024)} MiB"
        )
    status, out, err = _git(["cat-file", "blob", f"{commit}:{inside}"], folder)
    if status != 0:
        raise UsageError(f"cannot read {inside} at {ref}: {err}")
    try:
        return out.decode("utf-8"), f"{ref}:{inside}"
    except UnicodeDecodeError:
        raise UsageError(f"{inside} at {ref} is not valid UTF-8") from None


def _shown(text: str) -> str:
    return json.dumps(text, ensure_ascii=True)[:100]
