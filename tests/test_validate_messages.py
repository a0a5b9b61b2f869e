"""The words validate() says about a bad value, each asserted whole, in-process.

The rules are the README's ("Rules the loader enforces"): a key is text, a
boolean is exactly ``true`` or ``false``, a text is no boolean or null, a value
quoted back is cut to 60 characters, and no text holds a control character or
a lone surrogate.  Each expected line is written here from that rule.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from generator.cli import main

from generator.diagnostics import Position, TaxonomyError
from generator.nodes import MapNode, ScalarNode, SeqNode
from generator.source import load_text
from generator.validate import validate
from generator.validate.text import character_problem, describe, show
from tests.bad_golden import REPO, bad_cases, relative

HEAD = """\
format: 1
name: tiny
title: Tiny
version: 1.2.0
base: TinyError
fallback: oops
wrap: oops
"""
CODES = "domains:\n  misc:\n    title: M\n    codes:\n"
OOPS = "      oops: {retryable: true, meaning: M}\n"


def _errors(text: str) -> list[str]:
    root, problems = load_text(text, "t.yaml")
    with pytest.raises(TaxonomyError) as caught:
        validate(root, "t.yaml", "t.yaml", problems)
    return [d.format() for d in caught.value.diagnostics]


@pytest.mark.parametrize("word", ["true", "false", "True", "False", "TRUE", "FALSE"])
def test_a_boolean_is_no_text(word: str) -> None:
    assert _errors(HEAD.replace("Tiny\n", word + "\n") + CODES + OOPS) == [
        f"t.yaml:3:8: error: title: expected a string, got boolean {word}; quote it "
        "to mean the text"
    ]


@pytest.mark.parametrize(
    "word, hint",
    [
        ("y", "YAML 1.1's yes/no/on/off are not booleans here; write true"),
        ("n", "YAML 1.1's yes/no/on/off are not booleans here; write false"),
        ("NO", "YAML 1.1's yes/no/on/off are not booleans here; write false"),
        ("'false'", "quoted, it is text; write false without quotes"),
        ("'Y'", "quoted, it is text; write true without quotes"),
        ('"off"', "quoted, it is text; write false without quotes"),
        ("False", "booleans are lowercase; write false"),
        ("1.5", "a number is not a boolean here; write true or false"),
        ("-2", "a number is not a boolean here; write true or false"),
        ("[]", "write true or false"),
    ],
)
def test_a_boolean_is_true_or_false_with_a_hint(word: str, hint: str) -> None:
    got = "a list" if word == "[]" else repr(word.strip("'\""))
    line = f"      oops: {{retryable: {word}, meaning: M}}\n"
    assert _errors(HEAD + CODES + line) == [
        f"t.yaml:12:25: error: domains.misc.codes.oops.retryable: expected true or "
        f"false, got {got}; {hint}"
    ]


def test_a_value_is_quoted_back_cut_to_60_characters() -> None:
    sixty = "k" * 60
    assert show(sixty) == repr(sixty)
    assert show(sixty + "k") == repr("k" * 57 + "...")
    # The key path keeps the whole key; the quoted value is cut.
    assert _errors(HEAD + f"{sixty}k: 1\n" + CODES + OOPS)[0] == (
        f"t.yaml:8:1: error: {sixty}k: unknown key {'k' * 57 + '...'!r} (expected "
        "one of: format, name, title, version, base, fallback, wrap, code_case, "
        "python_layout, wire_type, class_suffix, domains, events, docs, http_status, "
        "grpc_status, docs_url, payload)"
    )


def test_what_a_node_is_is_named() -> None:
    at = Position(line=1, col=1)
    assert describe(MapNode(items=(), position=at)) == "a mapping"
    assert describe(SeqNode(items=(), position=at)) == "a list"
    for null in ("", "~", "null", "Null", "NULL"):
        assert describe(ScalarNode(value=null, plain=True, position=at)) == "null"
        quoted = ScalarNode(value=null, plain=False, position=at)
        assert describe(quoted) == repr(null)
    assert describe(ScalarNode(value="x", plain=True, position=at)) == "'x'"
    for null in ("~", "null", "Null", "NULL"):
        assert _errors(HEAD.replace("Tiny\n", null + "\n") + CODES + OOPS) == [
            "t.yaml:3:8: error: title: expected a string, got null"
        ]
    assert _errors(HEAD + "domains: [a]\n") == [
        "t.yaml:8:10: error: domains: expected a mapping of domains, got a list"
    ]


def test_texts_hold_no_invisible_character() -> None:
    """README: no lone surrogate, control character or bidirectional control."""
    assert character_problem("a\ud800b", lines=True) == (
        "text contains a lone surrogate U+D800, which is not a character"
    )
    assert character_problem("é\udfffb", lines=False) == (
        "text contains a lone surrogate U+DFFF, which is not a character"
    )
    assert character_problem("é\tb\n", lines=True) is None
    assert character_problem("ok é", lines=False) is None
    assert character_problem("a\x9f", lines=True) == (
        "text contains the control character U+009F; only line breaks and tabs are "
        "allowed here"
    )
    assert character_problem("a\u2069", lines=False) == (
        "text contains the control character U+2069 (a bidirectional control); no "
        "control character is allowed here"
    )
    assert character_problem("a\u202a", lines=True) == (
        "text contains the control character U+202A (a bidirectional control); only "
        "line breaks and tabs are allowed here"
    )
    # Not a control: invisible yet not one of those the rule names.
    assert character_problem("a\u00a0b", lines=False) is None


def test_details_problems_name_their_path() -> None:
    docs = "docs:\n  example: {code: oops, message: M, details: {l: [1, {x: 1e999}]}}\n"
    assert _errors(HEAD + CODES + OOPS + docs) == [
        "t.yaml:14:58: error: docs.example.details.l[1].x: '1e999' is not a finite "
        "number"
    ]


@pytest.mark.parametrize("bound", ["minimum", "maximum"])
def test_a_bound_that_is_no_finite_number_is_named_at_its_path(bound: str) -> None:
    # As test_details_problems_name_their_path: the bound's own path and position.
    typed = (
        "      big:\n        retryable: true\n        meaning: B\n"
        f"        details:\n          n: {{type: integer, {bound}: 1e999}}\n"
    )
    column = 32 + len(bound)
    assert (
        f"t.yaml:17:{column}: error: domains.misc.codes.big.details.n.{bound}: "
        "'1e999' is not a finite number"
    ) in _errors(HEAD + CODES + OOPS + typed)


@pytest.mark.parametrize("case", bad_cases(), ids=[c.stem for c in bad_cases()])
def test_the_bad_corpus_is_refused_in_its_words_in_process(
    case: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """tests/bad/<case>.stderr, the specification of the messages, word for word.

    tests/test_bad_inputs.py runs the same command as a process; this runs it in
    this one, where a mutation test can see which words each line comes from.
    """
    monkeypatch.chdir(REPO)
    out = tmp_path / "out"
    argv = ["generate", "--taxonomy", relative(case), "--out", str(out)]
    status = main(argv)
    expected = case.with_suffix(".stderr").read_text(encoding="utf-8")
    assert (status, capsys.readouterr().err) == (2, expected)
    assert not out.exists()
