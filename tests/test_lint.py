"""taxogen lint: each rule fires on its "before" taxonomy and is quiet on its "after".

Before/after pairs are the shipped taxonomy with one edit each (the shipped
taxonomy itself must pass every rule, strictly); the configuration of
``[tool.taxogen.lint]`` is checked for each of its keys.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from taxogen import lint as lint_module
from taxogen import lint_config
from taxogen.lint import RULES, LintConfig, LintConfigError, lint
from taxogen.pipeline import load_taxonomy
from tests.support import REPO

BASE = (REPO / "taxonomy.yaml").read_text(encoding="utf-8")
TOOL_ERROR = (
    "      tool_error: {retryable: false, meaning: Unspecified tool execution error}\n"
)

# rule id → (edits that make it fire, the code or None it fires for)
BEFORE = {
    "domain-generic-code": ([(TOOL_ERROR, "")], None),
    # Off by default (the spec itself has invalid_envelope, unauthorized...): checked on
    # a clean base.
    "code-domain-prefix": ([("tool_timeout:", "timeout_of_tool:")], "timeout_of_tool"),
    "timeout-retryable": (
        [
            (
                "      task_timeout:\n        retryable: true",
                "      task_timeout:\n        retryable: false",
            )
        ],
        "task_timeout",
    ),
    "terminal-not-retryable": (
        [("task_cancelled: {retryable: false", "task_cancelled: {retryable: true")],
        "task_cancelled",
    ),
    "fallback-not-retryable": (
        [("fallback: protocol_error", "fallback: internal_error")],
        "internal_error",
    ),
    # Validation refuses a blank meaning on a live code; a tombstone may lack one.
    "meaning-present": (
        [
            (
                "task_cancelled: {retryable: false, meaning: Task was cancelled}",
                "task_cancelled: {removed: {since: 0.2.0, reason: never sent}}",
            )
        ],
        "task_cancelled",
    ),
    "meaning-no-period": (
        [("meaning: Task was cancelled}", "meaning: Task was cancelled.}")],
        "task_cancelled",
    ),
    "meaning-unique": (
        [("meaning: Task was cancelled}", "meaning: Task exceeded its deadline}")],
        "task_cancelled",
    ),
    "replaced-by-live": (
        [
            (
                "task_cancelled: {retryable: false, meaning: Task was cancelled}",
                (
                    "task_cancelled: {retryable: false, meaning: Task was cancelled,"
                    " deprecated: {reason: gone, replaced_by: task_aborted}}"
                ),
            )
        ],
        "task_cancelled",
    ),
    # Issue 10: a template naming no field, a field nothing describes.
    "template-uses-field": (
        [
            (
                "meaning: Tool execution exceeded deadline}",
                "meaning: Tool execution exceeded deadline, message: it timed out}",
            )
        ],
        "tool_timeout",
    ),
    "field-described": (
        [
            (
                "meaning: Tool execution exceeded deadline}",
                "meaning: Tool execution exceeded deadline,"
                " details: {elapsed_ms: integer}}",
            )
        ],
        "tool_timeout",
    ),
}


def _taxonomy(  # type: ignore[no-untyped-def]
    tmp_path: Path, edits: list[tuple[str, str]], base: str = BASE
):
    text = base
    for old, new in edits:
        assert old in text, old
        text = text.replace(old, new, 1)
    path = tmp_path / "taxonomy.yaml"
    path.write_text(text, encoding="utf-8")
    return load_taxonomy(path)


# The shipped taxonomy without the codes that lack their domain's prefix.
PREFIXED = (
    "".join(
        line + "\n"
        for line in BASE.splitlines()
        if not any(
            f"  {code}:" in line
            for code in (
                "invalid_envelope",
                "invalid_event_type",
                "unsupported_version",
                "unauthorized",
            )
        )
    )
    .replace("wrap: internal_error", "wrap: protocol_error")
    .replace(
        "      internal_error: {retryable: true, meaning: Unexpected internal"
        " processing failure}\n",
        "",
    )
)


def test_every_rule_has_a_before_case() -> None:
    assert set(BEFORE) == {rule.id for rule in RULES}


def test_every_rule_of_the_table_has_a_check_and_every_check_a_rule() -> None:
    # A check whose id the table lacks would never run, and no test would say.
    table = [rule.id for rule in lint_config.RULES]
    assert set(lint_module._CHECKS) == set(table)
    assert [rule.id for rule in RULES] == table  # findings keep the table's order


def test_reading_the_settings_imports_neither_the_model_nor_naming() -> None:
    # Why the table lives apart from the checks: every command reads the settings
    # first, and a no-op check answered from its memo must not pay for these.
    script = (
        "import sys, taxogen.settings, taxogen.memo\n"
        "heavy = {'taxogen.model', 'taxogen.naming', 'taxogen.lint'}\n"
        "print(sorted(heavy & set(sys.modules)))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True
    )
    assert done.stdout.strip() == "[]"


def test_the_shipped_taxonomy_passes_every_rule(tmp_path: Path) -> None:
    config = LintConfig.from_table(
        {"enable": [r.id for r in RULES if r.id != "code-domain-prefix"]}
    )
    assert lint(_taxonomy(tmp_path, []), config) == []


@pytest.mark.parametrize("rule_id", sorted(BEFORE))
def test_rule_fires_before_and_not_after(tmp_path: Path, rule_id: str) -> None:
    edits, code = BEFORE[rule_id]
    config = LintConfig.from_table({"enable": [rule_id]})
    base = PREFIXED if rule_id == "code-domain-prefix" else BASE
    before = [
        f for f in lint(_taxonomy(tmp_path, edits, base), config) if f.rule == rule_id
    ]
    assert before, f"{rule_id} did not fire"
    assert all(f.code == code for f in before)
    assert all(f.position is not None for f in before)
    after = [
        f for f in lint(_taxonomy(tmp_path, [], base), config) if f.rule == rule_id
    ]
    assert after == []


def test_fallback_not_retryable_has_nothing_to_say_of_fallback_null(
    tmp_path: Path,
) -> None:
    # Issue 30 §3: with fallback: null no code is borrowed, retryable or not; an
    # unknown code is retryable only as its payload or unknown_retryable says.
    config = LintConfig.from_table({"enable": ["fallback-not-retryable"]})
    edits = [("fallback: protocol_error", "fallback: null\nunknown_retryable: true")]
    assert lint(_taxonomy(tmp_path, edits), config) == []


def test_replaced_by_a_deprecated_code_fires_too(tmp_path: Path) -> None:
    taxonomy = _taxonomy(
        tmp_path,
        [
            (
                "task_cancelled: {retryable: false, meaning: Task was cancelled}",
                (
                    "task_cancelled: {retryable: false, meaning: Task was cancelled,"
                    " deprecated: {reason: gone, replaced_by: task_error}}"
                ),
            ),
            (
                "task_error: {retryable: false, meaning: Unspecified task error}",
                (
                    "task_error: {retryable: false, meaning: Unspecified task error,"
                    " deprecated: {reason: vague}}"
                ),
            ),
        ],
    )
    messages = [f.message for f in lint(taxonomy) if f.rule == "replaced-by-live"]
    assert messages == [
        "'task_cancelled' is replaced by 'task_error', which is deprecated too"
    ]


def test_findings_print_as_path_line_col_level_rule(tmp_path: Path) -> None:
    edits, _ = BEFORE["timeout-retryable"]
    config = LintConfig.from_table({"extend-select": ["timeout-retryable"]})
    finding = lint(_taxonomy(tmp_path, edits), config)[0]
    text = finding.format("taxonomy.yaml")
    assert text.startswith("taxonomy.yaml:")
    assert ": warning timeout-retryable: 'task_timeout' is a timeout" in text


# Issue 30 §9: only what is true of every catalogue runs by default; the
# conventions of one style are opt-in (tests/test_lint_catalogues.py: the
# catalogues that break each).
DEFAULT = {"meaning-present", "replaced-by-live", "meaning-unique"}
DEFAULT |= {"fallback-not-retryable"}
STYLE = {
    "meaning-no-period",  # AWS's messages end with a period, RFC 6749's too
    "domain-generic-code",  # errno has no <domain>_error code
    "terminal-not-retryable",  # LSP's ServerCancelled is retryable
    "timeout-retryable",  # reads English words in snake-case keys
    "code-domain-prefix",
    "template-uses-field",
    "field-described",  # S3 documents no BucketName description
}


def _selected(config: LintConfig) -> set[str]:
    return {rule for rule, level in config.levels.items() if level != "off"}


def test_the_default_set_holds_no_style_convention() -> None:
    assert DEFAULT | STYLE == {rule.id for rule in RULES}
    assert _selected(LintConfig.default()) == DEFAULT
    assert {r.id for r in lint_config.RULES if r.default} == DEFAULT


EDITS = BEFORE["timeout-retryable"][0] + BEFORE["meaning-no-period"][0]
ALL: dict[str, object] = {"select": ["ALL"]}
NO_PREFIX: dict[str, object] = {"select": ["ALL"], "disable": ["code-domain-prefix"]}


@pytest.mark.parametrize(
    "table, found",
    [
        ({}, set()),  # both conventions are opt-in
        ({"extend-select": ["meaning-no-period"]}, {"meaning-no-period"}),
        # select replaces the default set, as ruff's does.
        ({"select": ["timeout-retryable"]}, {"timeout-retryable"}),
        # The shipped taxonomy has codes without their domain's prefix.
        (
            {"select": ["ALL"]},
            {"timeout-retryable", "meaning-no-period", "code-domain-prefix"},
        ),
        (
            {**ALL, "ignore": ["meaning-no-period", "code-domain-prefix"]},
            {"timeout-retryable"},
        ),
        ({"enable": ["timeout-retryable"]}, {"timeout-retryable"}),  # older names
        (
            {"select": ["ALL"], "disable": ["timeout-retryable", "code-domain-prefix"]},
            {"meaning-no-period"},
        ),
        # An ignored code, whatever the rule; its domain; one rule's code.
        ({**NO_PREFIX, "ignore": ["task_timeout"]}, {"meaning-no-period"}),
        ({**NO_PREFIX, "ignore": ["task"]}, set()),
        (
            {**NO_PREFIX, "ignore": {"timeout-retryable": ["task_cancelled"]}},
            {"timeout-retryable", "meaning-no-period"},
        ),
        (
            {**NO_PREFIX, "ignore": {"meaning-no-period": ["task_cancelled"]}},
            {"timeout-retryable"},
        ),
    ],
)
def test_select_extend_select_and_ignore(
    tmp_path: Path, table: dict[str, object], found: set[str]
) -> None:
    taxonomy = _taxonomy(tmp_path, EDITS)
    assert {f.rule for f in lint(taxonomy, LintConfig.from_table(table))} == found


def test_level_sets_a_rule_and_selects_it(tmp_path: Path) -> None:
    taxonomy = _taxonomy(tmp_path, EDITS)
    table = {
        "extend-select": ["timeout-retryable"],
        "level": {"meaning-no-period": "error"},
    }
    raised = lint(taxonomy, LintConfig.from_table(table))
    assert {(f.rule, f.level) for f in raised} == {
        ("timeout-retryable", "warning"),
        ("meaning-no-period", "error"),
    }
    off = LintConfig.from_table({"level": {"meaning-unique": "off"}})
    assert "meaning-unique" not in _selected(off)


def test_a_domain_finding_can_be_silenced_alone(tmp_path: Path) -> None:
    """Issue 30: a domain-level finding could only be silenced by turning the
    whole rule off; a domain in ``ignore`` silences that domain's alone."""
    edits = [(TOOL_ERROR, ""), ("task_error: {retryable", "task_failure: {retryable")]
    taxonomy = _taxonomy(tmp_path, edits)
    select = {"extend-select": ["domain-generic-code"]}

    def domains(table: dict[str, object]) -> list[str | None]:
        config = LintConfig.from_table({**select, **table})
        return [f.about.domain for f in lint(taxonomy, config)]

    assert domains({}) == ["task", "tool"]
    assert domains({"ignore": ["tool"]}) == ["task"]
    assert domains({"ignore": {"domain-generic-code": ["task"]}}) == ["tool"]


