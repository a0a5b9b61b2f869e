"""Native bases and native errors (issue 30 §6): ``python_bases`` and ``go_is``.

``python_bases: [FileNotFoundError]`` on a code, a domain or the top level
names builtin exceptions the Python class also subclasses.  Each name must be
an exception class of Python's ``builtins`` (the did-you-mean is drawn from
those only), and once the taxonomy is built :func:`check_python_bases` builds
the whole class hierarchy with Python's own ``type()`` and instantiates every
class, as the generated package will: a combination Python cannot build (an
instance layout conflict, a method resolution order that fails, a builtin
whose constructor takes other arguments) is refused with Python's own words.

``go_is: [fs.ErrNotExist]`` on a code names standard-library sentinel errors the
Go error answers ``errors.Is`` for; :data:`GO_SENTINELS` is the list they are
drawn from (``tests/test_native.py`` holds it to the installed Go's ``go doc``).
"""

from __future__ import annotations

import builtins

from taxogen.diagnostics import Position
from taxogen.model import Code, Domain, Taxonomy
from taxogen.naming import generic_code
from taxogen.nodes import Node, ScalarNode, SeqNode
from taxogen.targets.go.reserved import GO_SENTINELS
from taxogen.targets.python.reserved import NEWER_EXCEPTIONS, PYTHON_EXCEPTIONS
from taxogen.validate.hints import close_match
from taxogen.validate.reader import Found, Reader, join
from taxogen.validate.text import describe, show

__all__ = [
    "GO_IS_KEY",
    "PYTHON_BASES_KEY",
    "check_python_bases",
    "own_python_bases",
    "read_go_is",
    "read_python_bases",
]

PYTHON_BASES_KEY = "python_bases"
GO_IS_KEY = "go_is"


def _names(
    r: Reader, node: Node, key: str, what: str, example: str
) -> list[tuple[str, ScalarNode]] | None:
    """The names of a non-empty list without repeats (None: reported)."""
    if node.refused:
        return None
    if not isinstance(node, SeqNode) or not node.items:
        got = "an empty list" if isinstance(node, SeqNode) else describe(node)
        r.error(
            node.position,
            key,
            f"expected a list of {what}, such as {example}, got {got}",
        )
        return None
    found: list[tuple[str, ScalarNode]] = []
    good = True
    for index, item in enumerate(node.items):
        ikey = f"{key}[{index}]"
        if not isinstance(item, ScalarNode) or item.refused or not item.value:
            r.error(item.position, ikey, f"expected a name, got {describe(item)}")
            good = False
        elif any(item.value == name for name, _ in found):
            r.error(item.position, ikey, f"{show(item.value)} is listed twice")
            good = False
        else:
            found.append((item.value, item))
    return found if good else None


def read_python_bases(
    r: Reader, key: str, found: Found
) -> tuple[tuple[str, ...], Position | None, bool]:
    """The builtins ``python_bases`` names in the mapping at ``key``, where its
    value stands, and whether it was valid (absent: ``((), None, True)``)."""
    if PYTHON_BASES_KEY not in found:
        return (), None, True
    node: Node = found[PYTHON_BASES_KEY][1]
    bkey = join(key, PYTHON_BASES_KEY)
    names = _names(r, node, bkey, "builtin exceptions", "[FileNotFoundError]")
    if names is None:
        return (), node.position, False
    good = True
    for index, (name, item) in enumerate(names):
        if name in PYTHON_EXCEPTIONS:
            continue
        good = False
        hint = (
            None if name in NEWER_EXCEPTIONS else close_match(name, PYTHON_EXCEPTIONS)
        )
        more = f" (did you mean {show(hint)}?)" if hint else ""
        if name in NEWER_EXCEPTIONS:
            why = "is newer than Python 3.11, which the generated package supports"
        elif hasattr(builtins, name):
            why = "is a Python builtin but no exception class"
        else:
            why = "is no Python builtin exception"
        r.error(
            item.position,
            f"{bkey}[{index}]",
            f"{show(name)} {why}{more}; python_bases names builtin exceptions only",
        )
    return tuple(name for name, _ in names), node.position, good


