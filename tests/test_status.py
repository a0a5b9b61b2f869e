"""What a code maps to (issue 14 §4): the keys read, inherited and spelt as the
issue says.

tests/bad/ pins the messages of every refused value (``http_status_invalid``,
``grpc_status_invalid``, ``throttling_invalid``, ``docs_url_*``,
``version_date_invalid``); here valid files are read in-process and the model is
held to the YAML: each value at the edge of what is allowed is accepted, a
code's status is its own, else its domain's, else the top level's, else none,
and its documentation link is ``docs_url`` with the wire code percent-encoded
(RFC 3986: every byte but the unreserved characters).
"""

from __future__ import annotations

import pytest

from taxogen.diagnostics import TaxonomyError
from taxogen.model import GRPC_STATUSES, Taxonomy, doc_url
from taxogen.source import load_text
from taxogen.validate import validate

HEAD = """\
format: 1
name: tiny
title: Tiny
version: 2024-06-20
base: TinyError
fallback: oops
wrap: oops
"""


def _read(text: str) -> Taxonomy:
    root, problems = load_text(text, "t.yaml")
    return validate(root, "t.yaml", "t.yaml", problems)


def _errors(text: str) -> list[str]:
    root, problems = load_text(text, "t.yaml")
    with pytest.raises(TaxonomyError) as caught:
        validate(root, "t.yaml", "t.yaml", problems)
    return [d.format() for d in caught.value.diagnostics]


INHERITED = HEAD + """\
http_status: 500
grpc_status: INTERNAL
docs_url: "https://errors.example.com/v1/{code}?lang=en"
domains:
  misc:
    title: Miscellaneous
    http_status: 400
    codes:
      oops: {retryable: false, meaning: The domain's HTTP status and the top's gRPC}
      own: {retryable: true, meaning: Its own, http_status: 429, grpc_status: ABORTED}
      just_grpc: {retryable: false, meaning: A, grpc_status: NOT_FOUND}
  plain:
    title: Plain
    grpc_status: UNAVAILABLE
    codes:
      plain_one: {retryable: true, throttling: true, meaning: The top's HTTP status}
"""


def test_a_code_inherits_from_its_domain_then_the_top_level() -> None:
    taxonomy = _read(INHERITED)
    mapped = {
        code.code: tuple(taxonomy.mapped(code))[:2] + (code.throttling,)
        for code in taxonomy.codes
    }
    assert mapped == {
        "oops": (400, "INTERNAL", False),
        "own": (429, "ABORTED", False),
        "just_grpc": (400, "NOT_FOUND", False),
        "plain_one": (500, "UNAVAILABLE", True),
    }
    assert tuple(taxonomy.mapped(taxonomy.domains[1]))[:2] == (500, "UNAVAILABLE")
    assert taxonomy.doc_url(taxonomy.code("own")) == (
        "https://errors.example.com/v1/own?lang=en"
    )


def test_nothing_declared_maps_to_nothing() -> None:
    taxonomy = _read(HEAD + """\
domains:
  misc:
    title: Miscellaneous
    codes:
      oops: {retryable: true, meaning: Something went wrong}
""")
    code = taxonomy.code("oops")
    assert tuple(taxonomy.mapped(code)) == (None, None, ())  # () no list (§2)
    assert code.throttling is False
    assert taxonomy.doc_url(code) is None
    assert (taxonomy.http_status, taxonomy.grpc_status, taxonomy.docs_url) == (
        None,
        None,
        None,
    )


@pytest.mark.parametrize(
    ("wire", "link"),
    [
        ("card_declined", "card_declined"),
        ("CardDeclined", "CardDeclined"),
        ("23505", "23505"),
        ("-32601", "-32601"),
        ("a.b~c", "a.b~c"),  # unreserved: kept
        ("a b/c?d#e&f", "a%20b%2Fc%3Fd%23e%26f"),
        ("100%", "100%25"),
        ("é", "%C3%A9"),  # UTF-8 bytes
        ("{code}", "%7Bcode%7D"),
    ],
)
def test_the_wire_code_is_percent_encoded_into_the_link(wire: str, link: str) -> None:
    template = "https://errors.example.com/{code}"
    assert doc_url(template, wire) == "https://errors.example.com/" + link


