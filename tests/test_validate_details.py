"""Typed details and message templates as validation reads them (issue 10).

The oracle is the taxonomy's own YAML, read with PyYAML (not taxogen's loader),
and the rules of the issue: a field's type, required (default true), default
and bounds are as written; a code's fields are its domain's, then its own; a
template's placeholders are the ``{name}`` runs once ``{{``/``}}`` are taken
out; a placeholder shows a value as JavaScript's ``String`` shows it.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

from taxogen.diagnostics import TaxonomyError
from taxogen.model import (
    JSONObject,
    JSONValue,
    Taxonomy,
    parse_template,
    placeholder_text,
)
from taxogen.source import load_text
from taxogen.validate import validate
from tests.support import require_tool

REPO = Path(__file__).resolve().parent.parent
FIXTURES = [
    REPO / "tests" / "cases" / "typed_details" / "taxonomy.yaml",
    REPO / "tests" / "cases" / "harness" / "taxonomy.yaml",
]

HEAD = """\
format: 1
name: tiny
title: Tiny
version: 1.2.0
base: TinyError
fallback: oops
wrap: oops
"""


def _read(text: str) -> Taxonomy:
    root, problems = load_text(text, "t.yaml")
    return validate(root, "t.yaml", "t.yaml", problems)


def _errors(text: str) -> list[str]:
    root, problems = load_text(text, "t.yaml")
    with pytest.raises(TaxonomyError) as caught:
        validate(root, "t.yaml", "t.yaml", problems)
    return [d.format() for d in caught.value.diagnostics]


def _plain(value: JSONValue) -> Any:
    """Model data as plain Python data, to compare with what PyYAML read."""
    if isinstance(value, JSONObject):
        return {k: _plain(v) for k, v in value.items}
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    return value


def _spec_of(raw: Any) -> dict[str, Any]:
    """A field as the YAML writes it, the short form (``name: string``) expanded."""
    return {"type": raw} if isinstance(raw, str) else dict(raw)


@pytest.mark.parametrize("path", FIXTURES, ids=lambda p: p.parent.name)
def test_every_field_and_template_is_the_yamls(path: Path) -> None:
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    root, problems = load_text(path.read_text(encoding="utf-8"), str(path))
    taxonomy = validate(root, str(path), path.name, problems)
    for domain_key, domain in data["domains"].items():
        shared = {k: _spec_of(v) for k, v in (domain.get("details") or {}).items()}
        for code_key, code in (domain.get("codes") or {}).items():
            own = {k: _spec_of(v) for k, v in (code.get("details") or {}).items()}
            expected = {**shared, **own}  # the domain's first, the code's win
            model = taxonomy.code(code_key)
            assert [f.name for f in model.fields] == list(expected)
            for field in model.fields:
                spec = expected[field.name]
                assert field.shape.type == spec["type"]
                assert field.required is spec.get("required", True)
                assert field.description == spec.get("description", "")
                assert field.has_default is ("default" in spec)
                assert _plain(field.default) == spec.get("default")
                assert field.shape.enum == tuple(spec.get("enum", ()))
                assert field.shape.minimum == spec.get("minimum")
                assert field.shape.maximum == spec.get("maximum")
                assert field.domain == (
                    domain_key if field.name in shared and field.name not in own
                    else None
                )  # fmt: skip
                items = spec.get("items")
                if items is None:
                    assert field.shape.items is None
                else:
                    item_spec = _spec_of(items)
                    assert field.shape.items is not None
                    assert field.shape.items.type == item_spec["type"]
                    assert field.shape.items.enum == tuple(item_spec.get("enum", ()))
            if "message" not in code:
                assert model.message is None
                continue
            text = code["message"]
            assert model.message is not None and model.message.text == text
            # Left to right: {{ and }} are braces, {name} a placeholder.
            tokens = re.findall(r"\{\{|\}\}|\{[^{}]*\}|[^{}]+", text)
            assert "".join(tokens) == text
            names = [t[1:-1] for t in tokens if t not in ("{{", "}}") and t[0] == "{"]
            assert list(model.message.fields) == list(dict.fromkeys(names))
            literal = "".join(
                t[0] if t in ("{{", "}}") else "" if t[0] == "{" else t for t in tokens
            )
            assert "".join(piece.text for piece in model.message.pieces) == literal


TEMPLATES = [
    ("plain text", [("plain text", None)]),
    ("{a}", [("", "a")]),
    ("x {a} y {b}", [("x ", "a"), (" y ", "b")]),
    ("{a}{a}", [("", "a"), ("", "a")]),
    ("{{a}}", [("{a}", None)]),
    ("{{{a}}}", [("{", "a"), ("}", None)]),
    ("}}{{", [("}{", None)]),
    ("", [("", None)]),
]


@pytest.mark.parametrize(("text", "pieces"), TEMPLATES)
def test_templates_cut_into_literal_text_and_fields(
    text: str, pieces: list[tuple[str, str | None]]
) -> None:
    assert parse_template(text) == tuple(pieces)


BROKEN_TEMPLATES = [
    ("{", "unmatched '{' at character 1"),
    ("a}", "unmatched '}' at character 2"),
    ("{a", "unmatched '{' at character 1"),
    ("{a{b}", "unmatched '{' at character 1"),
    ("{}", "placeholder {} at character 1 is not a field name"),
    ("{1a}", "placeholder {1a} at character 1 is not a field name"),
    ("x{a-b}", "placeholder {a-b} at character 2 is not a field name"),
]


@pytest.mark.parametrize(("text", "problem"), BROKEN_TEMPLATES)
def test_a_template_with_a_stray_brace_says_where(text: str, problem: str) -> None:
    result = parse_template(text)
    assert isinstance(result, str) and result.startswith(problem)


#: What a placeholder shows: written from ECMAScript's Number::toString.
PLACEHOLDERS: list[tuple[str | int | float | bool, str]] = [
    ("task_01", "task_01"),
    ("", ""),
    (True, "true"),
    (False, "false"),
    (0, "0"),
    (-42, "-42"),
    (300000, "300000"),
    (2**70, "1180591620717411303424"),
    (3.0, "3"),
    (-0.0, "0"),
    (0.5, "0.5"),
    (0.1, "0.1"),
    (1.5e-7, "1.5e-7"),
    (1e-7, "1e-7"),
    (0.000001, "0.000001"),
    (1e21, "1e+21"),
    (1e20, "100000000000000000000"),
    (123456789.125, "123456789.125"),
    (-2.5e30, "-2.5e+30"),
    (5e-324, "5e-324"),
    (1.7976931348623157e308, "1.7976931348623157e+308"),
]


@pytest.mark.parametrize(("value", "shown"), PLACEHOLDERS)
def test_a_placeholder_shows_a_value_as_javascript_does(
    value: str | int | float | bool, shown: str
) -> None:
    assert placeholder_text(value) == shown


def test_placeholder_numbers_agree_with_node_on_many_doubles() -> None:
    node = shutil.which("node")
    require_tool(node is not None, "node")
    assert node is not None
    import random
    import struct

    rng = random.Random(10)
    values = [struct.unpack("d", rng.randbytes(8))[0] for _ in range(2000)]
    values = [v for v in values if v == v and abs(v) != float("inf")]
    values += [float(n) for n in range(-50, 50)] + [n / 7 for n in range(1, 60)]
    script = (
        "const v = JSON.parse(require('fs').readFileSync(0, 'utf8'));"
        "process.stdout.write(JSON.stringify(v.map(String)));"
    )
    shown = subprocess.run(
        [node, "-e", script],
        input=json.dumps(values),
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert [placeholder_text(v) for v in values] == json.loads(shown)


def test_the_short_form_and_shared_fields() -> None:
    taxonomy = _read(HEAD + """\
