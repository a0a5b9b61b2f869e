"""Bad input never breaks taxogen: the corpus of bad taxonomies in ``tests/bad/``.

Each ``tests/bad/<case>.yaml`` is one bad input (a few combine many mistakes, to
prove that every problem is reported in one run) and ``<case>.stderr`` is the
exact stderr ``taxogen generate`` must print for it, rewritten by
``python -m tests.bad_golden`` (``make golden``).  For every case: exit status
2, that stderr exactly, one ``PATH:LINE:COL: error: ...`` line per problem and
a summary line, and an output folder left exactly as it was; ``check`` must
refuse the same input in the same words.  Both run in this process (the
command line's ``main``); a case of each kind of failure also runs as a real
process, its stderr compared byte for byte (``tests/bad_golden.py`` runs every
case so to rewrite the goldens, and writes none that exits otherwise than 2 or
prints a traceback).  A file over the size limit is made in a temporary folder
rather than committed.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from taxogen.cli import main
from taxogen.diagnostics import MAX_DIAGNOSTICS, TaxonomyError
from taxogen.naming import name_taxonomy
from taxogen.source import MAX_BYTES, load_text
from taxogen.validate import validate
from tests.bad_golden import BAD_DIR, bad_cases, relative, run_cli
from tests.support import REPO

CASES = bad_cases()
MINIMAL = REPO / "tests" / "cases" / "minimal" / "taxonomy.yaml"
ERROR_LINE = re.compile(
    r"(?P<path>tests/bad/[^:]+\.yaml):(?P<line>\d+):(?P<col>\d+): error: \S.*"
)
SUMMARY = re.compile(
    r"taxogen: (?:(?P<count>\d+) errors?|more than (?P<cut>\d+) errors)"
    r" in (?P<path>\S+)"
    r"(?: \(stopped after \d+\))?; nothing was written"
)

# Every kind of bad input the requirement names, and the case that covers it:
# removing or renaming one of these cases fails test_every_requirement_is_covered.
REQUIRED = {
    "YAML syntax error": [
        "syntax_unclosed_bracket",
        "syntax_unclosed_quote",
        "syntax_colon_in_value",
        "syntax_bad_indentation",
    ],
    "tab indentation": ["tab_indentation"],
    "duplicate keys at any level": [
        "duplicate_code_key",
        "duplicate_top_level_key",
        "duplicate_domain",
        "duplicate_nested_keys",
        "duplicate_key_quoted",
    ],
    "unknown key with a did-you-mean": ["unknown_keys_did_you_mean"],
    "unknown key without a close match": ["unknown_key_no_match"],
    "missing required keys": ["missing_required_keys", "empty_mapping"],
    "wrong types": [
        "wrong_types_containers",
        "domains_not_a_mapping",
        "null_values",
        "booleans_as_text",
    ],
    "only true/false are booleans": ["retryable_not_boolean"],
    "keys like no/on/off/y are strings": ["keys_are_strings", "duplicate_key_quoted"],
    "codes that break the case style": [
        "code_case_lower_violations",
        "code_case_upper_violations",
    ],
    "invalid code_case": ["code_case_invalid", "code_case_unknown_style"],
    "invalid python_layout": ["python_layout_invalid", "python_layout_not_text"],
    "the same code in two domains": ["same_code_two_domains"],
    "fallback or wrap naming no code": ["fallback_wrap_undefined"],
    "a domain with no codes": ["empty_domain", "domains_empty"],
    "an empty file": ["empty_file", "comment_only", "empty_document"],
    "a file that is not a mapping": ["top_level_list", "top_level_scalar"],
    "a file that is not UTF-8": [
        "not_utf8",
        "utf16",
        "control_character",
        "lone_surrogate",
    ],
    "alias and anchor bombs": ["alias_bomb", "alias_and_merge_key"],
    "tags that construct objects": [
        "tag_python_object",
        "tag_binary",
        "tag_custom_and_typed",
    ],
    "hostile structure": [
        "deep_nesting",
        "multiple_documents",
        "non_scalar_key",
        "key_with_escapes",
        "long_names",
        "too_many_errors",
    ],
    "bad top-level values": [
        "format_unsupported",
        "format_not_a_number",
        "bad_version",
        "bad_version_text",
        "bad_name",
        "bad_base",
        "bad_class_override",
    ],
    "two codes mapping to one class": ["collision_digits", "collision_error_suffix"],
    "a domain base clashing with a code class": [
        "collision_domain_and_code",
        "collision_domain_class_vs_generic_code",
    ],
    "a class clashing with the base class": [
        "collision_base_class",
        "base_type_guard_clash",
    ],
    "a class clashing with a name the module defines": ["collision_module_names"],
    "names shadowing builtins": [
        "reserved_builtins_derived",
        "reserved_class_overrides",
        "base_exception",
        "base_error",
    ],
    "keywords": ["reserved_keywords"],
    "every problem in one run": ["many_mistakes", "valid_parts_still_named"],
    "events and docs": ["events_invalid", "docs_invalid"],
    "control characters in text fields": ["control_characters_in_text"],
    # Issue 14 §4: what a code maps to, and date versions.
    "http_status of a wrong type or out of range": ["http_status_invalid"],
    "an unknown gRPC status name, with a did-you-mean": ["grpc_status_invalid"],
    "throttling without retryable": ["throttling_invalid"],
    "a bad docs_url": [
        "docs_url_no_placeholder",
        "docs_url_twice",
        "docs_url_other_brace",
        "docs_url_not_http",
        "docs_url_relative",
        "docs_url_code_in_host",
        "docs_url_no_host",
        "docs_url_space",
        "docs_url_not_text",
    ],
    "a date version that is no date": ["version_date_invalid"],
    # Issue 14 §2: the payload the wire carries.
    "payload of a wrong type": ["payload_not_a_mapping"],
    "an unknown preset or payload key": ["payload_unknown_preset"],
    "a member name of a wrong type, empty or too long": [
        "payload_field_wrong_type",
        "payload_code_null",
        "payload_member_too_long",
    ],
    "a bad details_type": [
        "payload_details_type",
        "payload_rest_not_object",
        "payload_details_type_without_details",
    ],
    "two fields in one member": ["payload_same_member"],
    "json-rpc with string codes": ["payload_jsonrpc_string_codes"],
    "problem without docs_url or a status": ["payload_problem_no_docs_url"],
    "a payload error reported alone, not checked against the rest": [
        "payload_bad_preset_stops_checks",
        "payload_bad_member_stops_checks",
        "payload_bad_details_type_stops_checks",
        "payload_shared_member_stops_checks",
        "payload_rest_type_stops_checks",
    ],
    "names of the valid parts checked with the file's class_suffix and case": [
        "class_suffix_partial_names",
        "code_case_guessed_upper",
    ],
    "a wire code taken, blamed at the key that is one": ["wire_code_taken_by_a_key"],
    "a parent chain into a cycle names the cycle only": ["parent_chain_into_a_cycle"],
    # Issue 29 §5: numbers every language reads alike.
    "an integer past the safe integers, a number not finite": [
        "details_numbers_past_safe_integers",
        "details_not_finite",
    ],
    "declared details fields without object details": [
        "payload_typed_details_not_object",
        "payload_typed_details_none",
        "payload_rest_field_clash",
    ],
}


def _snapshot(folder: Path) -> dict[str, bytes | None]:
    """Every file (bytes) and folder (None) under ``folder``, by relative path."""
    return {
        path.relative_to(folder).as_posix(): (
            path.read_bytes() if path.is_file() else None
        )
        for path in sorted(folder.rglob("*"))
    }


@pytest.fixture(scope="module")
def populated_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An output folder as a user has it: a generated taxonomy plus a file of their
    own.
    """
    out = tmp_path_factory.mktemp("template") / "out"
    done = run_cli("generate", "-q", "--taxonomy", relative(MINIMAL), "--out", str(out))
    assert done.returncode == 0, done.stderr.decode()
    (out / "NOTES.txt").write_text("mine, not taxogen's\n", encoding="utf-8")
    return out


