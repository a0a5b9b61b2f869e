"""Starter: ``taxogen init [DIR]``, a first taxonomy and its settings.

Writes the two files of this folder, ``taxonomy.yaml`` (one domain, a few
codes, one with typed details and a message template, comments that teach the
format) and ``taxogen.toml``, into the folder given, named after it.  It
refuses to overwrite anything: an existing file of either name, or a
``pyproject.toml`` there that configures taxogen already, is an error (exit 2)
and nothing is written.  The starter is validated before it is written, so
what ``init`` writes always generates and checks cleanly; a folder whose name
makes no valid taxonomy name (``type`` would make a base class ``TypeError``,
a Python builtin) gets the name ``app``.
"""

from __future__ import annotations

import os
import re
import sys
import tomllib
from pathlib import Path

from taxogen.diagnostics import TaxonomyError

__all__ = ["FILES", "init", "starter"]

HERE = Path(__file__).resolve().parent
#: The files ``init`` writes, in the order it writes them.
FILES = ("taxonomy.yaml", "taxogen.toml")
#: The name of the starter when the folder's makes none.
FALLBACK_NAME = "app"
_SNAKE = re.compile(r"[a-z][a-z0-9]*(_[a-z0-9]+)*")


def _name(folder: Path) -> str:
    """A taxonomy name from the folder's: lower snake case, or the fallback."""
    words = re.sub(r"[^a-z0-9]+", "_", folder.name.lower()).strip("_")
    return words if _SNAKE.fullmatch(words) and len(words) <= 40 else FALLBACK_NAME


def starter(name: str) -> dict[str, str]:
    """The starter's files for the taxonomy ``name``: file name → text."""
    title = " ".join(word.capitalize() for word in name.split("_"))
    base = "".join(word.capitalize() for word in name.split("_")) + "Error"
    text = (HERE / "taxonomy.yaml").read_text(encoding="utf-8")
    text = text.replace("NAME", name).replace("TITLE", title)
    text = text.replace("BASEError", base)
    return {
        "taxonomy.yaml": text,
        "taxogen.toml": (HERE / "taxogen.toml").read_text(encoding="utf-8"),
    }


def _valid(text: str) -> bool:
    from taxogen.pipeline import load_names

    try:
        load_names(Path("taxonomy.yaml"), text.encode("utf-8"))
    except TaxonomyError:
        return False
    return True


def _configured(pyproject: Path) -> bool:
    """Whether ``pyproject`` has a ``[tool.taxogen]`` table (an unreadable
    one counts as configured: init will not guess)."""
    if not os.path.lexists(pyproject):
        return False
    try:
        tool = tomllib.loads(pyproject.read_text(encoding="utf-8")).get("tool")
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return True
    return isinstance(tool, dict) and "taxogen" in tool


def init(folder: Path) -> int:
    """Write the starter into ``folder`` (made if missing); the exit status."""
    shown = folder.as_posix()
    taken = [name for name in FILES if os.path.lexists(folder / name)]
    if _configured(folder / "pyproject.toml"):
        taken.append("pyproject.toml (its [tool.taxogen])")
    if taken:
        print(
            f"taxogen: error: {shown} has {' and '.join(taken)} already; "
            "init writes only into a project that has neither",
            file=sys.stderr,
        )
        return 2
    files = starter(_name(folder.resolve()))
    if not _valid(files["taxonomy.yaml"]):
        files = starter(FALLBACK_NAME)
    try:
        folder.mkdir(parents=True, exist_ok=True)
        _write_new(folder, files)
    except OSError as exc:
        print(f"taxogen: error: {shown}: {exc.strerror}", file=sys.stderr)
        return 2
    print(
        f"wrote {' and '.join((folder / name).as_posix() for name in FILES)}; "
        "next: edit the taxonomy, then run taxogen generate"
    )
    return 0


def _write_new(folder: Path, files: dict[str, str]) -> None:
    """Create every file, none existing before (O_EXCL: a link planted in the
    meantime is refused too); on a failure, remove those this call made."""
    made: list[Path] = []
    try:
        for name in FILES:
            path = folder / name
            handle = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
            made.append(path)
            with open(handle, "w", encoding="utf-8", newline="\n") as file:
                file.write(files[name])
    except OSError:
        for path in made:
            path.unlink(missing_ok=True)
        raise
