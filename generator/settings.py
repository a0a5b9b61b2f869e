"""Settings: taxogen's defaults from ``[tool.taxogen]`` of the project's pyproject.toml.

The project's settings file is the first ``taxogen.toml`` or ``pyproject.toml``
found from the current folder up (a folder's ``taxogen.toml`` first: it holds
the same keys at its top level, for a repository without a pyproject.toml, and
a ``[tool.taxogen]`` in the pyproject.toml beside it is an error, not silently
ignored), a pyproject.toml with ``[tool.taxogen]`` or without (then every
default holds), and the search
never goes past a repository root (a folder holding ``.git``, folder or file),
the user's home, nor into a folder writable by all (a shared temporary folder,
as ``/tmp``, sticky or not): a pyproject.toml above the project is someone else's, and
its plugins and paths must not become the project's (the class of git's
CVE-2022-24765).

The command line reads ``taxonomy`` and ``out`` (paths relative to the
pyproject.toml that names them), ``templates`` (a folder of user templates,
:mod:`taxogen.user_templates`), ``targets`` (which outputs to generate),
each target's options (``[tool.taxogen.<target>]``, checked by the target's
folder, :func:`taxogen.targets.checks`), the ``plugins`` table
(programs that generate more, :mod:`taxogen.plugins`) and the ``lint`` table
from here.  Every value is checked for its type, and a wrong one is reported
where it stands, ``pyproject.toml:LINE:COL: error: tool.taxogen.out: expected
a string, got integer 3``: the standard library's TOML reader gives values without
positions, so :func:`taxogen.tomlpos.locate` finds them in the text again.

It runs past 300 lines because each key of ``[tool.taxogen]`` is checked here,
each with a message of its own that names what was expected.
"""

from __future__ import annotations

import dataclasses
import os
import re
import stat
import tomllib
from pathlib import Path
from collections.abc import Mapping
from typing import Any

from taxogen.diagnostics import Diagnostic, Position, TaxonomyError, describe_value
from taxogen.lint_config import LintConfig, LintConfigError
from taxogen.targets import DEFAULTS, ENTRIES, NAMES, Entry, checks
from taxogen.tomlpos import locate

__all__ = [
    "DEFAULT_TARGETS",
    "PLUGIN_TIMEOUT",
    "TARGET_NAMES",
    "Plugin",
    "Settings",
    "project_file",
    "settings",
]

_LIMIT = 1024 * 1024  # a pyproject.toml larger than this is not one a person wrote
#: The settings file of a repository without a pyproject.toml: the keys of
#: ``[tool.taxogen]`` at its top level.
STANDALONE = "taxogen.toml"
#: The keys of ``[tool.taxogen]`` besides each target's table and the old
#: spellings of its options (:data:`taxogen.targets.ENTRIES`).
KEYS = ("taxonomy", "out", "targets", "templates", "lint", "plugins")


#: The name of every target, in planning order, and those generated when no
#: selection is made: as the targets' folders name them (:mod:`taxogen.targets`
#: reads their small ``target.toml`` files and imports no target), so that the
#: command line can check a name cheaply.
TARGET_NAMES = NAMES
DEFAULT_TARGETS = DEFAULTS