def read_go_is(r: Reader, key: str, found: Found) -> tuple[tuple[str, ...], bool]:
    """The sentinels ``go_is`` names in the code's mapping at ``key``, and
    whether they were valid (absent: ``((), True)``)."""
    if GO_IS_KEY not in found:
        return (), True
    node: Node = found[GO_IS_KEY][1]
    gkey = join(key, GO_IS_KEY)
    names = _names(
        r, node, gkey, "Go standard-library sentinel errors", "[fs.ErrNotExist]"
    )
    if names is None:
        return (), False
    good = True
    for index, (name, item) in enumerate(names):
        if name in GO_SENTINELS:
            continue
        good = False
        hint = close_match(name, GO_SENTINELS)
        more = f" (did you mean {show(hint)}?)" if hint else ""
        r.error(
            item.position,
            f"{gkey}[{index}]",
            f"{show(name)} is no sentinel error of Go's standard library that "
            f"go_is knows{more}; it takes one of: {', '.join(GO_SENTINELS)}",
        )
    return tuple(name for name, _ in names), good


def own_python_bases(taxonomy: Taxonomy, item: Code | Domain | None) -> tuple[str, ...]:
    """The builtins the Python class of ``item`` (None: the root class) names
    among its own bases: the top level's for the root, a domain's for its class,
    a code's for its class, and the domain's too where the code's class is the
    domain's (its ``<domain>_error`` code)."""
    if item is None:
        return taxonomy.python_bases
    if isinstance(item, Domain):
        return item.python_bases
    own = item.python_bases
    domain = taxonomy.domain(item.domain)
    if item.code == generic_code(domain.key, taxonomy.code_case):
        own = (*domain.python_bases, *(n for n in own if n not in domain.python_bases))
    return own


class _Stand(Exception):
    """What the generated root's own base does on construction: the message to
    ``super().__init__`` (and an OSError's errno and strerror beside it)."""

    def __init__(self, message: str) -> None:
        if isinstance(self, OSError):
            OSError.__init__(self, 1, message)
        else:
            super().__init__(message)


def check_python_bases(r: Reader, taxonomy: Taxonomy, top_at: Position | None) -> None:
    """Build every class with ``type()`` as the generated package does, and
    construct one of each: each problem points at the ``python_bases`` whose
    class Python refused to build, in Python's words."""
    if not (
        taxonomy.python_bases
        or any(d.python_bases for d in taxonomy.domains)
        or any(c.python_bases for c in taxonomy.codes)
    ):
        return
    built: dict[str, type] = {}

    def make(
        parent: type, item: Code | Domain | None, key: str, at: Position | None
    ) -> type | None:
        bases = tuple(PYTHON_EXCEPTIONS[n] for n in own_python_bases(taxonomy, item))
        try:
            cls = type("Stand", (parent, *bases), {})
            cls("message")
        except Exception as exc:  # Python's own refusal, whatever it is
            names = ", ".join(own_python_bases(taxonomy, item))
            r.error(
                at,
                join(key, PYTHON_BASES_KEY),
                f"Python cannot build a class that extends its parent class and "
                f"{names}: {type(exc).__name__}: {' '.join(str(exc).split())}",
            )
            return None
        return cls

    root = make(_Stand, None, "", top_at)
    if root is None:
        return
    for domain in taxonomy.class_domains:
        parent = root if domain.parent is None else built.get(domain.parent)
        if parent is None:
            continue
        dkey = f"domains.{domain.key}"
        generic = generic_code(domain.key, taxonomy.code_case)
        base_code = next((c for c in domain.codes if c.code == generic), None)
        where = domain.python_bases_at
        if base_code is not None and base_code.python_bases_at is not None:
            where = base_code.python_bases_at
        dclass = make(parent, base_code or domain, dkey, where)
        if dclass is None:
            continue
        built[domain.key] = dclass
        for code in domain.codes:
            if code is base_code or not code.python_bases:
                continue
            make(dclass, code, f"{dkey}.codes.{code.code}", code.python_bases_at)
