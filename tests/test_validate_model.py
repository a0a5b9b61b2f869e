"""validate() builds the model the YAML states, and refuses exactly at each limit.

tests/bad/ pins the messages of refused files; here valid files are read
in-process and every field of the model is held to the YAML it came from (the
README's defaults where a key is absent), with the limits tried at the limit
and one past it, and the problems a damaged file gives asserted whole.  Last,
read_code's rule that a code with a reported part is not handed on as usable.
"""

from __future__ import annotations

import pytest

from taxogen.diagnostics import MAX_DIAGNOSTICS, Position, TaxonomyError
from taxogen.model import Code, JSONObject, Taxonomy
from taxogen.nodes import MapNode
from taxogen.source import load_text
from taxogen.validate import validate
from taxogen.validate.codes import Codes, read_code
from taxogen.validate.reader import Reader

HEAD = """\
format: 1
name: tiny
title: Tiny
version: 1.2.0
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


def test_every_field_of_the_model_is_the_yamls() -> None:
    taxonomy = _read(HEAD + """\
domains:
  misc:
    title: Miscellaneous
    description: "Line one\\n\\tand two"
    class: MiscBase
    codes:
      oops: {retryable: false, meaning: Something went wrong}
      later:
        retryable: true
        meaning: Try later
        class: LaterError
        since: 1.1.0
        deprecated: {reason: Use oops, replaced_by: oops, since: 1.2.0}
      gone: {removed: {since: 1.0.0, reason: Unused}, meaning: It went}
  other:
    title: Other
    codes:
      other_thing: {retryable: true, meaning: Other}
events:
  task.failed: payload.error
docs:
  status: Stable
  purpose: Purpose
  payload: Payload
  taxonomy: Taxonomy text
  retryability: Retry text
  propagation: Propagation text
  notes: [one, two]
  fields: {code: The code, details: More}
  example:
    code: later
    message: Hi
    details: {i: -3, f: 2.5, e: 1e3, t: true, n: ~, s: "true", p: word, l: [1, x]}
