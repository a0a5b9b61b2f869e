"""The rust target: every golden case's crate is rustfmt-clean, builds with
``-D warnings`` and passes every conformance vector and every real body.

Every case's crate is rendered (``build_plan(taxonomy, ["rust"])``) into ONE
Cargo workspace (one target folder: serde and serde_json are compiled once,
CI's budget), with ``tests/targets/rust/conformance.rs`` as each crate's
integration test and the case's golden ``conformance/vectors.json`` beside its
Cargo.toml (and, for a case with real bodies, ``bodies.json``: the bodies as
vectors, expectations the oracle's, as ``tests/test_real_bodies.py`` builds
them); then ``rustfmt --check`` and one ``cargo test --offline``.  Rust has no
classes, so the runner checks an expected class as its code.  The runner is
shown to fail on a wrong expectation.  Issue 30 §7: ``nested_example.rs`` (docs/rust.md
"Nested objects") uses nested_details' structs as a consumer would, and
``k8s_bodies.rs`` reads the Kubernetes catalogue's real bodies with the
kubernetes case's crate, causes typed.  The crates depend on serde and
serde_json only, read from Debian's packaged crates through a directory source
(``/usr/share/cargo/registry``); nothing is fetched.  The toolchain is Debian's
(rustc and cargo 1.63, rustfmt: ``make rust`` installs them); without it these
tests fail under ``CI`` and skip elsewhere (``tests.support.require_tool``).
"""

from __future__ import annotations

import dataclasses
import json
import os
import re
import shutil
import subprocess
import textwrap
import time
from pathlib import Path

import pytest

from taxogen.pipeline import build_plan
from tests.spec_oracle import read_spec
from tests.support import REPO, Case, case_ids, cases, require_tool
from tests.test_real_bodies import WITH_BODIES, _vectors

RUNNER = REPO / "tests" / "targets" / "rust" / "conformance.rs"
API_TEST = REPO / "tests" / "targets" / "rust" / "readme_example.rs"
#: docs/rust.md "Nested objects": a consumer of tests/cases/nested_details.
NESTED_TEST = REPO / "tests" / "targets" / "rust" / "nested_example.rs"
#: Issue 30 §7: the Kubernetes catalogue's real Status bodies (causes typed).
K8S_TEST = REPO / "tests" / "targets" / "rust" / "k8s_bodies.rs"
K8S_BODIES = REPO / "tests" / "catalogues" / "kubernetes" / "bodies"
REGISTRY = Path("/usr/share/cargo/registry")
MANIFEST = ".taxogen-manifest.json"
CARGO_CONFIG = f"""[source.crates-io]
replace-with = "debian"

[source.debian]
directory = "{REGISTRY}"
"""


def _tool(name: str) -> str | None:
    """Debian's copy of a Rust tool (/usr/bin) if there, else the one on PATH."""
    debian = Path("/usr/bin") / name
    return str(debian) if debian.is_file() else shutil.which(name)


def rust_env(home: Path) -> dict[str, str]:
    """The environment for cargo: Debian's crates as the only registry, offline,
    warnings errors; the cargo home and target folder under ``home``."""
    cargo, rustc, rustfmt = _tool("cargo"), _tool("rustc"), _tool("rustfmt")
    require_tool(
        cargo is not None and rustc is not None and rustfmt is not None,
        "Rust (cargo, rustc and rustfmt; `make rust` installs Debian's)",
    )
    require_tool(
        any(REGISTRY.glob("serde_json-*")) and any(REGISTRY.glob("serde_derive-*")),
        "Debian's serde crates (librust-serde-json-dev, librust-serde-derive-dev)",
    )
    assert cargo is not None and rustc is not None and rustfmt is not None
    (home / "cargo").mkdir(parents=True, exist_ok=True)
    (home / "cargo" / "config.toml").write_text(CARGO_CONFIG)
    return {
        **os.environ,
        "CARGO": cargo,
        "RUSTC": rustc,
        "RUSTFMT": rustfmt,
        "CARGO_HOME": str(home / "cargo"),
        "CARGO_TARGET_DIR": str(home / "target"),
        "CARGO_NET_OFFLINE": "true",
        "CARGO_TERM_COLOR": "never",
        "RUSTFLAGS": "-D warnings",
        # CI's budget: no debug info (half the link time of 25 test binaries),
        # no incremental state for a build made once.
        "CARGO_PROFILE_DEV_DEBUG": "0",
        "CARGO_INCREMENTAL": "0",
    }