@pytest.mark.parametrize(
    "url",
    [
        "https://errors.example.com/{code}",
        "http://errors.example.com/{code}",
        "https://errors.example.com:8443/docs/{code}.html",
        "https://errors.example.com/?code={code}&v=2",
        "https://errors.example.com/errors#{code}",
        "https://user@errors.example.com/a%20b/{code}",
        "https://errors.example.com/{code}/",
    ],
)
def test_a_docs_url_is_accepted(url: str) -> None:
    assert _read(HEAD + f'docs_url: "{url}"\n' + MISC).docs_url == url


MISC = """\
domains:
  misc:
    title: Miscellaneous
    codes:
      oops: {retryable: false, meaning: Something went wrong}
"""


@pytest.mark.parametrize(
    ("url", "message"),
    [
        ("https://errors.example.com/{code}%", "'%' at character 34"),
        ("https://errors.example.com/{code}%2", "'%' at character 34"),
        ("https://errors.example.com/é/{code}", "percent-encode it (%C3%A9)"),
        ("https://errors.example.com/<{code}>", "'<' at character 28"),
        ("HTTPS://errors.example.com/{code}", "absolute http or https URL"),
        ("mailto:errors@example.com?subject={code}", "absolute http or https URL"),
        ("https://:443/{code}", "names no host"),
        ("https://example.com/{Code}", "a '{' at character 21"),
        ("https://example.com/{code", "a '{' at character 21"),
        ("https://example.com/code}", "a '}' at character 25"),
        ("https://example.com/" + "x" * 2000 + "/{code}", "longer than 2000"),
    ],
)
def test_a_bad_docs_url_is_refused_where_it_stands(url: str, message: str) -> None:
    errors = _errors(HEAD + f'docs_url: "{url}"\n' + MISC)
    assert len(errors) == 1 and errors[0].startswith("t.yaml:8:11: error: docs_url:")
    assert message in errors[0], errors[0]


@pytest.mark.parametrize("value", ["100", "101", "404", "599"])
def test_every_status_from_100_to_599_is_accepted(value: str) -> None:
    taxonomy = _read(HEAD + f"http_status: {value}\n" + MISC)
    assert taxonomy.http_status == int(value)


@pytest.mark.parametrize("name", GRPC_STATUSES)
def test_every_canonical_grpc_status_but_ok_is_accepted(name: str) -> None:
    assert _read(HEAD + f'grpc_status: "{name}"\n' + MISC).grpc_status == name


def test_the_sixteen_grpc_statuses_are_the_canonical_codes_in_order() -> None:
    # google.rpc.Code (grpc/grpc doc/statuscodes.md), 1 to 16; 0 is OK.
    assert GRPC_STATUSES == (
        "CANCELLED",
        "UNKNOWN",
        "INVALID_ARGUMENT",
        "DEADLINE_EXCEEDED",
        "NOT_FOUND",
        "ALREADY_EXISTS",
        "PERMISSION_DENIED",
        "RESOURCE_EXHAUSTED",
        "FAILED_PRECONDITION",
        "ABORTED",
        "OUT_OF_RANGE",
        "UNIMPLEMENTED",
        "INTERNAL",
        "UNAVAILABLE",
        "DATA_LOSS",
        "UNAUTHENTICATED",
    )


def test_throttling_false_is_allowed_on_any_code() -> None:
    taxonomy = _read(HEAD + """\
domains:
  misc:
    title: Miscellaneous
    codes:
      oops: {retryable: false, throttling: false, meaning: Something went wrong}
""")
    assert taxonomy.code("oops").throttling is False


def test_dates_are_versions_and_sinces() -> None:
    taxonomy = _read(HEAD + """\
domains:
  misc:
    title: Miscellaneous
    codes:
      oops: {retryable: false, meaning: Something went wrong, since: 2024-02-29}
      old:
        retryable: false
        meaning: Old
        since: 1.0.0
        deprecated: {reason: Old, since: 2024-06-01}
      gone: {removed: {since: 2024-06-20, reason: Unused}}
""")
    assert taxonomy.version == "2024-06-20"
    assert taxonomy.code("oops").since == "2024-02-29"
    deprecated = taxonomy.code("old").deprecated
    assert deprecated is not None and deprecated.since == "2024-06-01"
    assert taxonomy.removed[0].since == "2024-06-20"