""")
    assert (taxonomy.source, taxonomy.name, taxonomy.title, taxonomy.version) == (
        "t.yaml",
        "tiny",
        "Tiny",
        "1.2.0",
    )
    assert (taxonomy.base, taxonomy.fallback, taxonomy.wrap) == (
        "TinyError",
        "oops",
        "oops",
    )
    # README: code_case defaults to lower_snake, python_layout to auto.
    assert (taxonomy.code_case, taxonomy.python_layout) == ("lower_snake", "auto")
    assert taxonomy.base_position == Position(line=5, col=7)
    assert [k for k, _ in taxonomy.key_positions] == [
        "format",
        "name",
        "title",
        "version",
        "base",
        "fallback",
        "wrap",
        "domains",
        "events",
        "docs",
    ]
    assert dict(taxonomy.key_positions)["domains"] == Position(line=8, col=1)
    misc, other = taxonomy.domains
    assert (misc.key, misc.title, misc.description, misc.class_name) == (
        "misc",
        "Miscellaneous",
        "Line one\n\tand two",
        "MiscBase",
    )
    assert misc.position == Position(line=9, col=3)
    assert (other.description, other.class_name, other.removed) == ("", None, ())
    oops, later = misc.codes
    assert (oops.code, oops.domain, oops.retryable, oops.meaning) == (
        "oops",
        "misc",
        False,
        "Something went wrong",
    )
    assert (oops.class_name, oops.since, oops.deprecated) == (None, None, None)
    assert oops.position == Position(line=14, col=7)
    assert (later.retryable, later.class_name, later.since) == (
        True,
        "LaterError",
        "1.1.0",
    )
    assert later.deprecated is not None
    assert (later.deprecated.reason, later.deprecated.replaced_by) == (
        "Use oops",
        "oops",
    )
    assert later.deprecated.since == "1.2.0"
    assert later.deprecated.position == Position(line=20, col=9)
    (gone,) = misc.removed
    assert (gone.code, gone.domain, gone.since, gone.reason, gone.meaning) == (
        "gone",
        "misc",
        "1.0.0",
        "Unused",
        "It went",
    )
    assert gone.position == Position(line=21, col=7)
    assert [c.code for c in other.codes] == ["other_thing"]
    (event,) = taxonomy.events
    assert (event.type, event.location, event.position) == (
        "task.failed",
        "payload.error",
        Position(line=27, col=3),
    )
    docs = taxonomy.docs
    assert (docs.status, docs.purpose, docs.payload) == ("Stable", "Purpose", "Payload")
    assert (docs.taxonomy, docs.retryability, docs.propagation) == (
        "Taxonomy text",
        "Retry text",
        "Propagation text",
    )
    assert docs.notes == ("one", "two")
    assert docs.fields == (("code", "The code"), ("details", "More"))
    assert docs.example is not None
    assert (docs.example.code, docs.example.message) == ("later", "Hi")
    assert docs.example.position == Position(line=38, col=5)
    # README: details are typed like YAML 1.2's core schema.
    assert docs.example.details == JSONObject(
        (
            ("i", -3),
            ("f", 2.5),
            ("e", 1000.0),
            ("t", True),
            ("n", None),
            ("s", "true"),
            ("p", "word"),
            ("l", (1, "x")),
        )
    )
    details = docs.example.details
    assert isinstance(details, JSONObject)
    assert type(dict(details.items)["i"]) is int
    assert type(dict(details.items)["e"]) is float


def test_optional_keys_default_as_the_readme_says() -> None:
    taxonomy = _read(
        HEAD
        + "code_case: lower_snake\npython_layout: lazy\n"
        + "domains:\n  misc:\n    title: M\n    codes:\n"
        + "      oops: {retryable: true, meaning: M}\n"
    )
    assert taxonomy.python_layout == "lazy"
    assert taxonomy.events == ()
    docs = taxonomy.docs
    assert (docs.example, docs.fields, docs.notes, docs.status) == (None, (), (), "")
    assert taxonomy.domains[0].codes[0].retryable is True


def test_a_docs_example_without_details_has_none() -> None:
    # README: the docs example is a payload, whose details are an object or null
    # (absent); an example that gives none has none, not an empty text.
    taxonomy = _read(
        HEAD
        + "domains:\n  misc:\n    title: M\n    codes:\n"
        + "      oops: {retryable: true, meaning: M}\n"
        + "docs:\n  example: {code: oops, message: Hi}\n"
    )
    example = taxonomy.docs.example
    assert example is not None
    assert (example.code, example.message, example.details) == ("oops", "Hi", None)


def test_upper_snake_names_and_replacements() -> None:
    taxonomy = _read(
        HEAD.replace("oops", "OOPS")
        + "code_case: upper_snake\n"
        + "domains:\n  MISC:\n    title: M\n    codes:\n"
        + "      OOPS: {retryable: true, meaning: M}\n"
        + "      OLD: {retryable: true, meaning: M,"
        + " deprecated: {reason: R, replaced_by: OOPS}}\n"
    )
    assert taxonomy.code_case == "upper_snake"
    old = taxonomy.domains[0].codes[1].deprecated
    assert old is not None and old.replaced_by == "OOPS" and old.since is None


def _one_code(name: str) -> str:
    return (
        HEAD.replace("oops", name)
        + "domains:\n  misc:\n    title: M\n    codes:\n"
        + f"      {name}: {{retryable: true, meaning: M}}\n"
    )


def test_names_may_be_100_characters_and_no_more() -> None:
    """README "Rules the loader enforces": names at most 100 characters."""
    at_limit = "a" * 100
    assert _read(_one_code(at_limit)).domains[0].codes[0].code == at_limit
    past = "a" * 101
    assert (
        f"t.yaml:12:7: error: domains.misc.codes.{past}: longer than 100 characters"
        in (_errors(_one_code(past)))
    )
    klass = "A" + "b" * 99
    text = _one_code("oops").replace("meaning: M}", f"meaning: M, class: {klass}}}")
    assert _read(text).domains[0].codes[0].class_name == klass
    assert _errors(text.replace(klass, klass + "b")) == [
        "t.yaml:12:50: error: domains.misc.codes.oops.class: longer than 100 characters"
    ]
    event = "e" * 100
    events = f"events:\n  {event}: {'p' * 100}\n"
    assert _read(_one_code("oops") + events).events[0].type == event
    assert _errors(_one_code("oops") + events.replace(": p", ": pp")) == [
        f"t.yaml:14:105: error: events.{event}: longer than 100 characters"
    ]
    assert _errors(_one_code("oops") + events.replace("e:", "ee:")) == [
        f"t.yaml:14:3: error: events.{event}e: longer than 100 characters"
    ]


def test_a_payload_member_may_be_64_characters_and_no_more() -> None:
    """docs "The payload on the wire": "A member name is any non-empty text up
    to 64 characters"."""
    at_limit = "m" * 64
    text = _one_code("oops") + f"payload: {{envelope: {at_limit}}}\n"
    assert _read(text).payload.envelope == at_limit
    assert _errors(text.replace(at_limit, at_limit + "m")) == [
        "t.yaml:13:21: error: payload.envelope: longer than 64 characters"
    ]


