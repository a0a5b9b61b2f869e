"""taxogen diff: every rule fires on its before/after pair, and the version check.

Each pair is the shipped taxonomy (before) and the same file with one edit
(after); the edit must produce exactly the expected rules, classified as
expected, and nothing else.
"""

from __future__ import annotations

import re

from pathlib import Path

import pytest

from taxogen.diff import BREAKING, COMPATIBLE, DOCS, RULES, check_version, diff
from taxogen.pipeline import load_names
from tests.spec_oracle import read_spec
from tests.support import REPO

BASE = (REPO / "taxonomy.yaml").read_text(encoding="utf-8")
# task_timeout, whole: its comment, its keys and its details.
TIMEOUT = BASE[BASE.index("      # The details") : BASE.index("      task_cancelled:")]
FLIP = (
    "      task_timeout:\n        retryable: true",
    "      task_timeout:\n        retryable: false",
)
CANCELLED = "      task_cancelled: {retryable: false, meaning: Task was cancelled}\n"
TOOL_DOMAIN = """  tool:
    title: Tool Errors
    description: Errors from tool execution.
    codes:
      tool_error: {retryable: false, meaning: Unspecified tool execution error}
      tool_timeout: {retryable: true, meaning: Tool execution exceeded deadline}
"""

# (id, [(old, new) text replacements], {(kind, rule), ...})
PAIRS = [
    ("code removed", [(CANCELLED, "")], {(BREAKING, "code-removed")}),
    (
        "code tombstoned",
        [
            (
                CANCELLED,
                (
                    "      task_cancelled: {removed: {since: 0.3.0, reason: nobody"
                    " sends it}, meaning: Task was cancelled}\n"
                ),
            )
        ],
        # Issue 30 §10: the class leaves every package (ImportError in Python).
        {(BREAKING, "code-tombstoned")},
    ),
    (
        "code moved",
        [
            (TIMEOUT, ""),
            (
                "      tool_timeout:",
                TIMEOUT + "      tool_timeout:",
            ),
        ],
        {(BREAKING, "code-moved")},
    ),
    (
        "retryable changed",
        [FLIP],
        {(BREAKING, "retryable-changed")},
    ),
    (
        "domain removed",
        [(TOOL_DOMAIN, "")],
        {(BREAKING, "domain-removed"), (BREAKING, "code-removed")},
    ),
    (
        "domain renamed",
        [("  tool:\n    title: Tool Errors", "  tools:\n    title: Tool Errors")],
        {
            (BREAKING, "domain-removed"),
            (COMPATIBLE, "domain-added"),
            (BREAKING, "code-moved"),
        },
    ),
    (
        "base changed",
        [("base: HarmovelaError", "base: HarmoError")],
        {(BREAKING, "base-changed"), (BREAKING, "identifier-changed")},
    ),
    (
        "fallback changed",
        [("fallback: protocol_error", "fallback: invalid_envelope")],
        {(BREAKING, "fallback-changed")},
    ),
    (
        "wrap changed",
        [("wrap: internal_error", "wrap: protocol_error")],
        {(BREAKING, "wrap-changed")},
    ),
    (
        "package renamed",
        [("name: harmovela", "name: harmo")],
        {(BREAKING, "identifier-changed")},
    ),
    (
        "class renamed",
        [
            (
                "      task_timeout:\n",
                "      task_timeout:\n        class: TaskDeadlineError\n",
            )
        ],
        {(BREAKING, "identifier-changed")},
    ),
    (
        "event location changed",
        [("  task.failed: payload.error", "  task.failed: payload.failure")],
        {(BREAKING, "event-location-changed")},
    ),
    (
        "event removed",
        [("  task.failed: payload.error\n", "")],
        {(BREAKING, "event-removed")},
    ),
    (
        "wire code given",  # docs "Wire codes": the code on the wire changes
        [(CANCELLED, CANCELLED.replace("}", ", wire: TaskCancelled}"))],
        {(BREAKING, "wire-code-changed")},
    ),
    (
        "code deprecated",
        [
            (
                "meaning: Task was cancelled}",
                (
                    "meaning: Task was cancelled, deprecated: {reason: folded into"
                    " task_error, replaced_by: task_error}}"
                ),
            )
        ],
        {(COMPATIBLE, "code-deprecated")},
    ),
    (
        "code added",
        [
            (
                TIMEOUT,
                TIMEOUT
                + "      task_stalled: {retryable: true, meaning: Task stopped making"
                " progress}\n",
            )
        ],
        {(COMPATIBLE, "code-added")},
    ),
    (
        "domain added",
        [
            (
                "events:\n",
                (
                    "  agent:\n    title: Agent Errors\n    codes:\n"
                    "      agent_error: {retryable: false, meaning: Unspecified agent"
                    " error}\n\nevents:\n"
                ).replace("\n\nevents", "\nevents"),
            )
        ],
        {(COMPATIBLE, "domain-added"), (COMPATIBLE, "code-added")},
    ),
    (
        "event added",
        [
            (
                "  task.failed: payload.error\n",
                "  task.failed: payload.error\n  agent.failed: payload.error\n",
            )
        ],
        {(COMPATIBLE, "event-added")},
    ),
    (
        "meaning changed",
        [
            (
                "meaning: Task exceeded its deadline",
                "meaning: Task ran past its deadline",
            )
        ],
        {(DOCS, "meaning-changed")},
    ),
    (
        "domain title changed",
        [("title: Task Errors", "title: Task Failures")],
        {(DOCS, "title-changed")},
    ),
    (
        "domain description changed",
        [
            (
                "description: Errors during task lifecycle.",
                "description: Errors in a task's life.",
            )
        ],
        {(DOCS, "description-changed")},
    ),
    (
        "taxonomy title changed",
        [("title: Harmovela Error Model", "title: The Harmovela Error Model")],
        {(DOCS, "title-changed")},
    ),
    (
        "prose changed",
        [
            (
                "Consumers may retry retryable errors.",
                "Consumers may retry errors that are retryable.",
            )
        ],
        {(DOCS, "prose-changed")},
    ),
]


