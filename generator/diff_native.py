"""What changed in the native errors a code's error is (issue 30 §6).

Each code present in both taxonomies is compared by what its Python class is,
inherited ``python_bases`` included (its domain's, its parent domains', the top
level's) and each builtin's own bases with them: a builtin the class no longer
is, is breaking (``except FileNotFoundError`` stops catching it), one it now
also is, is compatible (every ``except`` that caught it still does).  Likewise a
sentinel the Go error no longer answers ``errors.Is`` for (``go_is``) is
breaking, one more is compatible.  :mod:`taxogen.diff` turns each finding into
a change classified by its ``RULES``.
"""

from __future__ import annotations

from collections.abc import Iterator

from taxogen.diagnostics import Position
from taxogen.model import Code, Taxonomy
from taxogen.targets.python.reserved import PYTHON_EXCEPTIONS, PYTHON_ROOT_EXCEPTIONS

__all__ = ["native_changes"]


def _builtins(taxonomy: Taxonomy, code: Code) -> set[str]:
    """Every builtin exception the Python class of ``code`` is an instance of,
    by name, but the two roots every error is."""
    named = [
        PYTHON_EXCEPTIONS[name]
        for item in taxonomy.lineage(code)
        for name in item.python_bases
    ]
    return {
        name
        for name, builtin in PYTHON_EXCEPTIONS.items()
        if name not in PYTHON_ROOT_EXCEPTIONS
        and any(issubclass(cls, builtin) for cls in named)
        # EnvironmentError and IOError are OSError: named once, as OSError.
        and builtin.__name__ == name
    }


def native_changes(
    old: Taxonomy, before: Code, new: Taxonomy, after: Code
) -> Iterator[tuple[str, str, Position | None]]:
    """(rule, message, position) for each builtin the Python class of ``before``
    (in ``old``) stops or starts being as ``after`` (in ``new``), and each Go
    sentinel it stops or starts answering."""
    where = f"code {after.code!r}"
    was, now = _builtins(old, before), _builtins(new, after)
    for name in sorted(was - now):
        message = (
            f"{where}: its Python class is no longer a {name} (python_bases), so "
            f"except {name} stops catching it"
        )
        yield "python-base-removed", message, after.position
    for name in sorted(now - was):
        message = f"{where}: its Python class is now also a {name} (python_bases)"
        yield "python-base-added", message, after.position
    for sentinel in before.go_is:
        if sentinel not in after.go_is:
            message = (
                f"{where}: its Go error no longer answers errors.Is for {sentinel}"
            )
            yield "go-is-removed", message, after.position
    for sentinel in after.go_is:
        if sentinel not in before.go_is:
            message = f"{where}: its Go error now answers errors.Is for {sentinel}"
            yield "go-is-added", message, after.position
