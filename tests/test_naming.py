"""Naming: the identifier rules of generator/naming.py, as tables and as guarantees.

The tables pin how codes and domains become class names, enum members and
other spellings.  The guarantees: every reserved name is refused as a class,
whoever picks it; two codes, a domain and a code, or a class and the base never
share a name; and the reserved module-name sets really cover every top-level
name the generated Python and TypeScript modules define, read from what the
templates render now (so a template that adds a helper must reserve it).
"""

from __future__ import annotations

import ast
import builtins
import dataclasses
import re
from pathlib import Path

import pytest
import yaml

from taxogen.diagnostics import Position, TaxonomyError
from taxogen.model import Code, Docs, Domain, Field, Shape, Taxonomy
from taxogen.naming import (
    check_names,
    class_name,
    generic_code,
    in_code_case,
    member_name,
    name_taxonomy,
    other_case,
    pascal,
    pascal_guess,
    reserved_reason,
    snake,
    snake_guess,
    split_words,
    words,
)
from taxogen.pipeline import build_plan, load_names
from taxogen.targets.go.naming import (
    code_names,
    domain_const,
    domain_helper,
    go_name,
    go_package,
)
from taxogen.targets.go.reserved import GO_PACKAGE_NAMES, go_reserved_reason
from taxogen.targets.python import naming as python_naming
from taxogen.targets.python.naming import python_dist
from taxogen.targets.python.reserved import (
    PYTHON_BUILTINS,
    PYTHON_KEYWORDS,
    PYTHON_MODULE_NAMES,
    PYTHON_STANDARD_NAMES,
)
from taxogen.targets.java.reserved import JAVA_LANG_USED, JAVA_PACKAGE_NAMES
from taxogen.targets.typescript import naming as typescript_naming
from taxogen.targets.typescript.reserved import (
    TS_GLOBALS,
    TS_MODULE_NAMES,
    TS_RESERVED,
)
from tests.support import REPO, Case, case_ids, cases
from tests.spec_oracle import (
    Spec,
    python_guard,
    python_nested_types,
    read_spec,
    readme_member,
)

# Python's builtin exceptions but the two roots may be class names (issue 30 §6:
# errno's FileNotFoundError); the oracle is Python's own builtins module.
_CLASS_BUILTINS = frozenset(
    name
    for name in PYTHON_BUILTINS
    if isinstance(getattr(builtins, name, None), type)
    and issubclass(getattr(builtins, name), BaseException)
    and name not in ("BaseException", "Exception")
)
RESERVED_SETS = {
    "PYTHON_KEYWORDS": PYTHON_KEYWORDS,
    "PYTHON_BUILTINS": PYTHON_BUILTINS - _CLASS_BUILTINS,
    "PYTHON_STANDARD_NAMES": PYTHON_STANDARD_NAMES,
    "PYTHON_MODULE_NAMES": PYTHON_MODULE_NAMES,
    "TS_RESERVED": TS_RESERVED,
    "TS_GLOBALS": TS_GLOBALS,
    "TS_MODULE_NAMES": TS_MODULE_NAMES,
    "JAVA_LANG_USED": JAVA_LANG_USED,
    "JAVA_PACKAGE_NAMES": JAVA_PACKAGE_NAMES,
}
ALL_RESERVED = sorted(frozenset().union(*RESERVED_SETS.values()))


# ------------------------------------------------------------------- tables
@pytest.mark.parametrize(
    ("identifier", "expected"),
    [
        ("task_timeout", "TaskTimeoutError"),
        ("TASK_TIMEOUT", "TaskTimeoutError"),
        ("protocol_error", "ProtocolError"),  # never ErrorError
        ("PROTOCOL_ERROR", "ProtocolError"),
        ("error_error", "ErrorError"),  # only one trailing "error" is dropped
        ("error", "Error"),  # and then the name is refused as reserved
        ("x", "XError"),
        ("a_b", "ABError"),
        ("a_b_error", "ABError"),
        ("task_2", "Task2Error"),
        ("task2", "Task2Error"),
        ("http2_error", "Http2Error"),
        ("unauthorized", "UnauthorizedError"),
        ("error_code", "ErrorCodeError"),
        ("tool_enoent", "ToolEnoentError"),
        # README "code_case: as_written": a key as the wire writes it, split into
        # its words where its spelling changes (Kubernetes, S3, errno, OAuth).
        ("NotFound", "NotFoundError"),
        ("NoSuchKey", "NoSuchKeyError"),
        ("StorageReadError", "StorageReadError"),
        ("InternalError", "InternalError"),
        ("ENOENT", "EnoentError"),
        ("E2BIG", "E2bigError"),
        ("invalid_request", "InvalidRequestError"),
        ("x-amz-Thing", "XAmzThingError"),
        ("SlowDown", "SlowDownError"),
    ],
)
def test_class_name(identifier: str, expected: str) -> None:
    assert class_name(identifier) == expected


@pytest.mark.parametrize(
    ("identifier", "suffix", "expected"),
    [
        # docs "Names": class_suffix "" gives psycopg's names...
        ("unique_violation", "", "UniqueViolation"),
        ("internal_error", "", "InternalError"),
        ("deadlock_detected", "", "DeadlockDetected"),
        # ...and any other suffix is added once, never doubled.
        ("card_declined", "Exception", "CardDeclinedException"),
        ("bad_exception", "Exception", "BadException"),
        ("bad_error", "Exception", "BadErrorException"),
        ("task_timeout", "Error", "TaskTimeoutError"),
        ("TASK_FAULT", "Fault", "TaskFault"),
    ],
)
def test_class_name_with_a_suffix(identifier: str, suffix: str, expected: str) -> None:
    assert class_name(identifier, suffix) == expected


@pytest.mark.parametrize(
    ("identifier", "expected"),
    [
        ("task_timeout", "TASK_TIMEOUT"),
        ("TASK_TIMEOUT", "TASK_TIMEOUT"),
        ("task2", "TASK2"),
        ("task_2", "TASK_2"),
        ("x", "X"),
        ("no", "NO"),
        ("NoSuchKey", "NO_SUCH_KEY"),
        ("AccessDenied", "ACCESS_DENIED"),
        ("EWOULDBLOCK", "EWOULDBLOCK"),
        ("x-amz-Thing", "X_AMZ_THING"),
    ],
)
def test_member_name(identifier: str, expected: str) -> None:
    assert member_name(identifier) == expected


