"""Table tests of every escaper: hostile inputs and the spelling each must get.

The expected forms are written out by hand from each language's own rules
(Python and TOML string syntax, ECMAScript string literals and JSDoc,
CommonMark, HTML comments), never computed by the code under test.  Where the
language can check an answer itself, the test asks it too (Python's own parser,
TOML's, JSON's).
"""

from __future__ import annotations

import ast
import io
import json
import re
from html import unescape
import tokenize
import tomllib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from markdown_it import MarkdownIt

from taxogen import escape
from taxogen.targets.python import escape as python_escape
from taxogen.targets.typescript import escape as typescript_escape

PYTHON = [
    ("plain", '"plain"'),
    (
        'say "hi"',
        "'say \"hi\"'",
    ),  # black prefers double quotes unless it needs more escapes
    ("it's", '"it\'s"'),
    ("back\\slash", '"back\\\\slash"'),
    ("line\nbreak", '"line\\nbreak"'),
    ("tab\there", '"tab\\there"'),
    ("nul\x00", '"nul\\x00"'),
    ("bidi\u202e", '"bidi\\u202e"'),
    ("emoji \U0001f600", '"emoji \U0001f600"'),
    ("", '""'),
]


@pytest.mark.parametrize(("text", "expected"), PYTHON)
def test_python_strings(text: str, expected: str) -> None:
    assert python_escape.python_str(text) == expected
    assert ast.literal_eval(expected) == text


PYTHON_COMMENTS = [
    ("plain text", "plain text"),
    ("line\nbreak", "line break"),  # a newline would end the comment
    ("crlf\r\nx = 1", "crlf  x = 1"),  # ... and run the rest as code
    ("tab\there", "tab here"),
    ("bidi\u202eoverride", "bidi override"),  # Trojan Source
    ("para\u2029sep", "para sep"),
    ("nul\x00", "nul"),
    ("  padded  ", "padded"),  # black strips a comment's trailing space
    ("emoji \U0001f600", "emoji \U0001f600"),
]


@pytest.mark.parametrize(("text", "expected"), PYTHON_COMMENTS)
def test_python_comments(text: str, expected: str) -> None:
    body = python_escape.python_comment(text)
    assert body == expected
    # One line that Python reads as a comment alone, whatever followed it.
    tokens = list(tokenize.generate_tokens(io.StringIO(f"#: {body}\n").readline))
    assert [t.type for t in tokens[:2]] == [tokenize.COMMENT, tokenize.NL]


TOML = [
    ("plain", '"plain"'),
    ('a "quote"', '"a \\"quote\\""'),
    ("back\\slash", '"back\\\\slash"'),
    ("line\nbreak", '"line\\u000Abreak"'),
    ("del\x7f", '"del\\u007F"'),
    ("bidi\u202e", '"bidi\\u202E"'),
    ("private \U000f0000", '"private \\U000F0000"'),
    ("café", '"café"'),
]


@pytest.mark.parametrize(("text", "expected"), TOML)
def test_toml_strings(text: str, expected: str) -> None:
    assert python_escape.toml_str(text) == expected
    assert tomllib.loads(f"k = {expected}")["k"] == text


TS = [
    ("plain", '"plain"'),
    ('a "quote"', '"a \\"quote\\""'),
    ("it's", '"it\'s"'),
    ("back\\slash", '"back\\\\slash"'),
    ("line\nbreak\r", '"line\\nbreak\\r"'),
    ("tab\t", '"tab\\t"'),
    ("ls\u2028ps\u2029", '"ls\\u2028ps\\u2029"'),  # line terminators before ES2019
    ("nul\x00", '"nul\\u0000"'),
    ("astral \U000e0001", '"astral \\u{e0001}"'),
    ("${not} `a template`", '"${not} `a template`"'),
    ('\\"both\\', '"\\\\\\"both\\\\"'),  # printable: escaped without the loop
    ('"quote" and\ttab', '"\\"quote\\" and\\ttab"'),
]


