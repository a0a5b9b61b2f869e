"""The go target: every golden case's Go module is gofmt-clean, vetted, and passes
every conformance vector, agreeing with Python and TypeScript.

For each case the module is rendered (``build_plan(taxonomy, ["go"])``) into a
temporary folder, ``gofmt -l`` must list nothing, ``go vet ./...`` must pass,
and ``go test`` runs ``tests/targets/go/conformance_test.go`` (copied into the module)
over the case's golden ``conformance/vectors.json`` (for the shipped taxonomy
also ``tests/targets/go/harmovela_test.go``, the README's Go API, and
``tests/targets/go/runtime_test.go`` and ``tests/targets/go/values_test.go``, the
runtime
against toy taxonomies; for ``nested_details`` ``tests/targets/go/nested_test.go``,
its nested structs used from a consumer program).  Go has no
classes, so the runner checks an expected class as its code, through a table
built here from the YAML by docs "Names" (``tests/spec_oracle.py``), never
from the generator.  The runner is shown to fail on a wrong expectation, and the Go
names are checked against the YAML by docs "Go".  Go comes from Debian's
``golang-go`` (1.19) in CI; without it these tests fail under ``CI`` and skip
elsewhere (``tests.support.require_tool``).  Nothing is fetched: the module
depends on the standard library alone (``GOPROXY=off``).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from taxogen.cli import main
from taxogen.pipeline import build_plan
from tests.spec_oracle import read_spec, readme_go_name
from tests.support import REPO, Case, case_ids, cases, require_tool

MANIFEST = ".taxogen-manifest.json"
RUNNER = REPO / "tests" / "targets" / "go" / "conformance_test.go"
API_TEST = REPO / "tests" / "targets" / "go" / "harmovela_test.go"
RUNTIME_TEST = REPO / "tests" / "targets" / "go" / "runtime_test.go"
VALUES_TEST = REPO / "tests" / "targets" / "go" / "values_test.go"
NESTED_TEST = REPO / "tests" / "targets" / "go" / "nested_test.go"


@pytest.fixture(scope="session")
def go_env(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """The environment for go: its caches in one temporary folder for the session,
    modules never fetched."""
    require_tool(
        shutil.which("go") is not None and shutil.which("gofmt") is not None,
        "Go (go and gofmt; `apt-get install golang-go`)",
    )
    home = tmp_path_factory.mktemp("go")
    return {
        **os.environ,
        "GOPATH": str(home / "path"),
        "GOCACHE": str(home / "cache"),
        "GOFLAGS": "-mod=mod",
        "GOPROXY": "off",
        "GOTOOLCHAIN": "local",
        "GOTELEMETRY": "off",
        "CGO_ENABLED": "0",
    }


def _write(case: Case, folder: Path) -> Path:
    """The case's go module written under ``folder``; its path."""
    for path, data in build_plan(case.taxonomy, ["go"]).items():
        if path != MANIFEST:
            target = folder / path
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)
    return folder / "go"


def _module_path(module: Path) -> str:
    found = re.search(r"^module (\S+)$", (module / "go.mod").read_text(), re.M)
    assert found is not None
    return found.group(1)


def _add_test(module: Path, source: Path, folder: str) -> None:
    (module / folder).mkdir(exist_ok=True)
    text = source.read_text(encoding="utf-8")
    (module / folder / source.name).write_text(
        text.replace("TAXOGEN_GO_MODULE", _module_path(module)), encoding="utf-8"
    )


def _go(
    args: list[str], module: Path, env: dict[str, str]
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        args, cwd=module, env=env, capture_output=True, text=True, check=False
    )


