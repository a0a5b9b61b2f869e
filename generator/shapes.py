"""Shapes: the globs a plugin declares for every path it may write in its folder.

A built-in target's manifest entries are trusted only for paths of a shape the
target writes (regular expressions, :func:`taxogen.render.output_shapes`); a
plugin says the same of itself with ``"shapes"`` in its answer, a list of globs
in which ``*`` is any run of characters within one part of a path, ``?`` any
one character within a part, ``**`` (a whole part) any number of parts, and
every other character itself.  A :class:`Glob` matches in time proportional to
the pattern times the path, whatever either holds, because the paths it is
matched against are manifest entries, which anyone who can edit the folder can
write: no regular expression, so no backtracking blow-up.
"""

from __future__ import annotations

import dataclasses

__all__ = ["MAX_GLOBS", "Glob"]

#: The most globs a plugin may declare: a plugin writes a few kinds of file.
MAX_GLOBS = 256
_MAX_GLOB = 1024  # characters in a glob, as in a manifest path


@dataclasses.dataclass(frozen=True, slots=True)
class Glob:
    """One declared shape; ``fullmatch`` as a compiled regular expression's."""

    text: str
    parts: tuple[str, ...]

    @classmethod
    def parse(cls, text: str) -> Glob:
        """The glob ``text``; ValueError saying why if it is not one."""
        if not text:
            raise ValueError("an empty glob")
        if len(text) > _MAX_GLOB:
            raise ValueError(f"a glob over {_MAX_GLOB} characters")
        if not text.isprintable():
            raise ValueError("a glob with control characters")
        parts = tuple(text.split("/"))
        if (
            text.startswith("/")
            or "\\" in text
            or any(part in ("", ".", "..") for part in parts)
        ):
            raise ValueError("not a normalised relative glob inside the folder")
        if any("**" in part and part != "**" for part in parts):
            raise ValueError("'**' is allowed only as a whole part")
        return cls(text=text, parts=parts)

    def fullmatch(self, path: str) -> bool:
        """Whether the whole of ``path`` has this shape: the parts of the glob
        that can be reached after each part of the path, as an automaton runs."""
        reached = self._closed({0})
        for name in path.split("/"):
            after = set()
            for glob in reached:
                if glob == len(self.parts):
                    continue
                if self.parts[glob] == "**":
                    after.add(glob)  # "**" takes this part and may take more
                elif _part_matches(self.parts[glob], name):
                    after.add(glob + 1)
            if not after:
                return False
            reached = self._closed(after)
        return len(self.parts) in reached

    def _closed(self, reached: set[int]) -> set[int]:
        """``reached`` and, past each "**", what follows it: "**" may take no part."""
        more = sorted(reached)
        while more:
            glob = more.pop()
            if glob < len(self.parts) and self.parts[glob] == "**":
                if glob + 1 not in reached:
                    reached.add(glob + 1)
                    more.append(glob + 1)
        return reached


def _part_matches(pattern: str, name: str) -> bool:
    """``*`` and ``?`` wildcards over one part, the classic two-pointer way: on a
    mismatch, the last ``*`` takes one more character, so no state is revisited
    more than once per ``*``."""
    p = n = 0
    star = -1  # where the last * was seen in pattern, and the name's position then
    resume = 0
    while n < len(name):
        if p < len(pattern) and pattern[p] in ("?", name[n]) and pattern[p] != "*":
            p += 1
            n += 1
        elif p < len(pattern) and pattern[p] == "*":
            star, resume = p, n
            p += 1
        elif star >= 0:
            resume += 1
            p, n = star + 1, resume
        else:
            return False
    return all(char == "*" for char in pattern[p:])