domains:
  misc:
    title: Misc
    details:
      trace: {type: string, required: false}
    codes:
      oops: {retryable: false, meaning: Oops}
      typed:
        retryable: false
        meaning: Typed
        details:
          count: integer
          trace: {type: string, required: false, description: Said again}
""")  # fmt: skip
    oops, typed = taxonomy.codes
    assert [(f.name, f.domain) for f in oops.fields] == [("trace", "misc")]
    # The code's own declaration of a shared field wins (same shape).
    assert [(f.name, f.shape.type, f.required, f.domain) for f in typed.fields] == [
        ("trace", "string", False, None),
        ("count", "integer", True, None),
    ]
    assert typed.fields[0].description == "Said again"


def test_a_field_may_have_equal_bounds() -> None:
    """Only a maximum *below* the minimum is refused: equal bounds allow one value."""
    taxonomy = _read(HEAD + """\
domains:
  misc:
    title: Misc
    codes:
      oops: {retryable: false, meaning: Oops}
      exact:
        retryable: false
        meaning: Exact
        details:
          count: {type: integer, minimum: 3, maximum: 3}
          ratio: {type: number, minimum: 0.5, maximum: 0.5}
""")  # fmt: skip
    shapes = [f.shape for f in taxonomy.codes[1].fields]
    assert [(s.minimum, s.maximum) for s in shapes] == [(3, 3), (0.5, 0.5)]


def test_codes_without_details_stay_as_they_were() -> None:
    taxonomy = _read(
        HEAD + "domains:\n  misc:\n    title: Misc\n    codes:\n"
        "      oops: {retryable: false, meaning: Oops}\n"
    )
    assert taxonomy.codes[0].fields == () and taxonomy.codes[0].message is None


@pytest.mark.parametrize(
    "name", ["type", "name", "id", "str", "match", "package", "constructor", "taskId"]
)
def test_field_names_that_are_safe_in_both_languages_are_taken(name: str) -> None:
    taxonomy = _read(
        HEAD + "domains:\n  misc:\n    title: Misc\n    codes:\n"
        "      oops: {retryable: false, meaning: Oops}\n"
        "      x:\n        retryable: false\n        meaning: X\n"
        f"        details: {{{name}: string}}\n"
    )
    assert [f.name for f in taxonomy.code("x").fields] == [name]


@pytest.mark.parametrize(
    ("name", "reason"),
    [
        ("def", "is a Python keyword"),
        ("None", "is a Python keyword"),
        ("new", "is a JavaScript reserved word"),
        ("typeof", "is a JavaScript reserved word"),
        ("for", "is a Python keyword and is a JavaScript reserved word"),
        ("details", "is a name the error itself holds or its constructor takes"),
        ("retryable", "is a name the error itself holds or its constructor takes"),
        ("self", "is a name the Python error holds or its constructor takes"),
        ("wire_code", "is a name the Python error holds or its constructor takes"),
        ("wireCode", "is a name the TypeScript error holds"),
    ],
)
def test_field_names_reserved_in_either_language_are_refused(
    name: str, reason: str
) -> None:
    errors = _errors(
        HEAD + "domains:\n  misc:\n    title: Misc\n    codes:\n"
        "      oops: {retryable: false, meaning: Oops}\n"
        "      x:\n        retryable: false\n        meaning: X\n"
        f"        details: {{{name}: string}}\n"
    )
    assert errors == [
        f"t.yaml:16:19: error: domains.misc.codes.x.details.{name}: "
        f"field name {name!r} {reason}"
    ]


@pytest.mark.parametrize(
    "event", ["tool/result", "com.example.object.deleted.v2", "a b", "ünï", "x:y"]
)
def test_event_types_are_any_text_on_one_line(event: str) -> None:
    taxonomy = _read(
        HEAD + "domains:\n  misc:\n    title: Misc\n    codes:\n"
        "      oops: {retryable: false, meaning: Oops}\n"
        f"events:\n  {json.dumps(event)}: payload.error\n"
    )
    assert [e.type for e in taxonomy.events] == [event]


def test_domains_may_be_lower_case_in_an_upper_snake_taxonomy() -> None:
    taxonomy = _read("""\
