"""Review: the ``diff`` and ``lint`` commands, which read taxonomies and report.

``diff`` classifies every change between two taxonomies (two files, or the
project's against a git revision, read with ``git`` without a work tree) and
checks the version bump; ``lint`` applies the rules of ``[tool.taxogen.lint]``.
Both print text, ``diff`` JSON too, and both GitHub Actions annotations.  They
never touch the output folder; :mod:`taxogen.cli` parses the command line
and calls them.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from taxogen.cli import report
from taxogen.diagnostics import TaxonomyError
from taxogen.diff import (
    BREAKING,
    COMPATIBLE,
    DOCS,
    Change,
    VersionCheck,
    check_version,
    diff,
)
from taxogen.lint import lint
from taxogen.naming import Names, name_taxonomy
from taxogen.pipeline import load_names, load_taxonomy
from taxogen.settings import Settings
from taxogen.source import MAX_BYTES, load_text
from taxogen.validate import validate

__all__ = ["diff_command", "lint_command"]


class _UsageError(Exception):
    pass


def lint_command(
    taxonomy: Path, config: Settings, *, strict: bool, fmt: str, waiting: bool
) -> int:
    """``taxogen lint``: exit 1 on an error (with ``strict``, a warning);
    ``waiting``: the user named the taxonomy (see :func:`sourcefile.read`)."""
    rules = config.lint
    try:
        model = load_taxonomy(taxonomy, waiting=waiting)
        name_taxonomy(model, str(taxonomy))
    except TaxonomyError as exc:
        return report(exc, str(taxonomy))
    findings = lint(model, rules)
    for finding in findings:
        if fmt == "github":
            kind = "error" if finding.level == "error" or strict else "warning"
            print(
                _annotation(
                    kind, str(taxonomy), finding.position, finding.rule, finding.message
                )
            )
        else:
            print(finding.format(str(taxonomy)))
    errors = sum(1 for f in findings if f.level == "error")
    warnings = len(findings) - errors
    failed = errors > 0 or (strict and warnings > 0)
    print(
        f"{taxonomy}: {errors} error{'s' if errors != 1 else ''}, "
        f"{warnings} warning{'s' if warnings != 1 else ''}"
        + (" (--strict: warnings fail)" if strict and warnings else ""),
        file=sys.stderr if failed else sys.stdout,
    )
    return 1 if failed else 0


# ------------------------------------------------------------------------ diff
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
        raise _UsageError(f"cannot run git: {exc.strerror}") from None
    return done.returncode, done.stdout, done.stderr.decode("utf-8", "replace").strip()


def _git_taxonomy(ref: str, taxonomy: Path) -> tuple[str | None, str]:
    """The text of ``taxonomy`` at git revision ``ref`` (None: that commit has
    no file there, a new taxonomy), and how to name it.

    The ref is user text: one that could pass for an option, or that does not
    name a commit, is refused before git reads anything, and git only ever
    sees it after ``--end-of-options``.
    """
    if not ref or ref.startswith("-") or not ref.isprintable():
        raise _UsageError(
            f"--against {_shown(ref)}: "
            "expected a git revision (a branch, tag or commit)"
        )
    folder = taxonomy.resolve().parent
    if not folder.is_dir():
        raise _UsageError(f"{taxonomy}: no such folder: {folder}")
    status, out, err = _git(["rev-parse", "--show-toplevel"], folder)
    if status != 0:
        raise _UsageError(f"{taxonomy} is not in a git repository: {err}")
    top = Path(out.decode("utf-8", "surrogateescape").strip()).resolve()
    try:
        inside = taxonomy.resolve().relative_to(top).as_posix()
    except ValueError:
        raise _UsageError(
            f"{taxonomy} is outside the git repository at {top}"
        ) from None
    status, out, err = _git(
        ["rev-parse", "--verify", "--quiet", "--end-of-options", f"{ref}^{{commit}}"],
        folder,
    )
    if status != 0:
        raise _UsageError(f"--against {_shown(ref)}: not a commit in {top}")
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
        raise _UsageError(f"cannot read {inside} at {ref}: it is not in that commit")
    if int(out.strip() or 0) > MAX_BYTES:
        raise _UsageError(
            f"{inside} at {ref} is larger than {MAX_BYTES // (1024 * 1024)} MiB"
        )
    status, out, err = _git(["cat-file", "blob", f"{commit}:{inside}"], folder)
    if status != 0:
        raise _UsageError(f"cannot read {inside} at {ref}: {err}")
    try:
        return out.decode("utf-8"), f"{ref}:{inside}"
    except UnicodeDecodeError:
        raise _UsageError(f"{inside} at {ref} is not valid UTF-8") from None


def _shown(text: str) -> str:
    return json.dumps(text, ensure_ascii=True)[:100]


def diff_command(args: argparse.Namespace, config: Settings) -> int:
    """``taxogen diff``: exit 1 when the version bump is too small."""
    try:
        if args.against is not None:
            if args.old is not None:
                raise _UsageError("give either OLD NEW or --against GIT_REF, not both")
            new_path: Path = args.taxonomy or config.taxonomy
            text, old_shown = _git_taxonomy(args.against, new_path)
        else:
            if args.old is None:
                raise _UsageError("give OLD [NEW], or --against GIT_REF")
            new_path = args.new or args.taxonomy or config.taxonomy
            text, old_shown = "", str(args.old)
    except _UsageError as exc:
        print(f"taxogen: error: {exc}", file=sys.stderr)
        return 2
    if text is None:
        return _new_taxonomy(args.format, old_shown, new_path, args.taxonomy)
    try:
        if args.against is not None:
            root, problems = load_text(text, old_shown)
            old_model = validate(root, old_shown, Path(old_shown).name, problems)
            old = name_taxonomy(old_model, old_shown)
        else:
            old = load_names(Path(old_shown), waiting=True)  # named by the user
    except TaxonomyError as exc:
        return report(exc, old_shown)
    try:
        named = args.new is not None or args.taxonomy is not None
        new = load_names(new_path, waiting=named)
    except TaxonomyError as exc:
        return report(exc, str(new_path))
    changes = diff(old, new)
    version = check_version(old.taxonomy.version, new.taxonomy.version, changes)
    shown = str(new_path)
    if args.format == "json":
        print(
            json.dumps(
                _diff_json(old_shown, shown, old, new, changes, version), indent=2
            )
        )
    elif args.format == "github":
        for change in changes:
            kind = "error" if change.kind == BREAKING and not version.ok else "notice"
            print(
                _annotation(
                    kind,
                    shown,
                    change.position,
                    f"{change.kind}: {change.rule}",
                    change.message,
                )
            )
        if not version.ok:
            print(
                _annotation(
                    "error",
                    shown,
                    new.taxonomy.position_of("version"),
                    "version bump too small",
                    version.message,
                )
            )
    else:
        for change in changes:
            where = (
                shown
                if change.position is None
                else f"{shown}:{change.position.line}:{change.position.col}"
            )
            print(f"{where}: {change.kind} {change.rule}: {change.message}")
        counts = {
            kind: sum(1 for c in changes if c.kind == kind)
            for kind in (BREAKING, COMPATIBLE, DOCS)
        }
        print(
            f"{old_shown} → {shown}: {counts[BREAKING]} breaking, "
            f"{counts[COMPATIBLE]} compatible, {counts[DOCS]} docs-only"
        )
        print(version.message, file=sys.stdout if version.ok else sys.stderr)
    return 0 if version.ok else 1


def _new_taxonomy(fmt: str, old_shown: str, new_path: Path, named: Path | None) -> int:
    """``diff --against REF`` where REF has no taxonomy: a new one (the pull
    request that adds it), nothing to compare and no bump to check, exit 0
    once the new taxonomy is valid."""
    try:
        new = load_names(new_path, waiting=named is not None)
    except TaxonomyError as exc:
        return report(exc, str(new_path))
    shown, version = str(new_path), new.taxonomy.version
    message = f"a new taxonomy, version {version}: {old_shown} does not exist"
    if fmt == "json":
        document: dict[str, Any] = {
            "old": None,
            "new": {"path": shown, "version": version},
            "changes": [],
            "version": {
                "old": None,
                "new": version,
                "required": "none",
                "ok": True,
                "message": message,
            },
        }
        print(json.dumps(document, indent=2))
    elif fmt == "github":
        print(
            _annotation(
                "notice",
                shown,
                new.taxonomy.position_of("version"),
                "new taxonomy",
                message,
            )
        )
    else:
        print(f"{shown}: {message}")
    return 0


def _diff_json(
    old_shown: str,
    shown: str,
    old: Names,
    new: Names,
    changes: list[Change],
    version: VersionCheck,
) -> dict[str, Any]:
    return {
        "old": {"path": old_shown, "version": old.taxonomy.version},
        "new": {"path": shown, "version": new.taxonomy.version},
        "changes": [
            {
                "kind": c.kind,
                "rule": c.rule,
                "message": c.message,
                "line": c.position.line if c.position else None,
                "col": c.position.col if c.position else None,
            }
            for c in changes
        ],
        "version": {
            "old": version.old,
            "new": version.new,
            "required": version.required,
            "ok": version.ok,
            "message": version.message,
        },
    }


def _escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(text: str) -> str:
    return _escape_data(text).replace(":", "%3A").replace(",", "%2C")


def _annotation(
    kind: str, path: str, position: object, title: str, message: str
) -> str:
    """A GitHub Actions workflow command that annotates ``path`` at ``position``."""
    props = [f"file={_escape_property(path)}"]
    line = getattr(position, "line", None)
    if line is not None:
        props += [f"line={line}", f"col={getattr(position, 'col', 1)}"]
    props.append(f"title={_escape_property(title)}")
    return f"::{kind} {','.join(props)}::{_escape_data(message)}"
