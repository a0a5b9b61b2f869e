"""The mutation report's arithmetic and bookkeeping (``tests/mutation.py``).

MUTATION.md is the evidence for the kill rates the README quotes, so what it
computes is tested like any other code: the 95% Wilson interval against a
textbook value, the grouping of mutmut's mangled names into the four modules
the issue names, the reasons recorded under an earlier commit's names, and the
line that says which commit the figures measure.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests import mutation, mutation_named


def test_wilson_interval_matches_the_textbook_value() -> None:
    # 8 successes in 10 at z = 1.96, by hand from Wilson's formula: centre
    # (0.8 + z²/20) / (1 + z²/10) = 0.7168, half-width 0.2266.
    low, high = mutation.wilson(8, 10)
    assert low == pytest.approx(0.4902, abs=5e-4)
    assert high == pytest.approx(0.9433, abs=5e-4)


def test_wilson_interval_of_nothing_run_says_nothing() -> None:
    assert mutation.wilson(0, 0) == (0.0, 1.0)


@pytest.mark.parametrize(
    ("mutant", "group"),
    [
        ("taxogen.naming.x_snake__mutmut_3", "naming"),
        ("taxogen.validate.fields.x__read_field__mutmut_161", "validate"),
        ("taxogen.validate.x_read__mutmut_1", "validate"),
        ("taxogen.targets.contract.vectors.xǁVectorsǁadd__mutmut_2", "contract"),
        ("taxogen.emit.x_write__mutmut_9", "emit"),
        # Modules whose names merely begin like a group's are not in it.
        ("taxogen.naming_extra.x_f__mutmut_1", None),
        ("taxogen.emitter.x_f__mutmut_1", None),
        ("taxogen.render.x_f__mutmut_1", None),
    ],
)
def test_each_mutant_is_counted_in_its_module_group(
    mutant: str, group: str | None
) -> None:
    assert mutation.group_of(mutant) == group


def test_a_reason_given_under_an_earlier_name_is_shown_under_it_there() -> None:
    raw = {
        "taxogen.validate.codes.x_read_code__mutmut_300": (
            "equivalent (x_read_code__mutmut_287 at 069196e)"
        ),
        "taxogen.validate.codes.x_read_code__mutmut_5": "equivalent",
    }
    at_old = mutation.reasons_at(raw, "069196e" + "0" * 33)
    assert "taxogen.validate.codes.x_read_code__mutmut_287" in at_old
    assert "taxogen.validate.codes.x_read_code__mutmut_300" not in at_old
    assert at_old["taxogen.validate.codes.x_read_code__mutmut_5"] == "equivalent"
    at_new = mutation.reasons_at(raw, "1a48e85" + "0" * 33)
    assert set(at_new) == set(raw)


def test_the_report_names_the_commit_and_where_verdicts_come_from() -> None:
    head, base = "1" * 40, "2" * 40
    same = "\n".join(mutation.provenance(head, head))
    assert "1111111" in same and "2222222" not in same
    carried = "\n".join(mutation.provenance(head, base))
    assert "1111111" in carried and "2222222" in carried
    assert "--survivors" in carried
    assert mutation.provenance("", base) == []


def test_a_changed_runtime_reaches_mutmuts_copy(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    runtime = tmp_path / "taxogen" / "targets" / "ts" / "runtime.ts"
    runtime.parent.mkdir(parents=True)
    runtime.write_text("export const now = 2;\n", "utf-8")
    (tmp_path / "taxogen" / "model.py").write_text("x = 1\n", "utf-8")
    stale = tmp_path / "mutants" / "taxogen" / "targets" / "ts" / "runtime.ts"
    stale.parent.mkdir(parents=True)
    stale.write_text("export const now = 1;\n", "utf-8")
    mutated = tmp_path / "mutants" / "taxogen" / "model.py"
    mutated.write_text("x = 1  # mutmut's\n", "utf-8")
    monkeypatch.setattr(mutation, "REPO", tmp_path)
    mutation.refresh_copies()
    assert stale.read_text("utf-8") == "export const now = 2;\n"
    assert mutated.read_text("utf-8") == "x = 1  # mutmut's\n"  # Python is mutmut's


def test_a_survivors_diff_keeps_its_changed_lines_only() -> None:
    shown = "\n".join(
        [
            "--- generator/validate/fields.py",
            "+++ generator/validate/fields.py",
            "@@ -1,3 +1,3 @@",
            "     if bad:",
            "-        ok = False",
            "+        ok = True",
            "     return ok",
        ]
    )
    assert mutation._changed(shown) == ["-        ok = False", "+        ok = True"]


def test_a_hang_counts_as_killed_and_is_named() -> None:
    found = {
        "taxogen.naming.x_snake__mutmut_1": "killed",
        "taxogen.naming.x_snake__mutmut_2": "timeout",
        "taxogen.emit.x_write__mutmut_1": "killed",
    }
    text, _ = mutation.report(found, {}, "", "", "")
    (row,) = [line for line in text.splitlines() if line.startswith("| naming |")]
    # mutants, killed, of them hangs, survived, not run, other, the two rates
    assert row.split("|")[2:10] == [
        " 2 ",
        " 2 ",
        " 1 ",
        " 0 ",
        " 0 ",
        " 0 ",
        " 100.0% ",
        " 100.0% ",
    ]
    assert "`taxogen.naming.x_snake__mutmut_2`" in text
    assert "`taxogen.naming.x_snake__mutmut_1`" not in text


@pytest.mark.parametrize(
    "mutation", mutation_named.MUTATIONS, ids=[m.name for m in mutation_named.MUTATIONS]
)
def test_each_named_mutation_still_applies(
    mutation: mutation_named.Mutation,
) -> None:
    # An edit whose text the source no longer has cannot be made: the pass stops
    # there, so a refactor that moves the code must move the mutation with it.
    source = (mutation_named.REPO / mutation.file).read_text(encoding="utf-8")
    assert source.count(mutation.old) == 1, mutation.name
