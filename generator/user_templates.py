"""User templates: a folder of the user's that overrides and adds to the templates.

``templates = "taxogen-templates"`` in ``[tool.taxogen]`` names the folder.  A
template there with the relative name of a built-in one (``docs/errors.md.j2``,
or a part another includes, such as ``python/class_details.j2``) is used
instead of it; any other ``.j2`` file under a target's folder (``docs/``,
``python/``, ``typescript/``) is rendered as an extra output of that target, at
the same relative path without ``.j2`` (``docs/catalogue.md.j2`` →
``docs/catalogue.md``), with the context the target's own templates get and the
model document as ``model``.  A file whose name starts with ``_`` is a part for
``{% include %}`` and ``{% import %}`` only, never rendered by itself.

A mistake in a user template (a syntax error, a name the context lacks, Python
that black cannot read) is a :class:`TemplateProblem` naming the template's file
and line, reported like a taxonomy's problems (exit 2, nothing written).
"""

from __future__ import annotations

import dataclasses
import os
import types
from collections.abc import Iterable
from pathlib import Path

import jinja2

from generator.diagnostics import Diagnostic, Position, TaxonomyError

__all__ = ["TemplateProblem", "UserTemplates", "problem", "scan"]


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class UserTemplates:
    """What a user's template folder holds, sorted by what taxogen does with it."""

    folder: Path
    #: The built-in templates it replaces, by relative name.
    overrides: tuple[str, ...]
    #: Its extra outputs: (target name, template name), the output path being
    #: the template name without ``.j2``.
    extras: tuple[tuple[str, str], ...]


class TemplateProblem(TaxonomyError):
    """A user template could not be rendered; its diagnostic names file and line."""


def scan(folder: Path, builtin: Iterable[str], targets: Iterable[str]) -> UserTemplates:
    """The templates in ``folder``: those that replace one of ``builtin`` (relative
    names) and the extra outputs of the ``targets`` (names of targets that render
    templates).  TemplateProblem if the folder cannot be used."""
    shown = str(folder)
    if not folder.is_dir():
        raise TemplateProblem(
            [_diagnostic(shown, None, "the templates folder is not a folder")]
        )
    known = set(builtin)
    folders = set(targets)
    overrides: list[str] = []
    extras: list[tuple[str, str]] = []
    problems: list[Diagnostic] = []
    for root, subfolders, files in os.walk(folder):
        subfolders.sort()
        for name in sorted(files):
            path = Path(root, name)
            relative = path.relative_to(folder).as_posix()
            if relative in known:
                overrides.append(relative)
                continue
            if not name.endswith(".j2") or name.startswith("_"):
                continue  # data or a part for include: used only when named
            target = relative.split("/", 1)[0]
            if "/" not in relative or target not in folders:
                problems.append(
                    _diagnostic(
                        str(path),
                        None,
                        "a template outside the folder of a target that renders "
                        f"templates ({', '.join(sorted(folders))}); name it "
                        "_<name>.j2 if it is only included",
                    )
                )
                continue
            if path.is_symlink():
                problems.append(_diagnostic(str(path), None, "a link, not a file"))
                continue
            extras.append((target, relative))
    if problems:
        raise TemplateProblem(problems)
    return UserTemplates(
        folder=folder, overrides=tuple(overrides), extras=tuple(extras)
    )


def _diagnostic(path: str, line: int | None, message: str) -> Diagnostic:
    position = None if line is None else Position(line=line, col=1)
    return Diagnostic(path=path, position=position, key="", message=message)


def problem(exc: Exception, folder: Path, template: str) -> TemplateProblem | None:
    """``exc``, raised while rendering ``template``, as a problem of the user's
    template it comes from, or None if no template of ``folder`` is to blame.

    A syntax error knows its file and line; any other error is placed by the
    deepest frame of the traceback that runs a template of the folder (Jinja
    maps each frame of a compiled template back to the template's line).
    """
    base = str(folder.resolve())
    if isinstance(exc, jinja2.TemplateSyntaxError):
        name = exc.filename or ""
        if _inside(name, base):
            return TemplateProblem([_diagnostic(name, exc.lineno, exc.message or "")])
        return None
    found: tuple[str, int] | None = None
    trace: types.TracebackType | None = exc.__traceback__
    while trace is not None:
        filename = trace.tb_frame.f_code.co_filename
        if _inside(filename, base):
            found = (filename, trace.tb_lineno)
        trace = trace.tb_next
    if found is None:
        return None
    message = str(exc) or type(exc).__name__
    if isinstance(exc, jinja2.UndefinedError):
        message = f"{message} (the context of {template} has no such name)"
    return TemplateProblem([_diagnostic(found[0], found[1], message)])


def _inside(filename: str, base: str) -> bool:
    if not filename:
        return False
    resolved = os.path.realpath(filename)
    return resolved == base or resolved.startswith(base + os.sep)