def write_crate(case: Case, folder: Path, name: str | None = None) -> Path:
    """The case's crate written under ``folder`` (its package renamed to
    ``name``, if given); its path."""
    for path, data in build_plan(case.taxonomy, ["rust"]).items():
        if path != MANIFEST:
            target = folder / path
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)
    crate = folder / "rust"
    if name is not None:
        toml = crate / "Cargo.toml"
        text = re.sub(r'^name = ".*"$', f'name = "{name}"', toml.read_text(), 1, re.M)
        toml.write_text(text)
    return crate


def library(crate: Path) -> str:
    """The crate's library name (its package name, ``-`` as ``_``)."""
    found = re.search(r'^name = "(.*)"$', (crate / "Cargo.toml").read_text(), re.M)
    assert found is not None
    return found.group(1).replace("-", "_")


def add_test(crate: Path, source: Path) -> None:
    """``source`` as an integration test of the crate, naming its library."""
    (crate / "tests").mkdir(exist_ok=True)
    text = source.read_text(encoding="utf-8").replace(
        "TAXOGEN_RUST_CRATE", library(crate)
    )
    (crate / "tests" / source.name).write_text(text, encoding="utf-8")


def write_k8s_bodies(crate: Path) -> None:
    """The Kubernetes catalogue's real bodies, as index.json lists them, as one
    JSON array beside the crate's Cargo.toml (read by k8s_bodies.rs)."""
    index = json.loads((K8S_BODIES / "index.json").read_text(encoding="utf-8"))
    bodies = [
        json.loads((K8S_BODIES / entry["file"]).read_text(encoding="utf-8"))
        for entry in index
    ]
    text = json.dumps(bodies, ensure_ascii=False)
    (crate / "k8s_bodies.json").write_text(text, encoding="utf-8")


@dataclasses.dataclass
class Workspace:
    """What the one build of every case's crate gave."""

    root: Path
    env: dict[str, str]
    unformatted: dict[str, str]  # case → rustfmt's complaint ("" for none)
    output: str  # cargo test's stdout and stderr
    returncode: int
    seconds: float
    #: Each test binary's output, by case, and its path.
    blocks: dict[str, str] = dataclasses.field(default_factory=dict)
    binaries: dict[str, Path] = dataclasses.field(default_factory=dict)


def _blocks(workspace: Workspace) -> None:
    """Each test binary's part of the output, by the case its first line names."""
    parts = re.split(
        r"^\s+Running (tests/\w+\.rs) \((\S+)\)$", workspace.output, flags=re.M
    )
    for i in range(1, len(parts) - 2, 3):
        test, binary, text = parts[i], parts[i + 1], parts[i + 2]
        found = re.search(r"^CASE (\S+)$", text, re.M)
        if found is None or test != "tests/conformance.rs":
            continue
        workspace.blocks[found.group(1)] = text
        path = Path(binary)
        workspace.binaries[found.group(1)] = (
            path if path.is_absolute() else workspace.root / path
        )


