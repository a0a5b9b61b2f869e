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

The folder is read once (:mod:`taxogen.template_folder`) and its templates
are served from those bytes (:class:`FolderLoader`), under their files' names,
to the sandbox of :mod:`taxogen.targets.sandbox`.  A mistake in a user
template (a syntax error, a name the context lacks, Python that black cannot
read, a bound of the sandbox) is a :class:`TemplateProblem` naming the
template's file and line, reported like a taxonomy's problems (exit 2, nothing
written).
"""

from __future__ import annotations

import dataclasses
import os
import types
from collections.abc import Callable, Iterable
from pathlib import Path

import jinja2
import jinja2.loaders

from taxogen.diagnostics import Diagnostic
from taxogen.template_folder import TemplateFolder, TemplateProblem, diagnostic

__all__ = ["FolderLoader", "TemplateProblem", "UserTemplates", "problem", "scan"]


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class UserTemplates:
    """What a user's template folder holds, sorted by what taxogen does with it."""

    #: The folder as read once (:func:`taxogen.template_folder.read`): every
    #: template renders from these bytes.
    contents: TemplateFolder
    #: The built-in templates it replaces, by relative name.
    overrides: tuple[str, ...]
    #: Its extra outputs: (target name, template name), the output path being
    #: the template name without ``.j2``.
    extras: tuple[tuple[str, str], ...]

    @property
    def folder(self) -> Path:
        return self.contents.folder

    def filename(self, name: str) -> str:
        """The file name a template of the folder is shown and compiled under."""
        return os.path.join(self.contents.folder, *name.split("/"))


def scan(
    contents: TemplateFolder, builtin: Iterable[str], targets: Iterable[str]
) -> UserTemplates:
    """The templates of the folder read as ``contents``: those that replace one
    of ``builtin`` (relative names) and the extra outputs of the ``targets``
    (names of targets that render templates).  TemplateProblem naming every
    misplaced template."""
    known = set(builtin)
    folders = set(targets)
    overrides: list[str] = []
    extras: list[tuple[str, str]] = []
    problems: list[Diagnostic] = []
    for relative in contents.files:
        if relative in known:
            overrides.append(relative)
            continue
        name = relative.rsplit("/", 1)[-1]
        if not name.endswith(".j2") or name.startswith("_"):
            continue  # data or a part for include: used only when named
        target = relative.split("/", 1)[0]
        if "/" not in relative or target not in folders:
            problems.append(
                diagnostic(
                    str(contents.folder / relative),
                    None,
                    "a template outside the folder of a target that renders "
                    f"templates ({', '.join(sorted(folders))}); name it "
                    "_<name>.j2 if it is only included",
                )
            )
            continue
        extras.append((target, relative))
    if problems:
        raise TemplateProblem(problems)
    return UserTemplates(
        contents=contents, overrides=tuple(overrides), extras=tuple(extras)
    )


class FolderLoader(jinja2.BaseLoader):
    """Jinja's loader for the templates of a folder as read once: the bytes
    :func:`taxogen.template_folder.read` returned, never the disk again, each
    under its file's name (errors and tracebacks point at the file)."""

    def __init__(self, user: UserTemplates) -> None:
        self.user = user

    def get_source(
        self, environment: jinja2.Environment, template: str
    ) -> tuple[str, str, Callable[[], bool]]:
        # Jinja's own spelling rules for a name ("a/./b", no ".."), as the
        # file system loader it replaces applies them.
        name = "/".join(jinja2.loaders.split_template_path(template))
        data = self.user.contents.files.get(name)
        if data is None:
            raise jinja2.TemplateNotFound(template)
        filename = self.user.filename(name)
        try:
            source = data.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise TemplateProblem(
                [diagnostic(filename, None, f"not UTF-8 text ({exc.reason})")]
            ) from None
        return source, filename, _always

    def list_templates(self) -> list[str]:
        return list(self.user.contents.files)


def _always() -> bool:
    return True  # the bytes were read once; they cannot go out of date


def problem(
    exc: Exception, user: UserTemplates, template: str, *, blame: bool = False
) -> TemplateProblem | None:
    """``exc``, raised while rendering ``template``, as a problem of the user's
    template it comes from, or None if no template of ``user`` is to blame.

    A syntax error knows its file and line; any other error is placed by the
    deepest frame of the traceback that runs a template of the folder (Jinja
    maps each frame of a compiled template back to the template's line).  With
    ``blame`` (a bound of the sandbox, memory, recursion), an error no frame
    places is ``template``'s.
    """
    if isinstance(exc, TemplateProblem):
        return exc
    served = {user.filename(name) for name in user.contents.files}
    if isinstance(exc, jinja2.TemplateSyntaxError):
        name = exc.filename or ""
        if name in served:
            return TemplateProblem([diagnostic(name, exc.lineno, exc.message or "")])
        return None
    found: tuple[str, int | None] | None = None
    trace: types.TracebackType | None = exc.__traceback__
    while trace is not None:
        filename = trace.tb_frame.f_code.co_filename
        if filename in served:
            found = (filename, trace.tb_lineno)
        trace = trace.tb_next
    if found is None and blame:
        if template in user.contents.files:
            found = (user.filename(template), None)
        else:
            found = (f"{template} (taxogen's, in the sandbox)", None)
    if found is None:
        return None
    return TemplateProblem([diagnostic(found[0], found[1], _message(exc, template))])


def _message(exc: Exception, template: str) -> str:
    if isinstance(exc, MemoryError):
        return "ran out of memory"
    if isinstance(exc, RecursionError):
        return "recursion too deep (a macro or include that calls itself for ever?)"
    message = str(exc) or type(exc).__name__
    if isinstance(exc, jinja2.UndefinedError):
        message = f"{message} (the context of {template} has no such name)"
    return message