DEPRECATE = (
    "meaning: Task was cancelled}",
    (
        "meaning: Task was cancelled, deprecated: {reason: folded into task_error,"
        " replaced_by: task_error}}"
    ),
)


def _write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def _edited(edits: list[tuple[str, str]]) -> str:
    text = BASE
    for old, new in edits:
        assert old in text, f"the edit's anchor is missing: {old!r}"
        text = text.replace(old, new, 1)
    return text


# Pairs whose "before" is not the shipped taxonomy: (id, before edits, after edits,
# expected).
# Issue 30 §5: an alias is an exported name; removing one breaks its users.
ALIAS = (
    "meaning: Task was cancelled}",
    "meaning: Task was cancelled, aliases: [task_canceled]}",
)
# Issue 30 §6: a builtin the Python class stops being, or a sentinel the Go
# error stops answering, breaks whoever catches or matches it.
NATIVE = (
    "meaning: Task was cancelled}",
    "meaning: Task was cancelled, python_bases: [InterruptedError],"
    " go_is: [context.Canceled]}",
)
#: Issue 30 §3: fallback: null, and how unknown codes are retried then.
NO_FALLBACK = ("fallback: protocol_error\n", "fallback: null\n")
BY_STATUS = ("fallback: null\n", "fallback: null\nunknown_retryable: by_status\n")
OTHER_PAIRS = [
    # A root class loses its code (Python's Base() needs code=), and an unknown
    # code decodes as itself: breaking both ways.
    ("fallback dropped", [], [NO_FALLBACK], {(BREAKING, "fallback-changed")}),
    ("fallback restored", [NO_FALLBACK], [], {(BREAKING, "fallback-changed")}),
    (
        "unknown_retryable changed",
        [NO_FALLBACK],
        [BY_STATUS],
        {(BREAKING, "unknown-retryable-changed")},
    ),
    ("code undeprecated", [DEPRECATE], [], {(COMPATIBLE, "code-undeprecated")}),
    (
        "native removed",
        [NATIVE],
        [],
        {(BREAKING, "python-base-removed"), (BREAKING, "go-is-removed")},
    ),
    (
        "native added",
        [],
        [NATIVE],
        {(COMPATIBLE, "python-base-added"), (COMPATIBLE, "go-is-added")},
    ),
    ("alias removed", [ALIAS], [], {(BREAKING, "alias-removed")}),
    ("alias added", [], [ALIAS], {(COMPATIBLE, "alias-added")}),
    (
        "deprecation changed",
        [DEPRECATE],
        [
            (
                DEPRECATE[1],
                DEPRECATE[1].replace("folded into task_error", "use the generic code"),
            )
        ],
        {(DOCS, "deprecation-changed")},
    ),
]