format: 1
name: harness
title: Harness
version: 1.0.0
base: HarnessError
code_case: upper_snake
fallback: UNKNOWN
wrap: UNKNOWN
domains:
  general:
    title: General
    codes:
      UNKNOWN: {retryable: false, meaning: Unknown}
  LLM:
    title: Upper too
    codes:
      LLM_ERROR: {retryable: false, meaning: LLM}
""")  # fmt: skip
    assert [d.key for d in taxonomy.domains] == ["general", "LLM"]


def test_the_hard_and_soft_keyword_tables_hold_this_pythons() -> None:
    import keyword

    from taxogen.targets.python.reserved import (
        PYTHON_HARD_KEYWORDS,
        PYTHON_KEYWORDS,
    )

    assert set(keyword.kwlist) <= PYTHON_HARD_KEYWORDS
    assert set(keyword.softkwlist) <= PYTHON_KEYWORDS - PYTHON_HARD_KEYWORDS


def test_a_details_type_name_is_claimed_like_a_class(tmp_path: Path) -> None:
    from taxogen.naming import name_taxonomy

    start = HEAD + """\
domains:
  misc:
    title: Misc
    codes:
      oops: {retryable: false, meaning: Oops}
"""  # fmt: skip
    typed = """\
      task_timeout:
        retryable: true
        meaning: Timed out
        details: {task_id: string}
