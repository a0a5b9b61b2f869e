"""The command line: ``taxogen generate`` and ``taxogen check`` (also ``python -m generator``).

Reads its defaults from ``[tool.taxogen]`` in the nearest ``pyproject.toml``
(``taxonomy`` and ``out``, relative to that file), runs the pipeline
(load → validate → name → render) to a plan and hands the plan to ``emit``.
Exit status: 0 success; 1 the output folder is out of date (``check``) or holds
files taxogen will not overwrite (``generate``); 2 bad input, reported as
``PATH:LINE:COL: error: ...`` lines on stderr, never as a traceback.
"""

from __future__ import annotations

import argparse
import os
import sys
import tomllib
from collections.abc import Sequence
from pathlib import Path

from generator import emit
from generator.diagnostics import TaxonomyError
from generator.pipeline import build_plan

__all__ = ["main"]


class _UsageError(Exception):
    pass


def _config(start: Path) -> tuple[Path, Path]:
    """The default taxonomy and output folder, from the nearest pyproject.toml."""
    for folder in (start, *start.parents):
        pyproject = folder / "pyproject.toml"
        if not pyproject.is_file():
            continue
        try:
            document = tomllib.loads(pyproject.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
            raise _UsageError(f"{pyproject}: cannot read [tool.taxogen]: {exc}") from None
        section = document.get("tool", {}).get("taxogen")
        if section is None:
            continue
        if not isinstance(section, dict):
            raise _UsageError(f"{pyproject}: [tool.taxogen] must be a table")
        taxonomy = section.get("taxonomy", "taxonomy.yaml")
        out = section.get("out", "generated")
        if not isinstance(taxonomy, str) or not isinstance(out, str):
            raise _UsageError(f"{pyproject}: [tool.taxogen] taxonomy and out must be strings")
        return _relative(folder / taxonomy), _relative(folder / out)
    return Path("taxonomy.yaml"), Path("generated")


def _relative(path: Path) -> Path:
    try:
        return Path(os.path.relpath(path))
    except ValueError:  # another drive on Windows
        return path


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="taxogen",
        description="Generate Python, TypeScript and Markdown from one taxonomy.yaml of error codes.",
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name, text in (
        ("generate", "write every output file (only those whose bytes change)"),
        ("check", "exit 1 unless the output folder is exactly what generate would write"),
    ):
        sub = commands.add_parser(name, help=text, description=text)
        sub.add_argument("--taxonomy", type=Path, metavar="PATH", help="the taxonomy file (default: from pyproject.toml, else taxonomy.yaml)")
        sub.add_argument("--out", type=Path, metavar="DIR", help="the output folder (default: from pyproject.toml, else generated)")
        if name == "generate":
            sub.add_argument("--force", action="store_true", help="overwrite or remove generated files even if edited by hand")
            sub.add_argument("-q", "--quiet", action="store_true", help="print nothing on success")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    try:
        default_taxonomy, default_out = _config(Path.cwd())
    except _UsageError as exc:
        print(f"taxogen: error: {exc}", file=sys.stderr)
        return 2
    taxonomy: Path = args.taxonomy or default_taxonomy
    out: Path = args.out or default_out
    try:
        plan = build_plan(taxonomy)
    except TaxonomyError as exc:
        for diagnostic in exc.diagnostics:
            print(diagnostic.format(), file=sys.stderr)
        print(exc.summary(str(taxonomy)), file=sys.stderr)
        return 2
    if args.command == "check":
        return _check(out, plan)
    return _generate(out, plan, force=args.force, quiet=args.quiet)


def _check(out: Path, plan: dict[str, bytes]) -> int:
    difference = emit.compare(out, plan)
    if difference.clean:
        print(f"{out}: up to date ({len(plan)} files)")
        return 0
    for label, paths in (("missing", difference.missing), ("stale", difference.stale), ("extra", difference.extra)):
        for path in paths:
            print(f"{label}: {out / path}")
    for diff in difference.diffs:
        sys.stdout.write(diff)
    print(f"taxogen: {out} is out of date; run `taxogen generate` (or `make generate`)", file=sys.stderr)
    return 1


def _generate(out: Path, plan: dict[str, bytes], *, force: bool, quiet: bool) -> int:
    try:
        report = emit.write(out, plan, force=force)
    except emit.EmitError as exc:
        for conflict in exc.conflicts:
            print(f"{out / conflict.path}: error: {conflict.reason}", file=sys.stderr)
        print(f"taxogen: {exc}; nothing was written (use --force to overwrite)" if exc.conflicts else f"taxogen: error: {exc}", file=sys.stderr)
        return 1
    except OSError as exc:
        print(f"taxogen: error: cannot write {exc.filename or out}: {exc.strerror}", file=sys.stderr)
        return 1
    if not quiet:
        for path in report.written:
            print(f"wrote     {out / path}")
        for path in report.removed:
            print(f"removed   {out / path}")
        print(f"{len(report.written)} written, {len(report.unchanged)} unchanged, {len(report.removed)} removed")
    return 0
