"""The java target: every golden case's sources compile warning-free and pass every
conformance vector.

Every case's package (``cases.<case>``, the shipped taxonomy also under its
default package) and the runner ``Conformance.java`` are compiled in one javac
run with ``-Xlint:all -Werror``, and every case's golden
``conformance/vectors.json`` runs in one JVM: CI's budget allows one start of
each, not one per case.  The runner checks an expected class by the class's
simple name, the class names themselves are held to the YAML by README "Names"
(``tests/spec_oracle.py``), and the runner is shown to fail on a wrong
expectation.
"""

from __future__ import annotations

import json
import re
import shutil
import time
from pathlib import Path

import pytest

from taxogen.cli import main
from taxogen.pipeline import build_plan
from tests.spec_oracle import read_spec, readme_java_field, readme_member
from tests.support import REPO, Case, case_ids, cases, mappings
from tests.targets.java.support import Compiled
from tests.targets.java.support import case_package as _package
from tests.targets.java.support import conformance as _conformance
from tests.targets.java.support import mapping_package


def _vectors(case: Case) -> Path:
    return case.expected / "conformance" / "vectors.json"


def test_every_case_compiles_and_passes_every_vector(compiled_java: Compiled) -> None:
    started = time.monotonic()
    pairs = [(_package(case), _vectors(case)) for case in cases()]
    pairs.append(("harmovela.errors", _vectors(cases()[0])))
    code, output = _conformance(compiled_java, pairs)
    total = sum(len(json.loads(v.read_text())["vectors"]) for _, v in pairs)
    assert code == 0, output
    assert f"ran {total} of {total} vectors, 0 failures" in output, output
    print(f"java: {total} vectors in {time.monotonic() - started:.1f} s")


def test_every_payload_mapping_passes_its_vectors(
    compiled_java: Compiled, tmp_path: Path
) -> None:
    """Each mapping of tests/mappings/ (an envelope, renamed members, no details,
    problems: none of them a golden case's), on its own vectors, in one JVM."""
    pairs = []
    for path in mappings():
        vectors = tmp_path / f"{path.stem}.json"
        vectors.write_bytes(build_plan(path)["conformance/vectors.json"])
        pairs.append((mapping_package(path), vectors))
    assert pairs
    code, output = _conformance(compiled_java, pairs)
    total = sum(len(json.loads(v.read_text())["vectors"]) for _, v in pairs)
    assert code == 0, output
    assert f"ran {total} of {total} vectors, 0 failures" in output, output


def test_the_runner_fails_on_a_wrong_expectation(
    compiled_java: Compiled, tmp_path: Path
) -> None:
    """One accepted vector expects the wrong retryable, one refusal the wrong
    field, one the wrong class: each is reported by id, and nothing else."""
    case = cases()[0]
    vectors = json.loads(_vectors(case).read_text())
    payloads = [v for v in vectors["vectors"] if v["kind"] == "from_payload"]
    accepted = [v for v in payloads if v["expect"]["ok"]]
    refused = next(v for v in payloads if not v["expect"]["ok"])
    accepted[0]["expect"]["retryable"] = not accepted[0]["expect"]["retryable"]
    accepted[1]["expect"]["class"] = "NotItsClassError"
    refused["expect"]["field"] = "not-" + refused["expect"]["field"]
    wrong = tmp_path / "wrong.json"
    wrong.write_text(json.dumps(vectors))
    code, output = _conformance(compiled_java, [(_package(case), wrong)])
    assert code == 1
    failed = set(re.findall(r"^FAIL \S+ (\S+): ", output, re.M))
    assert failed == {accepted[0]["id"], accepted[1]["id"], refused["id"]}, output


def test_the_runner_fails_on_a_wrong_mapped_value_or_an_unknown_kind(
    compiled_java: Compiled, tmp_path: Path
) -> None:
    case = next(c for c in cases() if c.name == "http_api")
    vectors = json.loads(_vectors(case).read_text())
    accepted = [
        v
        for v in vectors["vectors"]
        if v["kind"] == "from_payload" and v["expect"]["ok"]
    ]
    accepted[0]["expect"]["http_status"] = 418
    accepted[1]["expect"]["doc_url"] = "https://example.com/wrong"
    vectors["kinds"]["new_kind"] = "a kind no runner knows"
    wrong = tmp_path / "wrong.json"
    wrong.write_text(json.dumps(vectors))
    code, output = _conformance(compiled_java, [(_package(case), wrong)])
    assert code == 1
    failed = set(re.findall(r"^FAIL \S+ (\S+): ", output, re.M))
    assert failed == {accepted[0]["id"], accepted[1]["id"]}, output
    assert "httpStatus: got" in output and "docUrl: got" in output
    assert "no runner for kind new_kind" in output


