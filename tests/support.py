"""Shared helpers for the test suite: where things are and how to load a case.

A *case* is a folder under ``tests/cases/`` holding a ``taxonomy.yaml`` and, in
``expected/``, the exact files ``taxogen generate`` writes for it (golden files,
rewritten by ``make golden``).  The shipped taxonomy is a case too: its expected
folder is ``generated/`` at the repository root.
"""

from __future__ import annotations

import dataclasses
import importlib
import json
import os
import shutil
import subprocess
import sys
import types
from pathlib import Path
from typing import Any

import pytest

from generator.naming import Names
from generator.pipeline import load_names
from tests.spec_oracle import read_spec

REPO = Path(__file__).resolve().parent.parent
CASES_DIR = REPO / "tests" / "cases"
#: Payload mappings the golden cases lack: generated in the tests that take them,
#: with no golden files (see ``mappings()``).
MAPPINGS_DIR = REPO / "tests" / "mappings"
TSC = REPO / "node_modules" / ".bin" / "tsc"


@dataclasses.dataclass(frozen=True)
class Case:
    name: str
    taxonomy: Path
    expected: Path

    @property
    def names(self) -> Names:
        return load_names(self.taxonomy)


def examples(count: int) -> int:
    """How many examples a costly property test draws: ``count``, or a tenth of
    it under the mutation pass (``tests/mutation.py`` sets TAXOGEN_MUTATION).

    mutmut runs every test that reaches a surviving mutant, and the fuzz tests of
    the generated packages were most of that time.  Fewer draws can only let a
    mutant survive that more would have caught, so the pass's figures err low.
    Read when the test module is imported: mutmut forks each mutant from the
    process that imported them.
    """
    if os.environ.get("TAXOGEN_MUTATION"):
        return max(3, count // 10)
    return count


def cases() -> list[Case]:
    """Every taxonomy with golden output: the shipped one first, then tests/cases/*."""
    found = [Case("shipped", REPO / "taxonomy.yaml", REPO / "generated")]
    for folder in sorted(CASES_DIR.iterdir()):
        if (folder / "taxonomy.yaml").is_file():
            found.append(
                Case(folder.name, folder / "taxonomy.yaml", folder / "expected")
            )
    return found


def case_ids() -> list[str]:
    return [case.name for case in cases()]


def mappings() -> list[Path]:
    """The taxonomies of ``tests/mappings/``: payload mappings none of the golden
    cases has (an envelope, details of each type beside a retryable member on
    the wire, no details at all, a problem whose code spells two ways).  Their
    contract is judged in-process (tests/test_contract_model.py) and their
    packages run their own vectors (tests/test_payload_mapping.py): what they
    add is the branches of the mapping, not another golden tree to review."""
    return sorted(MAPPINGS_DIR.glob("*.yaml"))


def today_cases() -> list[Case]:
    """The cases whose payload is today's ``{code, message, retryable, details}``
    (issue 14 §2: no ``payload:`` other than the default): the suites that test
    that payload's API by hand (tests/test_python_api.py, the hostile and fuzz
    suites, the Node API tests, bundles, layouts) run on these; every case,
    mapped ones too, runs its conformance vectors in Python, TypeScript and Go,
    and tests/test_payload_mapping.py tests the mapped decoders by hand."""
    return [case for case in cases() if not read_spec(case.taxonomy).mapped_payload]


def today_case_ids() -> list[str]:
    return [case.name for case in today_cases()]


def import_generated(case: Case) -> types.ModuleType:
    """Import the generated Python package of ``case`` from its golden files."""
    src = str(case.expected / "python" / "src")
    # Named by the README's rule, not by the generator: a test of the package
    # must not run the code it judges to find it.
    module_name = read_spec(case.taxonomy).python_package
    if module_name in sys.modules:
        module = sys.modules[module_name]
        if Path(module.__file__ or "").is_relative_to(src):
            return module
        del sys.modules[module_name]
    sys.path.insert(0, src)
    try:
        return importlib.import_module(module_name)
    finally:
        sys.path.remove(src)


def expectations(taxonomy: Path) -> dict[str, Any]:
    """What the generated API must do for a taxonomy, as JSON (for the Node tests).

    Read from the YAML and the README's rules (:mod:`tests.spec_oracle`), never
    from the generator's ``Names``: a naming bug must not agree with itself.
    """
    spec = read_spec(taxonomy)

    def parent_class(domain: str) -> str:
        # README "Hierarchies": the class of its `parent:`, else the base.
        parent = spec.parents[domain]
        return spec.base if parent is None else spec.domains[parent]

    def deprecation(code: str, key: str) -> Any:
        return (spec.codes[code].deprecated or {}).get(key)

    return {
        "name": spec.name,
        "version": spec.version,
        "base": spec.base,
        # README "Names": the guard is `is` + the base class in TypeScript.
        "guard": f"is{spec.base}",
        "codeCase": spec.code_case,
        # README "Wire codes": the API speaks wire codes, so each "code" here is
        # one (a number where wire_type is integer); "key" is the identifier.
        "wireType": spec.wire_type,
        "wireDeclared": spec.wire_declared,
        "fallback": {
            "code": spec.wire_of(spec.fallback),
            "className": spec.codes[spec.fallback].class_name,
        },
        "wrap": {
            "code": spec.wire_of(spec.wrap),
            "className": spec.codes[spec.wrap].class_name,
        },
        "domains": [
            {
                "key": key,
                # README "Names": enum members are the upper snake case.
                "member": key.upper(),
                "className": class_name,
                "title": spec.domain_titles[key],
                "synthesized": key not in spec.domain_codes,
                "parentClass": parent_class(key),
            }
            for key, class_name in spec.domains.items()
        ],
        # README "Hierarchies": each prefix or range of a domain's `match:`.
        "matches": [
            *(
                {"prefix": prefix, "className": spec.domains[key]}
                for key, prefixes in spec.prefixes.items()
                for prefix in prefixes
            ),
            *(
                {"low": low, "high": high, "className": spec.domains[key]}
                for key, ranges in spec.ranges.items()
                for low, high in ranges
            ),
        ],
        "codes": [
            {
                "code": c.wire,
                "key": c.code,
                "member": c.code.upper(),
                "className": c.class_name,
                # README "Names": a domain's <domain>_error code is its base class,
                # under the domain's parent; every other code is under its domain.
                "parent": (
                    parent_class(c.domain)
                    if spec.domain_codes.get(c.domain) == c.code
                    else spec.domains[c.domain]
                ),
                "domain": c.domain,
                "retryable": c.retryable,
                "meaning": c.meaning,
                "deprecated": deprecation(c.code, "reason"),
                "replacedBy": deprecation(c.code, "replaced_by"),
            }
            for c in spec.codes.values()
        ],
        # README "Wire codes": under wire_type integer, a tombstone without an
        # integer wire: never was on the wire.
        "removed": [
            wire
            for wire in spec.removed_wires
            if not (spec.integer and isinstance(wire, str))
        ],
        "events": [
            {"type": event, "location": location}
            for event, location in spec.events.items()
        ],
    }


def compile_typescript(
    source_dir: Path, out_dir: Path
) -> subprocess.CompletedProcess[str]:
    """Compile a generated TypeScript package (its own strict tsconfig) into
    ``out_dir``.
    """
    work = out_dir / "pkg"
    if work.exists():
        shutil.rmtree(work)
    shutil.copytree(source_dir, work)
    return subprocess.run(
        [str(TSC), "-p", str(work / "tsconfig.json")],
        capture_output=True,
        text=True,
        check=False,
    )


def require_tool(present: bool, what: str) -> None:
    """A test needs ``what``: when it is missing, fail under CI (``CI`` set), else skip
    naming it.
    """
    if present:
        return
    if os.environ.get("CI"):
        pytest.fail(f"{what} is missing; CI is set, so this is a failure, not a skip")
    pytest.skip(f"{what} is missing")


def require_typescript_tools() -> str:
    """The node executable, after checking tsc is there too (see ``require_tool``)."""
    require_tool(
        TSC.is_file(),
        f"the TypeScript compiler ({TSC.relative_to(REPO)}; `npm ci` installs it)",
    )
    node = shutil.which("node")
    require_tool(node is not None, "node (Node.js >= 20)")
    assert node is not None
    return node


def run_node_probes(
    node: str, module: Path, probes: list[tuple[str, Any]], work: Path
) -> list[dict[str, Any]]:
    """Run ``probes`` against a compiled TypeScript module in one node process
    (tests/ts/probe.mjs).
    """
    batch = work / "probes.json"
    batch.write_text(json.dumps(probes), encoding="utf-8")
    done = subprocess.run(
        [node, str(REPO / "tests" / "ts" / "probe.mjs"), str(module), str(batch)],
        capture_output=True,
        check=False,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr.decode("utf-8", "replace")
    observed: list[dict[str, Any]] = json.loads(done.stdout.decode("utf-8"))
    assert len(observed) == len(probes)
    return observed