@pytest.mark.parametrize(("text", "expected"), TS)
def test_typescript_strings(text: str, expected: str) -> None:
    assert typescript_escape.ts_str(text) == expected


TS_DOC = [
    ("plain text", "plain text"),
    ("ends the comment */ here", "ends the comment *\\/ here"),
    ("@deprecated is a tag", "\\@deprecated is a tag"),
    ("back\\slash", "back\\\\slash"),
    ("a\u2028b", "a\\u2028b"),
    ("nul\x00", "nul\\u0000"),
]


def test_typescript_strings_spell_every_character_as_one_at_a_time() -> None:
    # The printable path escapes by str.replace; each character, alone and
    # among others, is spelled as the character-by-character escaper spells it.
    for code in [*range(0x2100), 0xFEFF, 0xE0001, 0x1F600]:
        char = chr(code)
        for text in (char, f'a{char}"\\b', f"{char}\n{char}"):
            one_by_one = "".join(typescript_escape._ts_escape(c) for c in text)
            assert typescript_escape.ts_str(text) == f'"{one_by_one}"', repr(text)


@pytest.mark.parametrize(("text", "expected"), TS_DOC)
def test_jsdoc_lines(text: str, expected: str) -> None:
    assert typescript_escape.ts_doc(text) == expected
    assert "*/" not in typescript_escape.ts_doc(text)


JSON = [
    ("plain", '"plain"'),
    ('"', '"\\""'),
    ("é", '"\\u00e9"'),
    ("\u2028", '"\\u2028"'),
    ("</script>", '"</script>"'),
    ("\U0001f600", '"\\ud83d\\ude00"'),
]


@pytest.mark.parametrize(("text", "expected"), JSON)
def test_json_strings(text: str, expected: str) -> None:
    assert escape.json_str(text) == expected
    assert json.loads(expected) == text
    assert expected.isascii()


MARKDOWN = [
    ("Plain words", "Plain words"),
    ("*not emphasis*", "\\*not emphasis\\*"),
    ("a_b", "a\\_b"),
    ("`code`", "\\`code\\`"),
    ("[link](x)", "\\[link\\](x)"),
    ("<b>html</b>", "&lt;b&gt;html&lt;/b&gt;"),
    ("a | b", "a &#124; b"),
    ("&amp;", "&amp;amp;"),
    ("# heading", "\\# heading"),
    ("- item", "\\- item"),
    ("> quote", "&gt; quote"),
    ("1. first", "1\\. first"),
    ("2) second", "2\\) second"),
    ("ends with #", "ends with \\#"),
    ("two\nlines", "two<br>lines"),
    ("  padded  ", "&#x20;&#x20;padded&#x20;&#x20;"),
    ("nul\x00", "nul&#x0;"),
    ("bidi\u202e", "bidi&#x202E;"),
    (
        "~~strike~~ $math$ !img :emoji:",
        "&#126;&#126;strike&#126;&#126; &#36;math&#36; \\!img &#58;emoji&#58;",
    ),
    ("Class 08: slow down & retry ~1s", "Class 08&#58; slow down &amp; retry &#126;1s"),
]


@pytest.mark.parametrize(("text", "expected"), MARKDOWN)
def test_markdown_inline_text(text: str, expected: str) -> None:
    assert escape.md_text(text) == expected


#: Text each renderer must show as it is (issue 33 §6): CommonMark, GitHub's
#: and MkDocs' Markdown (tests/targets/docs/test_docs_renderers.py renders
#: whole pages the same way).
SHOWN = [text for text, _ in MARKDOWN if text.isprintable()] + [
    "= underline",
    "+ plus",
    "a\\:b \\~ \\& \\| \\$ \\\\",
    "<!-- not a comment -->",
    "http://example.com/x_y_z and www.example.com",
]


