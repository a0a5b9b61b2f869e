"""Render: the named taxonomy through every target into a plan of files.

A plan maps each output path (relative to the output folder, with ``/``) to the
exact bytes that belong there.  Nothing here touches the output folder:
``generate`` writes a plan and ``check`` compares one, so both see the same
bytes.  What each target writes, and how, is the target's own business
(:mod:`taxogen.targets`); this step only runs them all through one Jinja
environment (:mod:`taxogen.targets.environment`) and says which paths any of
them can ever write (:func:`output_shapes`, which the manifest trusts).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import cast

from taxogen import workers
from taxogen.diagnostics import Diagnostic, TaxonomyError
from taxogen.naming import Names
from taxogen.targets import ENTRIES, every
from taxogen.targets.base import Options, Target, header_lines, render_target
from taxogen.targets.base import output_shapes as _shapes
from taxogen.targets.environment import TEMPLATES, environment
from taxogen.template_folder import TemplateFolder
from taxogen.user_templates import UserTemplates, scan

__all__ = [
    "TEMPLATES",
    "header_lines",
    "output_shapes",
    "render",
    "user_templates",
]


def user_templates(folder: TemplateFolder) -> UserTemplates:
    """The user templates of ``folder`` (as read once), sorted against the
    built-in ones."""
    builtin = {
        path.relative_to(TEMPLATES).as_posix()
        for path in TEMPLATES.rglob("*.j2")
        if "__pycache__" not in path.parts
    }
    return scan(folder, builtin, [t.name for t in every() if t.templates])


def render(
    names: Names,
    targets: Iterable[Target] | None = None,
    user: UserTemplates | None = None,
    options: Mapping[str, Options] | None = None,
    *,
    checks: Sequence[Callable[[], list[Diagnostic]]] = (),
) -> dict[str, bytes]:
    """Render every file of the ``targets`` (None: every target), in a fixed
    order, as bytes, each with its ``options`` (by target name); with ``user``
    templates, through them too, with the model document as ``model``.

    ``checks`` are work shared out with the targets' (:mod:`taxogen.workers`),
    each returning problems: the checks of the names no selected target uses
    (:func:`taxogen.naming.later_checks`).  Their problems, all of them in
    order, are raised before any target's own error."""
    env = environment(user)
    context = None
    if user is not None:
        # Imported here: the model document's types cost a plain run some 15 ms.
        from taxogen import document

        context = {"model": document.document(names, options)}
    chosen = every() if targets is None else tuple(targets)
    run = {target.name for target in chosen}
    generated = tuple(entry for entry in ENTRIES if entry.name in run)
    jobs = [
        functools.partial(
            render_target,
            target,
            names,
            env,
            user=user,
            context=context,
            options=(options or {}).get(target.name, {}),
            generated=generated,
        )
        for target in chosen
    ]
    size = sum(len(domain.codes) for domain in names.domains)
    every_job: list[Callable[[], object]] = [*checks, *jobs]
    # With user templates in one process only: their bounds (docs "Templates":
    # 10 s a template...) hold for the run as stated, not once per process.
    parallel = size >= workers.THRESHOLD and user is None
    try:
        done = workers.run_jobs(
            every_job, parallel=parallel, taken=_taken(chosen, checks)
        )
    except Exception:
        # A target failed (its error raised in order): the checks' problems, if
        # any, are still said first, as a run that checked first would.
        _raise_problems([problem for check in checks for problem in check()])
        raise
    _raise_problems(
        [
            problem
            for found in done[: len(checks)]
            for problem in cast(list[Diagnostic], found)
        ]
    )
    plan: dict[str, bytes] = {}
    for files in done[len(checks) :]:
        plan.update(cast(dict[str, bytes], files))  # a target's job: its files
    return plan


def _taken(chosen: Sequence[Target], checks: Sequence[object]) -> list[int]:
    """The order in which two processes take the jobs of ``checks`` and then
    ``chosen``: the targets by the ``cost`` their target.toml gives (largest
    first, so that the last job to finish is a small one), then the checks."""
    cost = {entry.name: entry.cost for entry in ENTRIES}
    first = len(checks)
    by_cost = sorted(
        range(len(chosen)), key=lambda index: -cost.get(chosen[index].name, 1.0)
    )
    return [*(first + index for index in by_cost), *range(first)]


def _raise_problems(problems: list[Diagnostic]) -> None:
    if problems:
        raise TaxonomyError(problems)


def output_shapes(
    targets: Iterable[Target] | None = None, user: UserTemplates | None = None
) -> tuple[str, ...]:
    """A regular expression for every path ``targets`` (None: every target) can
    write, for any taxonomy (and the extra outputs of ``user`` templates)."""
    extras = () if user is None else user.extras
    return _shapes(every() if targets is None else targets) + tuple(
        re.escape(name.removesuffix(".j2")) for _, name in extras
    )