# Issue 10's rules for typed details, each an edit of the typed_details fixture:
# (id, [(old, new)], {(kind, rule)}, how many changes), the kinds the issue's.
TYPED = (REPO / "tests/cases/typed_details/taxonomy.yaml").read_text(encoding="utf-8")
ELAPSED = "          elapsed_ms: {type: integer, required: false, description: How long"
TOP_DETAILS = "wrap: internal_error\n"
DETAILS_PAIRS = [
    # Issue 30 §7: a top-level field is every code's: found on each of the 8.
    (
        "top-level optional field added",
        [
            (
                TOP_DETAILS,
                TOP_DETAILS + "details: {note: {type: string, required: false}}\n",
            )
        ],
        {(COMPATIBLE, "field-added")},
        8,
    ),
    (
        "optional field added",
        [(ELAPSED, "          note: {type: string, required: false}\n" + ELAPSED)],
        {(COMPATIBLE, "field-added")},
        1,
    ),
    (
        "required field added",
        [(ELAPSED, "          note: {type: string}\n" + ELAPSED)],
        {(BREAKING, "required-field-added")},
        1,
    ),
    ("field removed", [(ELAPSED + " it ran}\n", "")], {(BREAKING, "field-removed")}, 1),
    (
        "type changed",
        [("elapsed_ms: {type: integer", "elapsed_ms: {type: number")],
        {(BREAKING, "field-type-changed")},
        1,
    ),
    (
        "item type changed",
        [("steps: {type: array, items: string", "steps: {type: array, items: integer")],
        {(BREAKING, "field-type-changed")},
        1,
    ),
    (
        "enum changed",
        [("enum: [second, minute, hour]", "enum: [second, minute, hour, day]")],
        {(BREAKING, "field-enum-changed")},
        1,
    ),
    (
        "item enum changed",
        [("enum: [queued, running, done]", "enum: [queued, done]")],
        {(BREAKING, "field-enum-changed")},
        1,
    ),
    (
        "bounds changed",
        [("minimum: 1, maximum: 100", "minimum: 1, maximum: 50")],
        {(BREAKING, "field-bounds-changed")},
        1,
    ),
    (
        "required changed",
        [("elapsed_ms: {type: integer, required: false", "elapsed_ms: {type: integer")],
        {(BREAKING, "field-required-changed")},
        1,
    ),
    (
        "description changed",
        [("description: The deadline}", "description: The deadline in ms}")],
        {(DOCS, "field-description-changed")},
        1,
    ),
    (
        "default changed",
        [("default: minute}", "default: hour}")],
        # Issue 30 §10: a constructor not given it now sends another payload.
        {(BREAKING, "field-default-changed")},
        1,
    ),
    (
        "template changed",
        [("exceeded the {timeout_ms}ms deadline", "ran past {timeout_ms}ms")],
        {(DOCS, "template-changed")},
        1,
    ),
    (
        "template added",
        [("meaning: Task was cancelled\n", "meaning: Task was cancelled\n"
          "        message: \"task {task_id} cancelled\"\n")],
        {(DOCS, "template-changed")},
        1,
    ),  # fmt: skip
    # A domain's field counts for each of its five codes.
    (
        "domain field made optional",
        [
            (
                "task_id: {type: string, description: The task concerned}",
                "task_id: {type: string, required: false, default: t, description: "
                "The task concerned}",
            )
        ],
        {(BREAKING, "field-required-changed"), (BREAKING, "field-default-changed")},
        10,
    ),
    (
        "domain field added",
        [
            (
                "      task_id: {type: string, description: The task concerned}\n",
                "      task_id: {type: string, description: The task concerned}\n"
                "      queue: {type: string, required: false}\n",
            )
        ],
        {(COMPATIBLE, "field-added")},
        5,
    ),
]