@pytest.mark.parametrize(
    ("identifier", "expected"),
    [
        ("task_timeout", "TaskTimeout"),
        ("TASK_TIMEOUT", "TaskTimeout"),
        ("task", "Task"),
        ("a_b", "AB"),
        ("task_2", "Task2"),
        ("x", "X"),
        ("protocol_error", "ProtocolError"),
    ],
)
def test_pascal(identifier: str, expected: str) -> None:
    assert pascal(identifier) == expected


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("HarmovelaError", "harmovela_error"),
        ("HarnessError", "harness_error"),
        ("HTTPError", "http_error"),
        ("IOError", "io_error"),
        ("ABError", "ab_error"),
        ("X", "x"),
        ("already_snake", "already_snake"),
        ("Task2Error", "task_2_error"),
    ],
)
def test_snake(name: str, expected: str) -> None:
    assert snake(name) == expected


# The words of a code or domain name are what its underscores separate.
@pytest.mark.parametrize(
    ("identifier", "expected"),
    [
        ("task_timeout", ["task", "timeout"]),
        ("TASK_TIMEOUT", ["task", "timeout"]),
        ("unauthorized", ["unauthorized"]),
        ("http2_error", ["http2", "error"]),
        ("NoSuchKey", ["no", "such", "key"]),
        ("HTTPRedirect", ["http", "redirect"]),
    ],
)
def test_words(identifier: str, expected: list[str]) -> None:
    assert words(identifier) == expected


# A code case is lower_snake or upper_snake: the same words, small or capital.
@pytest.mark.parametrize(
    ("identifier", "case", "expected"),
    [
        ("zz_unknown_code", "lower_snake", "zz_unknown_code"),
        ("zz_unknown_code", "upper_snake", "ZZ_UNKNOWN_CODE"),
        ("_x", "upper_snake", "_X"),
        ("zz_unknown_code", "as_written", "zz_unknown_code"),
    ],
)
def test_in_code_case(identifier: str, case: str, expected: str) -> None:
    assert in_code_case(identifier, case) == expected


@pytest.mark.parametrize(
    ("code", "case", "expected"),
    [
        ("task_timeout", "lower_snake", "TASK_TIMEOUT"),
        ("TASK_TIMEOUT", "upper_snake", "task_timeout"),
        ("oops", "lower_snake", "OOPS"),
        ("NoSuchKey", "as_written", "nOsUCHkEY"),
    ],
)
def test_other_case(code: str, case: str, expected: str) -> None:
    assert other_case(code, case) == expected


# "A domain's generic code is <domain>_error" (README), spelt in the code case.
@pytest.mark.parametrize(
    ("domain", "case", "expected"),
    [
        ("task", "lower_snake", "task_error"),
        ("TASK", "upper_snake", "TASK_ERROR"),
        ("auth_flow", "lower_snake", "auth_flow_error"),
    ],
)
def test_generic_code(domain: str, case: str, expected: str) -> None:
    assert generic_code(domain, case) == expected


# A Python distribution is named like its package, with dashes for underscores.
@pytest.mark.parametrize(
    ("package", "expected"),
    [
        ("acme_errors", "acme-errors"),
        ("harmovela_errors", "harmovela-errors"),
        ("big_co_errors", "big-co-errors"),
    ],
)
def test_python_dist(package: str, expected: str) -> None:
    assert python_dist(package) == expected


def test_names_carry_the_python_dist() -> None:
    names = load_names(REPO / "taxonomy.yaml")
    assert python_naming.dist(names) == "harmovela-errors"


# Did-you-mean hints: a name in any spelling, as the rule would have it.
@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Bad-Code", ["Bad", "Code"]),
        ("badCode", ["bad", "Code"]),
        ("BAD_CODE", ["BAD", "CODE"]),
        ("HTTPError", ["HTTP", "Error"]),
        ("task timeout", ["task", "timeout"]),
        ("v2", ["v2"]),
    ],
)
def test_split_words(text: str, expected: list[str]) -> None:
    assert split_words(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Bad-Code", "bad_code"),
        ("badCode", "bad_code"),
        ("BAD_CODE", "bad_code"),
        ("HTTPError", "http_error"),
        ("Acme", "acme"),
        ("task  timeout", "task_timeout"),
    ],
)
def test_snake_guess(text: str, expected: str) -> None:
    assert snake_guess(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("acme_error", "AcmeError"),
        ("acmeError", "AcmeError"),
        ("HTTPError", "HTTPError"),
        ("task-timeout error", "TaskTimeoutError"),
    ],
)
def test_pascal_guess(text: str, expected: str) -> None:
    assert pascal_guess(text) == expected


# ------------------------------------------------------------------- helpers
def _at(line: int) -> Position:
    return Position(line=line, col=1)


def _code(code: str, line: int, cls: str | None = None, domain: str = "misc") -> Code:
    return Code(
        code=code,
        domain=domain,
        retryable=False,
        meaning="m",
        class_name=cls,
        position=_at(line),
    )


def _taxonomy(
    *domains: Domain, base: str = "TinyError", code_case: str = "lower_snake"
) -> Taxonomy:
    first = domains[0].codes[0].code
    return Taxonomy(
        source="taxonomy.yaml",
        name="tiny",
        title="Tiny",
        version="0.0.1",
        base=base,
        fallback=first,
        wrap=first,
        code_case=code_case,
        domains=domains,
        events=(),
        docs=Docs(),
        base_position=_at(5),
    )


def _domain(key: str, *codes: Code, line: int = 9, cls: str | None = None) -> Domain:
    return Domain(
        key=key,
        title=key.title(),
        description="",
        codes=codes,
        class_name=cls,
        position=_at(line),
    )


def _refusal(taxonomy: Taxonomy) -> list[str]:
    with pytest.raises(TaxonomyError) as caught:
        name_taxonomy(taxonomy, "t.yaml")
    return [d.format() for d in caught.value.diagnostics]


