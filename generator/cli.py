"""The command line: ``taxogen generate|check|diff|lint|model``, or ``python -m
generator``.

Reads its defaults from ``[tool.taxogen]`` in the project's ``pyproject.toml``
(:mod:`taxogen.settings`: ``taxonomy`` and ``out``, relative to that file,
and the ``lint`` table), says or refuses the code it names
(:mod:`taxogen.trust`), runs
the pipeline (load → validate → name → render) and hands the plan to ``emit``.
Exit status: 0 success; 1 the output folder is out of date (``check``), holds
files taxogen will not overwrite (``generate``), the version bump is too small
(``diff``) or a lint rule failed (``lint``); 2 bad input, reported as
``PATH:LINE:COL: error: ...`` lines on stderr, never as a traceback.

Here: parsing (with :mod:`taxogen.arguments`), the two commands on the
output folder, ``generate`` and ``check``, and the exit; ``diff`` and ``lint``
live in :mod:`taxogen.review`.  Each command imports what it needs when it
runs, so that a no-op ``check`` answered from :mod:`taxogen.memo` costs
little more than the interpreter's start-up.

It runs past 300 lines because each command's outcomes (what ``check``
found, what ``generate`` wrote, or every folder's reason it wrote nothing) are
printed here beside the exit status each gives.
"""

from __future__ import annotations

import contextvars
import gc
import os
import sys
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn, cast

from taxogen import memo, trust
from taxogen.arguments import parser
from taxogen.diagnostics import TaxonomyError, visible
from taxogen.settings import DEFAULT_TARGETS, Plugin, Settings, settings

if TYPE_CHECKING:
    import argparse

    from taxogen import emit
    from taxogen.plugins import PluginError

__all__ = ["main", "report", "run"]


#: The ``--format`` of the command being run (issue 33 §5): how problems are
#: reported, whichever step finds them.
FORMAT: contextvars.ContextVar[str] = contextvars.ContextVar("format", default="text")


class _NoPlugin(Exception):
    """Never raised: what a run without plugins catches in place of PluginError."""


def report(exc: TaxonomyError, shown: str) -> int:
    """Report every problem of ``exc``; exit status 2.

    As text, each on stderr and a summary; with ``--format github``, each an
    annotation at its file and line on stdout (GitHub reads workflow commands
    there), the summary on stderr; with ``--format json``, one document on
    stdout, ``{"errors": [{file, line, col, key, message}]}``.
    """
    fmt = FORMAT.get()
    if fmt == "json":
        import json

        errors = [
            {
                "file": d.path,
                "line": d.position.line if d.position else None,
                "col": d.position.col if d.position else None,
                "key": d.key,
                "message": d.message,
            }
            for d in exc.diagnostics
        ]
        print(json.dumps({"errors": errors}, indent=2))
        return 2
    for diagnostic in exc.diagnostics:
        if fmt == "github":
            from taxogen.annotation import annotation

            title = diagnostic.key or "taxogen"
            print(
                annotation(
                    "error",
                    diagnostic.path,
                    diagnostic.position,
                    title,
                    visible(diagnostic.message),
                )
            )
        else:
            print(diagnostic.format(), file=sys.stderr)
    print(exc.summary(shown), file=sys.stderr)
    return 2


