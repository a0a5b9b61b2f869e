"""Trust: the code a configuration file makes ``generate`` and ``check`` use.

Plugins (``[tool.taxogen.plugins]``) are programs run as the user, and user
templates (``templates``) are code too, if sandboxed: a repository's
pyproject.toml names them, so a plain ``check`` in a cloned repository uses
them.  A run that does says so on its first line of stderr, naming the file
and its keys, so that a reviewer sees it.  ``--no-plugins``, or
``TAXOGEN_NO_PLUGINS`` set to anything but empty or ``0`` (for CI on untrusted
pull requests), refuses them: a run that needs them then exits 2 before
anything is run or written.  Plugins given with ``--plugin`` were typed by the
user and are not announced; under ``--no-plugins`` they are refused too.
"""

from __future__ import annotations

import os
from collections.abc import Sequence

from taxogen.diagnostics import visible
from taxogen.settings import Plugin, Settings

__all__ = ["VARIABLE", "notice", "refusal", "refuser"]

#: The environment variable that means ``--no-plugins``.
VARIABLE = "TAXOGEN_NO_PLUGINS"


def refuser(flag: bool) -> str | None:
    """What refuses plugins and user templates in this run (``--no-plugins``,
    then the variable), or None."""
    if flag:
        return "--no-plugins"
    if os.environ.get(VARIABLE, "") not in ("", "0"):
        return VARIABLE
    return None


def refusal(config: Settings, options: Sequence[str], refuser: str) -> str | None:
    """The error of a run that needs what ``refuser`` refuses: the configured
    plugins and templates of ``config`` and the ``--plugin`` ``options``; None
    if it needs neither."""
    reasons = []
    configured = _configured(config, config.plugins)
    if configured:
        reasons.append(
            f"{_source(config)} configures {_kinds(configured)} "
            f"({'; '.join(text for _, text in configured)})"
        )
    if options:
        names = ", ".join(visible(option.partition("=")[0]) for option in options)
        reasons.append(
            f"--plugin names {'a plugin' if len(options) == 1 else 'plugins'} "
            f"({names})"
        )
    if not reasons:
        return None
    return (
        f"taxogen: error: {' and '.join(reasons)}, which {refuser} refuses; "
        "nothing was run or written"
    )


def notice(config: Settings, plugins: Sequence[Plugin]) -> str | None:
    """The line that says which of ``plugins`` (those the run uses) and which
    user templates come from the configuration file; None if none do."""
    configured = _configured(config, plugins)
    if not configured:
        return None
    return (
        f"taxogen: using {_kinds(configured)} configured in {_source(config)} "
        f"({'; '.join(text for _, text in configured)}); "
        f"--no-plugins or {VARIABLE}=1 refuses them"
    )


def _configured(config: Settings, plugins: Sequence[Plugin]) -> list[tuple[str, str]]:
    """Each plugin of ``plugins`` that is the configuration's own (not one a
    ``--plugin`` put in its place), then the templates: its kind, and its key
    with what it names."""
    found = []
    own = [plugin for plugin in plugins if any(plugin is c for c in config.plugins)]
    if own:
        import shlex  # here: only a configuration with plugins needs it

        for plugin in own:
            command = visible(shlex.join(plugin.command))
            found.append(("plugins", f"tool.taxogen.plugins.{plugin.name}: {command}"))
    if config.templates is not None:
        found.append(
            (
                "user templates",
                f"tool.taxogen.templates: {visible(str(config.templates))}",
            )
        )
    return found


def _kinds(configured: list[tuple[str, str]]) -> str:
    return " and ".join(dict.fromkeys(kind for kind, _ in configured))


def _source(config: Settings) -> str:
    return visible(str(config.source or "pyproject.toml"))
