"""Go's options: what ``[tool.taxogen.go]`` may say, each value checked.

``module`` is the module path go.mod declares (else ``<name>-errors``, the npm
package's default name: an npm ``name`` option does not change it);
``go_module`` in ``[tool.taxogen]`` is its old spelling, still read (the
folder's target.toml says so).  The settings read this module only when a
pyproject.toml gives one of them, and it imports nothing of the target's.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping

from taxogen.diagnostics import describe_value

__all__ = ["GO_MODULE", "OPTIONS"]

#: A Go module path (go.mod's ``module``): slash-separated elements of letters,
#: digits and ``-._~``, the first lower case with no ``_`` or ``~``, none empty,
#: ``.`` or ``..``, none starting or ending with a dot.
_GO_ELEMENT = r"[A-Za-z0-9_~-](?:[A-Za-z0-9._~-]*[A-Za-z0-9_~-])?"
GO_MODULE = re.compile(rf"[a-z0-9-](?:[a-z0-9.-]*[a-z0-9-])?(?:/{_GO_ELEMENT})*")


def _module(value: object) -> str | None:
    """Why ``value`` is no module path (None when it is one)."""
    if isinstance(value, str) and len(value) <= 256 and GO_MODULE.fullmatch(value):
        return None
    got = repr(value) if isinstance(value, str) else describe_value(value)
    if value == []:
        got = "an empty list"
    return f"expected a Go module path (as example.com/acme/errors), got {got}"


#: Each target's options, by name: what is wrong with a value (None: nothing).
OPTIONS: Mapping[str, Mapping[str, Callable[[object], str | None]]] = {
    "go": {"module": _module}
}
