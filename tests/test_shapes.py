"""The globs a plugin declares in ``"shapes"``, by the README's rules ("Plugins"):
``*`` is any run of characters within one part of a path, ``?`` one character,
``**`` (a whole part) any number of parts, anything else itself; a malformed
glob fails the plugin, naming why.  The paths matched are manifest entries,
which anyone can write, so matching must take bounded time whatever they hold.
"""

from __future__ import annotations

import json
import time

import pytest

from taxogen import answer
from taxogen.shapes import MAX_GLOBS, Glob


@pytest.mark.parametrize(
    ("glob", "path", "matches"),
    [
        ("*.go", "errors.go", True),
        ("*.go", ".go", True),
        ("*.go", "pkg/errors.go", False),  # within one part only
        ("*.go", "errors.go.bak", False),  # the whole path, not a prefix
        ("errors.?o", "errors.go", True),
        ("errors.?o", "errors.o", False),
        ("a?b", "a/b", False),
        ("**", "a", True),
        ("**", "a/b/c.txt", True),
        ("input/**", "input/sha256.txt", True),
        ("input/**", "input/x/y", True),
        ("input/**", "inputs/x", False),
        ("**/*.ts", "x.ts", True),  # no parts at all
        ("**/*.ts", "a/b/x.ts", True),
        ("a/**/z", "a/z", True),
        ("a/**/z", "a/b/c/z", True),
        ("a/**/z", "a/b/c/y", False),
        ("a.[ch]", "a.[ch]", True),  # no classes: brackets are themselves
        ("a.[ch]", "a.c", False),
        ("*a*b*c", "xaybzc", True),
        ("*a*b*c", "xaybz", False),
    ],
)
def test_a_glob_matches_by_the_readme_s_rules(
    glob: str, path: str, matches: bool
) -> None:
    assert Glob.parse(glob).fullmatch(path) is matches


@pytest.mark.parametrize(
    ("glob", "why"),
    [
        ("", "an empty glob"),
        ("/abs/*.go", "not a normalised relative glob inside the folder"),
        ("../*.go", "not a normalised relative glob inside the folder"),
        ("a//*.go", "not a normalised relative glob inside the folder"),
        ("a\\*.go", "not a normalised relative glob inside the folder"),
        ("a\n.go", "a glob with control characters"),
        ("a**.go", "'**' is allowed only as a whole part"),
        ("x" * 1025, "a glob over 1024 characters"),
    ],
)
def test_a_malformed_glob_is_refused_saying_why(glob: str, why: str) -> None:
    with pytest.raises(ValueError) as caught:
        Glob.parse(glob)
    assert str(caught.value) == why


def test_a_hostile_path_against_a_many_star_glob_takes_no_time() -> None:
    """A backtracking matcher takes exponential time here; manifest paths are up
    to 1024 characters and 512 parts."""
    started = time.monotonic()
    assert not Glob.parse("*a" * 30 + "b").fullmatch("a" * 1000)
    assert not Glob.parse("/".join(["**", "*a"] * 20) + "/b").fullmatch(
        "/".join(["a"] * 500)
    )
    assert time.monotonic() - started < 1


def _answer(shapes: object) -> bytes:
    document = {"files": [{"path": "a.go", "content": ""}], "shapes": shapes}
    return json.dumps(document).encode("utf-8")


@pytest.mark.parametrize(
    ("shapes", "message"),
    [
        ("*.go", f'"shapes" is not a list of at most {MAX_GLOBS} globs'),
        (["*.go"] * (MAX_GLOBS + 1), f'"shapes" is not a list of at most {MAX_GLOBS}'),
        (["*.go", 3], "shape 2: expected a glob, a string"),
        (["*.go", "../x"], 'shape 2: "../x": not a normalised relative glob'),
        (["*.ts"], 'file 1: "a.go": not of a shape the plugin declares in "shapes"'),
    ],
)
def test_malformed_shapes_fail_the_answer(shapes: object, message: str) -> None:
    with pytest.raises(answer.Malformed) as caught:
        answer.read(_answer(shapes))
    assert any(
        text.startswith(message) for text in caught.value.messages
    ), caught.value.messages


def test_shapes_are_optional_and_kept_when_given() -> None:
    assert answer.read(b'{"files": []}').shapes == ()
    read = answer.read(_answer(["*.go", "**/*.md"]))
    assert [glob.text for glob in read.shapes] == ["*.go", "**/*.md"]
    assert read.files == {"a.go": b""}