# ------------------------------------------------------------------- reserved names
# Each message by hand, as docs "Names" words it: one name of each kind of
# reserved name, alone and together (the tables themselves are held to each
# language's own lists in tests/test_reserved_sources.py).
@pytest.mark.parametrize(
    ("name", "reason"),
    [
        ("True", "is a Python keyword"),
        ("await", "is a Python keyword and a TypeScript reserved word"),
        ("Exception", "would shadow the Python builtin of that name"),
        (
            "Object",
            "would shadow the JavaScript global and the java.lang type of that name",
        ),
        ("Throwable", "would shadow the java.lang type of that name"),
        ("Registry", "is already defined by the generated Java module"),
        ("TypeError", "would shadow the JavaScript global of that name"),
        ("Enum", "would shadow the standard Python class enum.Enum"),
        ("TypedDict", "is already defined by the generated Python module"),
        ("runtime", "is already defined by the generated TypeScript module"),
        (
            "ErrorCode",
            "is already defined by the generated Python and TypeScript modules",
        ),
        (
            "Iterator",
            "would shadow the JavaScript global of that name and is already "
            "defined by the generated Python module",
        ),
        (
            "type",
            "is a Python keyword and a TypeScript reserved word and would shadow "
            "the Python builtin of that name",
        ),
    ],
)
def test_a_reserved_code_class_is_refused_saying_why(name: str, reason: str) -> None:
    taxonomy = _taxonomy(
        _domain("misc", _code("oops", 10), _code("picked", 11, cls=name))
    )
    assert _refusal(taxonomy) == [
        f"t.yaml:11:1: error: domains.misc.codes.picked: class name {name!r} of code"
        f" 'picked' (set by `class:`) {reason}; set `class:` on the code to choose"
        " another"
    ]


def test_a_reserved_domain_class_and_base_are_refused_saying_why() -> None:
    as_domain = _refusal(_taxonomy(_domain("misc", _code("oops", 10), cls="Object")))
    assert as_domain == [
        "t.yaml:9:1: error: domains.misc: class name 'Object' of domain 'misc'"
        " (set by `class:`) would shadow the JavaScript global and the java.lang"
        " type of that name; set `class:` on the domain to choose another"
    ]
    as_base = _refusal(_taxonomy(_domain("misc", _code("oops", 10)), base="Exception"))
    assert as_base == [
        "t.yaml:5:1: error: base: class name 'Exception' of the base class would"
        " shadow the Python builtin of that name; choose another base name"
    ]


_SET_PHRASES = {
    "PYTHON_KEYWORDS": r"Python keyword",
    "TS_RESERVED": r"TypeScript reserved word",
    "PYTHON_BUILTINS": r"Python builtin",
    "TS_GLOBALS": r"JavaScript global",
    "PYTHON_STANDARD_NAMES": r"standard Python class enum\.",
    "PYTHON_MODULE_NAMES": r"generated Python (?:and TypeScript )?(?:and Java )?module",
    "TS_MODULE_NAMES": r"generated (?:Python and )?TypeScript (?:and Java )?module",
    "JAVA_LANG_USED": r"java\.lang type",
    "JAVA_PACKAGE_NAMES": r"generated (?:Python and )?(?:TypeScript and )?Java module",
}


def test_every_reserved_name_is_refused_naming_each_table_it_is_in() -> None:
    """Every name of every table, as a code's class: refused, and the message
    names exactly the tables the name is in (one test, not one per name)."""
    wrong = {}
    for name in ALL_RESERVED:
        taxonomy = _taxonomy(
            _domain("misc", _code("oops", 10), _code("picked", 11, cls=name))
        )
        (message,) = _refusal(taxonomy)
        said = {s for s, phrase in _SET_PHRASES.items() if re.search(phrase, message)}
        tables = {s for s, members in RESERVED_SETS.items() if name in members}
        if f"class name {name!r} of code 'picked'" not in message or said != tables:
            wrong[name] = message
    assert not wrong


@pytest.mark.parametrize(
    "name",
    ["TaskTimeoutError", "OopsError", "Task", "ErrorList", "Objects", "ErrorCodes"],
)
def test_ordinary_names_are_not_reserved(name: str) -> None:
    assert reserved_reason(name) is None


@pytest.mark.parametrize(
    "name",
    ["FileNotFoundError", "TimeoutError", "SystemError", "PermissionError", "KeyError"],
)
def test_a_builtin_exception_may_name_a_class(name: str) -> None:
    """Issue 30 §6: a class may take a Python builtin exception's name (the
    generated module writes builtins.X for the builtin), where it was refused
    as shadowing it; JavaScript has none of these globals."""
    assert name in _CLASS_BUILTINS
    assert reserved_reason(name) is None


def test_reserved_pascal_case_names_are_refused_through_the_whole_pipeline(
    tmp_path: Path,
) -> None:
    """Every reserved name a user can write as `class:` is refused from a real file,
    each once.
    """
    names = [name for name in ALL_RESERVED if re.fullmatch(r"[A-Z][A-Za-z0-9]*", name)]
    assert len(names) > 100
    lines = [
        "format: 1",
        "name: tiny",
        "title: Tiny",
        "version: 0.0.1",
        "base: TinyError",
        "fallback: oops",
        "wrap: oops",
        "domains:",
        "  misc:",
        "    title: Misc",
        "    codes:",
        "      oops: {retryable: false, meaning: m}",
    ]
    first = len(lines) + 1
    lines += [
        f'      c{i}: {{retryable: false, meaning: m, class: "{name}"}}'
        for i, name in enumerate(names)
    ]
    path = tmp_path / "taxonomy.yaml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    with pytest.raises(TaxonomyError) as caught:
        load_names(path)
    found = {
        d.position.line: d.message
        for d in caught.value.diagnostics
        if d.position is not None
    }
    assert len(caught.value.diagnostics) == len(names)
    for i, name in enumerate(names):
        assert found[first + i].startswith(
            f"class name {name!r} of code 'c{i}' (set by `class:`)"
        )


