"""Static typing: mypy --strict accepts the generated package and good uses of it,
and rejects misuses (negative tests), for every case; and generator/ itself.

Each misuse line carries ``# E`` and must be exactly the lines mypy reports, so a
misuse that became legal fails the test as surely as a good use that broke.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from generator.naming import Names
from tests.support import REPO, Case, case_ids, cases

MYPY = [
    sys.executable,
    "-m",
    "mypy",
    "--strict",
    "--no-incremental",
    "--show-error-codes",
    "--no-error-summary",
]


def _uses(names: Names) -> str:
    """Good and bad uses of the generated package of ``names``."""
    code = names.codes[0]
    other = names.codes[-1]
    pkg = names.python_package
    return f"""\
from __future__ import annotations

from typing import assert_type

import {pkg}
from {pkg} import (
    {names.base},
    {code.class_name},
    Domain,
    ERROR_EVENTS,
    ErrorCode,
    ErrorPayload,
    InvalidPayloadError,
    MAX_CODE_LENGTH,
    MAX_DETAILS_DEPTH,
    MAX_DETAILS_NODES,
    error_from_event,
    from_payload,
    is_retryable,
    lookup,
    to_error,
    {names.py_guard},
)


def good(value: object) -> None:
    err = {code.class_name}(
        "m", details={{"a": 1}}, cause=ValueError("x"), retryable=True
    )
    assert_type(err.code, ErrorCode)
    assert_type(err.domain, Domain)
    assert_type(err.retryable, bool)
    assert_type(err.meaning, str)
    assert_type(err.to_payload(), ErrorPayload)
    assert_type(from_payload({{}}), {names.base})
    assert_type(lookup("x"), type[{names.base}])
    assert_type(is_retryable("x"), bool)
    assert_type(to_error(value), {names.base})
    assert_type(error_from_event({{"type": "x"}}), {names.base} | None)
    if {names.py_guard}(value):
        assert_type(value, {names.base})
    code: ErrorCode = ErrorCode.{other.member}
    text: str = ErrorCode.{code.member}
    location: str | None = ERROR_EVENTS.get("x")
    issubclass(InvalidPayloadError, ValueError)
    assert_type({pkg}.{other.class_name}("m").retryable, bool)
    limits: tuple[int, int, int] = (
        MAX_CODE_LENGTH,
        MAX_DETAILS_DEPTH,
        MAX_DETAILS_NODES,
    )
    print(code, text, location, limits)


def bad(err: {names.base}) -> None:
    code: ErrorCode = ErrorCode.{code.member}_MISSPELT  # E
    wrong: ErrorCode = "{code.code.code}"  # E
    err.code = ErrorCode.{other.member}  # E
    {code.class_name}(42)  # E
    {code.class_name}("m", retryable="yes")  # E
    {code.class_name}("m", details=[1, 2])  # E
    {code.class_name}("m", unknown_option=1)  # E
    lookup(5)  # E
    ERROR_EVENTS["x"] = "y"  # E
    domain: Domain = "{names.domains[0].domain.key}"  # E
    {pkg}.not_a_name_of_the_package  # E
    {pkg}.MAX_DETAILS_DEPTH = 1000  # E
    print(code, wrong, domain)
"""


@pytest.mark.parametrize("case", cases(), ids=case_ids())
def test_generated_package_and_uses_type_check_strictly(
    case: Case, tmp_path: Path
) -> None:
    names = case.names
    src = tmp_path / "src"
    shutil.copytree(case.expected / "python" / "src", src)
    uses = src / "uses.py"
    uses.write_text(_uses(names), encoding="utf-8")
    expected = {
        index
        for index, line in enumerate(uses.read_text(encoding="utf-8").splitlines(), 1)
        if line.endswith("# E")
    }
    done = subprocess.run(
        [*MYPY, names.python_package, "uses.py"],
        cwd=src,
        capture_output=True,
        text=True,
        check=False,
    )
    reported: set[int] = set()
    for line in done.stdout.splitlines():
        match = re.match(r"uses\.py:(\d+): error:", line)
        if match:
            reported.add(int(match.group(1)))
        elif ": error:" in line:
            pytest.fail(
                f"mypy --strict rejects the generated package itself:\n{done.stdout}"
            )
    assert reported == expected, done.stdout


def test_generator_itself_passes_mypy_strict() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "mypy"],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