def test_collecting_stops_after_the_limit() -> None:
    """Issue: at most MAX_DIAGNOSTICS problems are reported, then the run stops."""
    many = "".join(
        f"      c{i}: {{retryable: maybe, meaning: M}}\n" for i in range(150)
    )
    text = _one_code("oops") + many
    root, problems = load_text(text, "t.yaml")
    with pytest.raises(TaxonomyError) as caught:
        validate(root, "t.yaml", "t.yaml", problems)
    assert len(caught.value.diagnostics) == MAX_DIAGNOSTICS
    assert caught.value.truncated is True
    exact = "".join(
        f"      c{i}: {{retryable: maybe, meaning: M}}\n"
        for i in range(MAX_DIAGNOSTICS)
    )
    root, problems = load_text(_one_code("oops") + exact, "t.yaml")
    with pytest.raises(TaxonomyError) as caught:
        validate(root, "t.yaml", "t.yaml", problems)
    assert len(caught.value.diagnostics) == MAX_DIAGNOSTICS
    assert caught.value.truncated is False


def test_a_tombstone_keeps_its_optional_meaning_and_retryable() -> None:
    """README: a removed code is ``removed: {since, reason}``, its meaning optional;
    it is no longer generated, so it is no code of its domain.
    """
    taxonomy = _read(
        _one_code("oops")
        + "      gone: {removed: {since: 1.0.0, reason: Unused}, retryable: true}\n"
        + "      went: {removed: {reason: Old, since: 0.1.0-rc.1}, meaning: It went}\n"
    )
    (misc,) = taxonomy.domains
    assert [c.code for c in misc.codes] == ["oops"]
    gone, went = misc.removed
    assert (gone.code, gone.since, gone.reason, gone.meaning) == (
        "gone",
        "1.0.0",
        "Unused",
        "",
    )
    assert (went.since, went.reason, went.meaning) == ("0.1.0-rc.1", "Old", "It went")
    assert went.position == Position(line=14, col=7)


def test_a_replacement_is_named_in_the_taxonomys_code_case() -> None:
    """README: codes follow ``code_case``; ``replaced_by`` names a code."""
    upper = (
        HEAD.replace("oops", "OOPS")
        + "code_case: upper_snake\n"
        + "domains:\n  MISC:\n    title: M\n    codes:\n"
        + "      OOPS: {retryable: true, meaning: M}\n"
        + "      OLD: {retryable: true, meaning: M,"
        + " deprecated: {reason: R, replaced_by: oops}}\n"
    )
    assert _errors(upper) == [
        "t.yaml:14:79: error: domains.MISC.codes.OLD.deprecated.replaced_by: expected "
        "a code name in upper_snake, got 'oops'"
    ]
    # With code_case itself wrong, either case names a code; only that is reported.
    unsure = upper.replace("upper_snake", "upper")
    assert _errors(unsure) == [
        "t.yaml:8:12: error: code_case: expected one of lower_snake, upper_snake, "
        "as_written, got 'upper'; did you mean 'upper_snake'?"
    ]
    assert _errors(unsure.replace("by: oops", "by: Oops")) == [
        "t.yaml:8:12: error: code_case: expected one of lower_snake, upper_snake, "
        "as_written, got 'upper'; did you mean 'upper_snake'?",
        "t.yaml:14:79: error: domains.MISC.codes.OLD.deprecated.replaced_by: expected "
        "a code name, got 'Oops'",
    ]


# read_code hands on a code as usable only when every part of it was read (its
# docstring: "each None if unusable").  validate() drops the whole model once any
# error is reported, so no check run today sees the difference: these hold the rule
# at its source, so that a check added later over the usable codes never meets one
# assembled around a mistake (a wire code refused, a status misspelt), and a code
# is not held back for a mistake that is not its own (the top level's wire_type).
GOOD = "retryable: true, meaning: Try later"


def _read_codes(
    codes_yaml: str, wire_type: str | None
) -> tuple[list[tuple[Code | None, Code | None]], Reader]:
    """read_code over each code of a flow mapping ``{name: {...}, ...}``, in the
    domain misc."""
    read, reader, _ = _read_domains(f"{{misc: {codes_yaml}}}", wire_type)
    return list(read.values()), reader


def _read_domains(
    domains_yaml: str, wire_type: str | None = "string"
) -> tuple[dict[tuple[str, str], tuple[Code | None, Code | None]], Reader, Codes]:
    """read_code over each code of each domain of ``{domain: {code: {...}}}``, in
    order, sharing one Codes as read_taxonomy does."""
    root, problems = load_text(domains_yaml, "t.yaml")
    assert not problems and isinstance(root, MapNode), problems
    reader, codes = Reader("t.yaml"), Codes(wire_type)
    read = {}
    for domain, codes_node in root.items:
        assert isinstance(codes_node, MapNode)
        for key, value in codes_node.items:
            read[domain.value, key.value] = read_code(
                reader,
                domain.value,
                f"domains.{domain.value}.codes",
                key,
                value,
                "lower_snake",
                codes,
            )
    return read, reader, codes