"""  # fmt: skip
    other = (
        "      other: {retryable: false, meaning: Other, class: TaskTimeoutDetails}\n"
    )

    def clash(text: str) -> list[str]:
        with pytest.raises(TaxonomyError) as caught:
            name_taxonomy(_read(text), "t.yaml")
        return [d.format() for d in caught.value.diagnostics]

    assert clash(start + typed + other) == [
        "t.yaml:17:7: error: domains.misc.codes.other: class name "
        "'TaskTimeoutDetails' of code 'other' (set by `class:`) is already the class "
        "name of the details type of code 'task_timeout' (line 13); set `class:` on "
        "the code to choose another"
    ]
    # The other way round, the details type is refused, at its code, with the fix.
    assert clash(start + other + typed) == [
        "t.yaml:14:7: error: domains.misc.codes.task_timeout: class name "
        "'TaskTimeoutDetails' of the details type of code 'task_timeout' is already "
        "the class name of code 'other' (set by `class:`) (line 13); set `class:` on "
        "the code to choose another"
    ]
    # Without the clash, the code's details type is its class name's stem + Details.
    names = name_taxonomy(_read(start + typed), "t.yaml")
    assert [c.details_type for c in names.codes] == [None, "TaskTimeoutDetails"]


# Issue 29 §5: one number model.  Every generated package reads a JSON number
# as a double, so an integer is exact everywhere only within JavaScript's safe
# integers, ±(2**53 - 1): the issue's words, written here.
SAFE = 2**53 - 1
NUMBERS = HEAD + """\
domains:
  misc:
    title: Misc
    codes:
      oops: {retryable: false, meaning: Oops}
      sized:
        retryable: false
        meaning: Sized
        details:
"""  # fmt: skip


def test_integer_bounds_and_defaults_at_the_safe_limit_are_taken() -> None:
    taxonomy = _read(NUMBERS + f"""\
          count: {{type: integer, minimum: -{SAFE}, maximum: {SAFE}}}
          ratio: {{type: number, minimum: -{SAFE}, maximum: 1e300}}
          most: {{type: integer, required: false, default: {SAFE}}}
          list: {{type: array, items: integer, required: false, default: [-{SAFE}]}}
