"""pysyntax.fits is black's own width test, only cheaper."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from generator import pysyntax

# Wide (CJK), zero-width (combining) and plain characters, in lines around the limit.
CHARS = st.sampled_from(["a", " ", "\u6f22", "\u0301", "\U0001f389", "\u00e9", "\u200b", "x"])


@settings(max_examples=400, deadline=None)
@given(st.lists(CHARS, min_size=0, max_size=120).map("".join))
def test_fits_agrees_with_blacks_width(line: str) -> None:
    assert pysyntax.fits(line) == (pysyntax.width(line) <= pysyntax.LINE_LENGTH)


def test_fits_at_the_edges() -> None:
    assert pysyntax.fits("a" * 88) and not pysyntax.fits("a" * 89)
    assert pysyntax.fits("\u6f22" * 44) and not pysyntax.fits("\u6f22" * 45)
    # black counts a combining mark as one column, and so must fits.
    assert pysyntax.fits("a" + "\u0301" * 87) and not pysyntax.fits("a" + "\u0301" * 88)