#: How long a plugin may run, in seconds, unless its ``timeout`` says otherwise,
#: and the longest ``timeout`` may say (an hour: longer is a hang, not a plugin).
PLUGIN_TIMEOUT = 60.0
MAX_PLUGIN_TIMEOUT = 3600.0
#: A plugin's name: it names the plugin in every message, and in ``--plugin``.
PLUGIN_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_-]{0,63}")
_NAMING = "a letter, then letters, digits, _ or -, at most 64"


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class Plugin:
    """A program that generates files from the model document (see
    :mod:`taxogen.plugins`): ``command`` is run as given (no shell), its files
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
    #: Each target's options (``[tool.taxogen.<target>]``), as its folder's
    #: ``options.py`` checked them: target name → option → value.
    options: Mapping[str, Mapping[str, object]] = dataclasses.field(
        default_factory=dict
    )
    #: The pyproject.toml these were read from (relative to the current folder,
    #: as shown in messages); None when every value is a default.
    source: Path | None = None


def settings(start: Path) -> Settings:
    """The settings of the project's pyproject.toml (:func:`project_file`) seen
    from the folder ``start``.  A key the section does not know is an error,
    with the key it is closest to.

    Raises :class:`TaxonomyError` (reported like a taxonomy's problems, exit 2)
    when that file cannot be read or holds a value of the wrong type.
    """
    pyproject = project_file(start)
    if pyproject is None:
        return _defaults()
    shown = _relative(pyproject).as_posix()
    document, text = _document(pyproject, shown)
    if pyproject.name == STANDALONE:
        _refuse_both(pyproject.parent / "pyproject.toml")
        return _from_section(pyproject.parent, shown, text, document)
    tool = document.get("tool", {})
    if not isinstance(tool, dict):
        raise _wrong(shown, text, ("tool",), "a table", tool)
    if "taxogen" not in tool:
        return _defaults()
    return _from_section(pyproject.parent, shown, text, tool["taxogen"])


def _document(path: Path, shown: str) -> tuple[dict[str, Any], str]:
    """The TOML document of the settings file ``path``, and its text."""
    text = _read(path, shown)
    try:
        return tomllib.loads(text), text
    except tomllib.TOMLDecodeError as exc:
        raise _error(shown, _decode_position(str(exc)), "", _decode_message(str(exc)))


def _refuse_both(pyproject: Path) -> None:
    """A ``[tool.taxogen]`` in the pyproject.toml beside a taxogen.toml is an
    error: one of the two would be ignored, and which is not obvious."""
    if not os.path.lexists(pyproject):
        return
    shown = _relative(pyproject).as_posix()
    document, text = _document(pyproject, shown)
    tool = document.get("tool")
    if isinstance(tool, dict) and "taxogen" in tool:
        raise TaxonomyError(
            [
                _diagnostic(
                    shown,
                    text,
                    ("tool", "taxogen"),
                    f"{STANDALONE} beside this file configures taxogen too; "
                    "keep one",
                )
            ]
        )


def project_file(start: Path) -> Path | None:
    """The first taxogen.toml or pyproject.toml from ``start`` up (whatever it
    is: the caller reports one that is not a regular file), or None.

    Each folder's taxogen.toml, then its pyproject.toml, is looked for first;
    then the search stops at
    a repository root or the user's home.  A shared temporary folder is never
    looked in at all, ``start`` included: anyone may have put a file there.
    """
    homes: frozenset[str] | None = None
    for folder in (start, *start.parents):
        if _shared(folder):
            return None
        for name in (STANDALONE, "pyproject.toml"):
            if os.path.lexists(folder / name):
                return folder / name
        if os.path.lexists(folder / ".git"):
            return None
        if homes is None:  # only once the search leaves ``start``: rarely
            homes = _homes()
        if str(folder) in homes:
            return None
    return None


def _shared(folder: Path) -> bool:
    """Whether ``folder`` is writable by all (as ``/tmp``, sticky or not): anyone
    could have put a pyproject.toml there."""
    try:
        mode = os.stat(folder).st_mode
    except OSError:
        return False
    return bool(mode & 0o002)


def _homes() -> frozenset[str]:
    """The user's home folder, as written and resolved: ``HOME`` if it is an
    absolute path, and the account's own (from the password database), as a
    CI job may set ``HOME`` elsewhere; an unset, empty or relative ``HOME`` is
    no home at all."""
    found: set[str] = set()
    for home in (os.environ.get("HOME"), _account_home()):
        if home and os.path.isabs(home):
            found.update((os.path.normpath(home), os.path.realpath(home)))
    return frozenset(found)


def _account_home() -> str | None:
    try:
        import pwd  # here: POSIX only, and only when the search climbs
    except ImportError:  # Windows
        return os.environ.get("USERPROFILE")
    try:
        return pwd.getpwuid(os.getuid()).pw_dir
    except KeyError:  # a uid without an account, as in some containers
        return None


def _defaults() -> Settings:
    """Every default: paths relative to the current folder, as they are given."""
    return Settings(
        taxonomy=Path("taxonomy.yaml"),
        out=Path("generated"),
        lint=LintConfig.from_table({}),
    )


def _from_section(folder: Path, shown: str, text: str, section: object) -> Settings:
    if not isinstance(section, dict):
        raise _wrong(shown, text, ("tool", "taxogen"), "a table", section)
    problems: list[Diagnostic] = _unknown(section, shown, text)
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
    options = _options(section, shown, text, problems)
    if problems or lint is None:
        raise TaxonomyError(problems)
    return Settings(
        taxonomy=paths["taxonomy"],
        out=paths["out"],
        lint=lint,
        targets=targets,
        plugins=plugins,
        templates=templates,
        options=options,
        source=Path(shown),
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


def _unknown(section: dict[str, Any], shown: str, text: str) -> list[Diagnostic]:
    """A problem for each key of the section taxogen does not read: a typo
    (``tagets``) would otherwise leave its default in force without a word."""
    known = [*KEYS, *NAMES, *(old for entry in ENTRIES for old, _key in entry.old)]
    problems = []
    for key in section:
        if key in known:
            continue
        from taxogen.validate.hints import close_match  # only on a mistake

        hint = close_match(key, known)
        guess = f" (did you mean {hint!r}?)" if hint else ""
        message = f"unknown key {key!r}{guess}; expected one of {', '.join(known)}"
        problems.append(_diagnostic(shown, text, ("tool", "taxogen", key), message))
    return problems


def _options(
    section: dict[str, Any], shown: str, text: str, problems: list[Diagnostic]
) -> dict[str, dict[str, object]]:
    """Each target's options: its table ``[tool.taxogen.<name>]``, and the old
    spellings its folder names (``go_module`` for ``go.module``), each value
    checked by the target's folder; an option the target does not take is a
    problem that names those it does."""
    found: dict[str, dict[str, object]] = {}
    for entry in ENTRIES:
        given = _given(entry, section, shown, text, problems)
        if not given:
            continue
        allowed = checks(entry)
        values: dict[str, object] = {}
        for key, value, where in given:
            check = allowed.get(key)
            if check is None:
                takes = (
                    f"expected one of {', '.join(sorted(allowed))}"
                    if allowed
                    else "it takes none"
                )
                message: str | None = (
                    f"not an option of the {entry.name} target; {takes}"
                )
            else:
                message = check(value)
            if message is None:
                values[key] = value
            else:
                problems.append(_diagnostic(shown, text, where, message))
        found[entry.name] = values
    return found


def _given(
    entry: Entry,
    section: dict[str, Any],
    shown: str,
    text: str,
    problems: list[Diagnostic],
) -> list[tuple[str, object, tuple[str, ...]]]:
    """The options of ``entry`` the section gives: (option, value, where it
    stands), from its table and from the old spellings in the section itself."""
    given: list[tuple[str, object, tuple[str, ...]]] = []
    table = section.get(entry.name, {})
    here = ("tool", "taxogen", entry.name)
    if not isinstance(table, dict):
        problems.append(_diagnostic(shown, text, here, _expected("a table", table)))
        table = {}
    given += [(key, value, (*here, key)) for key, value in table.items()]
    for old, key in entry.old:
        if old not in section:
            continue
        where = ("tool", "taxogen", old)
        if key in table:
            message = (
                f"the old spelling of tool.taxogen.{entry.name}.{key}, which is "
                "given too; keep one"
            )
            problems.append(_diagnostic(shown, text, where, message))
        else:
            given.append((key, section[old], where))
    return given


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
    """The text of ``pyproject``: a regular file (opened without blocking, so a
    FIFO is refused, not waited on), at most ``_LIMIT`` bytes of UTF-8."""
    try:
        handle = os.open(pyproject, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as exc:
        raise _error(shown, None, "", f"cannot read file: {exc.strerror}") from None
    with open(handle, "rb") as file:
        if not stat.S_ISREG(os.fstat(handle).st_mode):
            raise _error(shown, None, "", "not a regular file")
        try:
            data = file.read(_LIMIT + 1)
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
    if os.path.basename(shown) == STANDALONE:
        # A taxogen.toml holds [tool.taxogen]'s keys at its top level.
        where = where[2:] if where[:2] == ("tool", "taxogen") else where
        message = message.replace("tool.taxogen.", "")
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