@pytest.fixture()
def out(populated_template: Path, tmp_path: Path) -> Path:
    folder = tmp_path / "out"
    shutil.copytree(populated_template, folder)
    return folder


def _check_stderr(stderr: str, taxonomy: str) -> list[str]:
    """Assert the shape of a refusal; return its error lines."""
    assert "Traceback" not in stderr
    assert stderr.endswith("\n")
    lines = stderr[:-1].split("\n")
    *errors, summary = lines
    match = SUMMARY.fullmatch(summary)
    assert match is not None, summary
    assert match["path"] == taxonomy
    assert errors, "a refusal names at least one problem"
    if match["count"] is not None:
        assert int(match["count"]) == len(errors)
    else:
        assert int(match["cut"]) == len(errors) == MAX_DIAGNOSTICS
    return errors


def _refused(case: Path, stdout: str, stderr: str, before: object, out: Path) -> None:
    """What a refusal of ``case`` leaves: that stderr, nothing on stdout, every
    line a diagnostic that points into the case, the output folder as it was."""
    assert stdout == ""
    assert stderr == case.with_suffix(".stderr").read_bytes().decode("utf-8")
    for line in _check_stderr(stderr, relative(case)):
        match = ERROR_LINE.fullmatch(line)
        assert match is not None, line
        assert match["path"] == relative(case)
        assert int(match["line"]) >= 1 and int(match["col"]) >= 1
    assert _snapshot(out) == before


