"""pysyntax measures lines as black does, only cheaper; it runs black only if needed."""

from __future__ import annotations

import ast
import importlib.util
import re
import subprocess
import sys
from pathlib import Path
from unittest import mock

import black
import pytest
import pytest
from black._width_table import WIDTH_TABLE
from black.strings import str_width
from hypothesis import given, settings
from hypothesis import strategies as st

from taxogen.targets.python import pysyntax

REPO = Path(__file__).resolve().parents[3]

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


def test_widths_by_hand() -> None:
    # East Asian Wide and emoji count two columns; accents, dashes and combining
    # marks one (Unicode's East Asian Width, which black follows).
    assert pysyntax.width("\u6f22\u5b57") == 4  # 漢字
    assert pysyntax.width("\U0001f389") == 2  # 🎉
    assert pysyntax.width("\u00e9\u2014e\u0301") == 4  # é—é (e + combining acute)
    assert pysyntax.width("\uac00") == 2  # 가, a Hangul syllable
    assert pysyntax.fits("a" * 84 + "\u6f22\u5b57") and not pysyntax.fits(
        "a" * 85 + "\u6f22\u5b57"
    )
    assert pysyntax.fits("a" * 86 + "\U0001f389") and not pysyntax.fits(
        "a" * 87 + "\U0001f389"
    )
    assert pysyntax.fits("\u2014" * 88) and not pysyntax.fits("\u2014" * 89)


def test_width_bound_holds_for_blacks_table() -> None:
    # pysyntax settles most lines without black's table on two facts about it:
    # every entry is two columns wide, and none lies below U+1100.
    assert {columns for _, _, columns in WIDTH_TABLE} == {2}
    assert min(start for start, _, _ in WIDTH_TABLE) >= 0x1100


# Each range's edges and the characters just outside them, and some others.
EDGES = sorted(
    {chr(c) for a, b, _ in WIDTH_TABLE for c in (a - 1, a, b, b + 1)}
    | {"a", "\u00e9", "\u2014", "\u0301", "\u200b"}
)


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(EDGES) | st.characters(), max_size=120).map("".join))
def test_width_is_blacks(line: str) -> None:
    assert pysyntax.width(line) == str_width(line)


def test_a_long_docstring_opening_is_left_to_black_unrun() -> None:
    # black never wraps a docstring, so such a line must not cost a run of black.
    source = (
        "def f() -> None:\n"
        '    """' + "word " * 20 + 'and the end.\n\n    More.\n    """\n'
    )
    assert max(map(len, source.splitlines())) > pysyntax.LINE_LENGTH
    assert black.format_str(source, mode=black.Mode()) == source
    with mock.patch.object(black, "format_str", side_effect=AssertionError("ran")):
        assert pysyntax.finish(source) == source


def test_a_line_black_must_wrap_still_goes_to_black() -> None:
    source = "x = [" + ", ".join(["1"] * 40) + "]\n"
    assert pysyntax.finish(source) == black.format_str(source, mode=black.Mode())
    assert pysyntax.finish(source) != source


def _imports_black(taxonomy: Path) -> bool:
    """Whether building the plan of ``taxonomy`` in a fresh process imports black."""
    script = (
        "import sys; from pathlib import Path; "
        "from taxogen.pipeline import build_plan; "
        f"build_plan(Path({str(taxonomy)!r})); print('black' in sys.modules)"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True
    )
    return done.stdout.strip() == "True"


def test_black_is_imported_only_where_its_data_is_needed(tmp_path: Path) -> None:
    # The issue: import black lazily where its data is needed.  Neither the
    # shipped taxonomy nor one with CJK and emoji in short lines needs it, nor
    # 1,000 codes whose long lines hold dashes (black's table, read by itself).
    assert not _imports_black(REPO / "taxonomy.yaml")
    assert not _imports_black(
        REPO / "tests" / "cases" / "hostile_text" / "taxonomy.yaml"
    )
    from benchmarks.synth import synthesize

    large = tmp_path / "taxonomy.yaml"
    large.write_text(synthesize(1000), encoding="utf-8")
    assert "\u2014" in large.read_text(encoding="utf-8")
    assert not _imports_black(large)


