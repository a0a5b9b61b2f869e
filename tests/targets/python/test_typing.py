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
from typing import Any

import pytest

from tests.spec_oracle import Spec, python_guard, read_spec, readme_member, sample
from tests.support import REPO, Case, case_ids, cases, package

MYPY = [
    sys.executable,
    "-m",
    "mypy",
    "--strict",
    "--no-incremental",
    "--show-error-codes",
    "--no-error-summary",
]


def _uses(spec: Spec) -> str:
    """Good and bad uses of the generated package of the taxonomy ``spec`` reads,
    named by the README's rules (never the generator's ``Names``)."""
    # Codes whose constructors need no field: the typed ones have their own test.
    free = [
        c
        for c in spec.codes.values()
        if not any(f.get("required", True) for _, f in c.fields)
    ]
    code = free[0]
    other = free[-1]
    # docs "Names": enum members are the key in upper snake case.
    member, other_member = readme_member(code.code), readme_member(other.code)
    pkg = spec.python_package
    base, guard = spec.base, python_guard(spec)
    # docs "Wire codes": lookup takes a code of the wire type, and a code of
    # the other type is refused.
    integer = spec.integer
    wire_type, wire, not_wire = ("int", "7", '"7"') if integer else ("str", '"x"', "5")
    # Issue 14 §2: details of the payload's type, the code in its member.
    payload = spec.payload
    good_details, bad_details = {
        "object": ('{"a": 1}', "[1, 2]"),
        "array": ("[1]", '{"a": 1}'),
        "any": ('"x"', None),
    }[payload["details_type"]]
    sent_type = "str" if payload["preset"] == "problem" else wire_type
    sent = f'assert_type(err.to_payload()["{payload["code"]}"], {sent_type})'
    if payload.get("envelope"):
        sent = f'err.to_payload()["{payload["envelope"]}"]'
    misuse = (
        f'{code.class_name}("m", details={bad_details})  # E'
        if bad_details
        else f'{code.class_name}("m", detail=1)  # E'
    )
    return f"""\
from __future__ import annotations

from typing import assert_type

import {pkg}
from {pkg} import (
    {base},
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
    {guard},
)


def good(value: object) -> None:
    err = {code.class_name}(
        "m", details={good_details}, cause=ValueError("x"), retryable=True
    )
    assert_type(err.code, ErrorCode)
    assert_type(err.domain, Domain)
    assert_type(err.retryable, bool)
    assert_type(err.meaning, str)
    assert_type(err.to_payload(), ErrorPayload)
    assert_type(from_payload({{}}), {base})
    assert_type(lookup({wire}), type[{base}])
    assert_type(is_retryable({wire}), bool)
    assert_type(err.wire_code, {wire_type})
    {sent}
    assert_type(to_error(value), {base})
    assert_type(error_from_event({{"type": "x"}}), {base} | None)
    if {guard}(value):
        assert_type(value, {base})
    code: ErrorCode = ErrorCode.{other_member}
    text: {wire_type} = ErrorCode.{member}
    location: str | None = ERROR_EVENTS.get("x")
    issubclass(InvalidPayloadError, ValueError)
    assert_type({pkg}.{other.class_name}("m").retryable, bool)
    limits: tuple[int, int, int] = (
        MAX_CODE_LENGTH,
        MAX_DETAILS_DEPTH,
        MAX_DETAILS_NODES,
    )
    print(code, text, location, limits)


def bad(err: {base}) -> None:
    code: ErrorCode = ErrorCode.{member}_MISSPELT  # E
    wrong: ErrorCode = {code.wire!r}  # E
    err.code = ErrorCode.{other_member}  # E
    {code.class_name}(42)  # E
    {code.class_name}("m", retryable="yes")  # E
    {misuse}
    {code.class_name}("m", unknown_option=1)  # E
    lookup({not_wire})  # E
    ERROR_EVENTS["x"] = "y"  # E
    domain: Domain = "{next(iter(spec.domains))}"  # E
    {pkg}.not_a_name_of_the_package  # E
    {pkg}.MAX_DETAILS_DEPTH = 1000  # E
    print(code, wrong, domain)
"""