def test_a_field_finding_is_ignored_by_code_dot_field(tmp_path: Path) -> None:
    at = "meaning: Tool execution exceeded deadline}"
    details = "details: {elapsed_ms: integer, attempts: integer}"
    shared = "    description: Errors that affect the transport-level session.\n"
    edits = [
        (at, at[:-1] + ", " + details + "}"),
        (shared, shared + "    details: {session_id: string}\n"),
    ]
    taxonomy = _taxonomy(tmp_path, edits)

    def fields(ignore: list[str]) -> list[str | None]:
        table = {"extend-select": ["field-described"], "ignore": ignore}
        return [f.about.field for f in lint(taxonomy, LintConfig.from_table(table))]

    assert fields([]) == ["session_id", "elapsed_ms", "attempts"]
    assert fields(["tool_timeout.elapsed_ms"]) == ["session_id", "attempts"]
    assert fields(["session.session_id"]) == ["elapsed_ms", "attempts"]
    assert fields(["tool_timeout"]) == ["session_id"]
    assert fields(["tool_timeout.nothing"]) == ["session_id", "elapsed_ms", "attempts"]


@pytest.mark.parametrize(
    "table",
    [
        {"enable": ["no-such-rule"]},
        {"select": ["no-such-rule"]},
        {"extend-select": "timeout-retryable"},
        {"disable": "timeout-retryable"},
        {"level": {"timeout-retryable": "fatal"}},
        {"ignore": {"timeout-retryable": "task_timeout"}},
        {"ignore": {"no-such-rule": ["task_timeout"]}},
        {"ignore": [1]},
        {"ignore": [""]},
        {"ignore": "task_timeout"},
        {"unknown_key": []},
    ],
)
def test_bad_config_is_refused(table: dict[str, object]) -> None:
    with pytest.raises(LintConfigError):
        LintConfig.from_table(table)


