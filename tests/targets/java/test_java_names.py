"""Java's reserved words, held to the JDK itself: what javac refuses as a name.

``reserved.py`` lists JLS 17's keywords (§3.9), contextual keywords and literals
(§3.10.3, §3.10.8).  Here javac is the source of truth: every keyword and
literal fails to compile as a local variable's name, nothing else among the
candidates does (a contextual keyword is a name there), the contextual keywords
that may not name a type fail as a class's name, ``SourceVersion.isKeyword``
(the JDK's own table) agrees at release 17, and each word spelt as the target
spells a details field (a trailing ``_``) compiles as a record component, a
nested object's member too (issue 30 §7).  One javac run per question, every
word in it.
"""

from __future__ import annotations

import re
from pathlib import Path

from taxogen.targets.java.naming import default_package, field_name
from taxogen.targets.java.reserved import (
    JAVA_CONTEXTUAL,
    JAVA_KEYWORDS,
    JAVA_LITERALS,
    JAVA_RECORD_METHODS,
    JAVA_WORDS,
)
from taxogen.targets.java.target import RUNTIME
from tests.targets.java.support import (
    CLASSPATH,
    JAVAC,
    require_java,
    run,
    write_sources,
)

#: Words that are names in Java, to show the probe accepts what it should.
ORDINARY = ("errors", "value", "code", "details", "Error", "when", "label")
# ``non-sealed`` is no identifier at all (a hyphen): it is listed, never probed.
CANDIDATES = sorted(JAVA_WORDS - {"non-sealed"} | set(ORDINARY))


def _refused(tmp_path: Path, template: str) -> set[str]:
    """The candidates javac refuses in ``template`` (``{word}``, ``{cls}``)."""
    require_java()
    files = []
    for index, word in enumerate(CANDIDATES):
        path = tmp_path / f"K{index}.java"
        path.write_text(template.format(word=word, cls=f"K{index}"))
        files.append(path)
    args = [*JAVAC, "-Xmaxerrs", "100000", "-d", str(tmp_path / "out")]
    done = run([*args, *map(str, files)])
    failed = {int(n) for n in re.findall(r"K(\d+)\.java:\d+: error", done.stderr)}
    return {CANDIDATES[index] for index in failed}


def test_every_keyword_and_literal_and_nothing_else_is_refused_as_a_name(
    tmp_path: Path,
) -> None:
    refused = _refused(tmp_path, "class {cls} {{ void m() {{ int {word} = 0; }} }}\n")
    assert refused == JAVA_KEYWORDS | JAVA_LITERALS


def test_the_restricted_contextual_keywords_are_refused_as_type_names(
    tmp_path: Path,
) -> None:
    refused = _refused(tmp_path, "class {cls} {{ static class {word} {{}} }}\n")
    restricted = {"var", "yield", "record", "sealed", "permits"}
    assert refused - JAVA_KEYWORDS - JAVA_LITERALS == restricted
    assert restricted <= JAVA_CONTEXTUAL


def test_the_jdk_s_own_table_agrees(tmp_path: Path) -> None:
    require_java()
    words = " ".join(f'"{w}"' for w in CANDIDATES if w != "non-sealed")
    (tmp_path / "Probe.java").write_text(
        "import javax.lang.model.SourceVersion;\n"
        "class Probe { public static void main(String[] a) {\n"
        f"  for (String w : new String[] {{{', '.join(words.split())}}}) {{\n"
        "    if (SourceVersion.isKeyword(w, SourceVersion.RELEASE_17))"
        " System.out.println(w);\n"
        "  }\n} }\n"
    )
    done = run(["java", str(tmp_path / "Probe.java")])
    assert done.returncode == 0, done.stderr
    assert set(done.stdout.split()) == JAVA_KEYWORDS | JAVA_LITERALS