@pytest.mark.parametrize("command", ["generate", "check"])
@pytest.mark.parametrize("case", CASES, ids=[case.stem for case in CASES])
def test_bad_input_is_refused_with_the_expected_stderr(
    case: Path,
    command: str,
    out: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    # check refuses the same input in the same words as generate.  In this
    # process: a process per case cost 0.2 s each, and every surviving mutant of
    # the mutation pass runs them all (test_a_real_process_refuses holds the real
    # process to the same words).
    monkeypatch.chdir(REPO)
    before = _snapshot(out)
    assert main([command, "--taxonomy", relative(case), "--out", str(out)]) == 2
    captured = capsys.readouterr()
    _refused(case, captured.out, captured.err, before, out)


#: Cases of each kind of failure (the parser's, a refused tag, an alias bomb, the
#: validator's many errors, text that is no UTF-8), run as a real process.
REAL_PROCESS = (
    "syntax_unclosed_quote",
    "tag_python_object",
    "alias_bomb",
    "many_mistakes",
    "not_utf8",
    "too_many_errors",
)


@pytest.mark.parametrize("stem", REAL_PROCESS)
def test_a_real_process_refuses_in_the_same_words(stem: str, out: Path) -> None:
    (case,) = [c for c in CASES if c.stem == stem]
    before = _snapshot(out)
    done = run_cli("generate", "--taxonomy", relative(case), "--out", str(out))
    assert done.returncode == 2, done.stderr.decode("utf-8", "replace")
    assert done.stderr == case.with_suffix(".stderr").read_bytes()
    _refused(
        case, done.stdout.decode("utf-8"), done.stderr.decode("utf-8"), before, out
    )


def test_a_file_over_the_size_limit_is_refused_unread(
    out: Path, tmp_path: Path
) -> None:
    big = tmp_path / "big.yaml"
    # Valid YAML all the way (a taxonomy, then comments), so only the size is wrong.
    body = MINIMAL.read_bytes()
    big.write_bytes(body + b"#" * (MAX_BYTES + 1 - len(body) - 1) + b"\n")
    assert big.stat().st_size == MAX_BYTES + 1
    before = _snapshot(out)
    for command in ("generate", "check"):
        done = run_cli(command, "--taxonomy", str(big), "--out", str(out))
        assert done.returncode == 2
        stderr = done.stderr.decode("utf-8")
        assert stderr == (
            f"{big}:1:1: error: file is larger than {MAX_BYTES // (1024 * 1024)} MiB;"
            " a taxonomy is a hand-written file, refused unread\n"
            f"taxogen: 1 error in {big}; nothing was written\n"
        )
        assert _snapshot(out) == before


def test_a_file_at_the_size_limit_is_read(tmp_path: Path) -> None:
    exact = tmp_path / "exact.yaml"
    body = MINIMAL.read_bytes()
    exact.write_bytes(body + b"#" * (MAX_BYTES - len(body) - 1) + b"\n")
    assert exact.stat().st_size == MAX_BYTES
    done = run_cli(
        "generate", "-q", "--taxonomy", str(exact), "--out", str(tmp_path / "out")
    )
    assert done.returncode == 0, done.stderr.decode()
    assert (
        tmp_path / "out" / "python" / "src" / "tiny_errors" / "__init__.py"
    ).is_file()


def test_the_corpus_has_at_least_30_distinct_cases() -> None:
    contents = {case.read_bytes() for case in CASES}
    assert len(CASES) >= 30
    assert len(contents) == len(CASES), "two cases hold the same bytes"
    outputs = {
        case.with_suffix(".stderr").read_bytes().replace(case.name.encode(), b"CASE")
        for case in CASES
    }
    assert len(outputs) == len(CASES), "two cases fail in exactly the same way"


def test_every_case_has_its_expected_stderr_and_nothing_else_is_there() -> None:
    cases = {path.stem for path in BAD_DIR.glob("*.yaml")}
    stderrs = {path.stem for path in BAD_DIR.glob("*.stderr")}
    assert cases == stderrs
    # Beside the cases, only the list of those the taxonomy schema cannot
    # refuse (tests/test_taxonomy_schema.py).
    others = {p.name for p in BAD_DIR.iterdir() if p.suffix not in (".yaml", ".stderr")}
    assert others <= {"SCHEMA.md"}


@pytest.mark.parametrize("case", CASES, ids=[case.stem for case in CASES])
def test_expected_stderr_is_a_well_formed_refusal(case: Path) -> None:
    expected = case.with_suffix(".stderr").read_text(encoding="utf-8")
    assert expected.strip()
    errors = _check_stderr(expected, relative(case))
    for line in errors:
        assert ERROR_LINE.fullmatch(line), line
    # The messages name a key path whenever the problem sits under a key.
    assert len(set(errors)) == len(errors), "a problem is reported once"


def test_every_requirement_is_covered() -> None:
    names = {case.stem for case in CASES}
    missing = {
        item: [c for c in cases if c not in names] for item, cases in REQUIRED.items()
    }
    assert not {item: cases for item, cases in missing.items() if cases}


def test_combined_cases_report_every_problem_in_one_run() -> None:
    # The lines of many_mistakes.stderr, as the kinds of problem they report.
    text = (BAD_DIR / "many_mistakes.stderr").read_text(encoding="utf-8")
    for needle in (
        "format: unsupported format",
        "name: expected a lower_snake identifier",
        "titel: unknown key 'titel' (did you mean 'title'?)",
        "version: expected a semantic version",
        "fallback: no code 'opps' is defined (did you mean 'oops'?)",
        "retryable: expected true or false, got 'no'",
        "duplicate key 'oops'",
        "does not follow code_case lower_snake",
        "class name 'Task2Error' of code 'task2' is already the class name of code"
        " 'task_2' (line 17)",
        "class name 'TypeError' of code 'type_error' would shadow",
        "YAML tag '!!python/object/apply:os.system' is not allowed",
        "domains.empty.codes: a domain must have at least one code",
        "domains.task.title: expected a string, got a list",
        "code 'task_2' is already defined in domain 'misc' at line 17",
        "events.bad\\x07event:",
    ):
        assert text.count(needle) == 1, needle


def test_messages_cannot_forge_lines() -> None:
    # A key holding a line break and a terminal escape stays on its own line, escaped.
    text = (BAD_DIR / "key_with_escapes.stderr").read_text(encoding="utf-8")
    assert "\x1b" not in text
    assert text.count("\n") == 2
    assert "colour\\x0afake.yaml:1:1: error: forged\\x1b[31m" in text


# ----------------------------------------------------------------------- properties
_TOKENS = [
    "format",
    "name",
    "domains",
    "codes",
    "retryable",
    "meaning",
    "class",
    "docs",
    "example",
    "details",
    ": ",
    "\n",
    "\n  ",
    "\n    ",
    "\n      ",
    "- ",
    "[",
    "]",
    "{",
    "}",
    ", ",
    "&a ",
    "*a",
    "<<: ",
    "!!str ",
    "!!python/object ",
    "!t ",
    "'",
    '"',
    "true",
    "yes",
    "~",
    "oops",
    "Error",
    "---\n",
    "? ",
    "#",
    "\t",
    "é",
    "\\ud800",
    "\\x00",
    "|\n",
    "\x01",
]
_SHIPPED = (REPO / "taxonomy.yaml").read_text(encoding="utf-8")


def _refuse_or_accept(text: str) -> None:
    """Load, validate and name ``text``: it works, or every problem is a one-line
    diagnostic.
    """
    try:
        root, problems = load_text(text, "t.yaml")
        name_taxonomy(validate(root, "t.yaml", "t.yaml", problems), "t.yaml")
    except TaxonomyError as exc:
        assert exc.diagnostics
        for diagnostic in exc.diagnostics:
            assert diagnostic.position is not None
            assert diagnostic.format().isprintable(), diagnostic.format()


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(_TOKENS), max_size=60).map("".join))
def test_any_token_soup_is_refused_with_diagnostics_never_a_crash(text: str) -> None:
    _refuse_or_accept(text)


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.integers(0, len(_SHIPPED)), st.integers(0, 3), st.sampled_from(_TOKENS)
        ),
        min_size=1,
        max_size=6,
    )
)
def test_any_small_edit_of_the_shipped_taxonomy_is_accepted_or_refused_cleanly(
    edits: list[tuple[int, int, str]],
) -> None:
    text = _SHIPPED
    for at, cut, insert in edits:
        at = min(at, len(text))
        text = text[:at] + insert + text[at + cut :]
    _refuse_or_accept(text)


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=200))
def test_any_text_is_refused_with_diagnostics_never_a_crash(text: str) -> None:
    _refuse_or_accept(text)
