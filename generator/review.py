"""Review: the ``diff`` and ``lint`` commands, which read taxonomies and report.

``diff`` classifies every change between two taxonomies (two files, or the
project's against a git revision, :mod:`taxogen.revision`) and
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
from taxogen.annotation import annotation
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
from taxogen.revision import UsageError, taxonomy_at
from taxogen.settings import Settings
from taxogen.source import load_text
from taxogen.validate import validate

__all__ = ["diff_command", "lint_command"]


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
    errors = sum(1 for f in findings if f.level == "error")
    warnings = len(findings) - errors
    failed = errors > 0 or (strict and warnings > 0)
    if fmt == "json":
        listed = [
            {
                "rule": f.rule,
                "level": f.level,
                "message": f.message,
                "line": f.position.line if f.position else None,
                "col": f.position.col if f.position else None,
            }
            for f in findings
        ]
        document = {"file": str(taxonomy), "findings": listed, "failed": failed}
        print(json.dumps(document, indent=2))
        return 1 if failed else 0
    for finding in findings:
        if fmt == "github":
            kind = "error" if finding.level == "error" or strict else "warning"
            print(
                annotation(
                    kind, str(taxonomy), finding.position, finding.rule, finding.message
                )
            )
        else:
            print(finding.format(str(taxonomy)))
    print(
        f"{taxonomy}: {errors} error{'s' if errors != 1 else ''}, "
        f"{warnings} warning{'s' if warnings != 1 else ''}"
        + (" (--strict: warnings fail)" if strict and warnings else ""),
        file=sys.stderr if failed else sys.stdout,
    )
    return 1 if failed else 0


# ------------------------------------------------------------------------ diff
def diff_command(args: argparse.Namespace, config: Settings) -> int:
    """``taxogen diff``: exit 1 when the version bump is too small."""
    try:
        if args.against is not None:
            if args.old is not None:
                raise UsageError("give either OLD NEW or --against GIT_REF, not both")
            new_path: Path = args.taxonomy or config.taxonomy
            text, old_shown = taxonomy_at(args.against, new_path)
        else:
            if args.old is None:
                raise UsageError("give OLD [NEW], or --against GIT_REF")
            new_path = args.new or args.taxonomy or config.taxonomy
            text, old_shown = "", str(args.old)
    except UsageError as exc:
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
                annotation(
                    kind,
                    shown,
                    change.position,
                    f"{change.kind}: {change.rule}",
                    change.message,
                )
            )
        if not version.ok:
            print(
                annotation(
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
            annotation(
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