@pytest.fixture(scope="session")
def workspace(tmp_path_factory: pytest.TempPathFactory) -> Workspace:
    home = tmp_path_factory.mktemp("rust")
    env = rust_env(home)
    root = home / "workspace"
    root.mkdir()
    unformatted = {}
    for case in cases():
        crate = write_crate(case, root / case.name)
        # The crate folder is named for the case; its tests name it back.
        (crate / "case.txt").write_text(case.name)
        add_test(crate, RUNNER)
        shutil.copy(case.expected / "conformance" / "vectors.json", crate)
        if case in WITH_BODIES:
            (home / case.name).mkdir()
            bodies = _vectors(case, home / case.name)  # the oracle's expectations
            shutil.copy(bodies, crate / "bodies.json")
        if case.name == "shipped":
            add_test(crate, API_TEST)
        if case.name == "nested_details":
            add_test(crate, NESTED_TEST)
        if case.name == "kubernetes":
            add_test(crate, K8S_TEST)
            write_k8s_bodies(crate)
        files = sorted(str(p) for p in (crate / "src").glob("*.rs"))
        done = subprocess.run(
            [env["RUSTFMT"], "--check", "--edition", "2021", *files],
            capture_output=True,
            text=True,
            check=False,
        )
        unformatted[case.name] = done.stdout + done.stderr
    members = ", ".join(f'"{case.name}/rust"' for case in cases())
    # resolver 2, edition 2021's: a newer cargo warns of a workspace without it.
    manifest = f'[workspace]\nresolver = "2"\nmembers = [{members}]\n'
    (root / "Cargo.toml").write_text(manifest)
    start = time.monotonic()
    done = subprocess.run(
        # The integration tests only: the libraries hold no unit tests.
        [env["CARGO"], "test", "--offline", "--no-fail-fast"]
        + ["--test", "conformance", "--test", "readme_example"]
        + ["--test", "nested_example", "--test", "k8s_bodies"]
        + ["--", "--nocapture"],
        cwd=root,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,  # cargo's Running lines among the tests' output
        text=True,
        check=False,
    )
    seconds = time.monotonic() - start
    print(f"\nrust: one cargo test of {len(cases())} crates took {seconds:.1f} s")
    found = Workspace(
        root=root,
        env=env,
        unformatted=unformatted,
        output=done.stdout,
        returncode=done.returncode,
        seconds=seconds,
    )
    _blocks(found)
    return found


def _count(path: Path) -> int:
    return len(json.loads(path.read_text())["vectors"])


@pytest.mark.parametrize("case", cases(), ids=case_ids())
def test_the_rust_crate_is_clean_and_passes_every_vector(
    case: Case, workspace: Workspace
) -> None:
    assert workspace.unformatted[case.name] == "", workspace.unformatted[case.name]
    block = workspace.blocks.get(case.name)
    assert block is not None, workspace.output[-6000:]
    assert "test every_vector ... ok" in block, block[-6000:]
    crate = workspace.root / case.name / "rust"
    ran = re.findall(r"^RAN (\d+) of (\d+) in (\S+)$", block, re.M)
    expected = {("vectors.json", _count(crate / "vectors.json"))}
    if (crate / "bodies.json").exists():  # issue 30: real bodies round-trip
        expected.add(("bodies.json", _count(crate / "bodies.json")))
    assert {(name, int(n)) for n, m, name in ran if n == m} == expected, block
    assert "\nFAIL " not in block, block


def test_one_cargo_test_builds_every_crate_warning_free(workspace: Workspace) -> None:
    """-D warnings: a warning anywhere fails the build; and it is one run."""
    assert workspace.returncode == 0, workspace.output[-8000:]
    assert "warning:" not in workspace.output, workspace.output
    assert set(workspace.blocks) == {case.name for case in cases()}


def test_the_readme_example_runs(workspace: Workspace) -> None:
    """README "Rust": the example compiles and its assertions hold."""
    assert re.search(
        r"Running tests/readme_example\.rs.*?test readme_example \.\.\. ok",
        workspace.output,
        re.S,
    ), workspace.output[-6000:]