# ------------------------------------------------------------------- collisions
@pytest.mark.parametrize(
    ("first", "second", "shared"),
    [
        ("task_2", "task2", "Task2Error"),
        ("a_b", "a_b_error", "ABError"),
        ("oops", "oops_error", "OopsError"),
    ],
)
def test_two_codes_with_one_class_name_are_refused_naming_both_lines(
    first: str, second: str, shared: str
) -> None:
    taxonomy = _taxonomy(_domain("misc", _code(first, 10), _code(second, 14)))
    assert _refusal(taxonomy) == [
        f"t.yaml:14:1: error: domains.misc.codes.{second}: class name {shared!r} of"
        f" code {second!r} is already the class name of code {first!r} (line 10);"
        " set `class:` on the code to choose another"
    ]


def test_a_class_override_resolves_the_collision() -> None:
    names = name_taxonomy(
        _taxonomy(
            _domain("misc", _code("task_2", 10), _code("task2", 14, cls="TaskTwoError"))
        ),
        "t.yaml",
    )
    assert [code.class_name for code in names.codes] == ["Task2Error", "TaskTwoError"]


def test_a_domain_base_clashing_with_a_code_class_is_refused() -> None:
    taxonomy = _taxonomy(
        _domain("misc", _code("oops", 10)),
        _domain("oops", _code("again", 13, domain="oops"), line=12),
    )
    assert _refusal(taxonomy) == [
        "t.yaml:12:1: error: domains.oops: class name 'OopsError' of domain 'oops' is"
        " already the class name of code 'oops' (line 10); set `class:` on the domain"
        " to choose another"
    ]


def test_a_domain_class_that_contradicts_its_generic_code_is_refused() -> None:
    taxonomy = _taxonomy(_domain("misc", _code("misc_error", 10)))
    assert name_taxonomy(taxonomy, "t.yaml").domains[0].class_name == "MiscError"
    clash = _taxonomy(_domain("misc", _code("misc_error", 10), cls="Other"))
    assert _refusal(clash) == [
        "t.yaml:9:1: error: domains.misc.class: the class of domain 'misc' is the"
        " class of its code 'misc_error' ('MiscError'), so it cannot be 'Other'; set"
        " `class:` on that code instead"
    ]


def test_upper_snake_generic_codes_give_the_domain_class() -> None:
    taxonomy = _taxonomy(
        _domain(
            "TOOL",
            _code("TOOL_ERROR", 10, domain="TOOL"),
            _code("TOOL_TIMEOUT", 11, domain="TOOL"),
        ),
        code_case="upper_snake",
    )
    names = name_taxonomy(taxonomy, "t.yaml")
    assert names.domains[0].class_name == "ToolError"
    assert names.domains[0].base_code is not None
    assert [(c.class_name, c.parent) for c in names.codes] == [
        ("ToolError", "TinyError"),
        ("ToolTimeoutError", "ToolError"),
    ]


@pytest.mark.parametrize(
    ("cls", "what"),
    [
        ("TinyError", "the base class"),
        ("TinyErrorOptions", "the options type of the base class"),
    ],
)
def test_a_class_named_like_the_base_or_its_options_is_refused(
    cls: str, what: str
) -> None:
    taxonomy = _taxonomy(_domain("misc", _code("oops", 10), _code("same", 11, cls=cls)))
    assert _refusal(taxonomy) == [
        f"t.yaml:11:1: error: domains.misc.codes.same: class name {cls!r} of code"
        f" 'same' (set by `class:`) is already the class name of {what} (line 5); set"
        " `class:` on the code to choose another"
    ]


@pytest.mark.parametrize(
    ("base", "guard"),
    [
        ("Retryable", "is_retryable"),
        ("Retryable", "isRetryable"),
        ("Finite", "isFinite"),
    ],
)
def test_a_base_whose_type_guard_is_taken_is_refused(base: str, guard: str) -> None:
    lines = _refusal(_taxonomy(_domain("misc", _code("oops", 10)), base=base))
    assert any(
        f"type guard {guard!r}" in line and line.startswith("t.yaml:5:1: error: base: ")
        for line in lines
    )


@pytest.mark.parametrize(("base", "guard"), [("Finite", "isFinite")])
def test_a_base_whose_type_guard_is_a_javascript_global_is_refused(
    base: str, guard: str
) -> None:
    """``isFinite`` is a global function of JavaScript (ECMA-262 §19.2.2)."""
    assert _refusal(_taxonomy(_domain("misc", _code("oops", 10)), base=base)) == [
        f"t.yaml:5:1: error: base: base {base!r} makes the TypeScript type guard"
        f" {guard!r}, which is a builtin; choose another base name"
    ]


def test_check_names_refuses_a_class_named_like_a_valid_base() -> None:
    domains = [_domain("misc", _code("oops", 10), _code("same", 11, cls="TinyError"))]
    problems = check_names(domains, "TinyError", _at(5), "lower_snake", "t.yaml")
    assert [p.format() for p in problems] == [
        "t.yaml:11:1: error: domains.misc.codes.same: class name 'TinyError' of code"
        " 'same' (set by `class:`) is already the class name of the base class"
        " (line 5); set `class:` on the code to choose another"
    ]


@pytest.mark.parametrize(
    ("name", "npm"),
    [("tiny", "tiny-errors"), ("acme_harness", "acme-harness-errors")],
)
def test_the_npm_package_is_the_name_with_dashes(name: str, npm: str) -> None:
    """README: taxonomy ``harmovela`` is the npm package ``harmovela-errors``; npm
    names are spelt with dashes, as the Python distribution's are."""
    taxonomy = _taxonomy(_domain("misc", _code("oops", 10)))
    taxonomy = dataclasses.replace(taxonomy, name=name)
    assert typescript_naming.package(name_taxonomy(taxonomy, "t.yaml")) == npm


def test_check_names_works_on_the_valid_parts_of_a_broken_taxonomy() -> None:
    domains = [_domain("misc", _code("task_2", 10), _code("task2", 11))]
    problems = check_names(
        domains, None, None, "lower_snake", "t.yaml"
    )  # the base itself was invalid
    assert [p.format() for p in problems] == [
        "t.yaml:11:1: error: domains.misc.codes.task2: class name 'Task2Error' of code"
        " 'task2' is already the class name of code 'task_2' (line 10); set `class:`"
        " on the code to choose another"
    ]
    assert (
        check_names(
            [_domain("misc", _code("oops", 10))],
            "TinyError",
            _at(5),
            "lower_snake",
            "t.yaml",
        )
        == []
    )


