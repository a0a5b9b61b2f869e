"""The words validate() says about a bad value, each asserted whole, in-process.

The rules are the README's ("Rules the loader enforces"): a key is text, a
boolean is exactly ``true`` or ``false``, a text is no boolean or null, a value
quoted back is cut to 60 characters, and no text holds a control character or
a lone surrogate.  Each expected line is written here from that rule.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from taxogen.cli import main

from taxogen.diagnostics import Position, TaxonomyError
from taxogen.nodes import MapNode, ScalarNode, SeqNode
from taxogen.source import load_text
from taxogen.validate import validate
from taxogen.validate.text import character_problem, describe, show
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
        "grpc_status, docs_url, payload, details, retry_after, python_bases, "
        "unknown_retryable)"
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


# ------------------------------------------------- statuses, dates and URLs
GRPC_NAMES = (
    "CANCELLED, UNKNOWN, INVALID_ARGUMENT, DEADLINE_EXCEEDED, NOT_FOUND, "
    "ALREADY_EXISTS, PERMISSION_DENIED, RESOURCE_EXHAUSTED, FAILED_PRECONDITION, "
    "ABORTED, OUT_OF_RANGE, UNIMPLEMENTED, INTERNAL, UNAVAILABLE, DATA_LOSS, "
    "UNAUTHENTICATED"
)  # google.rpc.Code 1 to 16, in order


@pytest.mark.parametrize(
    "given, said",
    [
        # gRPC's codes by number: 1 and 16 are the first and last but OK.
        ("grpc_status: '1'", ", got '1'; gRPC code 1 is 'CANCELLED': write its name"),
        (
            "grpc_status: '16'",
            ", got '16'; gRPC code 16 is 'UNAUTHENTICATED': write its name",
        ),
        ("grpc_status: '17'", f" ({GRPC_NAMES}), got '17'"),
        ("grpc_status: not found", ", got 'not found'; did you mean 'NOT_FOUND'?"),
    ],
)
def test_a_grpc_status_hint_at_its_edges(given: str, said: str) -> None:
    text = HEAD + CODES + f"      oops: {{retryable: true, meaning: M, {given}}}\n"
    assert _errors(text) == [
        "t.yaml:12:56: error: domains.misc.codes.oops.grpc_status: expected a "
        f"canonical gRPC status name{said}"
    ]


@pytest.mark.parametrize("reason", ["not found", "Not Found"])
def test_an_http_status_with_its_reason_is_told_to_drop_it(reason: str) -> None:
    text = HEAD + CODES + f"      oops: {{retryable: true, meaning: M, "
    text += f"http_status: 404 {reason}}}\n"
    assert _errors(text) == [
        "t.yaml:12:56: error: domains.misc.codes.oops.http_status: expected an HTTP "
        f"status (an integer from 100 to 599), got '404 {reason}'; write the number "
        "alone, as 404"
    ]


def test_a_date_version_has_months_1_to_12() -> None:
    """README "Versions": a date version is a real date (YYYY-MM-DD)."""
    for month in ("01", "12"):
        version = f"2024-{month}-15"
        root, problems = load_text(HEAD.replace("1.2.0", version) + CODES + OOPS, "t")
        assert validate(root, "t", "t", problems).version == version
    for version, why in (
        ("2024-00-10", "there is no month 0"),
        ("2024-13-10", "there is no month 13"),
        ("2024-01-32", "January 2024 has 31 days"),
        ("2024-12-32", "December 2024 has 31 days"),
    ):
        assert _errors(HEAD.replace("1.2.0", version) + CODES + OOPS) == [
            f"t.yaml:4:10: error: version: '{version}' is not a date: {why}"
        ]


_URL = "https://e.com/"
_LONGEST = _URL + "a" * (2000 - len(_URL + "{code}")) + "{code}"


@pytest.mark.parametrize(
    "url, said",
    [
        (_LONGEST, None),  # README: at most 2,000 characters
        (_LONGEST.replace("{code}", "a{code}"), "longer than 2000 characters"),
        (
            "https://e.com/100%/{code}",
            "'%' at character 18 is not allowed in a URL; write it %25",
        ),
        (
            "https://e.com/%4/{code}",
            "'%' at character 15 is not allowed in a URL; write it %25",
        ),
        (
            "https://e.com/a b/{code}",
            "' ' at character 16 is not allowed in a URL; percent-encode it (%20)",
        ),
        (
            "https://e.com/%41 {code}",  # the character right after an escape
            "' ' at character 18 is not allowed in a URL; percent-encode it (%20)",
        ),
        (
            " https://e.com/{code}",  # the first character
            "' ' at character 1 is not allowed in a URL; percent-encode it (%20)",
        ),
        ("https://@/{code}", "names no host"),
        ("https://@e.com/{code}", "names no host"),  # user info, then no host
        ("https://:80/{code}", "names no host"),
        ("https://user@/{code}", "names no host"),
    ],
)
def test_a_docs_url_at_each_edge(url: str, said: str | None) -> None:
    text = HEAD + f"docs_url: '{url}'\n" + CODES + OOPS
    if said is None:
        root, problems = load_text(text, "t.yaml")
        assert validate(root, "t.yaml", "t.yaml", problems).docs_url == url
        return
    (line,) = _errors(text)
    assert line.startswith("t.yaml:8:11: error: docs_url: ")
    if said == "names no host":
        assert line.endswith(f": the URL '{url}' names no host")
    elif said.startswith("longer"):
        assert line.endswith(f": {said}")
    else:
        assert line.endswith(f": {said} (got '{url}')")


# ----------------------------------------------------------------- match:
def _matching(match: str, integer: bool) -> str:
    """A taxonomy whose domain ``other`` has ``match: <match>``."""
    wire = (", wire: 1", ", wire: 2") if integer else ("", "")
    return (
        HEAD
        + ("wire_type: integer\n" if integer else "")
        + CODES
        + f"      oops: {{retryable: true, meaning: M{wire[0]}}}\n"
        + f"  other:\n    title: O\n    match: {match}\n    codes:\n"
        + f"      other_one: {{retryable: true, meaning: O{wire[1]}}}\n"
    )


def _crosses(line: int, col: int, one: str, other: str) -> list[str]:
    return [
        f"t.yaml:{line}:{col}: error: domains.other.match: range {one} crosses the "
        f"range {other} of this domain at line {line}; ranges must be apart, or one "
        "inside the other (the inner one wins)"
    ]


@pytest.mark.parametrize(
    "match, said",
    [
        ("[5, 5]", []),  # one code
        ("[[5, 8], [9, 12]]", []),  # apart, side by side
        ("[[5, 12], [5, 9]]", []),  # inside, from the same low end
        ("[[5, 12], [9, 12]]", []),  # inside, to the same high end
        ("[[5, 9], [5, 12]]", []),
        ("[[9, 12], [5, 12]]", []),
        ("[[5, 9], [9, 12]]", _crosses(16, 21, "[9, 12]", "[5, 9]")),  # one shared
        ("[[9, 12], [5, 9]]", _crosses(16, 22, "[5, 9]", "[9, 12]")),
        ("[[5, 9], [7, 12]]", _crosses(16, 21, "[7, 12]", "[5, 9]")),
    ],
)
def test_ranges_are_apart_or_one_inside_the_other(match: str, said: list[str]) -> None:
    """docs "Hierarchies": "ranges that overlap without one holding the other,
    are refused", "of nested ranges the inner one" wins."""
    text = _matching(match, integer=True)
    if not said:
        root, problems = load_text(text, "t.yaml")
        assert validate(root, "t.yaml", "t.yaml", problems).domains[1].ranges
        return
    assert _errors(text) == said


def test_a_prefix_is_text_of_at_most_256_characters() -> None:
    """README: a prefix is quoted text, as wire codes are (at most 256)."""
    longest = "p" * 256
    root, problems = load_text(_matching(f"'{longest}'", integer=False), "t.yaml")
    assert validate(root, "t.yaml", "t.yaml", problems).domains[1].prefixes == (
        longest,
    )
    assert _errors(_matching(f"'{longest}p'", integer=False)) == [
        "t.yaml:15:12: error: domains.other.match: expected a code prefix (printable "
        "ASCII without spaces, at most 256 characters), got "
        f"'{'p' * 57}...'"
    ]
    assert _errors(_matching("[[1, 2]]", integer=False)) == [
        "t.yaml:15:13: error: domains.other.match: expected a prefix (a string), got "
        "a list; ranges are for integer codes (wire_type: integer)"
    ]