@pytest.mark.parametrize("case", cases(), ids=case_ids())
def test_generated_package_and_uses_type_check_strictly(
    case: Case, tmp_path: Path
) -> None:
    spec = read_spec(case.taxonomy)
    src = tmp_path / "src"
    shutil.copytree(package(case) / "python" / "src", src)
    uses = src / "uses.py"
    uses.write_text(_uses(spec), encoding="utf-8")
    expected = {
        index
        for index, line in enumerate(uses.read_text(encoding="utf-8").splitlines(), 1)
        if line.endswith("# E")
    }
    done = subprocess.run(
        [*MYPY, spec.python_package, "uses.py"],
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


#: docs "Typed details": each YAML type as Python types a stored details value.
_PY_TYPES = {"string": "str", "integer": "int", "number": "float", "boolean": "bool"}


def _good_value(field: dict[str, Any]) -> str:
    """A Python literal that fits ``field`` (a YAML shape), for the constructor."""
    return repr(sample(field))


def _typed_uses(spec: Spec) -> str:
    """Good and bad uses of a code's typed details, from the taxonomy's own YAML."""
    code = next(
        c
        for c in spec.codes.values()
        if any(f.get("required", True) for _, f in c.fields)
    )
    details = code.class_name.removesuffix("Error") + "Details"  # docs "Python"
    required = [(n, f) for n, f in code.fields if f.get("required", True)]
    args = ", ".join(f"{n}={_good_value(f)}" for n, f in required)
    name, field = required[0]
    if "enum" in field:
        stored = "Literal[" + ", ".join(map(repr, field["enum"])) + "]"
    else:
        stored = _PY_TYPES.get(field["type"], "object")
    wrong = "1" if field["type"] == "string" else "'x'"
    others = "".join(f", {n}={_good_value(f)}" for n, f in required[1:])
    return f"""\
from __future__ import annotations

from typing import Literal, assert_type

from {spec.python_package} import {code.class_name}, {details}


def good() -> None:
    err = {code.class_name}({args})
    assert_type(err.details, {details})
    value = err.details[{name!r}]
    {"assert_type(value, " + stored + ")" if stored != "object" else "print(value)"}
    explicit = {code.class_name}("explicit", {args}, cause=ValueError("x"))
    print(explicit.message, Literal)


def bad(err: {code.class_name}) -> None:
    {code.class_name}()  # E
    {code.class_name}({name}={wrong}{others})  # E
    {code.class_name}({args}, not_a_field=1)  # E
    err.details["not_a_field"]  # E
    err.details = {{}}  # E
"""


@pytest.mark.parametrize(
    "case",
    # A case whose fields are all optional (Kubernetes' StatusDetails) has no
    # required field to leave out.
    [
        c
        for c in cases()
        if any(
            f.get("required", True)
            for s in read_spec(c.taxonomy).codes.values()
            for _, f in s.fields
        )
    ],
    ids=lambda c: c.name,
)
def test_typed_details_type_check_strictly(case: Case, tmp_path: Path) -> None:
    """docs "Python": a typed class's constructor takes its declared fields as
    keyword arguments and its ``details`` is its TypedDict; misuse fails mypy."""
    src = tmp_path / "src"
    shutil.copytree(package(case) / "python" / "src", src)
    spec = read_spec(case.taxonomy)
    uses = src / "typed_uses.py"
    uses.write_text(_typed_uses(spec), encoding="utf-8")
    expected = {
        index
        for index, line in enumerate(uses.read_text(encoding="utf-8").splitlines(), 1)
        if line.endswith("# E")
    }
    done = subprocess.run(
        [*MYPY, "typed_uses.py"], cwd=src, capture_output=True, text=True, check=False
    )
    reported = {
        int(m.group(1))
        for m in re.finditer(r"^typed_uses\.py:(\d+): error:", done.stdout, re.M)
    }
    assert reported == expected, done.stdout