# ------------------------------------------------------ the sets cover the modules
def _own_names(spec: Spec) -> tuple[set[str], set[str]]:
    """The names the generated modules take from the taxonomy: (Python, TypeScript).

    Read from the YAML by the README's rules (``tests.spec_oracle``), not from
    naming: a name naming got wrong is then not the taxonomy's, and the tests
    below see it as a module name nobody reserved.
    """
    codes = spec.codes.values()
    classes = (
        {spec.base}
        | set(spec.domains.values())
        | {c.class_name for c in codes}
        # A TypedDict in Python, a details type in TypeScript (issue 10).
        | {c.details_type for c in codes if c.details_type}
        # docs "Aliases": each alias's class, another name of its code's.
        | {name for c in codes for name in c.alias_classes}
    )
    # docs "Names": the guard (snake case in Python) and the options type.
    typescript = {f"is{spec.base}", f"{spec.base}Options"} | _ts_interfaces(spec)
    # docs/python.md "Nested objects": a TypedDict per typed object.
    python = {python_guard(spec)} | python_nested_types(spec)
    return classes | python, classes | typescript


def _ts_interfaces(spec: Spec) -> set[str]:
    """docs/typescript.md "Nested objects": each typed nested object's interface,
    named from the details type of what declares its field (the base's, the
    domain's class's, the code's class's: ``Error`` made ``Details``), then each
    step of its path in PascalCase, ``Item`` for an array's items."""
    raw = yaml.safe_load(Path(spec.path).read_text(encoding="utf-8"))
    found: set[str] = set()

    def pascal(name: str) -> str:
        return "".join(word[:1].upper() + word[1:] for word in name.split("_"))

    def walk(name: str, shape: object) -> None:
        if not isinstance(shape, dict):  # a type name alone: nothing nested
            return
        if shape.get("type") == "array":
            walk(name + "Item", shape.get("items"))
        elif shape.get("type") == "object" and "fields" in shape:
            found.add(name)
            for member, inner in shape["fields"].items():
                walk(name + pascal(member), inner)

    def declared(owner: str, details: dict[str, object] | None) -> None:
        stem = owner.removesuffix("Error") or owner
        for field, shape in (details or {}).items():
            walk(f"{stem}Details{pascal(field)}", shape)

    declared(spec.base, raw.get("details"))
    for key, domain in raw["domains"].items():
        declared(spec.domains[key], domain.get("details"))
        for code, entry in (domain.get("codes") or {}).items():
            known = spec.codes.get(code)  # None: a removed code's tombstone
            if known is not None and known.details_type:
                declared(known.class_name, entry.get("details"))
    return found


def _python_top_level(source: str) -> set[str]:
    return _python_names(ast.parse(source).body)


def _python_names(body: list[ast.stmt]) -> set[str]:
    found: set[str] = set()
    for node in body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            found.add(node.name)
        elif isinstance(node, ast.Assign):
            for target in node.targets:
                found.update(n.id for n in ast.walk(target) if isinstance(n, ast.Name))
        elif isinstance(node, (ast.AnnAssign, ast.AugAssign)) and isinstance(
            node.target, ast.Name
        ):
            found.add(node.target.id)
        elif isinstance(node, ast.Import):
            found.update(
                (alias.asname or alias.name).split(".")[0] for alias in node.names
            )
        elif isinstance(node, ast.ImportFrom):
            found.update(alias.asname or alias.name for alias in node.names)
        elif isinstance(
            node, ast.If
        ):  # `if TYPE_CHECKING:` and its converse, both define
            found |= _python_names(node.body) | _python_names(node.orelse)
        elif isinstance(node, (ast.Try, ast.With, ast.For, ast.While, ast.Match)):
            raise AssertionError(
                f"line {node.lineno}: a top-level block this test does not read"
            )
    return found


_TS_NAME = r"[A-Za-z_$][\w$]*"
_TS_DECLARATION = re.compile(
    r"(?:export\s+)?(?:declare\s+)?(?:default\s+)?(?:abstract\s+)?"
    r"(?:const|let|var|function\*?|class|type|interface|enum|namespace)"
    rf"\s+({_TS_NAME})"
)
# `const { payload: readPayload, event }` binds readPayload and event.
_TS_DESTRUCTURING = re.compile(r"(?:export\s+)?(?:const|let|var)\s*\{([^}]*)\}")
_TS_NAMESPACE_IMPORT = re.compile(rf"import\s+\*\s+as\s+({_TS_NAME})\s+from\b")
_TS_DEFAULT_IMPORT = re.compile(rf"import\s+({_TS_NAME})\s+from\b")
# `import { a, b as c } from`, `export type { D } from`, `export { e };`
_TS_NAME_LIST = re.compile(r"(?:import|export)\s+(?:type\s+)?\{([^}]*)\}")


def _typescript_top_level(source: str) -> set[str]:
    """Every name a TypeScript module binds or exports at top level.

    A top-level statement starts in column 0 (the generated module is laid out
    so, its bodies indented); one that starts with a word this reader does not
    know fails the test rather than pass unread.
    """
    found: set[str] = set()
    for line in source.splitlines():
        if not re.match(r"[A-Za-z_$]", line):
            continue  # indented, a comment, or a closing bracket
        if match := _TS_DESTRUCTURING.match(line):
            for item in match.group(1).split(","):
                found |= {item.rpartition(":")[2].strip()} - {""}
        elif match := _TS_NAME_LIST.match(line):
            for item in match.group(1).split(","):
                found |= {item.strip().rpartition(" as ")[2].strip()} - {""}
        elif match := (
            _TS_NAMESPACE_IMPORT.match(line)
            or _TS_DEFAULT_IMPORT.match(line)
            or _TS_DECLARATION.match(line)
        ):
            found.add(match.group(1))
        else:
            raise AssertionError(
                f"a top-level statement this test does not read: {line}"
            )
    return found


def _module(case: Case, suffix: str) -> str:
    plan = build_plan(case.taxonomy)
    (path,) = [path for path in plan if path.endswith(suffix)]
    return plan[path].decode("utf-8")