def run() -> NoReturn:
    """The ``taxogen`` command (``python -m taxogen``): :func:`main`, then exit.

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


def main(argv: Sequence[str] | None = None, *, use_memo: bool = True) -> int:
    """Run the command line ``argv`` (default ``sys.argv[1:]``); the exit status.

    ``use_memo``: read and write the memo of :mod:`taxogen.memo`, as the
    ``taxogen`` process does.  A caller in the same process that changes what a
    plan holds in a way no input shows (patches a target, say) turns it off.
    """
    args = parser().parse_args(argv)
    # A run builds one large tree of objects (nodes, model, plan) and leaves
    # little cyclic garbage: the cycle collector would only walk that tree again
    # and again as it grows (about 12% of a cold generate of 10,000 codes), so
    # it is paused for the run.  Memory stays bounded: reference counting still
    # frees everything acyclic at once.
    collecting = gc.isenabled()
    gc.disable()
    try:
        return _run(args, use_memo)
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
            "(nothing was written; set TAXOGEN_DEBUG=1 for the traceback "
            "and please report it)",
            file=sys.stderr,
        )
        return 70
    finally:
        if collecting:
            gc.enable()


def _run(args: argparse.Namespace, use_memo: bool) -> int:
    FORMAT.set(getattr(args, "format", "text"))
    if args.command == "schema":  # the format's, whatever the project
        from taxogen.taxonomy_schema import encode

        sys.stdout.flush()
        sys.stdout.buffer.write(encode())
        return 0
    if args.command == "init":  # reads no settings: it writes them
        from taxogen.starter import init

        return init(args.dir)
    try:
        config = settings(Path.cwd())
    except TaxonomyError as exc:
        return report(
            exc, exc.diagnostics[0].path if exc.diagnostics else "pyproject.toml"
        )
    # Only the command run is imported: a no-op check answered from the memo
    # imports neither Jinja nor PyYAML nor the pipeline (see taxogen.memo).
    if args.command == "diff":
        from taxogen.review import diff_command

        return diff_command(args, config)
    taxonomy: Path = args.taxonomy or config.taxonomy
    if args.command == "model":
        return _model(
            taxonomy,
            schema=args.schema,
            waiting=args.taxonomy is not None,
            options=config.options,
        )
    if args.command == "lint":
        from taxogen.review import lint_command

        return lint_command(
            taxonomy,
            config,
            strict=args.strict,
            fmt=args.format,
            waiting=args.taxonomy is not None,
        )
    out: Path = args.out or config.out
    targets = tuple(args.target) if args.target else config.targets
    refuser = trust.refuser(args.no_plugins)
    refused = refuser and trust.refusal(config, args.plugin or (), refuser)
    if refused:
        print(refused, file=sys.stderr)
        return 2
    with_plugins: tuple[Plugin, ...] = ()
    if config.plugins or args.plugin:
        from taxogen.plugins import chosen  # imports subprocess: only when needed

        try:
            with_plugins = chosen(config.plugins, args.plugin or (), out)
        except ValueError as exc:
            print(f"taxogen: error: {visible(str(exc))}", file=sys.stderr)
            return 2
    said = trust.notice(config, with_plugins)
    if said:  # first, before anything runs: a reviewer must see it
        print(said, file=sys.stderr)
    # The taxonomy is read once: the memo's digest and the parser see the same
    # bytes, and a pipe (which can be read only once) works.
    from taxogen import sourcefile

    try:
        source = sourcefile.read(
            taxonomy, str(taxonomy), waiting=args.taxonomy is not None
        )
    except TaxonomyError as exc:
        return report(exc, str(taxonomy))
    # So is the templates folder: the digest and the render see the same bytes.
    templates = None
    if config.templates is not None:
        from taxogen import template_folder  # imports neither Jinja nor YAML

        try:
            within = None if config.source is None else config.source.parent
            templates = template_folder.read(config.templates, within)
        except TaxonomyError as exc:
            return report(exc, str(config.templates))
    # A plugin is a program the memo cannot see into: with one, always render.
    digest = ""
    if use_memo and not with_plugins:
        digest = memo.key(
            memo.inputs(
                taxonomy=source,
                shown=str(taxonomy),
                targets=targets,
                options=_options(config, targets, every=templates is not None),
                templates=None if templates is None else templates.files,
            )
        )
    if digest:
        # A no-op generate has nothing to write or remove either (the folder
        # holds the manifest this run would write, and every file it lists):
        # it says what a run that rendered and compared would say.
        count = memo.up_to_date(out, digest)
        if count is not None:
            if args.quiet:
                pass
            elif args.command == "check":
                print(f"{out}: up to date ({count} files)")
            else:
                print(f"0 written, {count - 1} unchanged, 0 removed")
            return 0
    from taxogen.emit import MANIFEST, overlaps
    from taxogen.pipeline import build
    from taxogen.user_templates import TemplateProblem

    # The plugins' module (subprocess, selectors...: some 4 ms) only when a
    # plugin runs; without one, nothing raises PluginError.
    plugin_failed: type[Exception] = _NoPlugin
    if with_plugins:
        from taxogen.plugins import PluginError as plugin_failed

    try:
        plan, made = build(
            taxonomy, targets, with_plugins, templates, config.options, source
        )
    except TemplateProblem as exc:
        return report(exc, str(config.templates))
    except TaxonomyError as exc:
        return report(exc, str(taxonomy))
    except plugin_failed as exc:
        failed = cast("PluginError", exc)  # _NoPlugin is never raised
        for message in failed.messages:
            print(f"taxogen: plugin {failed.name}: error: {message}", file=sys.stderr)
        print("taxogen: nothing was written", file=sys.stderr)
        return 2
    for plugin, _, warnings in made:
        for message in warnings:
            print(f"taxogen: plugin {plugin.name}: warning: {message}", file=sys.stderr)
    if digest:
        memo.record(digest, plan[MANIFEST])
    folders = [(out, plan), *((plugin.out, p) for plugin, p, _ in made)]
    clashes = overlaps(folders)
    if clashes:
        for clash in clashes:
            print(f"taxogen: error: {clash}", file=sys.stderr)
        print("taxogen: nothing was written", file=sys.stderr)
        return 2
    if args.command == "check":
        return max(_check(where, each, args.quiet) for where, each in folders)
    return _generate(folders, force=args.force, quiet=args.quiet)


def _options(
    config: Settings, targets: tuple[str, ...] | None, *, every: bool = False
) -> dict[str, str]:
    """The options of the ``targets`` selected (None: the default ones) in
    ``config``, as the memo digests them: ``<target>.<option>`` → the value as
    JSON.  A target not selected writes nothing, so its options change nothing,
    unless ``every``: user templates see the model document, whose names
    every target's options may change."""
    selected = (
        config.options if every else (DEFAULT_TARGETS if targets is None else targets)
    )
    given = [
        (f"{name}.{key}", value)
        for name, options in config.options.items()
        if name in selected
        for key, value in options.items()
    ]
    if not given:
        return {}  # the usual case: json is not imported on a no-op check
    import json

    return {key: json.dumps(value, sort_keys=True) for key, value in given}