@pytest.mark.parametrize("case", cases(), ids=case_ids())
def test_the_go_module_is_clean_vetted_and_passes_every_vector(
    case: Case, tmp_path: Path, go_env: dict[str, str]
) -> None:
    module = _write(case, tmp_path)
    unformatted = _go(["gofmt", "-l", "."], module, go_env)
    assert unformatted.returncode == 0 and unformatted.stdout == "", (
        unformatted.stdout + unformatted.stderr
    )
    vet = _go(["go", "vet", "./..."], module, go_env)
    assert vet.returncode == 0, vet.stdout + vet.stderr
    _add_test(module, RUNNER, "conformance")
    if case.name == "shipped":  # the README's API, and the runtime on its own
        _add_test(module, API_TEST, "harmovela")
        _add_test(module, RUNTIME_TEST, "internal/taxogen")
        _add_test(module, VALUES_TEST, "internal/taxogen")
    if case.name == "nested_details":  # issue 30 §7's structs, from a consumer
        _add_test(module, NESTED_TEST, "nested")
    env = {
        **go_env,
        "TAXOGEN_VECTORS": str(case.expected / "conformance" / "vectors.json"),
    }
    done = _go(["go", "test", "-count=1", "./..."], module, env)
    assert done.returncode == 0, done.stdout + done.stderr
    ran = set(re.findall(r"^ok\s+\S+?/(\S+)\s", done.stdout, re.M))
    tested = {
        "shipped": {"conformance", "harmovela", "internal/taxogen"},
        "nested_details": {"conformance", "nested"},
    }
    assert ran == tested.get(case.name, {"conformance"}), done.stdout


def test_the_runner_fails_on_a_wrong_expectation(
    tmp_path: Path, go_env: dict[str, str]
) -> None:
    """The runner can fail: one accepted vector expects the wrong retryable, one
    refusal the wrong field, and both are reported by id."""
    case = cases()[0]
    vectors = json.loads((case.expected / "conformance" / "vectors.json").read_text())
    accepted = next(
        v
        for v in vectors["vectors"]
        if v["kind"] == "from_payload" and v["expect"]["ok"]
    )
    accepted["expect"]["retryable"] = not accepted["expect"]["retryable"]
    refused = next(
        v
        for v in vectors["vectors"]
        if v["kind"] == "from_payload" and not v["expect"]["ok"]
    )
    refused["expect"]["field"] = "not-" + refused["expect"]["field"]
    wrong = tmp_path / "wrong.json"
    wrong.write_text(json.dumps(vectors))
    module = _write(case, tmp_path)
    _add_test(module, RUNNER, "conformance")
    env = {
        **go_env,
        "TAXOGEN_VECTORS": str(wrong),
    }
    done = _go(["go", "test", "-count=1", "./conformance"], module, env)
    assert done.returncode != 0
    failed = set(re.findall(r"--- FAIL: TestEveryVector/(\S+)", done.stdout))
    assert failed == {accepted["id"], refused["id"]}, done.stdout


def test_the_runner_fails_on_a_wrong_mapped_value(
    tmp_path: Path, go_env: dict[str, str]
) -> None:
    """What a code maps to is checked too (issue 14 §4): one vector expects
    another HTTP status, one another docs link, and both are reported by id."""
    case = next(c for c in cases() if c.name == "http_api")
    vectors = json.loads((case.expected / "conformance" / "vectors.json").read_text())
    accepted = [
        v
        for v in vectors["vectors"]
        if v["kind"] == "from_payload" and v["expect"]["ok"]
    ]
    accepted[0]["expect"]["http_status"] = 418
    accepted[1]["expect"]["doc_url"] = "https://example.com/wrong"
    wrong = tmp_path / "wrong.json"
    wrong.write_text(json.dumps(vectors))
    module = _write(case, tmp_path)
    _add_test(module, RUNNER, "conformance")
    env = {
        **go_env,
        "TAXOGEN_VECTORS": str(wrong),
    }
    done = _go(["go", "test", "-count=1", "./conformance"], module, env)
    assert done.returncode != 0
    failed = set(re.findall(r"--- FAIL: TestEveryVector/(\S+)", done.stdout))
    assert failed == {accepted[0]["id"], accepted[1]["id"]}, done.stdout
    assert "HTTPStatus: got" in done.stdout and "DocURL: got" in done.stdout