@pytest.mark.parametrize("case", cases(), ids=case_ids())
def test_python_module_names_cover_every_top_level_name(case: Case) -> None:
    spec = read_spec(case.taxonomy)
    own, _ = _own_names(spec)
    defined = _python_top_level(_module(case, "/__init__.py"))
    assert (
        "from_payload" in defined and spec.base in defined
    )  # the parse found the module's names
    public = {name for name in defined if not name.startswith("_")} - own
    assert (
        public - PYTHON_MODULE_NAMES == set()
    ), "add these to naming.PYTHON_MODULE_NAMES"


@pytest.mark.parametrize("case", cases(), ids=case_ids())
def test_typescript_module_names_are_exactly_what_index_ts_binds(case: Case) -> None:
    """TS_MODULE_NAMES is the golden index.ts's top-level names, less the taxonomy's.

    The taxonomy's are read from the spec and the file, not from naming: every
    class index.ts declares is one of the taxonomy (the runtime's classes live in
    runtime.ts), and the YAML's ``base`` names the guard ``is<base>`` (README) and
    the options interface ``<base>Options``; a class with declared details has
    its details type, the class's name with ``Error`` made ``Details`` (README).
    """
    index = case.expected / "typescript" / "src" / "index.ts"
    source = index.read_text(encoding="utf-8")
    bound = _typescript_top_level(source)
    base = yaml.safe_load(case.taxonomy.read_text(encoding="utf-8"))["base"]
    classes = set(re.findall(rf"^export class ({_TS_NAME}) extends ", source, re.M))
    assert base in classes and "fromPayload" in bound  # the reader found them
    typed = set(re.findall(rf"^export type ({_TS_NAME}Details) = ", source, re.M))
    for t in typed:  # a class not ending in Error keeps its whole name as stem
        stem = t.removesuffix("Details")
        assert {stem + "Error", stem} & classes, f"{t} names no class"
    # docs "Aliases": each alias's class is bound as another name of its code's.
    aliases = {
        name
        for c in read_spec(case.taxonomy).codes.values()
        for name in c.alias_classes
    }
    # docs/typescript.md "Nested objects": each typed nested object's interface.
    nested = _ts_interfaces(read_spec(case.taxonomy))
    assert nested <= bound
    fixed = bound - classes - typed - aliases - nested
    fixed -= {f"is{base}", f"{base}Options"}
    # docs "Hierarchies": MATCHED is bound only where a domain has a match:.
    domains = yaml.safe_load(case.taxonomy.read_text(encoding="utf-8"))["domains"]
    if not any("match" in domain for domain in domains.values()):
        fixed.add("MATCHED")
    # Issue 14 §2: the payload mapping (WIRE) only where it is not today's.
    names = set(TS_MODULE_NAMES)
    if not read_spec(case.taxonomy).mapped_payload:
        names.discard("WIRE")
    # Issue 30 §3: KEEPING only where a domain says fallback: null.
    if not read_spec(case.taxonomy).keeping:
        names.discard("KEEPING")
    assert fixed == names, (
        f"index.ts binds, TS_MODULE_NAMES lacks: {sorted(fixed - names)}; "
        f"TS_MODULE_NAMES lists, index.ts lacks: {sorted(names - fixed)}"
    )


_PASCAL = re.compile(r"[A-Z][A-Za-z0-9]*")


def _code_only(typescript: str) -> str:
    """TypeScript without comments and literals (roughly, erring on removing too
    much).
    """
    out = re.sub(r"/\*.*?\*/", " ", typescript, flags=re.S)
    out = re.sub(r"//[^\n]*", " ", out)
    out = re.sub(r'"(?:\\.|[^"\\\n])*"', '""', out)
    out = re.sub(r"'(?:\\.|[^'\\\n])*'", "''", out)
    out = re.sub(r"`(?:\\.|[^`\\])*`", "``", out)
    return re.sub(r"/(?:\\.|[^/\\\n])+/[dgimsuy]*", "/x/", out)


