"""Go asks "is this any error of the domain" (issue 30 §11).

docs "Go": each domain has an ``InDomainXxx(err error) bool`` helper (``In``
plus its Domain constant) that matches an error, or an error wrapping one, of
that domain or of any domain below it (``parent:``), as the domain's class is
the base of those in Python and TypeScript; an unknown code counts as the
domain it is treated as (the one whose ``match:`` claims it, else the
fallback's).  The oracle is the YAML (tests/spec_oracle.py), not the generator:
every accepted payload of each case's vectors is decoded by the generated Go
package, and each domain's helper must answer whether the YAML puts the
payload's code at or below that domain.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.spec_oracle import read_spec, readme_go_name
from tests.support import cases
from tests.targets.go.test_go import _go, _module_path, _write, go_env

__all__ = ["go_env"]  # the fixture, used by name

PROGRAM = """package main

import (
\t"encoding/json"
\t"fmt"
\t"os"

\terrors "TAXOGEN_GO_MODULE"
)

var helpers = map[string]func(error) bool{
HELPERS}

func main() {
\tdata, err := os.ReadFile(os.Args[1])
\tif err != nil {
\t\tpanic(err)
\t}
\tvar inputs []json.RawMessage
\tif err := json.Unmarshal(data, &inputs); err != nil {
\t\tpanic(err)
\t}
\tout := []map[string]bool{}
\tfor _, input := range inputs {
\t\tdecoded, err := errors.FromPayload(input)
\t\tif err != nil {
\t\t\tpanic(err)
\t\t}
\t\twrapped := fmt.Errorf("while testing: %w", decoded)
\t\tanswers := map[string]bool{}
\t\tfor name, helper := range helpers {
\t\t\tanswers[name] = helper(wrapped)
\t\t\tif helper(fmt.Errorf("not an error of the taxonomy")) {
\t\t\t\tpanic(name + " matched a foreign error")
\t\t\t}
\t\t}
\t\tout = append(out, answers)
\t}
\tresult, _ := json.Marshal(out)
\tos.Stdout.Write(result)
}
"""

CASES = [c for c in cases() if c.name in ("shipped", "sqlstate", "jsonrpc")]


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_each_domain_helper_matches_its_domain_and_those_below(
    case: object, tmp_path: Path, go_env: dict[str, str]
) -> None:
    from tests.support import Case

    assert isinstance(case, Case)
    spec = read_spec(case.taxonomy)
    helper = {key: "InDomain" + readme_go_name(key, key=True) for key in spec.domains}
    by_wire = {code.wire: code.domain for code in spec.codes.values()}
    fallback = spec.codes[spec.fallback].domain
    vectors = json.loads((case.expected / "conformance/vectors.json").read_text())
    inputs = [
        v["input"]
        for v in vectors["vectors"]
        if v["kind"] == "from_payload" and v["expect"]["ok"] and "input" in v
    ]
    assert inputs

    def domain_of(code: object) -> str:
        if code in by_wire:
            return by_wire[code]  # type: ignore[index]
        return spec.matched(code) or fallback

    module = _write(case, tmp_path)
    probe = module / "cmd" / "domains"
    probe.mkdir(parents=True)
    listed = "".join(f'\t"{name}": errors.{name},\n' for name in helper.values())
    source = PROGRAM.replace("HELPERS", listed)
    (probe / "main.go").write_text(
        source.replace("TAXOGEN_GO_MODULE", _module_path(module)), encoding="utf-8"
    )
    given = tmp_path / "inputs.json"
    given.write_text(json.dumps(inputs))
    done = _go(["go", "run", "./cmd/domains", str(given)], module, go_env)
    assert done.returncode == 0, done.stdout + done.stderr
    seen = json.loads(done.stdout)
    checked = 0
    for payload, answers in zip(inputs, seen, strict=True):
        lineage = spec.lineage(domain_of(payload["code"]))
        for key, name in helper.items():
            assert answers[name] == (key in lineage), (payload["code"], name)
            checked += 1
    assert checked == len(inputs) * len(helper)
    # A parent's helper matches its children's errors: the case has one.
    if case.name == "sqlstate":
        assert any(len(spec.lineage(domain_of(p["code"]))) > 1 for p in inputs)