def test_without_blacks_table_file_width_is_still_blacks(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    pysyntax._blacks_width.cache_clear()
    monkeypatch.setattr(importlib.util, "find_spec", lambda name: None)
    try:
        for line in ("\u6f22\u5b57 and \U0001f389", "\u2014" * 60, "\u2630" * 3):
            assert pysyntax.width(line) == str_width(line)
    finally:
        pysyntax._blacks_width.cache_clear()


# The string literal as it was first spelled, one character or escape at a time:
# the unrolled pattern in pysyntax must match exactly the same lines.
_PLAIN_STRING = r'(?:"(?:[^"\\\n]|\\.)*"|\'(?:[^\'\\\n]|\\.)*\')'
LITERAL_CHARS = st.sampled_from(
    ['"', "'", "\\", "\n", "a", " ", "=", ":", ",", "\u2014"]
)


@settings(max_examples=600, deadline=None)
@given(
    st.sampled_from(["    meaning = ", 'x = "', "  'k': ", '"a": "b', ""]),
    st.lists(LITERAL_CHARS, max_size=16).map("".join),
    st.sampled_from(["", '"', "'", '",', "',", " "]),
)
def test_unrolled_string_pattern_matches_the_plain_one(
    head: str, body: str, tail: str
) -> None:
    line = head + body + tail
    unsplittable = re.compile(rf" *[A-Za-z_][A-Za-z0-9_]* = {_PLAIN_STRING}")
    entry = re.compile(
        rf" *{_PLAIN_STRING}: (?:[A-Za-z_][A-Za-z0-9_]*|{_PLAIN_STRING}),"
    )
    assert bool(pysyntax._UNSPLITTABLE.fullmatch(line)) == bool(
        unsplittable.fullmatch(line)
    )
    assert bool(pysyntax._DICT_ENTRY.fullmatch(line)) == bool(entry.fullmatch(line))


# Runs of a character, so that lines of every length come up, of 45 to 88
# characters with enough wide ones not to fit among them.
RUN = st.tuples(st.sampled_from(["a", " ", "\u6f22", "\u2014"]), st.integers(0, 70))
LINE = st.lists(RUN, max_size=4).map(lambda runs: "".join(c * n for c, n in runs))
BREAK = st.sampled_from(["\n", "\r\n", "\r", "\u2028", "\x0c"])


@settings(max_examples=400, deadline=None)
@given(st.lists(st.tuples(LINE, BREAK), max_size=6))
def test_finish_looks_at_every_line_that_may_not_fit(
    lines: list[tuple[str, str]],
) -> None:
    source = "".join(line + end for line, end in lines)
    suspects = pysyntax._suspects(source)
    for line in source.splitlines():
        assert pysyntax.fits(line) or line in suspects
    assert all(line in source.splitlines() for line in suspects)


def _docstring_a_word_at_a_time(indent: int, paragraphs: tuple[str, ...]) -> str:
    """pysyntax.docstring as first written, a word at a time: the reference."""
    pad = " " * indent
    lines: list[str] = []
    for paragraph in paragraphs:
        if lines:
            lines.append("")
        plain = paragraph.isprintable() and "\\" not in paragraph
        words = [
            (word if plain else "".join(map(pysyntax._escape, word))).replace(
                '"', '\\"'
            )
            for word in paragraph.split()
        ]
        line = ""
        for word in words:
            if line and indent + 3 + len(line) + 1 + len(word) > pysyntax.LINE_LENGTH:
                lines.append(line)
                line = word
            else:
                line = f"{line} {word}" if line else word
        lines.append(line)
    body = "\n".join(f"{pad}{line}" if line else "" for line in lines)
    return f'{pad}"""{body[indent:]}\n{pad}"""'


# Words around a line's length, blanks of every kind, what must be escaped.
DOC_PIECES = st.sampled_from(
    ["a", "word", " ", "  ", "\t", "\n", '"', "\\", "\u2014", "\u6f22", "\x00"]
    + ["\u2028", "\u3000", "'", "x" * 30, "y" * 76, "z" * 81, "w" * 82, "v" * 85]
)


@settings(max_examples=800, deadline=None)
@given(
    st.sampled_from([0, 4, 8]),
    st.lists(st.lists(DOC_PIECES, max_size=30).map("".join), max_size=4).map(tuple),
)
def test_docstring_is_the_word_at_a_time_layout(
    indent: int, paragraphs: tuple[str, ...]
) -> None:
    expected = _docstring_a_word_at_a_time(indent, paragraphs)
    assert pysyntax.docstring(indent, paragraphs) == expected


def test_docstring_by_hand() -> None:
    assert pysyntax.docstring(4, ("One.", "Two  words ")) == (
        '    """One.\n\n    Two words\n    """'
    )
    text = "word " * 20 + 'a "quote"'
    assert pysyntax.docstring(4, (text,)) == (
        '    """' + "word " * 15 + "word\n    " + "word " * 4 + 'a \\"quote\\"\n    """'
    )
    # A word longer than a line stays whole, on a line of its own.
    assert pysyntax.docstring(0, ("a", "b " + "x" * 90 + " c")) == (
        '"""a\n\nb\n' + "x" * 90 + '\nc\n"""'
    )


@settings(max_examples=400, deadline=None)
@given(st.text(st.sampled_from(['"', "'", "\\", "\n", "a", " ", "\u2014", "\x00"])))
def test_string_literal_reads_back_with_blacks_quotes(text: str) -> None:
    literal = pysyntax.string_literal(text)
    assert ast.literal_eval(literal) == text
    single = text.count("'") < text.count('"')
    assert literal[0] == ("'" if single else '"')
    assert black.format_str(f"x = {literal}\n", mode=black.Mode()) == (
        f"x = {literal}\n"
    )