HTTP = (REPO / "tests/cases/http_api/taxonomy.yaml").read_text(encoding="utf-8")
TIMEOUT_HEAD = "      task_timeout:\n        retryable: true\n"
OAUTH = (REPO / "tests/cases/oauth_statuses/taxonomy.yaml").read_text(encoding="utf-8")
K8S = (REPO / "tests/cases/k8s_status/taxonomy.yaml").read_text(encoding="utf-8")
LISTED = "        http_status: [400, 401]"
# Issue 30 §8: Kubernetes' every reason hinted by retryAfterSeconds, with a second
# integer field in the client domain for a hint to move to.
RETRY = (
    (REPO / "tests/cases/k8s_retry/taxonomy.yaml")
    .read_text(encoding="utf-8")
    .replace(
        "    codes:\n      not_found:",
        "      waitSeconds: {type: integer, required: false, description: Wait}\n"
        "    codes:\n      not_found:",
        1,
    )
)
# Issue 14 §4: (label, base text, edits, expected rules, how many changes).  A
# domain's or the top level's status counts for each code that inherits it.
STATUS_PAIRS = [
    (
        "http status added",
        BASE,
        [(TIMEOUT_HEAD, TIMEOUT_HEAD + "        http_status: 504\n")],
        {(COMPATIBLE, "http-status-added")},
        1,
    ),
    (
        "grpc status added",
        BASE,
        [(TIMEOUT_HEAD, TIMEOUT_HEAD + "        grpc_status: DEADLINE_EXCEEDED\n")],
        {(COMPATIBLE, "grpc-status-added")},
        1,
    ),
    (
        "top-level status added",
        BASE,
        [("wrap: internal_error\n", "wrap: internal_error\nhttp_status: 500\n")],
        {(COMPATIBLE, "http-status-added")},
        len(read_spec(REPO / "taxonomy.yaml").codes),  # every live code
    ),
    (
        "http status changed",
        HTTP,
        [("        http_status: 404\n", "        http_status: 410\n")],
        {(BREAKING, "http-status-changed")},
        1,
    ),
    (
        "domain http status changed",
        HTTP,
        [("    http_status: 402\n", "    http_status: 400\n")],
        {(BREAKING, "http-status-changed")},
        4,
    ),
    (
        "http status removed",
        HTTP,
        [("http_status: 500\n", "")],
        {(BREAKING, "http-status-removed")},
        1,
    ),
    (
        "grpc status changed",
        HTTP,
        [("grpc_status: NOT_FOUND", "grpc_status: FAILED_PRECONDITION")],
        {(BREAKING, "grpc-status-changed")},
        1,
    ),
    (
        "grpc status removed",
        HTTP,
        [("grpc_status: INTERNAL\n", "")],
        {(BREAKING, "grpc-status-removed")},
        1,
    ),
    (
        "own status now the inherited one",
        HTTP,
        [("        http_status: 503\n", "        http_status: 500\n")],
        {(BREAKING, "http-status-changed")},
        1,
    ),
    (
        "inherited status written out",
        HTTP,
        [
            (
                "      invalid_request: {retryable: false,",
                "      invalid_request: {http_status: 400, retryable: false,",
            )
        ],
        set(),
        0,
    ),
    (
        "retry hint removed",
        RETRY,
        [("retry_after: retryAfterSeconds\n", "")],
        {(BREAKING, "retry-after-removed")},
        len(read_spec(REPO / "tests/cases/k8s_retry/taxonomy.yaml").codes),
    ),
    (
        "retry hint added to a domain",
        RETRY.replace("retry_after: retryAfterSeconds\n", ""),
        [
            (
                "    title: Server errors\n",
                "    title: Server errors\n    retry_after: retryAfterSeconds\n",
            )
        ],
        {(COMPATIBLE, "retry-after-added")},
        3,  # the server domain's three codes
    ),
    (
        "retry hint moved to another field",
        RETRY,
        [
            (
                "    title: Client errors\n",
                "    title: Client errors\n    retry_after: waitSeconds\n",
            )
        ],
        {(BREAKING, "retry-after-changed")},
        2,  # the client domain's two codes
    ),
    (
        "throttling removed",
        HTTP,
        [("        throttling: true\n", "")],
        {(BREAKING, "throttling-removed")},
        1,
    ),
    (
        "throttling added",
        HTTP,
        [
            (
                "        meaning: The API is briefly unavailable\n",
                "        meaning: The API is briefly unavailable\n"
                "        throttling: true\n",
            )
        ],
        {(COMPATIBLE, "throttling-added")},
        1,
    ),
    (
        "docs_url changed",
        HTTP,
        [("errors/{code}", "reference/errors/{code}")],
        {(DOCS, "docs-url-changed")},
        1,
    ),
    (
        "docs_url added",
        BASE,
        [
            (
                "wrap: internal_error\n",
                'wrap: internal_error\ndocs_url: "https://example.com/{code}"\n',
            )
        ],
        {(DOCS, "docs-url-changed")},
        1,
    ),
    # Issue 30 §2: the statuses a code may take, its default first.
    (
        "a status added to a code's list",
        OAUTH,
        [(LISTED, "        http_status: [400, 401, 403]")],
        {(COMPATIBLE, "http-status-listed")},
        1,
    ),
    (
        "a status removed from a code's list",
        OAUTH,
        [(LISTED, "        http_status: [400]")],
        {(BREAKING, "http-status-unlisted")},
        1,
    ),
    (
        "a list's default changed, the other kept",
        OAUTH,
        [(LISTED, "        http_status: [401, 400]")],
        {(BREAKING, "http-status-changed")},
        1,
    ),
    (
        "a domain's list grown: each of its codes",
        OAUTH,
        [("    http_status: 400\n", "    http_status: [400, 429]\n")],
        {(COMPATIBLE, "http-status-listed")},
        2,  # invalid_request, invalid_grant; invalid_client lists its own
    ),
    (
        "the status member renamed",
        K8S,
        [("  status: code\n", "  status: httpCode\n")],
        {(BREAKING, "payload-changed")},
        1,
    ),
    (
        "the status member removed",
        K8S,
        [("  status: code\n", "")],
        {(BREAKING, "payload-changed")},
        1,
    ),
    # Issue 14 §2: the payload the wire carries.
    (
        "payload preset set",
        HTTP,
        [("wrap: api_error\n", "wrap: api_error\npayload: {preset: problem}\n")],
        {(BREAKING, "payload-changed")},
        1,
    ),
    (
        "payload member renamed",
        BASE,
        [
            (
                "wrap: internal_error\n",
                "wrap: internal_error\npayload: {details: data}\n",
            )
        ],
        {(BREAKING, "payload-changed")},
        1,
    ),
    (
        "payload retryable left off the wire",
        BASE,
        [
            (
                "wrap: internal_error\n",
                "wrap: internal_error\npayload: {retryable: null, envelope: error}\n",
            )
        ],
        {(BREAKING, "payload-changed")},
        1,
    ),
]


