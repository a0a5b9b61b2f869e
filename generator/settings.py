"""Settings: taxogen's defaults from ``[tool.taxogen]`` of the nearest pyproject.toml.

The command line reads ``taxonomy`` and ``out`` (paths relative to the
pyproject.toml that names them), ``templates`` (a folder of user templates,
:mod:`generator.user_templates`), ``targets`` (which outputs to generate),
``go_module`` (the module path of the go target), the ``plugins`` table
(programs that generate more, :mod:`generator.plugins`) and the ``lint`` table
from here.  Every value is checked for its type, and a wrong one is reported
where it stands, ``pyproject.toml:LINE:COL: error: tool.taxogen.out: expected
a string, got integer 3``: the standard library's TOML reader gives values without
positions, so :func:`generator.tomlpos.locate` finds them in the text again.

It runs past 300 lines because each key of ``[tool.taxogen]`` is checked here,
each with a message of its own that names what was expected.
"""

from __future__ import annotations

import dataclasses
import os
import re
import tomllib
from pathlib import Path
from typing import Any

from generator.diagnostics import Diagnostic, Position, TaxonomyError, describe_value
from generator.lint_config import LintConfig, LintConfigError
from generator.tomlpos import locate

__all__ = [
    "DEFAULT_TARGETS",
    "PLUGIN_TIMEOUT",
    "TARGET_NAMES",
    "Plugin",
    "Settings",
    "settings",
]

_LIMIT = 1024 * 1024  # a pyproject.toml larger than this is not one a person wrote


#: The name of every built-in target, in planning order (``targets.TARGETS``,
#: which a test holds this to): here so that the command line can check a name
#: without importing the targets.
TARGET_NAMES = (
    "python",
    "typescript",
    "docs",
    "schema",
    "conformance",
    "openapi",
    "go",
)
#: The targets generated when no selection is made: every one but ``openapi``
#: and ``go``.
DEFAULT_TARGETS = ("python", "typescript", "docs", "schema", "conformance")


#: How long a plugin may run, in seconds, unless its ``timeout`` says otherwise,
#: and the longest ``timeout`` may say (an hour: longer is a hang, not a plugin).
PLUGIN_TIMEOUT = 60.0
MAX_PLUGIN_TIMEOUT = 3600.0
#: A plugin's name: it names the plugin in every message, and in ``--plugin``.
PLUGIN_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_-]{0,63}")
_NAMING = "a letter, then letters, digits, _ or -, at most 64"
#: A Go module path ``go_module`` may name (go.mod's ``module``): slash-separated
#: elements of letters, digits and ``-._~``, the first lower case with no ``_``
#: or ``~``, none empty, ``.`` or ``..``, none starting or ending with a dot.
_GO_ELEMENT = r"[A-Za-z0-9_~-](?:[A-Za-z0-9._~-]*[A-Za-z0-9_~-])?"
GO_MODULE = re.compile(rf"[a-z0-9-](?:[a-z0-9.-]*[a-z0-9-])?(?:/{_GO_ELEMENT})*")


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class Plugin:
    """A program that generates files from the model document (see
    :mod:`generator.plugins`): ``command`` is run as given (no shell), its files
    go to the folder ``out``."""

    name: str
    command: tuple[str, ...]
    out: Path
    timeout: float = PLUGIN_TIMEOUT


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class Settings:
    """What the command line uses when no option says otherwise."""

    taxonomy: Path
    out: Path
    lint: LintConfig
    #: The targets to generate, as named in ``targets``; None: every one.
    targets: tuple[str, ...] | None = None
    #: The plugins of ``[tool.taxogen.plugins]``, in the file's order.
    plugins: tuple[Plugin, ...] = ()
    #: The folder of user templates (``templates``), if any.
    templates: Path | None = None
    #: The go target's module path (``go_module``), if set.
    go_module: str | None = None


