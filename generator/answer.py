"""Answer: what a plugin prints on its standard output, read and checked.

One JSON object::

    {"files": [{"path": "errors.go", "content": "package errors\\n..."}],
     "shapes": ["*.go"],
     "diagnostics": [{"severity": "warning", "message": "..."}]}

``files`` are the plugin's files, each path held to the rules of a manifest
entry (:func:`taxogen.emit.path_problem`); ``shapes``, if given, are globs
(:mod:`taxogen.shapes`) of every path the plugin may write in its folder,
which every path in ``files`` must have, and which the folder's manifest trusts
besides the paths answered; an ``error`` diagnostic fails the plugin, a
``warning`` is shown.  Everything wrong is reported at once, as
:class:`Malformed`; :mod:`taxogen.plugins` names the plugin.
"""

from __future__ import annotations

import dataclasses
import json

from taxogen.diagnostics import visible
from taxogen.emit import path_problem
from taxogen.shapes import MAX_GLOBS, Glob

__all__ = ["Answer", "Malformed", "read"]


class Malformed(Exception):
    """A plugin's answer taxogen will not take: each message one problem."""

    def __init__(self, messages: list[str]) -> None:
        super().__init__(messages[0])
        self.messages = messages


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class Answer:
    """What a plugin answered: its files (path → bytes, UTF-8), the shapes it
    declares (none: only the paths it answers are its own), and its warnings."""

    files: dict[str, bytes]
    shapes: tuple[Glob, ...]
    warnings: list[str]


def read(data: bytes | bytearray) -> Answer:
    """The answer ``data`` holds; :class:`Malformed` with every problem if it is
    not one taxogen takes."""
    try:
        answer = json.loads(data.decode("utf-8"))
    except UnicodeDecodeError:
        raise Malformed(["its answer is not UTF-8"]) from None
    except (ValueError, RecursionError) as exc:
        raise Malformed([f"its answer is not one JSON object ({exc})"]) from None
    if not isinstance(answer, dict):
        raise Malformed(["its answer is not a JSON object"])
    unknown = sorted(set(answer) - {"files", "shapes", "diagnostics"})
    if unknown:
        keys = ", ".join(map(repr, unknown))
        raise Malformed([f"its answer has unknown keys: {keys}"])
    problems: list[str] = []
    warnings = _diagnostics(answer.get("diagnostics", []), problems)
    shapes = _shapes(answer.get("shapes"), problems)
    files = _files(answer.get("files"), shapes, problems)
    if problems:
        raise Malformed(problems)
    return Answer(files=files, shapes=shapes or (), warnings=warnings)


def _diagnostics(diagnostics: object, problems: list[str]) -> list[str]:
    """The warnings of ``diagnostics``; its errors, and what is malformed, are
    added to ``problems``."""
    warnings: list[str] = []
    if not isinstance(diagnostics, list):
        problems.append('"diagnostics" is not a list')
        return warnings
    for index, item in enumerate(diagnostics):
        if (
            not isinstance(item, dict)
            or set(item) != {"severity", "message"}
            or item["severity"] not in ("error", "warning")
            or not isinstance(item["message"], str)
        ):
            problems.append(
                f"diagnostic {index + 1}: expected "
                '{"severity": "error" | "warning", "message": "..."}'
            )
        elif item["severity"] == "error":
            problems.append(visible(item["message"]))
        else:
            warnings.append(visible(item["message"]))
    return warnings


def _shapes(shapes: object, problems: list[str]) -> tuple[Glob, ...] | None:
    """The globs of ``"shapes"`` (None if the answer has none); what is malformed
    is added to ``problems``."""
    if shapes is None:
        return None
    if not isinstance(shapes, list) or len(shapes) > MAX_GLOBS:
        problems.append(f'"shapes" is not a list of at most {MAX_GLOBS} globs')
        return ()
    globs: list[Glob] = []
    for index, text in enumerate(shapes):
        if not isinstance(text, str):
            problems.append(f"shape {index + 1}: expected a glob, a string")
            continue
        try:
            globs.append(Glob.parse(text))
        except ValueError as exc:
            problems.append(f"shape {index + 1}: {_shown(text)}: {exc}")
    return tuple(globs)


def _files(
    entries: object, shapes: tuple[Glob, ...] | None, problems: list[str]
) -> dict[str, bytes]:
    """The files of ``"files"`` (path → UTF-8 bytes); a path that taxogen would not
    write, or outside the ``shapes`` declared, is added to ``problems``."""
    files: dict[str, bytes] = {}
    if not isinstance(entries, list):
        problems.append('"files" is not a list')
        return files
    for index, item in enumerate(entries):
        if (
            not isinstance(item, dict)
            or set(item) != {"path", "content"}
            or not isinstance(item["path"], str)
            or not isinstance(item["content"], str)
        ):
            problems.append(
                f'file {index + 1}: expected {{"path": "...", "content": "..."}}'
            )
            continue
        path, content = item["path"], item["content"]
        problem = path_problem(path)
        if problem is None and shapes is not None:
            if not any(shape.fullmatch(path) for shape in shapes):
                problem = 'not of a shape the plugin declares in "shapes"'
        if problem is not None:
            problems.append(f"file {index + 1}: {_shown(path)}: {problem}")
        elif path in files:
            problems.append(f"file {index + 1}: {_shown(path)}: listed twice")
        else:
            try:
                files[path] = content.encode("utf-8")
            except UnicodeEncodeError:
                problems.append(
                    f"file {index + 1}: {_shown(path)}: content is not valid Unicode"
                )
    return files


def _shown(path: str) -> str:
    return visible(json.dumps(path, ensure_ascii=False))