def _model(
    taxonomy: Path,
    *,
    schema: bool,
    waiting: bool,
    options: Mapping[str, Mapping[str, object]],
) -> int:
    """``taxogen model``: the model document of ``taxonomy`` (or its schema) as JSON
    on stdout, UTF-8 whatever the locale; the targets' ``options`` rename the
    packages they name."""
    from taxogen import document
    from taxogen.pipeline import load_names

    if schema:
        value: object = document.schema()
    else:
        try:
            value = document.document(load_names(taxonomy, waiting=waiting), options)
        except TaxonomyError as exc:
            return report(exc, str(taxonomy))
    sys.stdout.flush()
    sys.stdout.buffer.write(document.encode(value))
    return 0


def _waiting(out: Path) -> Callable[[str], None]:
    def say(holder: str) -> None:
        print(
            f"taxogen: waiting for {out}: another run holds its lock ({holder})",
            file=sys.stderr,
        )

    return say


def _folder_error(
    out: Path, exc: emit.FolderError | emit.UnsafePath, *, last: bool = True
) -> int:
    """A folder taxogen cannot use at all (exit 2): a link, a FIFO, another owner;
    ``last``: then say that nothing was written."""
    from taxogen import emit

    if isinstance(exc, emit.UnsafePath):
        where = visible(str(out / exc.path))
        print(
            f"{where}: error: {exc.reason}; taxogen reads and writes only "
            "regular files, never through a link",
            file=sys.stderr,
        )
    else:
        print(f"taxogen: error: {visible(str(exc))}", file=sys.stderr)
    if last:
        print("taxogen: nothing was written", file=sys.stderr)
    return 2


#: The most lines of diff ``check`` prints as text (docs "The command line"):
#: past them it says how many more there are.
CHECK_DIFF_LINES = 200


def _check(out: Path, plan: emit.Plan, quiet: bool) -> int:
    """``check`` of one folder: 0 when it is what ``generate`` would write (said
    unless ``quiet``), else 1, saying first what to run and how many files
    differ, then which (and, as text, their diffs up to ``CHECK_DIFF_LINES``),
    whatever ``quiet``; as ``--format`` says."""
    from taxogen import emit

    try:
        difference = emit.compare(out, plan, waiting=_waiting(out))
    except (emit.FolderError, emit.UnsafePath) as exc:
        return _folder_error(out, exc)
    fmt = FORMAT.get()
    if fmt == "json":
        import json

        document = {
            "out": str(out),
            "clean": difference.clean,
            "missing": list(difference.missing),
            "stale": list(difference.stale),
            "extra": list(difference.extra),
            "untrusted": [path for path, _why in difference.untrusted],
            "writer": difference.writer,
        }
        if difference.clean and quiet:
            return 0
        print(json.dumps(document, indent=2))
        return 0 if difference.clean else 1
    if difference.clean:
        if not quiet:
            print(f"{out}: up to date ({len(plan)} files)")
        return 0
    listed = [
        *(("missing", path) for path in difference.missing),
        *(("stale", path) for path in difference.stale),
        *(("extra", path) for path in difference.extra),
        *(("untrusted", path) for path, _why in difference.untrusted),
    ]
    if difference.writer is not None and difference.writer != emit.writer():
        # The likeliest reason, so before anything else (issue 33 §1).
        print(
            f"{out} was written by {visible(difference.writer)}; this is "
            f"{emit.writer()}, which writes it otherwise"
        )
    count = "1 file differs" if len(listed) == 1 else f"{len(listed)} files differ"
    print(f"{out} is out of date ({count}); run `taxogen generate`")
    if fmt == "github":
        from taxogen.annotation import annotation

        for label, path in listed:
            shown = str(out / path)
            what = f"{shown} is {label}: run `taxogen generate`"
            print(annotation("error", visible(shown), None, label, what))
        return 1
    for label, path in listed:
        if label != "untrusted":
            print(f"{label}: {visible(str(out / path))}")
    for path, why in difference.untrusted:
        print(
            f"untrusted: {visible(str(out / path))} "
            f"(a manifest entry taxogen will not act on: {why})"
        )
    _print_diffs(difference.diffs)
    print(f"taxogen: {out} is out of date; run `taxogen generate`", file=sys.stderr)
    return 1


