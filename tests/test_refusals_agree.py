"""A refused payload reads the same in Python, TypeScript and Go (issue 30 §11).

The vectors say which member a refusal names; this says what it then reads.
Each malformed payload below (a member missing, null, of another type) is
decoded by the shipped taxonomy's three packages, and each must refuse it with
the same message, word for word, naming the kind of value it got as JSON names
it: a missing member is ``got null`` in all three (JSON has no undefined, and
Python's and Go's readers see a missing member as null; docs "Python",
``from_payload``).  TypeScript names the class of what is no plain object,
where it said "expected an object, got an object" for an ``Error``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.support import (
    REPO,
    import_generated,
    manual_text,
    require_typescript_tools,
    run_node_probes,
    cases,
)
from tests.targets.go.test_go import _go, _module_path, _write, go_env

__all__ = ["go_env"]  # the fixture, used by name

GOOD = {"code": "protocol_error", "message": "m", "retryable": False}
NO_CODE = {"message": "m", "retryable": False}
NO_MESSAGE = {"code": "protocol_error", "retryable": False}
NO_RETRYABLE = {"code": "protocol_error", "message": "m"}
STRING, BOOLEAN, OBJECT = (
    "expected a string",
    "expected a boolean",
    "expected an object",
)
# (what is wrong, the payload, what each language must say)
REFUSED: list[tuple[str, Any, str]] = [
    ("code missing", NO_CODE, f"code: {STRING}, got null"),
    ("code null", {**GOOD, "code": None}, f"code: {STRING}, got null"),
    ("code array", {**GOOD, "code": ["x"]}, f"code: {STRING}, got an array"),
    ("code object", {**GOOD, "code": {}}, f"code: {STRING}, got an object"),
    ("code number", {**GOOD, "code": 5}, f"code: {STRING}, got a number"),
    ("message missing", NO_MESSAGE, f"message: {STRING}, got null"),
    ("message null", {**GOOD, "message": None}, f"message: {STRING}, got null"),
    ("message boolean", {**GOOD, "message": True}, f"message: {STRING}, got a boolean"),
    ("retryable missing", NO_RETRYABLE, f"retryable: {BOOLEAN}, got null"),
    ("retryable text", {**GOOD, "retryable": ""},f"retryable: {BOOLEAN}, got a string"),
    ("payload array", [GOOD], f"payload: {OBJECT}, got an array"),
    ("payload null", None, f"payload: {OBJECT}, got null"),
    ("payload string", "x", f"payload: {OBJECT}, got a string"),
]  # fmt: skip

GO_PROBE = """package main

import (
\t"encoding/json"
\t"os"

\terrors "TAXOGEN_GO_MODULE"
)

func main() {
\tdata, err := os.ReadFile(os.Args[1])
\tif err != nil {
\t\tpanic(err)
\t}
\tvar inputs []json.RawMessage
\tif err := json.Unmarshal(data, &inputs); err != nil {
\t\tpanic(err)
\t}
\tsaid := []string{}
\tfor _, input := range inputs {
\t\tif _, err := errors.FromPayload(input); err != nil {
\t\t\tsaid = append(said, err.Error())
\t\t} else {
\t\t\tsaid = append(said, "")
\t\t}
\t}
\tout, _ := json.Marshal(said)
\tos.Stdout.Write(out)
}
"""

SHIPPED = cases()[0]  # the shipped taxonomy, today's payload


def _python() -> list[str]:
    module = import_generated(SHIPPED)
    said = []
    for _, payload, _ in REFUSED:
        with pytest.raises(module.InvalidPayloadError) as caught:
            module.from_payload(payload)
        said.append(str(caught.value))
    return said


def test_python_says_what_it_got() -> None:
    assert _python() == [expected for _, _, expected in REFUSED]


def test_typescript_says_the_same(compiled_ts: Any, tmp_path: Path) -> None:
    node = require_typescript_tools()
    probes = [("refusal", payload) for _, payload, _ in REFUSED]
    observed = run_node_probes(node, compiled_ts(SHIPPED), probes, tmp_path)
    assert [seen["message"] for seen in observed] == [e for _, _, e in REFUSED]
    assert [seen["field"] for seen in observed] == [
        e.split(":")[0] for _, _, e in REFUSED
    ]


def test_typescript_names_the_class_of_what_it_got(
    compiled_ts: Any, tmp_path: Path
) -> None:
    """Issue 30: "expected an object, got an object" for an Error instance."""
    node = require_typescript_tools()
    module = compiled_ts(SHIPPED)
    (seen,) = run_node_probes(node, module, [("refusal_of_error", "boom")], tmp_path)
    assert seen["message"] == "payload: expected an object, got an Error"


def test_go_says_the_same(tmp_path: Path, go_env: dict[str, str]) -> None:
    module = _write(SHIPPED, tmp_path)
    probe = module / "cmd" / "refusals"
    probe.mkdir(parents=True)
    (probe / "main.go").write_text(
        GO_PROBE.replace("TAXOGEN_GO_MODULE", _module_path(module)), encoding="utf-8"
    )
    inputs = tmp_path / "inputs.json"
    inputs.write_text(json.dumps([payload for _, payload, _ in REFUSED]))
    done = _go(["go", "run", "./cmd/refusals", str(inputs)], module, go_env)
    assert done.returncode == 0, done.stdout + done.stderr
    assert json.loads(done.stdout) == [e for _, _, e in REFUSED]


def test_the_readme_says_it() -> None:
    said = " ".join(manual_text().split())
    assert "a missing member reads `got null` in every language" in said