@pytest.mark.parametrize("case", cases(), ids=case_ids())
def test_every_class_like_name_the_python_module_uses_is_reserved(case: Case) -> None:
    """A class named like a global the module reads would change what it reads."""
    spec = read_spec(case.taxonomy)
    py_own, _ = _own_names(spec)
    # In enum bodies; docs "Names": members are the keys in upper snake case.
    members = {readme_member(key) for key in [*spec.codes, *spec.domains]}
    # docs "Aliases": an alias is an enum member too.
    members |= {readme_member(a) for c in spec.codes.values() for a in c.aliases}
    tree = ast.parse(_module(case, "/__init__.py"))
    # A field declared in a class body (a TypedDict's ``BucketName: str``, S3's
    # spelling) names a key, and reads no global.
    declared = {
        id(item.target)
        for node in ast.walk(tree)
        if isinstance(node, ast.ClassDef)
        for item in node.body
        if isinstance(item, ast.AnnAssign)
    }
    # Nor does a function's parameter named so (a constructor's ``BucketName=``),
    # read in its body: a local.
    for func in ast.walk(tree):
        if isinstance(func, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            args = func.args
            params = {a.arg for a in [*args.posonlyargs, *args.args, *args.kwonlyargs]}
            declared |= {
                id(node)
                for node in ast.walk(func)
                if isinstance(node, ast.Name) and node.id in params
            }
    used = {
        node.id
        for node in ast.walk(tree)
        if isinstance(node, ast.Name)
        and _PASCAL.fullmatch(node.id)
        and id(node) not in declared
    }
    # Exception itself is read by _runtime.py now, whose namespace holds no class
    # of the taxonomy (tests/targets/python/test_python_runtime.py).
    assert {"ClassVar", "ErrorCode"} <= used
    reserved = (
        PYTHON_BUILTINS | PYTHON_KEYWORDS | PYTHON_MODULE_NAMES | PYTHON_STANDARD_NAMES
    )
    assert used - py_own - members - reserved == set()


@pytest.mark.parametrize("case", cases(), ids=case_ids())
def test_every_class_like_name_the_typescript_module_uses_is_reserved(
    case: Case,
) -> None:
    _, ts_own = _own_names(read_spec(case.taxonomy))
    code = _code_only(_module(case, "src/index.ts"))
    # A property declared (``BucketName?: string``) names a key, not a global.
    used = set(re.findall(r"(?<![.\w$])[A-Z][A-Za-z0-9]*\b(?!\??\s*:)", code))
    # Error itself is read by src/runtime.ts now, which declares no class of the
    # taxonomy (tests/targets/typescript/test_typescript_runtime.py).
    assert {"Object", "Map", "ErrorCode"} <= used
    assert used - ts_own - TS_GLOBALS - TS_MODULE_NAMES == set()


def test_the_declaration_readers_see_what_they_must() -> None:
    python = (
        "import enum\nfrom typing import Any as A\nX: int = 1\nY = Z = 2\n"
        "(P, Q) = 1, 2\ndef f(): pass\nclass C: pass\n"
    )
    assert _python_top_level(python) == {"enum", "A", "X", "Y", "Z", "P", "Q", "f", "C"}
    typescript = (
        "export const A = 1;\nconst B: unique symbol = Symbol();\nfunction c() {}\n"
        "export class D extends E {}\n"
        "type F = 1;\nexport interface G {}\n"
        "export type H = (typeof A)[keyof typeof A];\n  const inner = 1;\n"
        'import * as I from "./i.js";\nimport J from "j";\n'
        'import { K, x as L } from "k";\nexport { M } from "m";\n'
        'export type { N, y as O } from "n";\n'
        "const { p: P, Q }: R = S;\n// comment\n/**\n * doc\n */\n]);\n"
    )
    assert _typescript_top_level(typescript) == set("ABcDFGHIJKLMNOPQ")
    with pytest.raises(AssertionError, match="does not read: if"):
        _typescript_top_level("if (x) {}\n")


@pytest.mark.parametrize("case", cases(), ids=case_ids())
def test_no_name_a_golden_case_generates_is_reserved(case: Case) -> None:
    spec = read_spec(case.taxonomy)
    py_own, ts_own = _own_names(spec)
    # The names the README gives the case's classes, and those naming gives them
    # (here naming is what is judged, by reserved_reason, not the oracle).
    names = case.names
    generated = (
        {names.base}
        | {d.class_name for d in names.domains}
        | {c.class_name for c in names.codes}
        | {c.details_type for c in names.codes if c.details_type}
    )
    classes = (py_own | ts_own | generated) - {python_guard(spec), f"is{spec.base}"}
    assert {
        name: reserved_reason(name) for name in classes if reserved_reason(name)
    } == {}


# ------------------------------------------------------------------------- Go
# docs "Go": a Go name is made of the words of the class name (a domain's
# constant: of its key), each capitalised, Go's initialisms in capitals.
@pytest.mark.parametrize(
    ("text", "lower", "expected"),
    [
        ("task_timeout", True, "TaskTimeout"),
        ("TASK_TIMEOUT", True, "TaskTimeout"),
        ("user_id", True, "UserID"),
        ("http_url", True, "HTTPURL"),
        ("InvalidUrlError", False, "InvalidURLError"),
        ("IOError", False, "IOError"),
        ("HTTPTimeoutError", False, "HTTPTimeoutError"),
        ("utf8_text", True, "UTF8Text"),
        ("retry_after_s", False, "RetryAfterS"),
        ("taskId", False, "TaskID"),
        ("api_v2", True, "APIV2"),
        ("Task2Error", False, "Task2Error"),
    ],
)
def test_go_name(text: str, lower: bool, expected: str) -> None:
    assert go_name(text, lower=lower) == expected


@pytest.mark.parametrize(
    ("name", "expected"),
    [("harmovela", "harmovelaerrors"), ("acme_hr", "acmehrerrors")],
)
def test_go_package(name: str, expected: str) -> None:
    assert go_package(name) == expected


@pytest.mark.parametrize(
    ("name", "reason"),
    [
        ("func", "is a Go keyword"),
        ("len", "would shadow Go's predeclared identifier of that name"),
        ("error", "would shadow Go's predeclared identifier of that name"),
        ("FromPayload", "is already defined by the generated Go package"),
        ("CodeTaskTimeout", None),
    ],
)
def test_go_reserved_reason(name: str, reason: str | None) -> None:
    assert go_reserved_reason(name) == reason


def test_a_code_has_go_names_from_its_class() -> None:
    names = name_taxonomy(
        _taxonomy(_domain("web", _code("invalid_url", 10, domain="web"))), "t.yaml"
    )
    (code,) = map(code_names, names.codes)
    assert (code.const, code.new, code.is_) == (
        "CodeInvalidURL",
        "NewInvalidURLError",
        "IsInvalidURLError",
    )
    assert domain_const(names.domains[0]) == "DomainWeb"


def test_a_class_set_by_class_keeps_its_capitals_in_go() -> None:
    # docs "Go", "Names": a code's Go names come from its class name, the
    # words each capitalised: a class the taxonomy spells IOFailureError (`class:`)
    # keeps its capitals, as the README's HTTPTimeoutError would.
    names = name_taxonomy(
        _taxonomy(_domain("misc", _code("io_failure", 10, cls="IOFailureError"))),
        "t.yaml",
    )
    (code,) = map(code_names, names.codes)
    assert (code.const, code.new, code.is_) == (
        "CodeIOFailure",
        "NewIOFailureError",
        "IsIOFailureError",
    )


def test_the_names_carry_the_go_package() -> None:
    # docs "Go": the package is the taxonomy's name without underscores plus
    # `errors`; the Go target reads it from the names.
    taxonomy = dataclasses.replace(
        _taxonomy(_domain("misc", _code("oops", 10))), name="acme_hr"
    )
    assert go_package(name_taxonomy(taxonomy, "t.yaml").taxonomy.name) == (
        "acmehrerrors"
    )


def test_two_classes_with_one_go_name_are_refused_and_class_resolves_it() -> None:
    taxonomy = _taxonomy(
        _domain("misc", _code("url_bad", 10), _code("u_r_l_bad", 14, cls="URLBadError"))
    )
    problems = _refusal(taxonomy)
    assert problems and all(p.startswith("t.yaml:14:1: error: ") for p in problems)
    assert "Go name 'CodeURLBad' of the Go constant of code 'u_r_l_bad'" in problems[0]
    assert "already the Go name of the Go constant of code 'url_bad' (line 10)" in (
        problems[0]
    )
    fixed = _taxonomy(
        _domain(
            "misc", _code("url_bad", 10), _code("u_r_l_bad", 14, cls="LinkBadError")
        )
    )
    assert [code_names(c).const for c in name_taxonomy(fixed, "t.yaml").codes] == [
        "CodeURLBad",
        "CodeLinkBad",
    ]


def test_a_domain_constant_spells_an_upper_case_key_in_words() -> None:
    # docs "Go": a domain's constant is Domain plus its key's words, each
    # capitalised, whatever case the key is written in.
    names = name_taxonomy(
        _taxonomy(
            _domain("LLM_TOOLS", _code("oops", 10, domain="LLM_TOOLS")),
            code_case="upper_snake",
        ),
        "t.yaml",
    )
    assert domain_const(names.domains[0]) == "DomainLlmTools"


def test_two_domains_with_one_go_constant_are_refused() -> None:
    # url_misc and u_r_l_misc are both DomainURLMisc in Go (their classes differ).
    taxonomy = _taxonomy(
        _domain("url_misc", _code("oops", 10, domain="url_misc"), line=9),
        _domain("u_r_l_misc", _code("other", 14, domain="u_r_l_misc"), line=13),
    )
    assert _refusal(taxonomy) == [
        "t.yaml:13:1: error: domains.u_r_l_misc: Go name 'DomainURLMisc' of the Go "
        "constant of domain 'u_r_l_misc' is already the Go name of the Go constant "
        "of domain 'url_misc' (line 9); rename the domain"
    ]


def test_a_go_name_across_kinds_is_refused() -> None:
    # code_y's details struct CodeYDetails is y_details's constant.
    typed = dataclasses.replace(
        _code("code_y", 14),
        fields=(Field(name="n", shape=Shape(type="string"), position=_at(15)),),
    )
    problems = _refusal(_taxonomy(_domain("misc", _code("y_details", 10), typed)))
    assert len(problems) == 1
    assert "Go name 'CodeYDetails' of the Go details struct of code 'code_y'" in (
        problems[0]
    )


def test_two_fields_with_one_go_name_are_refused() -> None:
    fields = tuple(
        Field(name=name, shape=Shape(type="string"), position=_at(11))
        for name in ("task_id", "taskId")
    )
    code = dataclasses.replace(_code("oops", 10), fields=fields)
    assert _refusal(_taxonomy(_domain("misc", code))) == [
        "t.yaml:10:1: error: domains.misc.codes.oops: details fields 'task_id' and "
        "'taskId' of code 'oops' are both the Go field 'TaskID'; rename one",
        "t.yaml:10:1: error: domains.misc.codes.oops: details fields 'task_id' and "
        "'taskId' of code 'oops' are both the Java record component 'taskId'; "
        "rename one",
        # Rust spells a field in snake case: both are task_id there too.
        "t.yaml:10:1: error: domains.misc.codes.oops: details fields 'task_id' and "
        "'taskId' of code 'oops' are both the Rust field 'task_id'; rename one",
    ]


def test_two_fields_with_one_java_name_are_refused() -> None:
    """README "Java": ``url_path`` and ``urlPath`` are one record component (Go
    refuses them too, as one struct field: each language says so)."""
    fields = tuple(
        Field(name=name, shape=Shape(type="string"), position=_at(11))
        for name in ("url_path", "urlPath")
    )
    code = dataclasses.replace(_code("oops", 10), fields=fields)
    problems = _refusal(_taxonomy(_domain("misc", code)))
    assert (
        "t.yaml:10:1: error: domains.misc.codes.oops: details fields 'url_path' and "
        "'urlPath' of code 'oops' are both the Java record component 'urlPath'; "
        "rename one"
    ) in problems


def test_go_package_names_are_the_golden_errors_go_top_level_names() -> None:
    """GO_PACKAGE_NAMES is what errors.go declares at top level, exported, less
    the taxonomy's own names (as TS_MODULE_NAMES is for index.ts)."""
    names = load_names(REPO / "taxonomy.yaml")
    text = build_plan(REPO / "taxonomy.yaml", ["go"])["go/errors.go"].decode()
    declared = set(re.findall(r"^(?:func|type|const|var) ([A-Z]\w*)", text, re.M))
    declared |= set(re.findall(r"^\t([A-Z]\w*) += ", text, re.M))  # a const block
    own = {domain_const(d) for d in names.domains}
    own |= {domain_helper(d) for d in names.domains}
    own |= {
        name
        for c in map(code_names, names.codes)
        for name in (c.const, c.new, c.is_, c.details)
        if name
    }
    assert declared - own == GO_PACKAGE_NAMES


@pytest.mark.parametrize("aliases", ["", ", aliases: [a_c]"], ids=["plain", "aliased"])
def test_a_code_s_own_class_clash_names_the_code_whether_it_has_aliases_or_not(
    tmp_path: Path, aliases: str
) -> None:
    # A code's own class name clashes: the message is about the code and its
    # `class:` (docs "Names"), never about one of its aliases, whose class is
    # its own name (a code with aliases was once blamed on its last alias).
    path = tmp_path / "taxonomy.yaml"
    path.write_text(
        "format: 1\nname: tiny\ntitle: Tiny\nversion: 0.0.1\nbase: TinyError\n"
        "fallback: x_y\nwrap: x_y\ndomains:\n  misc:\n    title: Misc\n    codes:\n"
        "      x_y: {retryable: false, meaning: X, class: SameError}\n"
        f"      a_b: {{retryable: false, meaning: Y, class: SameError{aliases}}}\n",
        encoding="utf-8",
    )
    with pytest.raises(TaxonomyError) as caught:
        load_names(path)
    assert [(d.key, d.message) for d in caught.value.diagnostics] == [
        (
            "domains.misc.codes.a_b",
            "class name 'SameError' of code 'a_b' (set by `class:`) is already the "
            "class name of code 'x_y' (set by `class:`) (line 12); set `class:` on "
            "the code to choose another",
        )
    ]