TIMEOUT_AT = "meaning: Tool execution exceeded deadline}"


@pytest.mark.parametrize(
    "details, template, fires",
    [
        ("{elapsed_ms: integer}", None, True),
        ("{elapsed_ms: {type: integer, description: How long it ran}}", None, False),
        ("{elapsed_ms: integer}", "ran {elapsed_ms}ms", False),
        # A template of another code does not describe this code's own field.
        ("{elapsed_ms: integer}", "elsewhere", True),
    ],
)
def test_field_described_is_quiet_once_described_or_used(
    tmp_path: Path, details: str, template: str | None, fires: bool
) -> None:
    entry = f"meaning: Tool execution exceeded deadline, details: {details}"
    if template is not None:
        entry += f', message: "{template}"'
    config = LintConfig.from_table({"enable": ["field-described"]})
    found = lint(_taxonomy(tmp_path, [(TIMEOUT_AT, entry + "}")]), config)
    assert bool(found) is fires, found


def test_field_described_checks_a_domain_field_once_against_all_templates(
    tmp_path: Path,
) -> None:
    shared = "    description: Errors that affect the transport-level session.\n"
    edits = [(shared, shared + "    details: {session_id: string}\n")]
    config = LintConfig.from_table({"enable": ["field-described"]})
    found = lint(_taxonomy(tmp_path, edits), config)
    assert [(f.rule, f.code) for f in found] == [("field-described", None)]
    assert "'session_id'" in found[0].message
    at = "meaning: Session timed out (heartbeat or idle)}"
    used = edits + [(at, at[:-1] + ', message: "session {session_id}"}')]
    assert lint(_taxonomy(tmp_path, used), config) == []