def test_the_nested_example_runs(workspace: Workspace) -> None:
    """docs/rust.md "Nested objects": the consumer of nested_details' crate
    compiles (typed causes[0].reason) and its assertions hold."""
    assert re.search(
        r"Running tests/nested_example\.rs.*?test nested_example \.\.\. ok",
        workspace.output,
        re.S,
    ), workspace.output[-6000:]


def test_the_real_kubernetes_bodies_read_typed(workspace: Workspace) -> None:
    """Issue 30 §7: the catalogue's real Status bodies are accepted by the
    kubernetes crate, details kept as received, causes typed (k8s_bodies.rs)."""
    assert re.search(
        r"Running tests/k8s_bodies\.rs.*?test k8s_bodies \.\.\. ok",
        workspace.output,
        re.S,
    ), workspace.output[-6000:]


def _wrong(case: Case, tmp_path: Path, change: str) -> tuple[Path, set[str]]:
    vectors = json.loads((case.expected / "conformance" / "vectors.json").read_text())
    accepted = [
        v
        for v in vectors["vectors"]
        if v["kind"] == "from_payload" and v["expect"]["ok"]
    ]
    refused = next(
        v
        for v in vectors["vectors"]
        if v["kind"] == "from_payload" and not v["expect"]["ok"]
    )
    if change == "mapped":
        accepted[0]["expect"]["http_status"] = 418
        accepted[1]["expect"]["doc_url"] = "https://example.com/wrong"
        ids = {accepted[0]["id"], accepted[1]["id"]}
    else:
        accepted[0]["expect"]["retryable"] = not accepted[0]["expect"]["retryable"]
        refused["expect"]["field"] = "not-" + refused["expect"]["field"]
        ids = {accepted[0]["id"], refused["id"]}
    wrong = tmp_path / "wrong.json"
    wrong.write_text(json.dumps(vectors))
    return wrong, ids