""")  # fmt: skip
    fields = taxonomy.codes[1].fields
    assert [(f.shape.minimum, f.shape.maximum) for f in fields[:2]] == [
        (-SAFE, SAFE),
        (-SAFE, 1e300),
    ]
    assert [f.default for f in fields[2:]] == [SAFE, (-SAFE,)]


@pytest.mark.parametrize(
    ("field", "literal"),
    [
        (f"{{type: integer, maximum: {SAFE + 1}}}", str(SAFE + 1)),
        (f"{{type: integer, minimum: -{SAFE + 1}}}", f"-{SAFE + 1}"),
        (f"{{type: number, maximum: {SAFE + 2}}}", str(SAFE + 2)),
        (f"{{type: integer, required: false, default: {SAFE + 2}}}", str(SAFE + 2)),
        (
            f"{{type: array, items: integer, required: false, "
            f"default: [1, {SAFE + 2}]}}",
            str(SAFE + 2),
        ),
        (
            f"{{type: object, required: false, default: {{a: [-{SAFE + 2}]}}}}",
            f"-{SAFE + 2}",
        ),
        (
            f"{{type: array, items: {{type: integer, maximum: {SAFE + 1}}}}}",
            str(SAFE + 1),
        ),
    ],
)
def test_an_integer_past_the_safe_limit_is_refused_where_it_stands(
    field: str, literal: str
) -> None:
    line = f"          n: {field}"
    errors = _errors(NUMBERS + line + "\n")
    assert len(errors) == 1, errors
    where, problem = errors[0].split(": error: ")
    assert where == f"t.yaml:17:{line.index(literal) + 1}", errors
    assert problem.startswith("domains.misc.codes.sized.details.n."), errors
    assert problem.endswith(
        f": {literal} is out of range: an integer is at most 9007199254740991 either "
        "side of 0 (JavaScript's safe integers); past them, a JSON number is "
        "rounded where it is read as a double"
    ), errors


@pytest.mark.parametrize(
    "value", [".inf", "-.inf", "+.Inf", ".nan", ".NaN", ".NAN", "1e400", "-1e999"]
)
@pytest.mark.parametrize("where", ["minimum", "maximum", "default"])
def test_a_number_that_is_not_finite_is_refused(value: str, where: str) -> None:
    extra = ", required: false" if where == "default" else ""
    errors = _errors(
        NUMBERS + f"          n: {{type: number, {where}: {value}{extra}}}\n"
    )
    assert errors == [
        f"t.yaml:17:{31 + len(where)}: error: domains.misc.codes.sized.details.n."
        f"{where}: {value!r} is not a finite number"
    ]


def test_thousands_of_digits_are_refused_without_a_crash(tmp_path: Path) -> None:
    """Python converts no integer of over 4,300 digits: a bound, a wire code and
    an HTTP status of 5,000 are each refused in a message of bounded length, as
    a real process (exit 2, no traceback)."""
    digits = "9" * 5000
    text = (
        NUMBERS.replace("format: 1", "format: 1\nwire_type: integer").replace(
            "oops: {retryable: false, meaning: Oops}",
            f"oops: {{retryable: false, meaning: Oops, wire: {digits}, "
            f"http_status: {digits}}}",
        )
        + f"          n: {{type: integer, maximum: {digits}}}\n"
    )
    text = text.replace("meaning: Sized", "meaning: Sized\n        wire: 2")
    path = tmp_path / "t.yaml"
    path.write_text(text, encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "taxogen", "generate", "--taxonomy", str(path),
         "--out", str(tmp_path / "out")],
        capture_output=True, text=True, check=False, cwd=REPO,
    )  # fmt: skip
    assert done.returncode == 2, done.stderr
    lines = done.stderr.splitlines()
    assert len(lines) == 4 and all(len(line) < 400 for line in lines), lines
    assert "out of range: an integer wire code" in lines[0]
    assert "expected an HTTP status (an integer from 100 to 599), got 999" in lines[1]
    assert "out of range: an integer is at most" in lines[2]
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize(
    ("field", "literal", "shown"),
    [
        ("{type: integer, maximum: 1e20}", "1e20", "1e+20"),
        ("{type: integer, minimum: -9.1e15}", "-9.1e15", "-9100000000000000.0"),
        ("{type: integer, required: false, default: 1e20}", "1e20", "1e+20"),
        (
            "{type: array, items: integer, required: false, default: [1, 1e20]}",
            "[1, 1e20]",
            "[1, 1e+20]",
        ),
    ],
)
def test_an_integer_written_as_a_float_past_the_safe_limit_is_refused(
    field: str, literal: str, shown: str
) -> None:
    """An integer field's bound or default is an integer however it is spelt."""
    line = f"          n: {field}"
    errors = _errors(NUMBERS + line + "\n")
    assert len(errors) == 1, errors
    where, problem = errors[0].split(": error: ")
    assert where == f"t.yaml:17:{line.index(literal) + 1}", errors
    assert f": {shown} is out of range: an integer is at most" in problem, errors
    # A number's bound may be any finite double.
    assert _read(NUMBERS + "          n: {type: number, maximum: 1e20}\n")