@pytest.mark.parametrize(
    ("why", "codes_yaml", "wire_type"),
    [
        (
            "a wire code of the wrong type",
            f"{{busy: {{{GOOD}, wire: abc}}}}",
            "integer",
        ),
        ("no wire code where every code needs one", f"{{busy: {{{GOOD}}}}}", "integer"),
        (
            "an HTTP status out of range",
            f"{{busy: {{{GOOD}, http_status: 999}}}}",
            None,
        ),
        ("a misspelt gRPC status", f"{{busy: {{{GOOD}, grpc_status: BUSY}}}}", None),
        ("a since that is no version", "{busy: {" + GOOD + ", since: soon}}", None),
        (
            "a deprecation without its reason",
            "{busy: {" + GOOD + ", deprecated: {since: 1.0.0}}}",
            None,
        ),
        (
            "a details field of no known type",
            "{busy: {" + GOOD + ", details: {f: {type: nope}}}}",
            None,
        ),
        (
            "a message naming no details field",
            "{busy: {" + GOOD + ", message: 'Busy {nope}'}}",
            None,
        ),
        (
            "a throttling that is no boolean",
            "{busy: {" + GOOD + ", throttling: 1}}",
            None,
        ),
        ("a retryable that is no boolean", "{busy: {retryable: 1, meaning: M}}", None),
        ("an empty meaning", "{busy: {retryable: true, meaning: ''}}", None),
        (
            "a wire code another code has",
            f"{{idle: {{{GOOD}, wire: x}}, busy: {{{GOOD}, wire: x}}}}",
            "string",
        ),
    ],
)
def test_a_code_with_a_reported_part_is_not_usable(
    why: str, codes_yaml: str, wire_type: str | None
) -> None:
    read, reader = _read_codes(codes_yaml, wire_type)
    assert len(reader.diagnostics) == 1, (why, reader.diagnostics)
    code, named = read[-1]
    assert code is None, why
    # Its name is still checked with the others'.
    assert named is not None and named.code == "busy", why


@pytest.mark.parametrize("wire", ["", ", wire: 7", ", wire: seven"])
def test_a_code_is_not_blamed_for_the_files_invalid_wire_type(wire: str) -> None:
    # wire_type None: the top level's wire_type is invalid, and reported there.
    read, reader = _read_codes(f"{{busy: {{{GOOD}{wire}}}}}", None)
    assert reader.diagnostics == []
    ((code, named),) = read
    assert code is not None and code == named
    assert (code.code, code.retryable, code.meaning) == ("busy", True, "Try later")


def test_a_code_read_whole_is_usable_with_every_part() -> None:
    read, reader = _read_codes(
        f"{{busy: {{{GOOD}, wire: 7, http_status: 503, grpc_status: UNAVAILABLE}}}}",
        "integer",
    )
    assert reader.diagnostics == []
    ((code, _),) = read
    assert code is not None
    assert (code.wire, code.http_status, code.grpc_status) == (7, 503, "UNAVAILABLE")


@pytest.mark.parametrize(
    ("why", "domains_yaml", "errors"),
    [
        (
            "a removed code's name used again",
            "{a: {busy: {removed: {since: 1.0.0, reason: R}}},"
            " b: {busy: {" + GOOD + "}}}",
            1,
        ),
        (
            "a code defined twice",
            "{a: {busy: {" + GOOD + "}}, b: {busy: {" + GOOD + "}}}",
            1,
        ),
        ("a name against the code case, its mapping unreadable", "{b: {Busy: 5}}", 2),
        ("a class: that is no class name", "{b: {busy: {" + GOOD + ", class: x}}}", 1),
    ],
)
def test_a_code_whose_name_is_refused_is_not_even_a_name(
    why: str, domains_yaml: str, errors: int
) -> None:
    # Its name was reported: neither the code nor its name is handed on, so the
    # name checks do not report it again under another guise.
    read, reader, _ = _read_domains(domains_yaml)
    assert len(reader.diagnostics) == errors, (why, reader.diagnostics)
    assert read[next(reversed(read))] == (None, None), why


def test_a_code_whose_mapping_is_unreadable_is_still_a_name() -> None:
    read, reader, _ = _read_domains("{misc: {busy: 5}}")
    assert len(reader.diagnostics) == 1
    code, named = read["misc", "busy"]
    assert code is None
    assert named is not None and (named.code, named.domain) == ("busy", "misc")


def test_a_tombstone_that_cannot_be_read_takes_no_name() -> None:
    # README: an unreadable tombstone is no removed code, so its name stays taken
    # as a code's, not as a removed one's (and its wire code is dropped with it).
    read, reader, codes = _read_domains(
        "{misc: {gone: {removed: {since: soon, reason: R}, wire: x}}}"
    )
    assert len(reader.diagnostics) == 1
    assert read["misc", "gone"] == (None, None)
    assert "gone" not in codes.removed
