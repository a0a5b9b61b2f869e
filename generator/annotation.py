"""Annotation: a finding as a GitHub Actions workflow command, at its file and line.

``::error file=taxonomy.yaml,line=12,col=7,title=...::message`` makes GitHub
show the finding on the pull request's diff.  GitHub's rules for the command's
parts: a property value escapes ``%``, line breaks, ``:`` and ``,``; the message
escapes ``%`` and line breaks.
"""

from __future__ import annotations

__all__ = ["annotation"]


def _escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(text: str) -> str:
    return _escape_data(text).replace(":", "%3A").replace(",", "%2C")


def annotation(kind: str, path: str, position: object, title: str, message: str) -> str:
    """A workflow command (``kind``: error, warning or notice) that annotates
    ``path`` at ``position`` (anything with ``line`` and ``col``, or None)."""
    props = [f"file={_escape_property(path)}"]
    line = getattr(position, "line", None)
    if line is not None:
        props += [f"line={line}", f"col={getattr(position, 'col', 1)}"]
    props.append(f"title={_escape_property(title)}")
    return f"::{kind} {','.join(props)}::{_escape_data(message)}"