@pytest.mark.parametrize(
    "label, before, edits, expected, count",
    STATUS_PAIRS,
    ids=[p[0] for p in STATUS_PAIRS],
)
def test_status_rules_fire_on_their_pair(
    tmp_path: Path,
    label: str,
    before: str,
    edits: list[tuple[str, str]],
    expected: set[tuple[str, str]],
    count: int,
) -> None:
    after = before
    for old, new in edits:
        assert old in after, f"the edit's anchor is missing: {old!r}"
        after = after.replace(old, new, 1)
    old_names = load_names(_write(tmp_path, "old.yaml", before))
    new_names = load_names(_write(tmp_path, "new.yaml", after))
    changes = diff(old_names, new_names)
    assert {(c.kind, c.rule) for c in changes} == expected
    assert len(changes) == count
    assert all(c.position is not None for c in changes)
    # The other way round: each change undone is its opposite.
    back = {(c.kind, c.rule) for c in diff(new_names, old_names)}
    opposite = {
        "http-status-added": "http-status-removed",
        "http-status-removed": "http-status-added",
        "grpc-status-added": "grpc-status-removed",
        "grpc-status-removed": "grpc-status-added",
        "throttling-added": "throttling-removed",
        "throttling-removed": "throttling-added",
        "retry-after-added": "retry-after-removed",
        "retry-after-removed": "retry-after-added",
        "http-status-listed": "http-status-unlisted",
        "http-status-unlisted": "http-status-listed",
    }
    assert {rule for _, rule in back} == {
        opposite.get(rule, rule) for _, rule in expected
    }


def test_a_docs_url_removed_is_docs_only(tmp_path: Path) -> None:
    old = load_names(_write(tmp_path, "old.yaml", HTTP))
    text = HTTP.replace('docs_url: "https://docs.example.com/errors/{code}"\n', "")
    new = load_names(_write(tmp_path, "new.yaml", text))
    changes = diff(old, new)
    assert [(c.kind, c.rule, c.position) for c in changes] == [
        (DOCS, "docs-url-changed", None)
    ]
    assert changes[0].message == (
        "docs_url https://docs.example.com/errors/{code} was removed"
    )


def test_a_docs_url_change_is_breaking_under_the_problem_preset(
    tmp_path: Path,
) -> None:
    # The problem preset's wire type is docs_url with the code filled in: a new
    # docs_url is a new type for every code, which old peers cannot read back.
    problem = HTTP.replace(
        "wrap: api_error\n", "wrap: api_error\npayload: {preset: problem}\n", 1
    )
    moved = problem.replace("errors/{code}", "reference/errors/{code}", 1)
    old = load_names(_write(tmp_path, "old.yaml", problem))
    new = load_names(_write(tmp_path, "new.yaml", moved))
    changes = diff(old, new)
    assert [(c.kind, c.rule) for c in changes] == [(BREAKING, "docs-url-changed")]
    assert "wire type" in changes[0].message
    # Without the preset the same change is docs only (test_status_rules...).
    plain = diff(
        load_names(_write(tmp_path, "a.yaml", HTTP)),
        load_names(_write(tmp_path, "b.yaml", HTTP.replace("errors/{", "e/{", 1))),
    )
    assert [(c.kind, c.rule) for c in plain] == [(DOCS, "docs-url-changed")]


def test_a_payload_change_says_what_changed(tmp_path: Path) -> None:
    text = BASE.replace(
        "wrap: internal_error\n",
        "wrap: internal_error\npayload: {details: data, retryable: null}\n",
        1,
    )
    old = load_names(_write(tmp_path, "old.yaml", BASE))
    new = load_names(_write(tmp_path, "new.yaml", text))
    (change,) = diff(old, new)
    assert change.message == (
        "the payload mapping changed (retryable 'retryable' -> null, details "
        "'details' -> 'data'): peers of the old version read another shape"
    )
    assert (
        change.position is not None
        and change.position.line == text[: text.index("payload:")].count("\n") + 1
    )


@pytest.mark.parametrize(
    "label, edits, expected, count", DETAILS_PAIRS, ids=[p[0] for p in DETAILS_PAIRS]
)
def test_details_rules_fire_on_their_pair(
    tmp_path: Path,
    label: str,
    edits: list[tuple[str, str]],
    expected: set[tuple[str, str]],
    count: int,
) -> None:
    new_text = TYPED
    for old, new in edits:
        assert old in new_text, f"the edit's anchor is missing: {old!r}"
        new_text = new_text.replace(old, new, 1)
    old_names = load_names(_write(tmp_path, "old.yaml", TYPED))
    new_names = load_names(_write(tmp_path, "new.yaml", new_text))
    changes = diff(old_names, new_names)
    assert {(c.kind, c.rule) for c in changes} == expected
    assert len(changes) == count
    assert all(c.position is not None for c in changes if c.rule != "field-removed")


def test_every_rule_has_a_pair() -> None:
    covered = {rule for _, _, expected in PAIRS for _, rule in expected}
    covered |= {rule for _, _, _, expected in OTHER_PAIRS for _, rule in expected}
    covered |= {rule for _, _, expected, _ in DETAILS_PAIRS for _, rule in expected}
    covered |= {rule for _, _, _, expected, _ in STATUS_PAIRS for _, rule in expected}
    for _, _, _, expected, _ in STATUS_PAIRS:
        for kind, rule in expected:
            assert RULES[rule] == kind, rule
    for _, _, expected, _ in DETAILS_PAIRS:
        for kind, rule in expected:
            assert RULES[rule] == kind, rule
    covered.add("code-case-changed")  # test_code_case_change
    covered.add("wire-type-changed")  # test_wire_type_change
    covered |= {rule for _, _, expected in HIERARCHY_PAIRS for _, rule in expected}
    assert covered == set(RULES)
    for _, _, expected in PAIRS:
        for kind, rule in expected:
            assert RULES[rule] == kind, rule


