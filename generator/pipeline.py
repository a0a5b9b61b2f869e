"""Pipeline: taxonomy file → plan, the whole generator read top to bottom.

load (YAML → nodes with positions) → validate (all errors at once → model) →
name (identifiers per language, clashes refused) → render (templates, Python
finished black-clean) → plan (plus the manifest).  Nothing here writes; the
plan is what ``generate`` writes and ``check`` compares.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from pathlib import Path

from taxogen import emit, sourcefile, template_folder
from taxogen.diagnostics import Diagnostic
from taxogen.model import Taxonomy
from taxogen.naming import Names, later_checks, name_taxonomy
from taxogen.render import output_shapes, render, user_templates
from taxogen.settings import Plugin
from taxogen.source import load_bytes
from taxogen.template_folder import TemplateFolder
from taxogen.targets import languages, select
from taxogen.targets.base import Options
from taxogen.validate import validate

__all__ = [
    "PluginPlan",
    "build",
    "build_plan",
    "load_names",
    "load_taxonomy",
]

#: A plugin, the plan of its output folder, and the warnings it reported.
PluginPlan = tuple[Plugin, emit.Plan, list[str]]


def load_taxonomy(
    path: Path, source: bytes | None = None, *, waiting: bool = False
) -> Taxonomy:
    """The taxonomy at ``path`` (whose bytes are ``source`` if the caller has read
    them already; ``waiting``: see :func:`sourcefile.read`), validated;
    TaxonomyError with every problem if not."""
    display = str(path)
    if source is None:
        source = sourcefile.read(path, display, waiting=waiting)
    root, problems = load_bytes(source, display)
    return validate(root, display, path.name, problems)


def load_names(
    path: Path,
    source: bytes | None = None,
    *,
    waiting: bool = False,
    later: Collection[str] = (),
) -> Names:
    """The taxonomy at ``path`` (see :func:`load_taxonomy`) with its identifiers
    (the checks of the targets in ``later`` left to the caller: see
    :func:`name_taxonomy`)."""
    taxonomy = load_taxonomy(path, source, waiting=waiting)
    return name_taxonomy(taxonomy, str(path), later=later)


def _unrendered(targets: Iterable[str] | None) -> tuple[str, ...]:
    """The targets with names of their own (:func:`targets.languages`) that a
    plan of ``targets`` does not render: their names are checked all the same,
    beside the rendering (issue 34: a Go clash is refused when Go is off)."""
    chosen = {target.name for target in select(targets)}
    return tuple(name for name, _ in languages() if name not in chosen)


def build_plan(
    path: Path,
    targets: Iterable[str] | None = None,
    options: Mapping[str, Options] | None = None,
    source: bytes | None = None,
) -> emit.Plan:
    """Every output file of the ``targets`` named (None: the default ones) for
    the taxonomy at ``path``, manifest included; ``options`` are the targets'
    options by target name (``[tool.taxogen.<target>]`` as the settings checked
    it: a setting of the project's rather than of the taxonomy).

    The manifest trusts the paths of every target, selected or not, so that the
    files of a target no longer selected are removed as any obsolete file is.
    """
    later = _unrendered(targets)
    names = load_names(path, source, later=later)
    return _plan(names, targets, None, options, _checks(names, later, path))


def _checks(
    names: Names, later: Collection[str], path: Path
) -> list[Callable[[], list[Diagnostic]]]:
    """The checks ``name_taxonomy`` left for later, as work for the render."""
    return later_checks(names, later, str(path))


def _plan(
    names: Names,
    targets: Iterable[str] | None,
    templates: TemplateFolder | None,
    options: Mapping[str, Options] | None,
    checks: Sequence[Callable[[], list[Diagnostic]]],
) -> emit.Plan:
    user = None if templates is None else user_templates(templates)
    files = render(names, select(targets), user, options, checks=checks)
    return emit.Plan.of(names.taxonomy.name, files, output_shapes(None, user))


def build(
    path: Path,
    targets: Iterable[str] | None,
    with_plugins: Sequence[Plugin],
    templates: Path | TemplateFolder | None = None,
    options: Mapping[str, Options] | None = None,
    source: bytes | None = None,
) -> tuple[emit.Plan, list[PluginPlan]]:
    """:func:`build_plan` (through the user's ``templates`` folder, if any: a path
    to read, or a folder :func:`template_folder.read` has read), and the plan of
    each plugin's output folder.

    Every plugin runs, on the model document, before anything is written; one
    that fails raises :class:`plugins.PluginError`.  A user template that fails
    raises :class:`TemplateProblem`, a TaxonomyError naming its file and line.
    """
    later = _unrendered(targets)
    names = load_names(path, source, later=later)
    if isinstance(templates, Path):  # read once, here, and rendered from the bytes
        templates = template_folder.read(templates)
    plan = _plan(names, targets, templates, options, _checks(names, later, path))
    if not with_plugins:
        return plan, []
    from taxogen import document, plugins  # only with plugins: see render.render

    model = document.encode(document.document(names, options))
    made: list[PluginPlan] = []
    for plugin in with_plugins:
        # The manifest of a plugin's folder trusts the paths it answers now and
        # the shapes it declares, nothing else: see docs "What taxogen touches".
        answer = plugins.run(plugin, model)
        folder = emit.Plan.of(names.taxonomy.name, answer.files, answer.shapes)
        made.append((plugin, folder, answer.warnings))
    return plan, made