def test_the_manual_s_nested_example_is_the_one_the_go_test_runs() -> None:
    """docs/go.md "Nested objects": each line of its Go block (comments aside)
    is a line of nested_test.go's TestTheManualsExample, which go test runs
    against tests/cases/nested_details (the page's YAML cut down from it)."""
    page = (REPO / "docs" / "go.md").read_text(encoding="utf-8")
    section = page.split("## Nested objects", 1)[1]
    block = re.search(r"```go\n(.*?)```", section, re.S)
    assert block is not None
    test = NESTED_TEST.read_text(encoding="utf-8")
    body = test.split("func TestTheManualsExample", 1)[1].split("\n}\n", 1)[0]
    ran = {line.strip() for line in body.splitlines()}
    shown = [line.strip() for line in block.group(1).splitlines()]
    code = [line for line in shown if line and not line.startswith("//")]
    assert len(code) >= 8 and set(code) <= ran, set(code) - ran


@pytest.mark.parametrize("case", cases(), ids=case_ids())
def test_the_go_names_follow_the_yaml(case: Case) -> None:
    """docs "Go": the package, and per code and domain the names it declares."""
    spec = read_spec(case.taxonomy)
    plan = build_plan(case.taxonomy, ["go"])
    text = plan["go/errors.go"].decode()
    assert re.search(rf"^package {spec.name.replace('_', '')}errors$", text, re.M)
    assert (
        f"module {spec.name.replace('_', '-')}-errors\n" in plan["go/go.mod"].decode()
    )
    assert "\ngo 1.19\n" in plan["go/go.mod"].decode()
    for key in spec.domains:
        const = "Domain" + readme_go_name(key, key=True)
        assert f'\nconst {const} Domain = "{key}"\n' in text
    for code in spec.codes.values():
        go_class = readme_go_name(code.class_name)
        stem = go_class.removesuffix("Error") or go_class
        assert f'\nconst Code{stem} Code = "{code.wire}"\n' in text  # docs "Wire codes"
        assert f"\nfunc Is{go_class}(err error) bool {{\n" in text
        if code.fields:
            details = f"{stem}Details"
            assert f"\nfunc New{go_class}(details {details}) *Error {{\n" in text
            struct = text.split(f"\ntype {details} struct {{\n")[1].split("\n}\n")[0]
            for name, shape in code.fields:
                # Issue 30 §7: a constant field may be absent on the wire.
                required = shape.get("required", True) and "const" not in shape
                tag = f'`json:"{name}{"" if required else ",omitempty"}"`'
                field = readme_go_name(name, key=True)
                assert re.search(rf"^\t{field} \S+ {re.escape(tag)}$", struct, re.M)
        else:
            assert f"\nfunc New{go_class}() *Error {{\n" in text


def test_go_module_in_pyproject_names_the_module(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    shutil.copy(REPO / "taxonomy.yaml", tmp_path / "taxonomy.yaml")
    (tmp_path / "pyproject.toml").write_text(
        '[tool.taxogen]\ntargets = ["go"]\ngo_module = "example.com/acme/errors"\n'
    )
    monkeypatch.chdir(tmp_path)
    assert main(["generate", "-q"]) == 0
    go = tmp_path / "generated" / "go"
    assert "\nmodule example.com/acme/errors\n" in (go / "go.mod").read_text()
    assert (
        '"example.com/acme/errors/internal/taxogen"' in (go / "errors.go").read_text()
    )
    assert main(["check"]) == 0
    (tmp_path / "pyproject.toml").write_text(
        '[tool.taxogen]\ntargets = ["go"]\ngo_module = "example.com/acme/other"\n'
    )
    assert main(["check"]) == 1  # the memo must not answer for another module


@pytest.mark.parametrize(
    "value", ['"Example.com/x"', '"a b"', '"a//b"', '"/abs"', '"a/."', "3", '""']
)
def test_a_bad_go_module_is_refused_where_it_stands(
    value: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    shutil.copy(REPO / "taxonomy.yaml", tmp_path / "taxonomy.yaml")
    (tmp_path / "pyproject.toml").write_text(f"[tool.taxogen]\ngo_module = {value}\n")
    monkeypatch.chdir(tmp_path)
    assert main(["generate"]) == 2
    err = capsys.readouterr().err
    assert err.startswith(
        "pyproject.toml:2:13: error: tool.taxogen.go_module: expected a Go module path"
    ), err
    assert not (tmp_path / "generated").exists()