@pytest.mark.parametrize(
    "label, before, after, expected", OTHER_PAIRS, ids=[p[0] for p in OTHER_PAIRS]
)
def test_other_pairs(
    tmp_path: Path,
    label: str,
    before: list[tuple[str, str]],
    after: list[tuple[str, str]],
    expected: set[tuple[str, str]],
) -> None:
    old_text = _edited(before)
    new_text = old_text
    for old, new in after:
        assert old in new_text
        new_text = new_text.replace(old, new, 1)
    if not after:
        new_text = BASE
    old = load_names(_write(tmp_path, "old.yaml", old_text))
    new = load_names(_write(tmp_path, "new.yaml", new_text))
    assert {(c.kind, c.rule) for c in diff(old, new)} == expected


def test_code_case_change(tmp_path: Path) -> None:
    old = load_names(REPO / "tests/cases/acme_upper/taxonomy.yaml")
    text = (REPO / "tests/cases/acme_upper/taxonomy.yaml").read_text(encoding="utf-8")
    lowered = (
        "\n".join(
            (
                line
                if line.lstrip().startswith(
                    ("#", "title", "description", "base", "name", "version", "format")
                )
                else line.lower()
            )
            for line in text.splitlines()
        )
        .replace("code_case: upper_snake", "code_case: lower_snake")
        .replace("class: llmtimeouterror", "class: LlmTimeoutError")
    )
    new = load_names(_write(tmp_path, "new.yaml", lowered + "\n"))
    rules = {c.rule for c in diff(old, new)}
    assert (
        "code-case-changed" in rules
        and "code-removed" in rules
        and "code-added" in rules
    )


def test_wire_type_change(tmp_path: Path) -> None:
    """docs "Wire codes": integer codes sent as strings are other codes."""
    path = REPO / "tests/cases/jsonrpc/taxonomy.yaml"
    old = load_names(path)
    text = path.read_text(encoding="utf-8").replace("wire_type: integer\n", "")
    # JSON-RPC codes are integers (issue 14 §2): string codes take today's payload.
    text = text.replace("payload: {preset: json-rpc}\n", "")
    quoted = re.sub(r"wire: (-?[0-9]+)", r'wire: "\1"', text)
    # Ranges are for integer codes (docs "Hierarchies"), and so is JSON-RPC's
    # payload (docs "The payload on the wire"): the strings lose both.
    quoted = quoted.replace("payload: {preset: json-rpc}\n", "")
    quoted = re.sub(r"\n    match: \[.*\]", "", quoted)
    new = load_names(_write(tmp_path, "new.yaml", quoted))
    changes = diff(old, new)
    rules = {c.rule for c in changes}
    assert "wire-type-changed" in rules and "wire-code-changed" in rules
    assert "payload-changed" in rules
    assert all(c.kind == BREAKING for c in changes)


@pytest.mark.parametrize(
    "label, edits, expected",
    [p for p in PAIRS if p[1]],
    ids=[p[0] for p in PAIRS if p[1]],
)
def test_each_rule_fires_on_its_pair(
    tmp_path: Path,
    label: str,
    edits: list[tuple[str, str]],
    expected: set[tuple[str, str]],
) -> None:
    old = load_names(_write(tmp_path, "old.yaml", BASE))
    new = load_names(_write(tmp_path, "new.yaml", _edited(edits)))
    found = {(c.kind, c.rule) for c in diff(old, new)}
    assert found == expected


def test_no_change_no_findings(tmp_path: Path) -> None:
    names = load_names(_write(tmp_path, "t.yaml", BASE))
    assert diff(names, names) == []
    assert check_version("0.2.0", "0.2.0", []).ok


def test_breaking_changes_come_first_and_point_at_the_new_file(tmp_path: Path) -> None:
    old = load_names(_write(tmp_path, "old.yaml", BASE))
    new_text = _edited(
        [
            ("meaning: Task exceeded its deadline", "meaning: Task ran late"),
            FLIP,
        ]
    )
    new = load_names(_write(tmp_path, "new.yaml", new_text))
    changes = diff(old, new)
    assert [c.kind for c in changes] == [BREAKING, DOCS]
    line = next(
        i for i, text in enumerate(new_text.splitlines(), 1) if "task_timeout:" in text
    )
    assert changes[0].position is not None and changes[0].position.line == line


