"""Java's options: what ``[tool.taxogen.java]`` may say, each value checked.

``package`` is the Java package of the generated sources (else
``<name>.errors``, the taxonomy's name without underscores): dot-separated
Java identifiers, none a reserved word (``reserved.py``).  The settings read
this module only when a pyproject.toml gives one, and it imports nothing of the
target's.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping

from taxogen.diagnostics import describe_value
from taxogen.targets.java.reserved import JAVA_WORDS

__all__ = ["JAVA_PACKAGE", "OPTIONS"]

#: A Java package name: dot-separated identifiers of ASCII letters, digits, ``_``
#: and ``$``, none starting with a digit.
JAVA_PACKAGE = re.compile(r"[A-Za-z_$][A-Za-z0-9_$]*(?:\.[A-Za-z_$][A-Za-z0-9_$]*)*")


def _package(value: object) -> str | None:
    """Why ``value`` is no Java package name (None when it is one)."""
    if (
        isinstance(value, str)
        and len(value) <= 256
        and JAVA_PACKAGE.fullmatch(value)
        and not JAVA_WORDS.intersection(value.split("."))
    ):
        return None
    got = repr(value) if isinstance(value, str) else describe_value(value)
    return f"expected a Java package name (as com.acme.errors), got {got}"


#: Each target's options, by name: what is wrong with a value (None: nothing).
OPTIONS: Mapping[str, Mapping[str, Callable[[object], str | None]]] = {
    "java": {"package": _package}
}
