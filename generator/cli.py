"""The command line: ``taxogen generate | check | diff | lint`` (also ``python -m generator``).

Reads its defaults from ``[tool.taxogen]`` in the nearest ``pyproject.toml``
(``taxonomy`` and ``out``, relative to that file, and the ``lint`` table), runs
the pipeline (load → validate → name → render) and hands the plan to ``emit``.
Exit status: 0 success; 1 the output folder is out of date (``check``), holds
files taxogen will not overwrite (``generate``), the version bump is too small
(``diff``) or a lint rule failed (``lint``); 2 bad input, reported as
``PATH:LINE:COL: error: ...`` lines on stderr, never as a traceback.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, NoReturn

from generator import emit
from generator.diagnostics import TaxonomyError, visible
from generator.diff import (
    BREAKING,
    COMPATIBLE,
    DOCS,
    Change,
    VersionCheck,
    check_version,
    diff,
)
from generator.lint import lint
from generator.naming import Names, name_taxonomy
from generator.pipeline import build_plan, load_names, load_taxonomy
from generator.settings import Settings, settings
from generator.source import MAX_BYTES, load_text
from generator.validate import validate

__all__ = ["main", "run"]


class _UsageError(Exception):
    pass


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="taxogen",
        description="Generate Python, TypeScript and Markdown from one taxonomy.yaml of error codes.",
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    taxonomy_help = (
        "the taxonomy file (default: from pyproject.toml, else taxonomy.yaml)"
    )
    for name, text in (
        ("generate", "write every output file (only those whose bytes change)"),
        (
            "check",
            "exit 1 unless the output folder is exactly what generate would write",
        ),
    ):
        sub = commands.add_parser(name, help=text, description=text)
        sub.add_argument("--taxonomy", type=Path, metavar="PATH", help=taxonomy_help)
        sub.add_argument(
            "--out",
            type=Path,
            metavar="DIR",
            help="the output folder (default: from pyproject.toml, else generated)",
        )
        if name == "generate":
            sub.add_argument(
                "--force",
                action="store_true",
                help="overwrite or remove generated files even if edited by hand",
            )
            sub.add_argument(
                "-q", "--quiet", action="store_true", help="print nothing on success"
            )
    text = "classify every change from OLD to NEW (breaking, compatible, docs) and check the version bump"
    sub = commands.add_parser(
        "diff", help=text, description=text + "; exit 1 when the bump is too small"
    )
    sub.add_argument(
        "old", nargs="?", type=Path, metavar="OLD", help="the old taxonomy file"
    )
    sub.add_argument(
        "new",
        nargs="?",
        type=Path,
        metavar="NEW",
        help="the new taxonomy file (default: the project's)",
    )
    sub.add_argument(
        "--against",
        metavar="GIT_REF",
        help="compare the taxonomy at this git revision with the working one",
    )
    sub.add_argument(
        "--taxonomy",
        type=Path,
        metavar="PATH",
        help=taxonomy_help + " (with --against)",
    )
    sub.add_argument(
        "--format",
        choices=("text", "json", "github"),
        default="text",
        help="text (default), json, or GitHub Actions annotations",
    )
    text = "check the taxonomy against the lint rules of [tool.taxogen.lint]"
    sub = commands.add_parser(
        "lint",
        help=text,
        description=text + "; exit 1 on an error (or, with --strict, a warning)",
    )
    sub.add_argument("--taxonomy", type=Path, metavar="PATH", help=taxonomy_help)
    sub.add_argument("--strict", action="store_true", help="warnings fail too")
    sub.add_argument(
        "--format",
        choices=("text", "github"),
        default="text",
        help="text (default) or GitHub Actions annotations",
    )
    return parser


def _report(exc: TaxonomyError, shown: str) -> int:
    for diagnostic in exc.diagnostics:
        print(diagnostic.format(), file=sys.stderr)
    print(exc.summary(shown), file=sys.stderr)
    return 2


def run() -> NoReturn:
    """The ``taxogen`` command (and ``python -m generator``): :func:`main`, then exit at once.

    A normal exit tears the interpreter down, freeing every object of the run
    one by one (some 50 ms after a taxonomy of 10,000 codes) for nothing, as
    every file is written and closed by then.  Like mypy's ``hard_exit``, this
    flushes the standard streams and leaves; a failed flush (a closed pipe) ends
    in exit status 120, as it would in Python's own shutdown.
    """
    code = main()
    for stream in (sys.stdout, sys.stderr):
        try:
            if stream is not None:
                stream.flush()
        except (OSError, ValueError):
            code = code or 120
    os._exit(code)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line ``argv`` (default: ``sys.argv[1:]``); return the exit status."""
    args = _parser().parse_args(argv)
    # A run builds one large tree of objects (nodes, model, plan) and leaves
    # little cyclic garbage: the cycle collector would only walk that tree again
    # and again as it grows (about 12% of a cold generate of 10,000 codes), so
    # it is paused for the run.  Memory stays bounded: reference counting still
    # frees everything acyclic at once.
    collecting = gc.isenabled()
    gc.disable()
    try:
        return _run(args)
    except KeyboardInterrupt:
        print("taxogen: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # Whoever read the output stopped early (`taxogen diff ... | head`): no
        # bug of taxogen's, and nothing left to say. 141 is a shell's SIGPIPE status.
        return 141
    except Exception as exc:  # a bug in taxogen: say so in one line, not a traceback
        if os.environ.get("TAXOGEN_DEBUG"):
            raise
        print(
            f"taxogen: internal error: {type(exc).__name__}: {exc} "
            "(nothing was written; set TAXOGEN_DEBUG=1 for the traceback and please report it)",
            file=sys.stderr,
        )
        return 70
    finally:
        if collecting:
            gc.enable()


def _run(args: argparse.Namespace) -> int:
    try:
        config = settings(Path.cwd())
    except TaxonomyError as exc:
        return _report(
            exc, exc.diagnostics[0].path if exc.diagnostics else "pyproject.toml"
        )
    if args.command == "diff":
        return _diff(args, config)
    taxonomy: Path = args.taxonomy or config.taxonomy
    if args.command == "lint":
        return _lint(taxonomy, config, strict=args.strict, fmt=args.format)
    out: Path = args.out or config.out
    try:
        plan = build_plan(taxonomy)
    except TaxonomyError as exc:
        return _report(exc, str(taxonomy))
    if args.command == "check":
        return _check(out, plan)
    return _generate(out, plan, force=args.force, quiet=args.quiet)


# ------------------------------------------------------------------------ lint
def _lint(taxonomy: Path, config: Settings, *, strict: bool, fmt: str) -> int:
    rules = config.lint
    try:
        model = load_taxonomy(taxonomy)
        name_taxonomy(model, str(taxonomy))
    except TaxonomyError as exc:
        return _report(exc, str(taxonomy))
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
        f"{taxonomy}: {errors} error{'s' if errors != 1 else ''}, {warnings} warning{'s' if warnings != 1 else ''}"
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


def _git_taxonomy(ref: str, taxonomy: Path) -> tuple[str, str]:
    """The text of ``taxonomy`` at git revision ``ref``, and how to name it.

    The ref is user text: one that could pass for an option, or that does not
    name a commit, is refused before git reads anything, and git only ever
    sees it after ``--end-of-options``.
    """
    if not ref or ref.startswith("-") or not ref.isprintable():
        raise _UsageError(
            f"--against {_shown(ref)}: expected a git revision (a branch, tag or commit)"
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


def _diff(args: argparse.Namespace, config: Settings) -> int:
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
    try:
        if args.against is not None:
            root, problems = load_text(text, old_shown)
            old_model = validate(root, old_shown, Path(old_shown).name, problems)
            old = name_taxonomy(old_model, old_shown)
        else:
            old = load_names(Path(old_shown))
    except TaxonomyError as exc:
        return _report(exc, old_shown)
    try:
        new = load_names(new_path)
    except TaxonomyError as exc:
        return _report(exc, str(new_path))
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
            f"{old_shown} → {shown}: {counts[BREAKING]} breaking, {counts[COMPATIBLE]} compatible, {counts[DOCS]} docs-only"
        )
        print(version.message, file=sys.stdout if version.ok else sys.stderr)
    return 0 if version.ok else 1


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


def _waiting(out: Path) -> Callable[[str], None]:
    def say(holder: str) -> None:
        print(
            f"taxogen: waiting for {out}: another run holds its lock ({holder})",
            file=sys.stderr,
        )

    return say


def _folder_error(out: Path, exc: emit.FolderError | emit.UnsafePath) -> int:
    """A folder taxogen cannot use at all (exit 2): a link, a FIFO, another owner."""
    if isinstance(exc, emit.UnsafePath):
        where = visible(str(out / exc.path))
        print(
            f"{where}: error: {exc.reason}; taxogen reads and writes only regular files, never through a link",
            file=sys.stderr,
        )
    else:
        print(f"taxogen: error: {visible(str(exc))}", file=sys.stderr)
    print("taxogen: nothing was written", file=sys.stderr)
    return 2


def _check(out: Path, plan: emit.Plan) -> int:
    try:
        difference = emit.compare(out, plan, waiting=_waiting(out))
    except (emit.FolderError, emit.UnsafePath) as exc:
        return _folder_error(out, exc)
    if difference.clean:
        print(f"{out}: up to date ({len(plan)} files)")
        return 0
    for label, paths in (
        ("missing", difference.missing),
        ("stale", difference.stale),
        ("extra", difference.extra),
    ):
        for path in paths:
            print(f"{label}: {out / path}")
    for path, why in difference.untrusted:
        print(
            f"untrusted: {visible(str(out / path))} (a manifest entry taxogen will not act on: {why})"
        )
    for diff in difference.diffs:
        sys.stdout.write(diff)
    print(
        f"taxogen: {out} is out of date; run `taxogen generate` (or `make generate`)",
        file=sys.stderr,
    )
    return 1


def _generate(out: Path, plan: emit.Plan, *, force: bool, quiet: bool) -> int:
    try:
        report = emit.write(out, plan, force=force, waiting=_waiting(out))
    except (emit.FolderError, emit.UnsafePath) as exc:
        return _folder_error(out, exc)
    except emit.EmitError as exc:
        for conflict in exc.conflicts:
            print(
                f"{visible(str(out / conflict.path))}: error: {conflict.reason}",
                file=sys.stderr,
            )
        if any(not conflict.forceable for conflict in exc.conflicts):
            advice = "move the files taxogen did not write out of the way; --force never overwrites them"
        else:
            advice = "use --force to overwrite them"
        print(f"taxogen: {exc}; nothing was written ({advice})", file=sys.stderr)
        return 1
    except OSError as exc:
        print(
            f"taxogen: error: cannot write {exc.filename or out}: {exc.strerror}",
            file=sys.stderr,
        )
        return 1
    for path, why in report.untrusted:
        print(
            f"{visible(str(out / path))}: warning: manifest entry dropped, file left alone ({why})",
            file=sys.stderr,
        )
    if not quiet:
        for path in report.written:
            print(f"wrote     {out / path}")
        for path in report.removed:
            print(f"removed   {out / path}")
        print(
            f"{len(report.written)} written, {len(report.unchanged)} unchanged, {len(report.removed)} removed"
        )
    return 0