def test_field_described_checks_a_top_level_field_once(tmp_path: Path) -> None:
    """Issue 30 §7: a top-level field is every code's, and said once: found once
    (not under every code), quiet once any code's template uses it, and ignored
    by its own name."""
    edits = [
        ("domains:\n", "details: {trace: {type: string, required: false}}\ndomains:\n")
    ]
    config = LintConfig.from_table({"enable": ["field-described"]})
    found = lint(_taxonomy(tmp_path, edits), config)
    assert [(f.rule, f.code, f.about.field) for f in found] == [
        ("field-described", None, "trace")
    ]
    assert "top-level details field 'trace'" in found[0].message
    ignored = LintConfig.from_table(
        {"enable": ["field-described"], "ignore": ["trace"]}
    )
    assert lint(_taxonomy(tmp_path, edits), ignored) == []
    at = "meaning: Session timed out (heartbeat or idle)}"
    used = edits + [(at, at[:-1] + ', message: "session {trace}"}')]
    # A placeholder needs a value: the field gets a default.
    used[0] = (
        "domains:\n",
        "details: {trace: {type: string, required: false, default: none}}\ndomains:\n",
    )
    assert lint(_taxonomy(tmp_path, used), config) == []


def test_field_described_counts_a_child_domains_templates(tmp_path: Path) -> None:
    """Issue 30 §7: a domain's field is its child domains' codes' too, so their
    templates describe it."""
    shared = "    description: Errors that affect the transport-level session.\n"
    child = "    description: Errors related to subscription creation or management.\n"
    edits = [
        (shared, shared + "    details: {session_id: string}\n"),
        (child, child + "    parent: session\n"),
    ]
    config = LintConfig.from_table({"enable": ["field-described"]})
    found = lint(_taxonomy(tmp_path, edits), config)
    assert [(f.about.domain, f.about.field) for f in found] == [
        ("session", "session_id")
    ]
    at = "meaning: Unspecified subscription error}"
    used = edits + [(at, at[:-1] + ', message: "subscription of {session_id}"}')]
    assert lint(_taxonomy(tmp_path, used), config) == []