@pytest.mark.parametrize(
    "old, new, kinds, ok, required",
    [
        ("1.2.3", "2.0.0", {BREAKING}, True, "major"),
        ("1.2.3", "1.3.0", {BREAKING}, False, "major"),
        (
            "0.2.0",
            "0.3.0",
            {BREAKING},
            True,
            "minor",
        ),  # below 1.0 a minor bump may break
        ("0.2.0", "0.2.1", {BREAKING}, False, "minor"),
        ("0.2.0", "1.0.0", {BREAKING}, True, "minor"),
        ("1.2.3", "1.3.0", {COMPATIBLE}, True, "minor"),
        ("1.2.3", "1.2.4", {COMPATIBLE}, False, "minor"),
        ("0.2.0", "0.2.1", {COMPATIBLE}, False, "minor"),
        ("1.2.3", "2.0.0", {COMPATIBLE}, True, "minor"),
        ("1.2.3", "1.2.3", {DOCS}, True, "none"),
        ("1.2.3", "1.2.2", {DOCS}, False, "none"),
        ("1.2.3", "1.2.3", set(), True, "none"),
        # Issue 14 §4: a date version has no bump rule; it must not go backwards.
        ("2024-06-20", "2024-09-01", {BREAKING}, True, "none"),
        ("2024-06-20", "2024-06-20", {BREAKING}, True, "none"),
        ("2024-06-20", "2024-06-19", {DOCS}, False, "none"),
        ("2024-06-20", "2023-12-31", set(), False, "none"),
        ("0.2.0", "2024-06-20", {BREAKING}, True, "none"),
        ("2024-06-20", "1.0.0", {BREAKING}, True, "none"),
    ],
)
def test_version_check(
    old: str, new: str, kinds: set[str], ok: bool, required: str
) -> None:
    from taxogen.diff import Change

    changes = [Change(kind=k, rule="r", message="m", position=None) for k in kinds]
    result = check_version(old, new, changes)
    assert (result.ok, result.required) == (ok, required), result.message
    if not ok:
        assert "too small" in result.message or "backwards" in result.message


@pytest.mark.parametrize(
    "old, new, kinds, said",
    [
        ("2024-06-20", "2024-09-01", {BREAKING, DOCS}, "this release is breaking"),
        ("2024-06-20", "2024-09-01", {COMPATIBLE}, "this release is compatible"),
        ("2024-06-20", "2024-09-01", {DOCS}, "this release is docs only"),
        ("2024-06-20", "2024-06-20", set(), "this release is unchanged"),
        ("0.2.0", "2024-06-20", {DOCS}, "moves from semantic to date versions"),
        ("2024-06-20", "1.0.0", {DOCS}, "moves from date to semantic versions"),
        ("2024-06-20", "2024-06-19", {COMPATIBLE}, "goes backwards"),
    ],
)
def test_a_date_version_says_what_the_release_is(
    old: str, new: str, kinds: set[str], said: str
) -> None:
    from taxogen.diff import Change

    changes = [Change(kind=k, rule="r", message="m", position=None) for k in kinds]
    message = check_version(old, new, changes).message
    assert message.startswith(f"version {old} → {new}") and said in message, message


# Issue 14 §3: a domain's parent and match, each an edit of the sqlstate case:
# (id, [(old, new)], {(kind, rule)}), the kinds the issue's ("a changed ...
# parent, match ... is breaking").
SQLSTATE = (REPO / "tests/cases/sqlstate/taxonomy.yaml").read_text(encoding="utf-8")
HIERARCHY_PAIRS = [
    (
        "parent changed",
        [
            (
                '    parent: operational\n    match: "40"',
                '    parent: database\n    match: "40"',
            )
        ],
        {(BREAKING, "parent-changed")},
    ),
    (
        "parent removed",
        [('    parent: database\n    match: "23"', '    match: "23"')],
        {(BREAKING, "parent-changed")},
    ),
    (
        "prefix added",
        [('match: "23"', 'match: ["23", "2Z"]')],
        {(BREAKING, "match-changed")},
    ),
    ("match removed", [("    match: XX\n", "")], {(BREAKING, "match-changed")}),
    (
        "domain added with a match",
        [
            (
                "  internal_error:\n",
                "  data_exception:\n    title: Class 22\n    parent: database\n"
                '    match: "22"\n    codes:\n      division_by_zero: {retryable: '
                'false, meaning: m, wire: "22012"}\n  internal_error:\n',
            )
        ],
        {
            (COMPATIBLE, "code-added"),
            (COMPATIBLE, "domain-added"),
            (BREAKING, "match-changed"),
        },
    ),
]


@pytest.mark.parametrize(
    "label, edits, expected", HIERARCHY_PAIRS, ids=[p[0] for p in HIERARCHY_PAIRS]
)
def test_hierarchy_rules_fire_on_their_pair(
    tmp_path: Path,
    label: str,
    edits: list[tuple[str, str]],
    expected: set[tuple[str, str]],
) -> None:
    new_text = SQLSTATE
    for old, new in edits:
        assert old in new_text, f"the edit's anchor is missing: {old!r}"
        new_text = new_text.replace(old, new, 1)
    old_names = load_names(_write(tmp_path, "old.yaml", SQLSTATE))
    new_names = load_names(_write(tmp_path, "new.yaml", new_text))
    changes = diff(old_names, new_names)
    assert {(c.kind, c.rule) for c in changes} == expected
    for change in changes:
        assert RULES[change.rule] == change.kind
        assert change.position is not None
    # Back again: the same rules fire (a removed domain's match too).
    back = diff(new_names, old_names)
    assert {c.rule for c in back if c.kind == BREAKING} >= {
        rule for kind, rule in expected if kind == BREAKING
    }


