"""Version rules of generator/model.py, as tables written from semver.org and PEP 440.

Validation, diff and the docs and Python targets all read versions through
these functions; the expected values come from the two specifications' words:
semver 2.0.0 (no leading zeros; a pre-release precedes its release; build
metadata does not count) and PEP 440 (``a``, ``b``, ``rc`` pre-releases; a
local version label after ``+``; release numbers without leading zeros), and
from issue 14 for date versions (an ISO date that is a real date; the Python
package's version ``2024.6.20``; npm's the same, a semantic version).
"""

from __future__ import annotations

import pytest

import datetime

from taxogen.model import (
    Version,
    npm_version,
    parse_date_version,
    parse_version,
    pep440,
    semver_guess,
    version_guess,
    version_key,
)


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


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("2024-06-20", datetime.date(2024, 6, 20)),
        ("2024-02-29", datetime.date(2024, 2, 29)),  # a leap year
        ("0001-01-01", datetime.date(1, 1, 1)),
        ("2023-02-29", None),  # not a leap year
        ("2024-04-31", None),
        ("2024-13-01", None),
        ("2024-00-10", None),
        ("0000-01-01", None),
        ("2024-6-20", None),  # ISO writes two digits
        ("24-06-20", None),
        ("2024/06/20", None),
        ("20240620", None),
        ("2024-06-20T00:00", None),
        ("1.2.3", None),
    ],
)
def test_parse_date_version(text: str, expected: datetime.date | None) -> None:
    assert parse_date_version(text) == expected


def test_version_key_puts_dates_in_order_after_every_semantic_version() -> None:
    written = ["2024-06-20", "10.0.0", "2023-12-31", "2024-06-02", "0.1.0"]
    ordered = ["0.1.0", "10.0.0", "2023-12-31", "2024-06-02", "2024-06-20"]
    assert sorted(written, key=version_key) == ordered
    assert version_key("") < version_key("0.0.0") < version_key("0001-01-01")


@pytest.mark.parametrize(
    ("text", "python", "npm"),
    [
        ("2024-06-20", "2024.6.20", "2024.6.20"),
        ("2024-10-01", "2024.10.1", "2024.10.1"),
        ("1999-12-31", "1999.12.31", "1999.12.31"),
        ("1.0.0-rc.1", "1.0.0rc1", "1.0.0-rc.1"),  # semver: npm's own kind
    ],
)
def test_date_versions_spelt_for_pep440_and_npm(
    text: str, python: str, npm: str
) -> None:
    assert pep440(text) == python
    assert npm_version(text) == npm
    assert parse_version(npm) is not None  # npm takes semantic versions only


@pytest.mark.parametrize(
    ("typed", "meant"),
    [
        ("2024/06/20", "2024-06-20"),
        ("2024.06.20", "2024-06-20"),  # leading zeros: no semantic version
        ("2024-6-20", "2024-06-20"),
        ("2024_06_20", "2024-06-20"),
        ("20240620", "2024-06-20"),
        ("v1.2", "1.2.0"),  # not a date: as semver_guess
        ("2024/02/30", "2024/02/30"),  # no such date: no date is guessed
    ],
)
def test_version_guess(typed: str, meant: str) -> None:
    assert version_guess(typed) == meant
