"""read_code hands on a code as usable only when every part of it was read.

Its contract (its docstring): the code, and the code's name alone for the name
checks, each None if unusable.  validate() drops the whole model once any error
is reported, so no check run today can see the difference; these tests hold the
rule at its source, so that a check added later over the usable codes never
meets one assembled around a mistake (a wire code refused, a status misspelt),
and a code is not held back for a mistake that is not its own (the top level's
``wire_type``, reported there).
"""

from __future__ import annotations

import pytest

from generator.model import Code
from generator.nodes import MapNode
from generator.source import load_text
from generator.validate.codes import Codes, read_code
from generator.validate.reader import Reader

GOOD = "retryable: true, meaning: Try later"


def _read(
    codes_yaml: str, wire_type: str | None
) -> tuple[list[tuple[Code | None, Code | None]], Reader]:
    """read_code over each code of a flow mapping ``{name: {...}, ...}``."""
    root, problems = load_text(codes_yaml, "t.yaml")
    assert not problems and isinstance(root, MapNode), problems
    reader, codes = Reader("t.yaml"), Codes(wire_type)
    read = [
        read_code(
            reader, "misc", "domains.misc.codes", key, value, "lower_snake", codes
        )
        for key, value in root.items
    ]
    return read, reader


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
    read, reader = _read(codes_yaml, wire_type)
    assert len(reader.diagnostics) == 1, (why, reader.diagnostics)
    code, named = read[-1]
    assert code is None, why
    # Its name is still checked with the others'.
    assert named is not None and named.code == "busy", why


@pytest.mark.parametrize("wire", ["", ", wire: 7", ", wire: seven"])
def test_a_code_is_not_blamed_for_the_files_invalid_wire_type(wire: str) -> None:
    # wire_type None: the top level's wire_type is invalid, and reported there.
    read, reader = _read(f"{{busy: {{{GOOD}{wire}}}}}", None)
    assert reader.diagnostics == []
    ((code, named),) = read
    assert code is not None and code == named
    assert (code.code, code.retryable, code.meaning) == ("busy", True, "Try later")


def test_a_code_read_whole_is_usable_with_every_part() -> None:
    read, reader = _read(
        f"{{busy: {{{GOOD}, wire: 7, http_status: 503, grpc_status: UNAVAILABLE}}}}",
        "integer",
    )
    assert reader.diagnostics == []
    ((code, _),) = read
    assert code is not None
    assert (code.wire, code.http_status, code.grpc_status) == (7, 503, "UNAVAILABLE")