def test_the_runner_fails_when_no_vector_runs(
    compiled_java: Compiled, tmp_path: Path
) -> None:
    case = cases()[0]
    vectors = json.loads(_vectors(case).read_text())
    vectors["vectors"] = []
    empty = tmp_path / "empty.json"
    empty.write_text(json.dumps(vectors))
    code, output = _conformance(compiled_java, [(_package(case), empty)])
    assert code == 1 and "no vectors" in output, output


_JAVA_TYPES = {"string": "String", "integer": "Long", "number": "Double"}
_JAVA_TYPES["boolean"] = "Boolean"


@pytest.mark.parametrize("case", cases(), ids=case_ids())
def test_the_java_names_follow_the_yaml(case: Case) -> None:
    """README "Java": a class per code under its domain's class, a Code and a
    Domain constant each, a record per code with fields."""
    spec = read_spec(case.taxonomy)
    plan = build_plan(case.taxonomy, ["java"])
    package = spec.name.replace("_", "") + ".errors"
    folder = "java/src/main/java/" + package.replace(".", "/") + "/"
    code_java = plan[folder + "Code.java"].decode()
    assert f"\npackage {package};\n" in code_java
    domain_java = plan[folder + "Domain.java"].decode()
    for key in spec.domains:
        assert f' String {readme_member(key)} = "{key}";\n' in domain_java
    base = plan[folder + spec.base + ".java"].decode()
    assert f"\npublic class {spec.base} extends RuntimeException {{\n" in base
    for code in spec.codes.values():
        wire = json.dumps(str(code.wire))
        assert f" String {readme_member(code.code)} = {wire};\n" in code_java or (
            "\\u" in code_java  # a wire code past ASCII, escaped
        )
        text = plan[folder + code.class_name + ".java"].decode()
        assert re.search(rf"\npublic class {code.class_name} extends \w+ {{\n", text)
        if code.fields:
            record = text.split("public final ")[1].split("(")[0].split()[0]
            body = plan[folder + record + ".java"].decode()
            head = body.split(f"public record {record}(")[1].split(")")[0]
            for name, shape in code.fields:
                kind = shape.get("type", "string")
                java = _JAVA_TYPES.get(kind, "java.util.")
                assert f"{java}" in head and f" {readme_java_field(name)}" in head


def test_the_package_option_names_the_package(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    shutil.copy(REPO / "taxonomy.yaml", tmp_path / "taxonomy.yaml")
    (tmp_path / "pyproject.toml").write_text(
        '[tool.taxogen]\ntargets = ["java"]\n\n'
        '[tool.taxogen.java]\npackage = "com.acme.errors"\n'
    )
    monkeypatch.chdir(tmp_path)
    assert main(["generate", "-q"]) == 0
    folder = tmp_path / "generated/java/src/main/java/com/acme/errors"
    assert "\npackage com.acme.errors;\n" in (folder / "Errors.java").read_text()
    runtime = (folder / "runtime" / "Codec.java").read_text()
    assert "\npackage com.acme.errors.runtime;\n" in runtime
    assert main(["check"]) == 0


@pytest.mark.parametrize(
    "value", ['"com.acme.class"', '"1com.x"', '"a..b"', '"a-b"', "3", '""']
)
def test_a_bad_package_is_refused_where_it_stands(
    value: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    shutil.copy(REPO / "taxonomy.yaml", tmp_path / "taxonomy.yaml")
    (tmp_path / "pyproject.toml").write_text(
        f"[tool.taxogen.java]\npackage = {value}\n"
    )
    monkeypatch.chdir(tmp_path)
    assert main(["generate"]) == 2
    err = capsys.readouterr().err
    assert err.startswith(
        "pyproject.toml:2:11: error: tool.taxogen.java.package: "
        "expected a Java package name"
    ), err
    assert not (tmp_path / "generated").exists()
