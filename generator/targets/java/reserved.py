"""Java's reserved names: what no Java name the java target generates may be.

Java's keywords (JLS 17 §3.9: the reserved keywords, ``_`` among them, and the
contextual keywords) and literals (§3.10.3, §3.10.8: ``true``, ``false``,
``null``): a details field that is one is spelt with a trailing ``_`` (its
record component and accessor), a package segment may be none of them.
``tests/targets/java/test_java_names.py`` asks javac to compile each as an
identifier.  A class name may not be one of the names the generated package
declares itself, nor a ``java.lang`` type its sources name unqualified.
"""

from __future__ import annotations

__all__ = [
    "JAVA_CONTEXTUAL",
    "JAVA_KEYWORDS",
    "JAVA_LANG_USED",
    "JAVA_LITERALS",
    "JAVA_PACKAGE_NAMES",
    "JAVA_RECORD_METHODS",
    "JAVA_WORDS",
    "java_reserved_reason",
]

# JLS 17 §3.9, the reserved keywords (``const`` and ``goto`` unused, ``_`` since
# Java 9).
JAVA_KEYWORDS = frozenset(
    """abstract assert boolean break byte case catch char class const continue
    default do double else enum extends final finally float for goto if implements
    import instanceof int interface long native new package private protected public
    return short static strictfp super switch synchronized this throw throws
    transient try void volatile while _""".split()
)
# JLS 17 §3.9, the contextual keywords: identifiers except where the grammar
# gives them a meaning (``var``, ``yield``, ``record``, ``sealed`` and
# ``permits`` are not type names; ``yield`` is no unqualified method call).
JAVA_CONTEXTUAL = frozenset(
    """exports module non-sealed open opens permits provides record requires sealed
    to transitive uses var with yield""".split()
)
# JLS 17 §3.10.3 (boolean literals) and §3.10.8 (the null literal).
JAVA_LITERALS = frozenset({"true", "false", "null"})
#: What no identifier the target writes may be.
JAVA_WORDS = JAVA_KEYWORDS | JAVA_CONTEXTUAL | JAVA_LITERALS
# The methods of a details record besides its components' accessors (its own
# toMap and from, java.lang.Object's, and Record's): a field so spelt gets a _.
JAVA_RECORD_METHODS = frozenset(
    """toMap from equals hashCode toString getClass notify notifyAll wait clone
    finalize""".split()
)
# The classes the generated package declares besides the taxonomy's.
JAVA_PACKAGE_NAMES = frozenset({"Code", "Domain", "Errors", "Registry"})
# The java.lang types the generated sources name without their package: a class
# of the package so named would stand for it.
JAVA_LANG_USED = frozenset(
    """Boolean Class Deprecated Double Long Object Override RuntimeException String
    SuppressWarnings Throwable""".split()
)


def java_reserved_reason(name: str) -> str | None:
    """Why ``name`` cannot be a class of the generated Java package (or None)."""
    if name in JAVA_PACKAGE_NAMES:
        return "is already defined by the generated Java package"
    if name in JAVA_LANG_USED:
        return "would shadow the java.lang type of that name"
    return None