@pytest.mark.parametrize(
    ("name", "change"), [("shipped", "class"), ("http_api", "mapped")]
)
def test_the_runner_fails_on_a_wrong_expectation(
    name: str, change: str, workspace: Workspace, tmp_path: Path
) -> None:
    """The runner can fail: a wrong retryable and a wrong refused field (or a
    wrong HTTP status and docs link), each reported by id."""
    case = next(c for c in cases() if c.name == name)
    wrong, ids = _wrong(case, tmp_path, change)
    binary = workspace.binaries[name]
    done = subprocess.run(
        [str(binary), "--nocapture"],
        env={**workspace.env, "TAXOGEN_VECTORS": str(wrong)},
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode != 0
    failed = set(re.findall(r"^FAIL (\S+):", done.stdout, re.M))
    assert failed == ids, done.stdout
    if change == "mapped":
        assert "http_status: got" in done.stdout and "doc_url: got" in done.stdout


def _camel(text: str) -> str:
    """README "Rust": a name's words, each capitalised, the rest lower case."""
    words = re.findall(r"[A-Z]+(?![a-z])|[A-Z]?[a-z0-9]+|[0-9]+", text)
    return "".join(w[:1].upper() + w[1:].lower() for w in words)


def _snake(text: str) -> str:
    words = re.findall(r"[A-Z]+(?![a-z])|[A-Z]?[a-z0-9]+|[0-9]+", text)
    return "_".join(w.lower() for w in words)


@pytest.mark.parametrize("case", cases(), ids=case_ids())
def test_the_rust_names_follow_the_yaml(case: Case) -> None:
    """README "Rust": the crate, and per code and domain the names it declares."""
    spec = read_spec(case.taxonomy)
    plan = build_plan(case.taxonomy, ["rust"])
    text = plan["rust/src/lib.rs"].decode()
    cargo = plan["rust/Cargo.toml"].decode()
    assert f'\nname = "{spec.name.replace("_", "-")}-errors"\n' in cargo
    assert '\nrust-version = "1.63"\n' in cargo
    deps = cargo.split("[dependencies]\n")[1].strip().splitlines()
    assert [d.split(" = ")[0] for d in deps] == ["serde", "serde_json"]
    for key in spec.domains:
        assert f"\n    {_camel(key)},\n" in text
        assert f"\n    pub fn in_domain_{_snake(key)}(&self) -> bool {{\n" in text
    for code in spec.codes.values():
        camel = _camel(code.class_name)
        variant = camel.removesuffix("Error") or camel
        assert re.search(rf"\n    (#\[deprecated[^\n]*\n)?    {variant},\n", text) or (
            f"\n    {variant},\n" in text
        ), variant
        stem = _snake(variant)
        assert f"\n    pub fn is_{stem}_error(&self) -> bool {{\n" in text
        if code.fields:
            details = _camel(code.class_name.removesuffix("Error") or code.class_name)
            assert (
                f"\npub fn new_{stem}_error(details: {details}Details) -> Error {{\n"
                in text
            )
        else:
            assert f"\npub fn new_{stem}_error() -> Error {{\n" in text


def test_nested_objects_are_structs_named_where_declared() -> None:
    """docs/rust.md "Nested objects" (issue 30 §7), on tests/cases/nested_details:
    the top-level causes' items are DetailsCausesItem and the resource domain's
    resource ResourceDetailsResource, each ONE struct however many codes share it; the
    owner member's object is ResourceDetailsResourceOwner; members keep their wire
    names (type a raw identifier), optional ones are Options; tags (items:
    object, free-form) stay JSON objects."""
    case = next(c for c in cases() if c.name == "nested_details")
    text = build_plan(case.taxonomy, ["rust"])["rust/src/lib.rs"].decode()
    structs = re.findall(r"^pub struct (\w+) \{$", text, re.M)
    nested = [
        "DetailsCausesItem",
        "ResourceDetailsResource",
        "ResourceDetailsResourceOwner",
    ]
    assert sorted(s for s in structs if not s.endswith("Details")) == nested
    assert len(structs) == len(set(structs))
    for details in ("UnknownDetails", "InternalDetails"):
        body = text.split(f"pub struct {details} {{\n")[1].split("\n}")[0]
        assert "pub causes: Option<Vec<DetailsCausesItem>>," in body
    body = text.split("pub struct NotFoundDetails {\n")[1].split("\n}")[0]
    assert "\n    pub resource: ResourceDetailsResource," in body
    body = text.split("pub struct ResourceDetailsResource {\n")[1].split("\n}")[0]
    assert "\n    pub kind: String," in body and "\n    pub name: String," in body
    assert "pub owner: Option<ResourceDetailsResourceOwner>," in body
    body = text.split("pub struct ResourceDetailsResourceOwner {\n")[1].split("\n}")[0]
    assert "pub r#type: Option<String>," in body
    assert "pub generation: Option<i64>," in body
    body = text.split("pub struct DetailsCausesItem {\n")[1].split("\n}")[0]
    assert "\n    pub reason: String," in body
    assert "pub field: Option<String>," in body
    body = text.split("pub struct InvalidDetails {\n")[1].split("\n}")[0]
    assert "pub tags: Option<Vec<Object>>," in body


DEEP = """\
format: 1
name: deep
title: Deep
version: 1.0.0
base: DeepError
fallback: oops
wrap: oops
domains:
  misc:
    title: Miscellaneous
    details:
      target:
        type: object
        required: false
        fields:
          self: {type: string, required: false}
          apiVersion: string
          conditions:
            type: array
            required: false
            items:
              type: object
              fields:
                status: {type: string, enum: ["True", "False"]}
                scores: {type: array, items: integer, required: false}
                meta:
                  type: object
                  required: false
                  fields: {since: {type: number, maximum: 10}}
    codes:
      oops: {retryable: false, meaning: Something went wrong}
      other:
        retryable: false
        meaning: Own nested
        details:
          where:
            type: object
            fields:
              line: {type: integer, minimum: 1}
"""


def test_deeper_nesting_names_each_object_by_its_path(tmp_path: Path) -> None:
    """docs/rust.md "Nested objects": an array of typed objects inside an object
    inside a domain's field is MiscDetailsTargetConditionsItem, its object member
    MiscDetailsTargetConditionsItemMeta; a code's own object OtherDetailsWhere; self is
    self_ and apiVersion api_version, serde renaming both back."""
    (tmp_path / "taxonomy.yaml").write_text(DEEP)
    text = build_plan(tmp_path / "taxonomy.yaml", ["rust"])["rust/src/lib.rs"].decode()
    structs = re.findall(r"^pub struct (\w+) \{$", text, re.M)
    assert structs == [
        "OopsDetails",
        "OtherDetails",
        "MiscDetailsTarget",
        "MiscDetailsTargetConditionsItem",
        "MiscDetailsTargetConditionsItemMeta",
        "OtherDetailsWhere",
    ]
    body = text.split("pub struct MiscDetailsTarget {\n")[1].split("\n}")[0]
    assert '#[serde(rename = "self")]' in body and "pub self_: Option<String>," in body
    assert '#[serde(rename = "apiVersion")]\n    pub api_version: String,' in body
    assert "pub conditions: Option<Vec<MiscDetailsTargetConditionsItem>>," in body
    body = text.split("pub struct MiscDetailsTargetConditionsItem {\n")[1].split("\n}")[
        0
    ]
    assert "pub scores: Option<Vec<i64>>," in body
    assert "pub meta: Option<MiscDetailsTargetConditionsItemMeta>," in body
    body = text.split("pub struct OtherDetails {\n")[1].split("\n}")[0]
    assert "pub r#where: OtherDetailsWhere," in body


def test_the_crate_option_names_the_package(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from taxogen.cli import main

    shutil.copy(REPO / "taxonomy.yaml", tmp_path / "taxonomy.yaml")
    (tmp_path / "pyproject.toml").write_text(
        '[tool.taxogen]\ntargets = ["rust"]\n\n'
        '[tool.taxogen.rust]\ncrate = "acme-errors"\n'
    )
    monkeypatch.chdir(tmp_path)
    assert main(["generate", "-q"]) == 0
    cargo = (tmp_path / "generated" / "rust" / "Cargo.toml").read_text()
    assert '\nname = "acme-errors"\n' in cargo
    assert main(["check"]) == 0
    (tmp_path / "pyproject.toml").write_text(
        '[tool.taxogen]\ntargets = ["rust"]\n\n[tool.taxogen.rust]\ncrate = "other"\n'
    )
    assert main(["check"]) == 1  # the memo must not answer for another crate


@pytest.mark.parametrize("value", ['"1abc"', '"a b"', '"a/b"', "3", '""'])
def test_a_bad_crate_is_refused_where_it_stands(
    value: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    from taxogen.cli import main

    shutil.copy(REPO / "taxonomy.yaml", tmp_path / "taxonomy.yaml")
    (tmp_path / "pyproject.toml").write_text(f"[tool.taxogen.rust]\ncrate = {value}\n")
    monkeypatch.chdir(tmp_path)
    assert main(["generate"]) == 2
    err = capsys.readouterr().err
    assert err.startswith(
        "pyproject.toml:2:9: error: tool.taxogen.rust.crate: expected a Rust crate name"
    ), err
    assert not (tmp_path / "generated").exists()


@pytest.mark.parametrize(
    ("source", "mark"), [(API_TEST, "README"), (NESTED_TEST, "Manual")]
)
def test_the_manual_shows_the_example_that_runs(source: Path, mark: str) -> None:
    """docs/rust.md's examples are readme_example.rs's and nested_example.rs's,
    word for word."""
    body = source.read_text().split(f"    // {mark} begin\n")[1]
    body = textwrap.dedent(body.split(f"    // {mark} end\n")[0])
    assert f"```rust\n{body}```\n" in (REPO / "docs" / "rust.md").read_text()
