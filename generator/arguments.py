"""Arguments: the grammar of the ``taxogen`` command line, and its help texts.

One :class:`argparse.ArgumentParser` with a subcommand per command
(``generate``, ``check``, ``diff``, ``lint``, ``init``, ``schema``, ``model``);
:mod:`taxogen.cli` parses with it and runs the command.  Kept apart so that
the grammar reads in one place.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import taxogen
from taxogen.settings import DEFAULT_TARGETS, TARGET_NAMES

__all__ = ["parser"]


#: How a command reports (issue 33 §5): for people, as GitHub Actions
#: annotations at each problem's file and line, or as one JSON document.
FORMATS = ("text", "github", "json")


def _format(sub: argparse.ArgumentParser) -> None:
    sub.add_argument(
        "--format",
        choices=FORMATS,
        default="text",
        help=(
            "text (default), github (GitHub Actions annotations at each "
            "problem's file and line) or json; errors of the taxonomy and "
            "settings included"
        ),
    )


def parser() -> argparse.ArgumentParser:
    """The parser of every ``taxogen`` command."""
    parser = argparse.ArgumentParser(
        prog="taxogen",
        description=(
            "Generate Python, TypeScript and Markdown"
            " from one taxonomy.yaml of error codes."
        ),
    )
    # The version that writes: a folder written by another says so in ``check``.
    parser.add_argument(
        "--version", action="version", version=f"taxogen {taxogen.__version__}"
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
        _format(sub)
        sub.add_argument("--taxonomy", type=Path, metavar="PATH", help=taxonomy_help)
        sub.add_argument(
            "--out",
            type=Path,
            metavar="DIR",
            help="the output folder (default: from pyproject.toml, else generated)",
        )
        sub.add_argument(
            "--target",
            action="append",
            choices=TARGET_NAMES,
            metavar="NAME",
            help=(
                "generate only this target (repeatable; default: from "
                f"pyproject.toml, else {', '.join(DEFAULT_TARGETS)})"
            ),
        )
        # --plugin under --no-plugins is a contradiction: refused as a usage error.
        plugins = sub.add_mutually_exclusive_group()
        plugins.add_argument(
            "--plugin",
            action="append",
            metavar="NAME=COMMAND:OUT",
            help=(
                "also run this plugin, writing its files to OUT (repeatable; "
                "replaces a plugin of the same NAME in pyproject.toml)"
            ),
        )
        plugins.add_argument(
            "--no-plugins",
            action="store_true",
            help=(
                "run no plugin and render no user template: exit 2 if "
                "pyproject.toml configures any (as TAXOGEN_NO_PLUGINS=1 does)"
            ),
        )
        if name == "generate":
            sub.add_argument(
                "--force",
                action="store_true",
                help="overwrite or remove generated files even if edited by hand",
            )
        sub.add_argument(
            "-q",
            "--quiet",
            action="store_true",
            help=(
                "print nothing on stdout on success"
                + ("" if name == "generate" else " (what is out of date still is)")
            ),
        )
    text = (
        "classify every change from OLD to NEW (breaking, compatible, docs)"
        " and check the version bump"
    )
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
    _format(sub)
    text = "check the taxonomy against the lint rules of [tool.taxogen.lint]"
    sub = commands.add_parser(
        "lint",
        help=text,
        description=text + "; exit 1 on an error (or, with --strict, a warning)",
    )
    sub.add_argument("--taxonomy", type=Path, metavar="PATH", help=taxonomy_help)
    sub.add_argument("--strict", action="store_true", help="warnings fail too")
    _format(sub)
    text = (
        "write a starter taxonomy.yaml and taxogen.toml into DIR (default: the "
        "current folder), overwriting nothing"
    )
    sub = commands.add_parser("init", help=text, description=text)
    _format(sub)
    sub.add_argument(
        "dir", nargs="?", type=Path, default=Path("."), metavar="DIR", help="the folder"
    )
    text = (
        "print the JSON Schema of the taxonomy format, for editors "
        "(# yaml-language-server: $schema=...)"
    )
    _format(commands.add_parser("schema", help=text, description=text))
    text = "print the validated, named model as JSON (what plugins read)"
    sub = commands.add_parser("model", help=text, description=text)
    _format(sub)
    sub.add_argument("--taxonomy", type=Path, metavar="PATH", help=taxonomy_help)
    sub.add_argument(
        "--schema",
        action="store_true",
        help="print the JSON Schema of the model document instead",
    )
    return parser
