"""The validator's reader: typed accessors over nodes that report instead of raising.

Every part of the format reads its nodes through one :class:`Reader`, which
holds the problems found so far: asked for a mapping, a string, a boolean, one
of some choices or a name of some shape, it returns the value, or ``None``
after recording a diagnostic at the node's line and column.  Scalars are read
strictly by the key they sit under (a boolean is exactly ``true`` or
``false``), unknown keys get a did-you-mean, and a node the loader refused
(and reported) reads as missing, without a word.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from typing import TypeVar

from taxogen.diagnostics import MAX_DIAGNOSTICS, Diagnostic, Position
from taxogen.model import (
    ANY_CASE,
    CASE_PATTERNS,
    CASE_RULES,
    MAX_NAME_LENGTH,
    WIRE_PATTERN,
)
from taxogen.naming import snake_guess
from taxogen.nodes import MapNode, Node, ScalarNode
from taxogen.validate.hints import (
    boolean_hint,
    close_match,
    comma_split,
    did_you_mean,
)
from taxogen.validate.text import NULLS, character_problem, describe, show

__all__ = ["Found", "Reader", "TooMany", "get", "join"]

T = TypeVar("T")
#: The allowed keys of a mapping that were found: name → (key node, value node).
Found = dict[str, tuple[ScalarNode, Node]]


class TooMany(Exception):
    """Raised by the reader when it has collected MAX_DIAGNOSTICS problems."""


def join(key: str, name: str) -> str:
    """The key path of ``name`` inside ``key`` (``domains.task``)."""
    return f"{key}.{name}" if key else name


def get(found: Found | None, name: str, parse: Callable[[Node], T | None]) -> T | None:
    """``parse`` of the value of key ``name``, or None when it is absent."""
    if found is None or name not in found:
        return None
    return parse(found[name][1])


class Reader:
    """Typed accessors over nodes that record a diagnostic instead of raising.

    A node the loader refused (and reported) reads as missing, without a word.
    """

    def __init__(self, path: str) -> None:
        self.path = path
        self.diagnostics: list[Diagnostic] = []

    def error(self, position: Position | None, key: str, message: str) -> None:
        if len(self.diagnostics) >= MAX_DIAGNOSTICS:
            raise TooMany
        self.diagnostics.append(
            Diagnostic(path=self.path, position=position, key=key, message=message)
        )

    def mapping(
        self,
        node: Node,
        key: str,
        allowed: Iterable[str],
        required: Iterable[str] = (),
        *,
        owner: Position | None = None,
    ) -> Found | None:
        """The allowed keys of a mapping; a missing key is reported at ``owner``."""
        if node.refused:
            return None
        if not isinstance(node, MapNode):
            self.error(node.position, key, f"expected a mapping, got {describe(node)}")
            return None
        allowed = tuple(allowed)
        found: Found = {}
        suggested: set[str] = set()
        for index, (name_node, value) in enumerate(node.items):
            name = name_node.value
            if name not in allowed:
                hint = close_match(name, allowed)
                split = comma_split(node, index)
                if split is not None:
                    more = split
                elif hint is not None:
                    suggested.add(hint)
                    more = f" (did you mean {hint!r}?)"
                else:
                    more = f" (expected one of: {', '.join(allowed)})"
                self.error(
                    name_node.position,
                    join(key, name),
                    f"unknown key {show(name)}{more}",
                )
                continue
            found[name] = (name_node, value)
        for name in required:
            # A misspelt key is reported once, as unknown with its did-you-mean;
            # a key the loader refused (a merge key...) may have been meant to give it.
            if name not in found and name not in suggested and not node.incomplete:
                self.error(
                    owner or node.position, join(key, name), "required key is missing"
                )
        return found

    def text(
        self, node: Node, key: str, *, allow_empty: bool = True, lines: bool = False
    ) -> str | None:
        """The string at ``node``; ``lines``: it may break lines, hold tabs (prose)."""
        if node.refused:
            return None
        if not isinstance(node, ScalarNode):
            self.error(node.position, key, f"expected a string, got {describe(node)}")
            return None
        if node.plain and node.value in NULLS:
            self.error(node.position, key, "expected a string, got null")
            return None
        if node.plain and node.value in (
            "true",
            "false",
            "True",
            "False",
            "TRUE",
            "FALSE",
        ):
            self.error(
                node.position,
                key,
                f"expected a string, got boolean {node.value}; quote it to mean the "
                "text",
            )
            return None
        problem = character_problem(node.value, lines)
        if problem is not None:
            self.error(node.position, key, problem)
            return None
        if not allow_empty and not node.value.strip():
            self.error(node.position, key, "must not be empty")
            return None
        return node.value

    def one_of(self, node: Node, key: str, choices: tuple[str, ...]) -> str | None:
        """The text of ``node`` if one of ``choices``; else report it, with a hint."""
        text = self.text(node, key)
        if text is None or text in choices:
            return text
        hint = close_match(text.lower(), choices)
        more = f"; did you mean {hint!r}?" if hint is not None else ""
        self.error(
            node.position,
            key,
            f"expected one of {', '.join(choices)}, got {show(text)}{more}",
        )
        return None

    def boolean(self, node: Node, key: str) -> bool | None:
        if node.refused:
            return None
        if (
            isinstance(node, ScalarNode)
            and node.plain
            and node.value in ("true", "false")
        ):
            return node.value == "true"
        self.error(
            node.position,
            key,
            f"expected true or false, got {describe(node)}; {boolean_hint(node)}",
        )
        return None

    def matching(
        self,
        node: Node,
        key: str,
        pattern: re.Pattern[str],
        what: str,
        suggest: Callable[[str], str] | None = None,
    ) -> str | None:
        value = self.text(node, key)
        if value is None:
            return None
        if len(value) > MAX_NAME_LENGTH:
            self.error(node.position, key, f"longer than {MAX_NAME_LENGTH} characters")
            return None
        if not pattern.fullmatch(value):
            self.error(
                node.position,
                key,
                f"expected {what}, got "
                f"{show(value)}{did_you_mean(value, pattern, suggest)}",
            )
            return None
        return value

    def name_key(
        self, node: ScalarNode, key: str, pattern: re.Pattern[str], what: str
    ) -> bool:
        if len(node.value) > MAX_NAME_LENGTH:
            self.error(node.position, key, f"longer than {MAX_NAME_LENGTH} characters")
            return False
        if not pattern.fullmatch(node.value):
            self.error(node.position, key, f"{show(node.value)} is not {what}")
            return False
        return True

    def case_key(
        self, node: ScalarNode, key: str, what: str, code_case: str | None
    ) -> bool:
        """Check a code or domain name against ``code_case`` (None: it is invalid)."""
        if len(node.value) > MAX_NAME_LENGTH:
            self.error(node.position, key, f"longer than {MAX_NAME_LENGTH} characters")
            return False
        if code_case is None:
            if not ANY_CASE.fullmatch(node.value):
                hint = did_you_mean(node.value, ANY_CASE, snake_guess)
                self.error(
                    node.position,
                    key,
                    f"{what} {show(node.value)} is neither lower_snake nor upper_snake"
                    f"{hint}",
                )
                return False
            return True
        pattern = CASE_PATTERNS[code_case]
        if pattern.fullmatch(node.value):
            return True
        if code_case == "as_written":
            hint = did_you_mean(node.value, pattern, _without_spaces)
            if not hint and WIRE_PATTERN.fullmatch(node.value):
                hint = (
                    "; name the code with a key that starts with a letter and give "
                    f"{show(node.value)} as its wire:"
                )
        else:
            convert = str.lower if code_case == "lower_snake" else str.upper
            hint = did_you_mean(
                node.value, pattern, lambda text: convert(snake_guess(text))
            )
        self.error(
            node.position,
            key,
            f"{what} {show(node.value)} does not follow code_case {code_case} "
            f"({CASE_RULES[code_case]}){hint}",
        )
        return False


def _without_spaces(text: str) -> str:
    """A code written with spaces, as one word: ``No Such Key`` → ``NoSuchKey``."""
    return "".join(text.split())