def test_every_word_spelt_as_a_field_compiles_as_a_record_component(
    tmp_path: Path,
) -> None:
    require_java()
    words = sorted(w for w in JAVA_WORDS | JAVA_RECORD_METHODS if "-" not in w)
    components = ", ".join(f"String {field_name(w)}" for w in words)
    assert all(field_name(w) == w + "_" for w in words)
    (tmp_path / "R.java").write_text(
        f"record R({components}) {{\n"
        "  java.util.Map<String, Object> toMap() { return java.util.Map.of(); }\n"
        "  static R from(java.util.Map<String, Object> m) { return null; }\n}\n"
    )
    done = run([*JAVAC, "-d", str(tmp_path / "out"), str(tmp_path / "R.java")])
    assert done.returncode == 0, done.stderr


def test_a_default_package_is_never_a_word() -> None:
    assert default_package("payments_api") == "paymentsapi.errors"
    assert default_package("int") == "int_.errors"
    assert default_package("harmovela") == "harmovela.errors"


#: The runtime's classes, which the generated sources name in full, so a code's
#: class may take any of these names.
RUNTIME_CLASSES = sorted(p.stem for p in RUNTIME.glob("*.java"))


def test_a_class_may_take_a_runtime_class_s_name(tmp_path: Path) -> None:
    require_java()
    codes = "\n".join(
        f"      c{i}: {{retryable: false, meaning: M, class: {name}, "
        "details: {n: {type: integer}}}"
        for i, name in enumerate(RUNTIME_CLASSES)
    )
    taxonomy = tmp_path / "taxonomy.yaml"
    taxonomy.write_text(
        "format: 1\nname: tiny\ntitle: Tiny\nversion: 0.0.1\nbase: TinyError\n"
        "fallback: oops\nwrap: oops\ndomains:\n  misc:\n    title: Misc\n"
        f"    codes:\n      oops: {{retryable: false, meaning: M}}\n{codes}\n"
    )
    sources = write_sources(taxonomy, tmp_path / "src")
    assert {"State", "Taxonomy", "Fields", "Codec"} <= set(RUNTIME_CLASSES)
    out = str(tmp_path / "out")
    done = run([*JAVAC, "-cp", CLASSPATH, "-d", out, *map(str, sources)])
    assert done.returncode == 0, done.stderr[:3000]


def test_every_word_as_a_nested_member_compiles_and_keeps_its_wire_name(
    tmp_path: Path,
) -> None:
    """Issue 30 §7: a member may be any word a language reserves; the record of
    its object (an object, and an array's items) spells each with a ``_``, the
    wire keeps the word.  ``at`` and ``details``, the names ``from`` reads with,
    are members too."""
    require_java()
    words = sorted(
        w
        for w in JAVA_WORDS | JAVA_RECORD_METHODS | {"at", "details"}
        if re.fullmatch(r"[A-Za-z][A-Za-z0-9_]*", w)
    )
    members = ", ".join(f"{w}: {{type: string, required: false}}" for w in words)
    taxonomy = tmp_path / "taxonomy.yaml"
    taxonomy.write_text(
        "format: 1\nname: tiny\ntitle: Tiny\nversion: 0.0.1\nbase: TinyError\n"
        "fallback: oops\nwrap: oops\ndomains:\n  misc:\n    title: Misc\n"
        "    codes:\n      oops: {retryable: false, meaning: M}\n"
        "      odd:\n        retryable: false\n        meaning: M\n"
        "        details:\n"
        f"          one: {{type: object, fields: {{{members}}}}}\n"
        "          many: {type: array, items: {type: object, fields: "
        f"{{{members}}}}}}}\n"
    )
    sources = write_sources(taxonomy, tmp_path / "src")
    records = {p.stem: p.read_text() for p in sources}
    for name in ("OddDetailsOne", "OddDetailsManyItem"):
        text = records[name]
        for word in words:
            java = field_name(word)
            assert f"String {java}" in text and f'"{word}", this.{java}' in text
    out = str(tmp_path / "out")
    done = run([*JAVAC, "-cp", CLASSPATH, "-d", out, *map(str, sources)])
    assert done.returncode == 0, done.stderr[:3000]