@pytest.mark.parametrize("text", SHOWN)
def test_markdown_text_shows_as_itself_in_every_renderer(text: str) -> None:
    from tests.targets.docs.test_docs_renderers import RENDERERS, visible

    shown = " ".join(text.split())
    for where, expected in (
        ("{}", shown),
        ("| head |\n| --- |\n| {} |", f"head {shown}"),
        ("## {}", shown),
    ):
        page = where.format(escape.md_text(text))
        for name, render in RENDERERS.items():
            assert visible(render(page)) == expected, (name, where)


# Printable text and line breaks, heavy on what Markdown escapes and on the
# block markers a line may start or end with.
_MARKDOWN_CHARS = st.sampled_from(list("\\`*_[]!<>&|~$:#+=-.)0123 \nab")) | (
    st.characters().filter(str.isprintable)  # _md_by_table's precondition
)


@settings(max_examples=400, deadline=None)
@given(st.lists(_MARKDOWN_CHARS, max_size=60).map("".join), st.data())
def test_markdown_escaping_by_table_is_escaping_by_character(
    body: str, data: st.DataObject
) -> None:
    # md_text escapes printable text through one table (_md_by_table), the rest
    # a character at a time (_md_by_char, which the examples above pin down):
    # the two write the same for any printable text, marks at any indexes.
    marks = data.draw(
        st.sets(st.sampled_from([i for i, c in enumerate(body) if c in "#>+=-.)"]))
        if any(c in "#>+=-.)" for c in body)
        else st.just(set())
    )
    assert escape._md_by_table(body, marks) == escape._md_by_char(body, marks)


def test_markdown_fence_outgrows_any_backtick_run() -> None:
    assert escape.md_fence("x", "json") == "```json\nx\n```"
    assert escape.md_fence("a ```` b", "") == "`````\na ```` b\n`````"


HEADER = [
    ("taxonomy.yaml", "taxonomy.yaml"),
    ("with space.yaml", "with space.yaml"),
    ("x-->y.yaml", "x-%2D%3Ey.yaml"),
    ("a--b", "a-%2Db"),
    ("line\nbreak", "line%0Abreak"),
    ("ls\u2028.yaml", "ls%E2%80%A8.yaml"),
    ("100%.yaml", "100%25.yaml"),
    ("<&>", "%3C%26%3E"),
    ("*/ end", "*/ end"),  # only in line comments and HTML comments, never in /* */
]


@pytest.mark.parametrize(("text", "expected"), HEADER)
def test_header_file_names(text: str, expected: str) -> None:
    assert escape.header_name(text) == expected
    assert "\n" not in expected and "-->" not in expected and "--" not in expected


#: Event types are any text on one line; each must come back whole from its table
#: cell. The expected cell text is the input itself.
CODE_SPANS = [
    "task.failed",
    "tool/result",
    "a|b",
    "back`tick",
    "``double``",
    "`edge",
    "edge`",
    "  spaced  ",
    " lead",
    "q\"uote'\\back`${tick}`</script>|pipe*star_under",
    "\\|",
    "<b>&amp;</b>",
    "é ☃ */ -->",
]


@pytest.mark.parametrize("text", CODE_SPANS)
def test_markdown_code_span_in_a_table_cell_renders_as_the_text(text: str) -> None:
    from tests.targets.docs.test_docs_renderers import RENDERERS

    table = f"| Event | X |\n| --- | --- |\n| {escape.md_code(text)} | y |\n"
    for name, render in RENDERERS.items():
        html = render(table)
        cells = re.findall(r"<td>(.*?)</td>", html, flags=re.S)
        assert len(cells) == 2, (name, html)  # no split cell
        code = re.fullmatch(r"<code>(.*)</code>", cells[0], flags=re.S)
        assert code, (name, cells[0])
        shown = unescape(code.group(1))
        # A code span keeps its spaces; an element's are HTML's to collapse.
        assert shown == text or " ".join(shown.split()) == " ".join(text.split()), (
            name,
            shown,
        )
        assert cells[1] == "y"
