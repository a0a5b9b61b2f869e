"""README's table of targets, made from each target's ``target.toml``.

Issue 31 §2: adding a language is its folders and nothing else, so the
README's "What is generated" table is not a list anyone edits: each row is a
target's ``writes`` and ``summary``, in planning order, with "(off by
default)" where it is.  ``make golden`` rewrites the table between its two
markers (:func:`rewrite`), and ``tests/test_targets.py`` fails when the README
holds another.
"""

from __future__ import annotations

from taxogen.targets import ENTRIES

START = "<!-- targets: made by `make golden` from each target's target.toml -->"
END = "<!-- end of targets -->"


def table() -> str:
    """The table, one row per target, between its markers."""
    rows = [START, "| path | target | what |", "| --- | --- | --- |"]
    for entry in ENTRIES:
        target = f"`{entry.name}`" + ("" if entry.default else " (off by default)")
        rows.append(f"| `generated/{entry.writes}` | {target} | {entry.summary} |")
    rows.append(END)
    return "\n".join(rows)


def rewrite(text: str) -> str:
    """``text`` (the README) with its table of targets made anew."""
    start, end = text.index(START), text.index(END) + len(END)
    return text[:start] + table() + text[end:]
