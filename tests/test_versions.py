"""Version rules of generator/model.py, as tables written from semver.org and PEP 440.

Validation, diff and the docs and Python targets all read versions through
these functions; the expected values come from the two specifications' words:
semver 2.0.0 (no leading zeros; a pre-release precedes its release; build
metadata does not count) and PEP 440 (``a``, ``b``, ``rc`` pre-releases; a
local version label after ``+``).
"""

from __future__ import annotations

import pytest

from generator.model import Version, parse_version, pep440, semver_guess, version_key


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("1.2.3", Version(1, 2, 3, None, None)),
        ("0.0.0", Version(0, 0, 0, None, None)),
        ("1.0.0-rc.1", Version(1, 0, 0, "rc.1", None)),
        ("1.0.0+build.7", Version(1, 0, 0, None, "build.7")),
        ("1.0.0-alpha-1+sha.5114f85", Version(1, 0, 0, "alpha-1", "sha.5114f85")),
        ("01.2.3", None),  # no leading zeros
        ("1.2", None),
        ("v1.2.3", None),
        ("1.2.3-", None),
        ("1.2.3-a..b", None),  # empty identifier
    ],
)
def test_parse_version(text: str, expected: Version | None) -> None:
    assert parse_version(text) == expected


def test_version_key_puts_versions_in_release_order() -> None:
    written = ["1.0.0", "0.9.0", "1.0.0-rc.1", "1.10.0", "1.2.0", "1.0.0-beta"]
    ordered = ["0.9.0", "1.0.0-beta", "1.0.0-rc.1", "1.0.0", "1.2.0", "1.10.0"]
    assert sorted(written, key=version_key) == ordered


@pytest.mark.parametrize(
    ("semver", "expected"),
    [
        ("1.2.3", "1.2.3"),
        ("1.0.0-alpha", "1.0.0a0"),
        ("1.0.0-alpha.2", "1.0.0a2"),
        ("1.0.0-beta.1", "1.0.0b1"),
        ("1.0.0-b3", "1.0.0b3"),
        ("1.0.0-rc.1", "1.0.0rc1"),
        ("1.0.0-RC2", "1.0.0rc2"),
        ("1.0.0-c.4", "1.0.0rc4"),
        ("1.0.0-nightly", "1.0.0.dev0"),  # no PEP 440 word for it
        ("1.0.0+build-7", "1.0.0+build.7"),
        ("2.1.0-rc.1+exp.sha.5114f85", "2.1.0rc1+exp.sha.5114f85"),
    ],
)
def test_pep440(semver: str, expected: str) -> None:
    assert pep440(semver) == expected


@pytest.mark.parametrize(
    ("typed", "meant"),
    [("v1.2.3", "1.2.3"), ("1.2", "1.2.0"), ("1", "1.0.0"), ("01.02.03", "1.2.3")],
)
def test_semver_guess(typed: str, meant: str) -> None:
    assert semver_guess(typed) == meant