def settings(start: Path) -> Settings:
    """The settings of the nearest pyproject.toml above ``start`` with a
    ``[tool.taxogen]``.

    Raises :class:`TaxonomyError` (reported like a taxonomy's problems, exit 2)
    when that file cannot be read or holds a value of the wrong type.
    """
    for folder in (start, *start.parents):
        pyproject = folder / "pyproject.toml"
        if not pyproject.is_file():
            continue
        shown = _relative(pyproject).as_posix()
        text = _read(pyproject, shown)
        try:
            document = tomllib.loads(text)
        except tomllib.TOMLDecodeError as exc:
            raise _error(
                shown, _decode_position(str(exc)), "", _decode_message(str(exc))
            )
        if "tool" not in document:
            continue
        tool = document["tool"]
        if not isinstance(tool, dict):
            raise _wrong(shown, text, ("tool",), "a table", tool)
        if "taxogen" not in tool:
            continue
        return _from_section(folder, shown, text, tool["taxogen"])
    return Settings(
        taxonomy=Path("taxonomy.yaml"),
        out=Path("generated"),
        lint=LintConfig.from_table({}),
    )


def _from_section(folder: Path, shown: str, text: str, section: object) -> Settings:
    if not isinstance(section, dict):
        raise _wrong(shown, text, ("tool", "taxogen"), "a table", section)
    problems: list[Diagnostic] = []
    paths: dict[str, Path] = {}
    for key, default in (("taxonomy", "taxonomy.yaml"), ("out", "generated")):
        value = section.get(key, default)
        where = ("tool", "taxogen", key)
        if not isinstance(value, str):
            problems.append(
                _diagnostic(shown, text, where, _expected("a string", value))
            )
        elif not value or "\0" in value:
            problems.append(
                _diagnostic(shown, text, where, "expected a path, got " + repr(value))
            )
        else:
            paths[key] = _relative(folder / value)
    lint_table = section.get("lint", {})
    lint = None
    if not isinstance(lint_table, dict):
        problems.append(
            _diagnostic(
                shown,
                text,
                ("tool", "taxogen", "lint"),
                _expected("a table", lint_table),
            )
        )
    else:
        try:
            lint = LintConfig.from_table(lint_table)
        except LintConfigError as exc:
            at = ("tool", "taxogen", "lint", *exc.key)
            problems.append(_diagnostic(shown, text, at, str(exc)))
    targets = _targets(section, shown, text, problems)
    plugins = _plugins(folder, section, shown, text, problems)
    templates = None
    if "templates" in section:
        value = section["templates"]
        if not isinstance(value, str) or not value or "\0" in value:
            problems.append(
                _diagnostic(
                    shown,
                    text,
                    ("tool", "taxogen", "templates"),
                    "expected a folder's path, got " + _got(value),
                )
            )
        else:
            templates = _relative(folder / value)
    go_module = None
    if "go_module" in section:
        value = section["go_module"]
        if (
            not isinstance(value, str)
            or len(value) > 256
            or GO_MODULE.fullmatch(value) is None
        ):
            problems.append(
                _diagnostic(
                    shown,
                    text,
                    ("tool", "taxogen", "go_module"),
                    "expected a Go module path (as example.com/acme/errors), got "
                    + (repr(value) if isinstance(value, str) else _got(value)),
                )
            )
        else:
            go_module = value
    if problems or lint is None:
        raise TaxonomyError(problems)
    return Settings(
        taxonomy=paths["taxonomy"],
        out=paths["out"],
        lint=lint,
        targets=targets,
        plugins=plugins,
        templates=templates,
        go_module=go_module,
    )