def _print_diffs(diffs: tuple[str, ...]) -> None:
    """The diffs, the manifest's aside (its lines are digests no one reads), at
    most ``CHECK_DIFF_LINES`` lines, then how many were left out."""
    from taxogen.emit import MANIFEST

    lines = [
        line
        for diff in diffs
        if not diff.startswith((f"--- {MANIFEST}", f"--- a/{MANIFEST}"))
        for line in diff.splitlines(keepends=True)
    ]
    sys.stdout.writelines(lines[:CHECK_DIFF_LINES])
    if len(lines) > CHECK_DIFF_LINES:
        left = len(lines) - CHECK_DIFF_LINES
        print(f"... {left} more lines of diff not shown (at most {CHECK_DIFF_LINES})")


def _generate(
    folders: list[tuple[Path, emit.Plan]], *, force: bool, quiet: bool
) -> int:
    """``generate``: every folder checked before any is written (emit.write_folders)."""
    from taxogen import emit

    try:
        reports = emit.write_folders(folders, force=force, waiting=_waiting)
    except emit.Refused as exc:
        return _refused(exc)
    except OSError as exc:
        print(
            f"taxogen: error: cannot write {exc.filename or folders[0][0]}: "
            f"{exc.strerror}",
            file=sys.stderr,
        )
        return 1
    except Exception as exc:  # a bug while writing: main's "nothing was written"
        if os.environ.get("TAXOGEN_DEBUG"):  # may be false here
            raise
        print(
            f"taxogen: internal error: {type(exc).__name__}: {exc} (files may "
            "have been written; set TAXOGEN_DEBUG=1 for the traceback and please "
            "report it)",
            file=sys.stderr,
        )
        return 70
    for (out, _), done in zip(folders, reports):
        for path, why in done.untrusted:
            print(
                f"{visible(str(out / path))}: warning: manifest entry dropped, "
                f"file left alone ({why})",
                file=sys.stderr,
            )
        if not quiet:
            for path in done.written:
                print(f"wrote     {out / path}")
            for path in done.removed:
                print(f"removed   {out / path}")
            print(
                f"{len(done.written)} written, {len(done.unchanged)} unchanged, "
                f"{len(done.removed)} removed"
            )
    return 0


def _refused(exc: emit.Refused) -> int:
    """Every folder's problem, then that nothing was written: exit 2 if a folder
    cannot be used at all, else 1 (files in the way)."""
    from taxogen import emit

    conflicts: list[emit.Conflict] = []
    unusable = False
    for out, problem in exc.problems:
        if isinstance(problem, emit.EmitError):
            conflicts += problem.conflicts
            for conflict in problem.conflicts:
                where = visible(str(out / conflict.path))
                print(f"{where}: error: {conflict.reason}", file=sys.stderr)
        else:
            unusable = True
            _folder_error(out, problem, last=False)
    if not conflicts:
        print("taxogen: nothing was written", file=sys.stderr)
    elif any(not conflict.forceable for conflict in conflicts):
        print(
            "taxogen: refusing to overwrite or remove files; nothing was written "
            "(move the files taxogen did not write out of the way; --force never "
            "overwrites them)",
            file=sys.stderr,
        )
    else:
        print(
            "taxogen: refusing to overwrite or remove files; nothing was written "
            "(use --force to overwrite them)",
            file=sys.stderr,
        )
    return 2 if unusable else 1
