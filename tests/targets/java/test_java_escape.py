"""Any text reaches Java verbatim: ``java_str`` literals and ``java_comment``
comments, compiled by javac and read back.

Java translates ``\\uXXXX`` escapes before it reads anything else, comments
included, so a literal or a comment must not hold one that ends it; this holds
every nasty fragment (quotes, backslashes, ``\\u000a`` written out, ``*/``, line
and paragraph separators, controls, lone surrogates, astral characters, bidi
controls) and random text to that: each literal reads back as its text, code
point for code point, and each comment leaves the declaration after it in place.
One javac run and one JVM for all of them.
"""

from __future__ import annotations

import random
from pathlib import Path

from taxogen.targets.java.escape import java_comment, java_str
from tests.targets.java.support import JAVAC, require_java, run

NASTY = [
    "",
    'a "quoted" word',
    "back\\slash",
    "\\u000a written out",
    "\\\\u0022 two backslashes",
    "\\u002a/ ends a comment?",
    "*/ int broken;",
    "/* nested */",
    "line\nbreak\r\nand\ttab",
    "\u2028\u2029 separators",
    "\x00\x01\x1f\x7f controls",
    "\ud800 lone \udfff surrogates",
    "emoji \U0001f600 and \U0010ffff",
    "bidi \u202e reversed \u2066",
    "{{ jinja }} {% tag %}",
    "@deprecated in a doc",
    "é ü ß 中文",
]


def _random_texts(count: int) -> list[str]:
    rng = random.Random(32)
    pool = [chr(c) for c in range(0, 0x250)] + ["\\", '"', "*/", "\\u", "\ud83d"]
    return [
        "".join(rng.choice(pool) for _ in range(rng.randint(0, 40)))
        for _ in range(count)
    ]


def test_any_text_reads_back_from_a_java_literal_and_leaves_comments_closed(
    tmp_path: Path,
) -> None:
    require_java()
    texts = NASTY + _random_texts(200)
    lines = ["public final class Texts {"]
    for index, text in enumerate(texts):
        lines.append(f"    /** {java_comment(text)} */")
        lines.append(f"    static final String T{index} = {java_str(text)};")
        lines.append(f"    // {java_comment(text)}")
        lines.append(f"    static final int N{index} = {index};")
    lines.append("    public static void main(String[] args) {")
    for index in range(len(texts)):
        lines.append(
            f'        System.out.println(N{index} + ":" + '
            f"T{index}.chars().mapToObj(Integer::toString)"
            '.collect(java.util.stream.Collectors.joining(",")));'
        )
    lines += ["    }", "}"]
    source = tmp_path / "Texts.java"
    source.write_text("\n".join(lines) + "\n", encoding="utf-8", errors="surrogatepass")
    out = tmp_path / "out"
    done = run([*JAVAC, "-d", str(out), str(source)])
    assert done.returncode == 0, done.stderr[:3000]
    done = run(["java", "-cp", str(out), "Texts"])
    assert done.returncode == 0, done.stderr
    got = done.stdout.splitlines()
    assert len(got) == len(texts)
    for index, text in enumerate(texts):
        units = text.encode("utf-16-le", "surrogatepass")
        codes = [
            int.from_bytes(units[i : i + 2], "little") for i in range(0, len(units), 2)
        ]
        assert got[index] == f"{index}:" + ",".join(map(str, codes)), repr(text)


def test_a_literal_is_ascii_and_a_comment_one_line() -> None:
    for text in NASTY + _random_texts(50):
        assert java_str(text).isascii()
        comment = java_comment(text)
        assert "\n" not in comment and "*/" not in comment and "@" not in comment
        assert "\\u" not in comment.replace("\\\\", "")