def _plugins(
    folder: Path,
    section: dict[str, Any],
    shown: str,
    text: str,
    problems: list[Diagnostic],
) -> tuple[Plugin, ...]:
    """``[tool.taxogen.plugins]``: ``NAME = {command = [...], out = "DIR"}``, and
    optionally ``timeout`` (seconds)."""
    table = section.get("plugins", {})
    where: tuple[str, ...] = ("tool", "taxogen", "plugins")
    if not isinstance(table, dict):
        problems.append(_diagnostic(shown, text, where, _expected("a table", table)))
        return ()
    found: list[Plugin] = []
    for name, entry in table.items():
        at = (*where, name)
        count = len(problems)
        if not PLUGIN_NAME.fullmatch(name):
            problems.append(
                _diagnostic(
                    shown, text, at, f"{name!r} is not a plugin name ({_NAMING})"
                )
            )
        if not isinstance(entry, dict):
            problems.append(_diagnostic(shown, text, at, _expected("a table", entry)))
            continue
        for key in sorted(set(entry) - {"command", "out", "timeout"}):
            problems.append(
                _diagnostic(
                    shown,
                    text,
                    (*at, key),
                    f"unknown key {key!r} (expected command, out, timeout)",
                )
            )
        command = entry.get("command")
        if (
            not isinstance(command, list)
            or not command
            or not all(isinstance(part, str) and part for part in command)
        ):
            problems.append(
                _diagnostic(
                    shown,
                    text,
                    (*at, "command"),
                    "expected a non-empty list of non-empty strings, got "
                    + _got(command),
                )
            )
        out = entry.get("out")
        if not isinstance(out, str) or not out or "\0" in out:
            problems.append(
                _diagnostic(
                    shown,
                    text,
                    (*at, "out"),
                    "expected a folder's path, got " + _got(out),
                )
            )
        timeout = entry.get("timeout", PLUGIN_TIMEOUT)
        if (
            isinstance(timeout, bool)
            or not isinstance(timeout, (int, float))
            or not 0 < timeout <= MAX_PLUGIN_TIMEOUT
        ):
            problems.append(
                _diagnostic(
                    shown,
                    text,
                    (*at, "timeout"),
                    f"expected seconds, more than 0 and at most {MAX_PLUGIN_TIMEOUT:g}"
                    f", got {describe_value(timeout)}",
                )
            )
        if len(problems) == count:
            found.append(
                Plugin(
                    name=name,
                    command=tuple(command),  # type: ignore[arg-type]
                    out=_relative(folder / str(out)),
                    timeout=float(timeout),
                )
            )
    return tuple(found)


def _targets(
    section: dict[str, Any], shown: str, text: str, problems: list[Diagnostic]
) -> tuple[str, ...] | None:
    """``targets``: a non-empty list of built-in target names (None if absent)."""
    if "targets" not in section:
        return None
    value = section["targets"]
    where = ("tool", "taxogen", "targets")
    if not isinstance(value, list) or not value:
        what = "a non-empty list of target names"
        problems.append(
            _diagnostic(shown, text, where, f"expected {what}, got {_got(value)}")
        )
        return None
    names: list[str] = []
    for index, name in enumerate(value):
        if name in TARGET_NAMES:
            names.append(name)
            continue
        got = repr(name) if isinstance(name, str) else describe_value(name)
        message = (
            f"item {index + 1}: expected one of {', '.join(TARGET_NAMES)}, got {got}"
        )
        problems.append(_diagnostic(shown, text, where, message))
    return tuple(names)


def _read(pyproject: Path, shown: str) -> str:
    try:
        with open(pyproject, "rb") as handle:
            data = handle.read(_LIMIT + 1)
    except OSError as exc:
        raise _error(shown, None, "", f"cannot read file: {exc.strerror}") from None
    if len(data) > _LIMIT:
        raise _error(shown, None, "", f"file is larger than {_LIMIT // 1024} KiB")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise _error(shown, None, "", "file is not valid UTF-8") from None


def _relative(path: Path) -> Path:
    try:
        return Path(os.path.relpath(path))
    except ValueError:  # another drive on Windows
        return path


def _got(value: object) -> str:
    """A value as a message shows it; an absent key (None) as "nothing"."""
    if value is None:
        return "nothing"
    return "an empty list" if value == [] else describe_value(value)


def _expected(what: str, value: object) -> str:
    return f"expected {what}, got {describe_value(value)}"


def _error(
    shown: str, position: Position | None, key: str, message: str
) -> TaxonomyError:
    return TaxonomyError(
        [Diagnostic(path=shown, position=position, key=key, message=message)]
    )


def _diagnostic(
    shown: str, text: str, where: tuple[str, ...], message: str
) -> Diagnostic:
    return Diagnostic(
        path=shown, position=locate(text, where), key=".".join(where), message=message
    )


def _wrong(
    shown: str, text: str, where: tuple[str, ...], what: str, value: object
) -> TaxonomyError:
    return TaxonomyError([_diagnostic(shown, text, where, _expected(what, value))])


def _decode_position(message: str) -> Position | None:
    found = re.search(r"\(at line (\d+), column (\d+)\)", message)
    if found is None:
        return None
    return Position(line=int(found.group(1)), col=int(found.group(2)))


def _decode_message(message: str) -> str:
    return "invalid TOML: " + re.sub(
        r"\s*\(at (line \d+, column \d+|end of document)\)", "", message
    )