def test_code_domain_prefix_is_spelt_in_the_code_case(tmp_path: Path) -> None:
    """Issue 10: in an UPPER_SNAKE taxonomy, domain ``llm``'s prefix is ``LLM_``."""
    harness = REPO / "tests/cases/harness/taxonomy.yaml"
    text = harness.read_text(encoding="utf-8")
    config = LintConfig.from_table({"enable": ["code-domain-prefix"]})
    found = lint(_taxonomy(tmp_path, [], text), config)
    assert {f.code for f in found if f.rule == "code-domain-prefix"} == {"UNKNOWN"}


def test_a_parent_domain_without_codes_needs_no_generic_code(tmp_path: Path) -> None:
    """docs "Hierarchies": a domain that is only a parent has no codes to raise,
    so domain-generic-code asks it for none; its children still get asked."""
    parent = (
        "  runtime:\n    title: Runtime Errors\n"
        "  tool:\n    title: Tool Errors\n    parent: runtime\n"
    )
    text = BASE.replace("  tool:\n    title: Tool Errors\n", parent, 1)
    assert text != BASE
    path = tmp_path / "taxonomy.yaml"
    path.write_text(text.replace(TOOL_ERROR, ""), encoding="utf-8")
    config = LintConfig.from_table({"extend-select": ["domain-generic-code"]})
    found = lint(load_taxonomy(path), config)
    flagged = [f.message for f in found if f.rule == "domain-generic-code"]
    assert flagged == [
        "domain 'tool' has no generic code 'tool_error' for errors it cannot be "
        "more precise about"
    ]


def test_a_removed_code_replaced_by_no_live_code_fires(tmp_path: Path) -> None:
    # Issue 33 §6: the removed code's page links to what replaced it.
    removed = (
        "task_cancelled: {removed: {since: 0.1.0, reason: gone,"
        " replaced_by: %s}, meaning: Task was cancelled}"
    )
    old = "task_cancelled: {retryable: false, meaning: Task was cancelled}"
    findings = {
        target: [
            f.message
            for f in lint(_taxonomy(tmp_path, [(old, removed % target)]))
            if f.rule == "replaced-by-live"
        ]
        for target in ("task_error", "task_vanished")
    }
    assert findings == {
        "task_error": [],
        "task_vanished": [
            "removed 'task_cancelled' is replaced by 'task_vanished', which is not"
            " a live code"
        ],
    }