def test_a_parent_change_says_what_the_class_now_extends(tmp_path: Path) -> None:
    new_text = SQLSTATE.replace(
        '    parent: operational\n    match: "40"',
        '    parent: database\n    match: "40"',
    )
    old_names = load_names(_write(tmp_path, "old.yaml", SQLSTATE))
    new_names = load_names(_write(tmp_path, "new.yaml", new_text))
    [change] = diff(old_names, new_names)
    assert change.message == (
        "domain 'transaction_rollback': parent 'operational' changed to 'database' "
        "(its class TransactionRollback now extends DatabaseError)"
    )


# Issue 30 §7: a nested object's members follow the rules of fields, each change
# named by the member's path; each an edit of the nested_details case:
# (id, [(old, new)], {(kind, rule)}, how many codes carry it, the path named).
NESTED = (REPO / "tests/cases/nested_details/taxonomy.yaml").read_text(encoding="utf-8")
UID = "              uid: string\n"
CAUSE_FIELD = "        field: {type: string, required: false, description: The field"
NESTED_PAIRS = [
    (
        "optional member added",
        [(UID, UID + "              zone: {type: string, required: false}\n")],
        {(COMPATIBLE, "field-added")},
        2,  # the codes of domain resource
        "resource.owner.zone",
    ),
    (
        "required item member added",
        [(CAUSE_FIELD, "        note: string\n" + CAUSE_FIELD)],
        {(BREAKING, "required-field-added")},
        4,  # every code: causes is the top level's
        "causes[].note",
    ),
    (
        "member removed",
        [
            (
                "          class: {type: string, required: false, "
                "description: A member named with a keyword}\n",
                "",
            )
        ],
        {(BREAKING, "field-removed")},
        2,
        "resource.class",
    ),
    (
        "member type changed",
        [("generation: {type: integer", "generation: {type: number")],
        {(BREAKING, "field-type-changed")},
        2,
        "resource.owner.generation",
    ),
    (
        "item member enum changed",
        [("FieldValueRequired]", "FieldValueRequired, FieldValueDuplicate]")],
        {(BREAKING, "field-enum-changed")},
        4,
        "causes[].reason",
    ),
    (
        "member description changed",
        [("description: Its kind}", "description: Its kind as the API names it}")],
        {(DOCS, "field-description-changed")},
        2,
        "resource.kind",
    ),
    (
        "free-form items typed",
        [("items: object,", "items: {type: object, fields: {k: string}},")],
        {(BREAKING, "field-type-changed")},
        1,
        "tags",
    ),
]


def _causes_moved_into_the_domains() -> list[tuple[str, str]]:
    """Edits of nested_details moving the top-level ``causes`` into each domain's
    details, the same shape: every code still carries it."""
    head, rest = NESTED.split("details:\n  causes:\n", 1)
    block, _ = rest.split("\ndomains:", 1)
    causes = "  causes:\n" + block.rstrip("\n") + "\n"
    inner = "".join("    " + line for line in causes.splitlines(keepends=True))
    return [
        ("details:\n" + causes, ""),
        (
            "    title: Server Errors\n",
            "    title: Server Errors\n    details:\n" + inner,
        ),
        (
            "    details:\n      resource:\n",
            "    details:\n" + inner + "      resource:\n",
        ),
    ]


NESTED_PAIRS.append(
    (
        # Each language names a nested object's type from where its field is
        # declared: ApiDetailsCausesItem becomes ServerDetailsCausesItem.
        "nested field moved into the domains",
        _causes_moved_into_the_domains(),
        {(BREAKING, "identifier-changed")},
        4,
        "causes",
    )
)


@pytest.mark.parametrize(
    "label, edits, expected, count, path",
    NESTED_PAIRS,
    ids=[p[0] for p in NESTED_PAIRS],
)
def test_nested_member_rules_fire_on_their_pair(
    tmp_path: Path,
    label: str,
    edits: list[tuple[str, str]],
    expected: set[tuple[str, str]],
    count: int,
    path: str,
) -> None:
    new_text = NESTED
    for old, new in edits:
        assert old in new_text, f"the edit's anchor is missing: {old!r}"
        new_text = new_text.replace(old, new, 1)
    old_names = load_names(_write(tmp_path, "old.yaml", NESTED))
    new_names = load_names(_write(tmp_path, "new.yaml", new_text))
    changes = diff(old_names, new_names)
    assert {(c.kind, c.rule) for c in changes} == expected
    assert len(changes) == count
    assert all(f"details field {path!r}" in c.message for c in changes)
