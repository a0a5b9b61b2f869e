"""pysyntax.fits is black's own width test, only cheaper."""

from __future__ import annotations

from black._width_table import WIDTH_TABLE
from black.strings import str_width
from hypothesis import given, settings
from hypothesis import strategies as st

from generator import pysyntax
from generator._widths import WIDE

# Wide (CJK), zero-width (combining) and plain characters, in lines around the limit.
CHARS = st.sampled_from(
    ["a", " ", "\u6f22", "\u0301", "\U0001f389", "\u00e9", "\u200b", "x"]
)


@settings(max_examples=400, deadline=None)
@given(st.lists(CHARS, min_size=0, max_size=120).map("".join))
def test_fits_agrees_with_blacks_width(line: str) -> None:
    assert pysyntax.fits(line) == (pysyntax.width(line) <= pysyntax.LINE_LENGTH)


def test_fits_at_the_edges() -> None:
    assert pysyntax.fits("a" * 88) and not pysyntax.fits("a" * 89)
    assert pysyntax.fits("\u6f22" * 44) and not pysyntax.fits("\u6f22" * 45)
    # black counts a combining mark as one column, and so must fits.
    assert pysyntax.fits("a" + "\u0301" * 87) and not pysyntax.fits("a" + "\u0301" * 88)


def test_width_table_is_blacks() -> None:
    # The copy pysyntax uses instead of importing black: a black upgrade that
    # changes its table must be copied (see generator/_widths.py).
    assert [(a, b, 2) for a, b in WIDE] == list(WIDTH_TABLE)


# Each range's edges and the characters just outside them, and some others.
EDGES = sorted(
    {chr(c) for a, b, _ in WIDTH_TABLE for c in (a - 1, a, b, b + 1)}
    | {"a", "\u00e9", "\u2014", "\u0301", "\u200b"}
)


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(EDGES) | st.characters(), max_size=120).map("".join))
def test_width_is_blacks(line: str) -> None:
    assert pysyntax.width(line) == str_width(line)
