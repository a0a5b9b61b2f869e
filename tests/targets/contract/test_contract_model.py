"""The contract computed in-process: schema and vectors as the taxonomy YAML says.

``tests/targets/contract/test_conformance.py`` holds the committed goldens to the spec;
this file
holds what the contract target computes *now* (``contract.files`` on each case's
taxonomy, in this process) to the same oracle, ``tests/spec_oracle.py``, which
reads the YAML with ``yaml.safe_load`` and the README's rules and imports no
generator code.  So a wrong vector or schema is caught even after the goldens
were regenerated from the wrong code.  The schema is exercised with
``jsonschema`` on payloads built from the YAML, at each edge of each limit.
"""

from __future__ import annotations

import json
import re
import urllib.parse
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import yaml

from taxogen.pipeline import load_names
from taxogen.targets import contract
from taxogen.targets.contract.dump import dump_json
from tests import spec_oracle
from tests.spec_oracle import Spec, read_spec
from tests.support import case_ids, cases, mappings

#: README "What is generated": where the contract's two files sit.
SCHEMA_PATH = "schema/error-payload.schema.json"
VECTORS_PATH = "conformance/vectors.json"

Computed = tuple[Spec, dict[str, Any], dict[str, Any], dict[str, bytes]]


#: Every golden case's taxonomy, and the mappings that have no golden files.
TAXONOMIES = [case.taxonomy for case in cases()] + mappings()


@pytest.fixture(
    params=TAXONOMIES, ids=case_ids() + [f"mappings/{p.stem}" for p in mappings()]
)
def computed(request: pytest.FixtureRequest) -> Computed:
    path: Path = request.param
    spec = read_spec(path)
    files = contract.files(load_names(path))
    assert set(files) == {SCHEMA_PATH, VECTORS_PATH}
    schema = json.loads(files[SCHEMA_PATH].decode("utf-8"))
    document = json.loads(files[VECTORS_PATH].decode("utf-8"))
    return spec, schema, document, files


def _yaml(spec: Spec, key: str) -> Any:
    """A top-level value of the YAML that ``Spec`` does not keep."""
    return yaml.safe_load(_path(spec).read_text(encoding="utf-8"))[key]


def _path(spec: Spec) -> Path:
    assert spec.path is not None, "read_spec keeps the file it read"
    return spec.path


# ------------------------------------------------------------------ the vectors


def test_every_vector_states_what_the_yaml_says(computed: Computed) -> None:
    spec, _, document, _ = computed
    _states_the_yaml(spec, document)


def _states_the_yaml(spec: Spec, document: dict[str, Any]) -> None:
    for vector in document["vectors"]:
        want = spec_oracle.expected(
            spec, vector["kind"], spec_oracle.vector_input(vector)
        )
        want.pop("ancestors", None)
        if vector["kind"] == "to_error":
            want.pop("ok")
        if "class" in want and "code" not in want:
            want["code"] = _reported(spec, vector)
        # Exactly the outcome the spec states: no key missing, none made up.
        assert set(vector["expect"]) == set(want), vector["id"]
        assert spec_oracle.agrees(vector["expect"], want), (vector["id"], want)
        assert vector["id"] == f"{vector['kind']}/" + vector["id"].split("/", 1)[1]
        assert set(vector) <= {"id", "kind", "description", "input", "expect"} | {
            "schema_valid",
            "input_json",
        }
        assert ("input" in vector) is not ("input_json" in vector), vector["id"]
        assert vector["description"], vector["id"]


def _reported(spec: Spec, vector: dict[str, Any]) -> str | int:
    """The code an error of the class a vector names reports (issue 31 §3,
    docs "Schema, vectors and docs"): a constructed code's own; a looked-up
    code's own if live, else the code it is treated as (docs "Hierarchies").
    """
    if vector["kind"] == "construct":
        entry = spec.known(vector["input"]["code"])
        assert entry is not None, vector["id"]
        return entry.wire
    assert vector["kind"] == "lookup", vector["id"]
    return spec.target(vector["input"]).wire


#: Codes spelt like the stem the unknown code vectors start from, one of them
#: removed: the unknown code must still be one the taxonomy neither defines nor
#: removed, and well-formed in the taxonomy's case.
_LIKE_THE_UNKNOWN = """\
format: 1
name: tiny
title: Tiny
version: 2.0.0
base: TinyError
fallback: {oops}
wrap: {oops}
code_case: {case}
domains:
  {misc}:
    title: Misc
    codes:
      {oops}: {{retryable: false, meaning: m}}
      {stem}: {{retryable: true, meaning: m}}
      {stem}{x}: {{retryable: false, meaning: m}}
      {stem}{x}{x}:
        removed: {{since: 1.0.0, reason: r}}
        meaning: m
"""


@pytest.mark.parametrize(
    ("case", "oops", "stem", "x"),
    [
        ("lower_snake", "oops", "zz_unknown_code", "_x"),
        ("upper_snake", "OOPS", "ZZ_UNKNOWN_CODE", "_X"),
    ],
)
def test_the_unknown_code_is_none_the_taxonomy_defines_or_removed(
    tmp_path: Path, case: str, oops: str, stem: str, x: str
) -> None:
    path = tmp_path / "taxonomy.yaml"
    misc = "misc" if case == "lower_snake" else "MISC"
    text = _LIKE_THE_UNKNOWN.format(case=case, misc=misc, oops=oops, stem=stem, x=x)
    path.write_text(text, encoding="utf-8")
    spec = read_spec(path)
    assert set(spec.codes) == {oops, stem, stem + x} and spec.removed == (stem + x + x,)
    files = contract.files(load_names(path))
    document = json.loads(files[VECTORS_PATH].decode("utf-8"))
    _states_the_yaml(spec, document)
    by_id = {v["id"]: spec_oracle.vector_input(v) for v in document["vectors"]}
    # README: a well-formed code the taxonomy does not define falls back; the
    # vectors about it must use such a code, and not a removed one, which has
    # vectors of its own.
    unknowns = [
        by_id["from_payload/unknown_code"]["code"],
        by_id["lookup/unknown"],
        by_id["from_payload/code_length_256"]["code"],
    ]
    for unknown in unknowns:
        assert spec.pattern.fullmatch(unknown), unknown
        assert unknown not in spec.codes and unknown not in spec.removed
    assert len(unknowns[-1]) == 256


def test_vector_ids_are_unique_and_name_every_code_event_and_kind(
    computed: Computed,
) -> None:
    spec, _, document, _ = computed
    vectors = document["vectors"]
    ids = [v["id"] for v in vectors]
    assert len(ids) == len(set(ids))
    by_id = {v["id"]: v for v in vectors}
    # Issue 14 §2: a mapped payload's inputs, seen in today's terms.
    retryable_on_wire = spec.payload["retryable"] is not None
    for code, entry in spec.codes.items():
        known = by_id[f"from_payload/code/{code}"]
        given = spec_oracle.view(spec, known["input"])
        assert given["code"] == entry.wire
        if retryable_on_wire:
            assert given["retryable"] is entry.retryable
        assert known["expect"]["ok"] is True
        assert by_id[f"lookup/code/{code}"]["input"] == entry.wire
    # docs "Wire codes": a removed key without an integer wire code has no
    # integer to send, so no vector.
    removed = [
        (code, wire)
        for code, wire in zip(spec.removed, spec.removed_wires)
        if not (spec.integer and isinstance(wire, str))
    ]
    for code, wire in removed:
        given = spec_oracle.view(spec, by_id[f"from_payload/removed/{code}"]["input"])
        assert given["code"] == wire
        assert by_id[f"lookup/removed/{code}"]["input"] == wire
    for event, location in spec.events.items():
        for outcome in ("error", "null", "absent", "invalid"):
            given = by_id[f"error_from_event/{event}/{outcome}"]["input"]
            assert given["type"] == event
            *parents, leaf = location.split(".")
            for part in parents:
                given = given[part]
            if outcome == "absent":
                assert leaf not in given
            elif outcome == "null":
                assert given[leaf] is None
            else:
                assert isinstance(given[leaf], dict)
    # One vector a live code in each kind that takes a code, and the rules.
    kinds = [v["kind"] for v in vectors]
    # docs "Hierarchies": an unknown code for each prefix or range of a match.
    matched = [v for v in vectors if v["id"].startswith("lookup/matched/")]
    claims = sum(map(len, spec.prefixes.values())) + sum(map(len, spec.ranges.values()))
    assert len(matched) == claims
    for vector in matched:
        domain = vector["id"].split("/", 3)[2]
        assert spec.known(vector["input"]) is None
        assert spec.matched(vector["input"]) == domain, vector["id"]
        assert f"from_payload/{vector['id'].removeprefix('lookup/')}" in by_id
    # docs "Aliases": each alias a payload may carry (string codes) is looked up
    # and decoded as its code, keeping its spelling.
    aliases = [
        (alias, c)
        for c in ([] if spec.integer else spec.codes.values())
        for alias in c.aliases
    ]
    for alias, c in aliases:
        assert by_id[f"lookup/alias/{alias}"]["expect"]["code"] == c.wire
        decoded = by_id[f"from_payload/alias/{alias}"]
        assert decoded["expect"]["wire_code"] == alias
        assert decoded["expect"]["code"] == c.wire
    lookups = len(spec.codes) + len(removed) + 1 + claims + len(aliases)
    assert kinds.count("lookup") == lookups
    assert kinds.count("error_from_event") == 4 * len(spec.events) + 3
    assert kinds.count("to_error") == len(set(map(repr, spec_oracle.NOT_ERRORS))) - 1
    # Every kind the document describes occurs, construct only where a code has fields.
    typed = any(c.fields for c in spec.codes.values())
    assert set(kinds) == set(document["kinds"]) - (set() if typed else {"construct"})
    # Each field of a payload is blamed by some vector (README: InvalidPayloadError).
    blamed = {v["expect"].get("field") for v in vectors if v["kind"] == "from_payload"}
    # ...and each declared details field (docs "Typed details").
    declared = {f"details.{name}" for c in spec.codes.values() for name, _ in c.fields}
    # ...and each member of a nested object in it (issue 30 §7).
    declared |= {
        path
        for c in spec.codes.values()
        for name, field in c.fields
        for path in spec_oracle.member_paths(f"details.{name}", field)
    }
    assert blamed == {None, *spec_oracle.blamed_fields(spec), *declared}


def test_the_rule_vectors_test_their_rule(computed: Computed) -> None:
    """Each rule of the wire format is exercised by an input that shows it (a
    mapped payload's inputs seen in today's terms).  Under the problem preset a
    code travels in a URI, so the vectors of a code that is no string or that
    a URI cannot hold may be left out; each one there still shows its rule."""
    spec, _, document, _ = computed
    p = spec.payload
    problem = p["preset"] == "problem"
    viewed = {
        v["id"]: spec_oracle.view(spec, spec_oracle.vector_input(v))
        for v in document["vectors"]
        if v["kind"] != "to_error"
    }

    def given(vid: str, *, may_lack: bool = False) -> Any:
        """The input of ``from_payload/<vid>``, seen in today's terms."""
        if may_lack and f"from_payload/{vid}" not in viewed:
            return None
        return viewed[f"from_payload/{vid}"]

    first = spec.plain
    if p["retryable"] is not None:
        assert given("retryable_from_wire")["retryable"] is not first.retryable
    if p["details"] is not None:
        assert "details" not in given("details_absent")
        for vid, depth in (("details_depth_64", 64), ("details_depth_65", 65)):
            size = spec_oracle.details_size(given(vid)["details"])
            assert size[0] == depth, vid
    if p["details"] not in (None, "*"):
        assert given("details_null")["details"] is None
        (fields,) = [
            v["input"]
            for v in document["vectors"]
            if v["id"] == "from_payload/extra_fields"
        ]
        # Seen as sent: today's terms would hide the members the mapping ignores.
        body = fields[p["envelope"]] if p["envelope"] else fields
        assert set(body) - {p[f] for f in ("code", "message", "retryable", "details")}
    assert given("empty_message")["message"] == ""
    unknown = given("unknown_code")["code"]
    assert spec.well_formed(unknown) and spec.known(unknown) is None
    assert unknown not in spec.removed_wires
    assert spec.known(viewed["lookup/unknown"]) is None
    assert spec.well_formed(viewed["lookup/unknown"])
    if spec.integer:  # docs "Wire codes": integers within the safe range
        for vid, code in (
            ("code_limit_plus", spec_oracle.MAX_WIRE_INTEGER),
            ("code_limit_minus", -spec_oracle.MAX_WIRE_INTEGER),
            ("code_above_limit", spec_oracle.MAX_WIRE_INTEGER + 1),
            ("code_below_limit", -spec_oracle.MAX_WIRE_INTEGER - 1),
        ):
            taken = code in spec.by_wire  # a live code: no vector calls it unknown
            shown = given(vid, may_lack=problem or taken)
            if shown is not None:
                assert shown["code"] == code, vid
        # A code in another JSON type than an integer, a plain code's value: the
        # first that declares no details, else the fallback, else (fallback:
        # null, §3, and every code carrying shared details, §7) the wrap code.
        plain_int = next(
            (c for c in spec.codes.values() if not c.fields),
            spec.codes[spec.fallback or spec.wrap],
        )
        for vid, kind in (
            ("code_integral_float", float),
            ("code_string", str),
            ("code_fraction", float),
            ("code_object", dict),
        ):
            shown = given(vid, may_lack=problem)
            if shown is None:
                continue
            code = shown["code"]
            assert type(code) is kind, vid
            if vid == "code_integral_float":
                assert code == plain_int.wire
            elif vid == "code_string":
                assert code == str(plain_int.wire)
            elif vid == "code_fraction":
                assert not code.is_integer()
    else:
        longest = given("code_length_256")["code"]
        assert len(longest) == 256 and spec.well_formed(longest)
        assert spec.known(longest) is None
        too_long = given("code_length_257", may_lack=problem)
        if too_long is not None:
            assert len(too_long["code"]) == 257
            assert spec.pattern.fullmatch(too_long["code"])
        # (none where that spelling is itself a known code)
        # The rule vectors spoil a plain code: the first that declares no
        # details, else the fallback (every code may carry shared ones, §7).
        plain = next(
            (c for c in spec.codes.values() if not c.fields),
            spec.codes[spec.fallback] if spec.fallback else first,
        )
        swapped = plain.code.swapcase()
        other = given("code_other_case", may_lack=problem or bool(spec.known(swapped)))
        if other is not None and plain.wire == plain.code:
            assert other["code"] == swapped
        # A known code spoilt by one character the rule refuses.
        for vid, spoilt in (
            ("code_trailing_newline", lambda c: c[:-1] if c.endswith("\n") else ""),
            ("code_leading_space", lambda c: c[1:] if c.startswith(" ") else ""),
            ("code_tab", lambda c: c.split("\t")[0]),
            ("code_inner_space", lambda c: c.split(" ")[0]),
            ("code_leading_digit", lambda c: c[1:] if c[:1].isdigit() else ""),
            ("code_non_ascii", lambda c: "" if c[-1:].isascii() else c[:-1]),
            ("code_control", lambda c: c[:-1] if c[-1:] == "\x7f" else ""),
        ):
            shown = given(vid, may_lack=problem or vid == "code_leading_digit")
            if shown is not None:
                kept = spoilt(shown["code"])  # a wire code, or a key (a digit first)
                assert spec.known(kept) is not None or kept in spec.codes, vid
    wrapped = [v["input"] for v in document["vectors"] if v["kind"] == "to_error"]
    # The object wrapped holds a code any details suit: the first without
    # declared fields, else the fallback (which has no required ones), else
    # (issue 30 §3, no fallback) the wrap code (nor has it).
    plain = next(
        (c for c in spec.codes.values() if not c.fields),
        spec.codes[spec.fallback or spec.wrap],
    )
    assert {json.dumps(w) for w in wrapped} == {
        json.dumps(w) for w in spec_oracle.NOT_ERRORS if not isinstance(w, float)
    } - {json.dumps({"code": "x"})} | {json.dumps({"code": plain.wire})}


def test_the_document_header_says_what_the_yaml_says(computed: Computed) -> None:
    spec, _, document, _ = computed
    taxonomy = document["taxonomy"]
    assert taxonomy == {
        "name": spec.name,
        "version": str(_yaml(spec, "version")),
        "base": spec.base,
        "fallback": None if spec.fallback is None else spec.wire_of(spec.fallback),
        "wrap": spec.wire_of(spec.wrap),
        "wire_type": spec.wire_type,
        "code_pattern": taxonomy["code_pattern"],
        # Issue 14 §2: a payload other than today's is spelt out.
        **(
            {
                "payload": {
                    # Issue 30 §2: the status member is said where there is one.
                    **{
                        k: v
                        for k, v in spec.payload.items()
                        if k != "status" or v is not None
                    },
                    **(
                        {"type_template": spec.docs_url}
                        if spec.payload["preset"] == "problem"
                        else {}
                    ),
                }
            }
            if spec.mapped_payload
            else {}
        ),
    }
    if spec.integer:  # docs "Wire codes": integer codes have no pattern
        assert taxonomy["code_pattern"] is None
    else:
        assert not spec_oracle.matches_like_the_spec(taxonomy["code_pattern"], spec)
    limits = document["limits"]
    assert (
        limits["max_code_length"],
        limits["max_details_depth"],
        limits["max_details_nodes"],
    ) == (
        spec_oracle.MAX_CODE_LENGTH,
        spec_oracle.MAX_DETAILS_DEPTH,
        spec_oracle.MAX_DETAILS_NODES,
    )
    # docs "What a code maps to": a taxonomy that declares none of it
    # generates what it did before, so the vectors say nothing of it.
    declares = _yaml_declares_a_mapping(_path(spec))
    assert ("mapped" in document) is declares
    source = _path(spec).name
    assert document["//"] == (
        f"Generated by taxogen from {source}. DO NOT EDIT: edit {source} and "
        "regenerate."
    )


def _yaml_declares_a_mapping(path: Path) -> bool:
    """Whether the YAML sets http_status, grpc_status, throttling or docs_url
    anywhere (the top level, a domain, a code)."""
    raw = yaml.safe_load(path.read_text(encoding="utf-8"))
    keys = {"http_status", "grpc_status", "throttling", "docs_url"}
    places = [raw, *raw["domains"].values()]
    places += [
        c for d in raw["domains"].values() for c in (d.get("codes") or {}).values()
    ]
    return any(keys & set(place) for place in places if isinstance(place, dict))


def test_vectors_sit_one_a_line_and_the_schema_is_indented(
    computed: Computed,
) -> None:
    _, schema, document, files = computed
    lines = files[VECTORS_PATH].decode("utf-8").split("\n")
    start = lines.index('  "vectors": [') + 1
    written = [line.strip().rstrip(",") for line in lines[start:-3]]
    assert lines[-3:] == ["  ]", "}", ""]
    assert [json.loads(line) for line in written] == document["vectors"]
    assert written == [
        json.dumps(v, ensure_ascii=False) for v in document["vectors"]
    ] or any(not line.isascii() or not line.isprintable() for line in written)
    text = files[SCHEMA_PATH].decode("utf-8")
    if text.isascii():
        assert text == json.dumps(schema, indent=2) + "\n"


# ------------------------------------------------------------------- the schema


def _validator(schema: dict[str, Any]) -> jsonschema.Draft202012Validator:
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


def test_the_schema_judges_every_vector_and_probe_as_the_spec(
    computed: Computed,
) -> None:
    spec, schema, document, _ = computed
    validator = _validator(schema)
    payloads = [v for v in document["vectors"] if v["kind"] == "from_payload"]
    probes = [g for op, g in spec_oracle.probes(spec) if op == "from_payload"]
    payloads_ = [(spec_oracle.vector_input(v), "schema_valid" in v) for v in payloads]
    for given, marked in payloads_ + [(g, False) for g in probes]:
        problem = spec_oracle.payload_problem(spec, given)
        # Issue 14 §2: the details in the member the mapping names.
        field, details = spec_oracle.details_member(spec, given)
        depth, nodes = spec_oracle.details_size(details)
        unsayable = (
            problem is not None
            and problem == field
            and (
                depth > spec_oracle.MAX_DETAILS_DEPTH
                or nodes > spec_oracle.MAX_DETAILS_NODES
                or not spec_oracle.all_finite(details)
            )
        )
        assert marked is unsayable, str(given)[:300]
        assert validator.is_valid(given) is (problem is None or unsayable), str(given)[
            :300
        ]


def test_the_schema_at_each_edge(computed: Computed) -> None:
    spec, schema, _, _ = computed
    if spec.mapped_payload:  # see test_the_mapped_schema_at_each_edge
        return
    validator = _validator(schema)
    entry = spec.first
    code = entry.wire
    good = {"code": code, "message": "m", "retryable": False}
    cases_: list[tuple[Any, bool]]
    if spec.integer:  # docs "Wire codes": integers within the safe range
        limit = spec_oracle.MAX_WIRE_INTEGER
        cases_ = [
            (good, True),
            ({**good, "code": spec.other_wire("zz")}, True),  # unknown codes stay
            ({**good, "code": float(code)}, True),  # 5.0 is the integer 5
            ({**good, "code": limit}, True),
            ({**good, "code": -limit}, True),
            ({**good, "code": limit + 1}, False),
            ({**good, "code": -limit - 1}, False),
            ({**good, "code": str(code)}, False),
            ({**good, "code": True}, False),
            ({**good, "code": 0.5}, False),
        ]
    else:
        assert isinstance(code, str)
        stem = spec.other_code("zz")
        letter = stem[-1]
        cases_ = [
            (good, True),
            ({**good, "code": stem}, True),  # unknown codes stay valid
            ({**good, "code": (stem + letter * 256)[:256]}, True),
            ({**good, "code": (stem + letter * 256)[:257]}, False),
            ({**good, "code": code + "\n"}, False),
            ({**good, "code": code + " x"}, False),
            ({**good, "code": ""}, False),
            ({**good, "code": 1}, False),
        ]
        # README: the code case holds while every wire code is the key.
        swapped = code.swapcase()
        if spec.known(swapped) is None:
            cases_.append(({**good, "code": swapped}, spec.well_formed(swapped)))
    cases_ += [
        ({**good, "message": ""}, True),
        ({**good, "message": None}, False),
        ({**good, "retryable": True}, True),
        ({**good, "retryable": 0}, False),
        ({**good, "retryable": "false"}, False),
        ({**good, "details": None}, True),
        ({**good, "details": {}}, True),
        ({**good, "details": []}, False),
        ({**good, "details": "x"}, False),
        ({**good, "extra": [1]}, True),
        ([good], False),
        (None, False),
    ]
    for field in ("code", "message", "retryable"):
        cases_.append(({k: v for k, v in good.items() if k != field}, False))
    for given, valid in cases_:
        assert validator.is_valid(given) is valid, given


def test_the_schema_names_the_taxonomy_and_its_codes(computed: Computed) -> None:
    spec, schema, _, _ = computed
    version = str(_yaml(spec, "version"))
    title = _yaml(spec, "title")
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert schema["$id"] == f"urn:taxogen:{spec.name}:error-payload:{version}"
    assert schema["title"] == f"{title}: error payload"
    if spec.mapped_payload:  # issue 14 §2: it names the preset
        preset = spec.payload["preset"]
        assert schema["description"].startswith(
            f"An error of the {spec.name} taxonomy, version {version}, on the wire "
            f"(payload preset {preset})."
        )
        return
    assert schema["description"] == (
        f"An error of the {spec.name} taxonomy, version {version}, on the wire."
    )
    assert schema["type"] == "object"
    assert schema["required"] == ["code", "message", "retryable"]
    assert schema["additionalProperties"] is True
    code = schema["properties"]["code"]
    listed = [b for b in code["anyOf"] if "const" in b]
    # docs "Aliases": then each alias a payload may carry (string codes).
    aliases = [
        (alias, c.class_name, f"Another name of {c.wire}: {c.meaning}")
        for c in ([] if spec.integer else spec.codes.values())
        for alias in c.aliases
    ]
    assert [(b["const"], b["title"], b["description"]) for b in listed] == [
        (c.wire, c.class_name, c.meaning) for c in spec.codes.values()
    ] + aliases
    # The last alternative admits every other well-formed code, as the fallback.
    (other,) = [b for b in code["anyOf"] if "const" not in b]
    # Issue 30 §3: with no fallback, an unknown code is itself, a base error.
    treated = spec.fallback or f"itself (an error of {spec.base}"
    assert treated in other["description"]
    assert treated in code["description"]
    if spec.integer:  # docs "Wire codes": integers within the safe range
        assert code["type"] == "integer" and "pattern" not in code
        limit = spec_oracle.MAX_WIRE_INTEGER
        assert (code["minimum"], code["maximum"]) == (-limit, limit)
    else:
        assert code["maxLength"] == spec_oracle.MAX_CODE_LENGTH
        assert not spec_oracle.matches_like_the_spec(code["pattern"], spec)
    details = schema["properties"]["details"]["description"]
    assert str(spec_oracle.MAX_DETAILS_DEPTH) in details
    assert str(spec_oracle.MAX_DETAILS_NODES) in details
    assert "null counts as absent" in details
    for field in ("message", "retryable"):
        assert schema["properties"][field]["description"]


# ---------------------------------------------------------------- the spelling


def test_dump_json_is_json_with_every_invisible_character_escaped() -> None:
    document = {
        "plain": "a b",
        "del": "x\x7fy",
        "bidi": "\u202eevil",
        "zero_width": "a\u200bb",
        "astral_tag": "\U000e0041",
        "visible": "é😀",
        "list": [1, [2, {}], []],
    }
    text = dump_json(document, inline_below=1).decode("utf-8")
    assert json.loads(text) == document
    assert text.endswith("}\n") and text.count("\n") == len(document) + 2
    body = text.replace("\n", "")
    assert body.isprintable()
    assert "\\u007f" in text and "\\u202e" in text and "\\u200b" in text
    assert "\\udb40\\udc41" in text  # U+E0041 as its UTF-16 surrogate pair
    assert "é😀" in text
    # Indented a level a line down to the depth asked, compact beneath.
    assert dump_json({"a": [1, 2]}, inline_below=1) == b'{\n  "a": [1, 2]\n}\n'
    assert (
        dump_json({"a": [1, 2]}, inline_below=2)
        == b'{\n  "a": [\n    1,\n    2\n  ]\n}\n'
    )
    assert (
        dump_json({"a": {"b": [1]}})
        == (json.dumps({"a": {"b": [1]}}, indent=2) + "\n").encode()
    )
    # A list inside a list is laid out too while above the depth asked.
    assert dump_json([[1, 2]], inline_below=2) == b"[\n  [\n    1,\n    2\n  ]\n]\n"
    assert dump_json([]) == b"[]\n" and dump_json({}) == b"{}\n"
    assert dump_json("\x7f") == b'"\\u007f"\n'


def test_each_description_names_what_its_vector_is_about(computed: Computed) -> None:
    """A reader of the vectors file sees the code, field or limit a vector tests."""
    spec, _, document, _ = computed
    for vector in document["vectors"]:
        kind, vid = vector["kind"], vector["id"].split("/", 1)[1]
        description, expect = vector["description"], vector["expect"]
        if kind == "from_payload" and expect["ok"] is False:
            assert description.startswith("rejected: "), vector["id"]
            if vid.startswith("details/"):  # a typed-details vector names its code
                assert vid.split("/")[1] in description, vid
            elif vid.startswith("envelope_"):  # what is wrong is where it sits
                assert expect["field"] in description, vid
            elif vid.startswith("status_"):  # issue 30 §2: the status member
                assert expect["field"] in description, vid
                assert "HTTP status" in description, vid
            elif vid.startswith(("details_nodes_", "details_number_", "code_number_")):
                # Issue 29: the limit, or a number past what a double holds.
                assert "100001" in description or "double" in description, vid
            elif not vid.startswith(("code_length", "details_depth")):
                assert description == f"rejected: bad {expect['field']}", vid
        if vid.startswith("code/"):
            assert vid.split("/")[-1] in description
        if vid.startswith("removed/"):
            assert (
                "removed" in description
                and "fallback" in description
                or (vid.split("/")[-1] in description)
            )
        if kind == "from_payload" and vid.startswith("alias/"):  # docs "Aliases"
            assert "alias" in description and str(expect["code"]) in description
        elif kind == "from_payload" and expect.get("wire_code") not in (
            None,
            expect.get("code"),
        ):
            assert (spec.fallback or "itself") in description or (
                "falls back" in description
            )
        if kind == "to_error":
            assert description == f"a {vid} is wrapped as {spec.wrap}, the value kept"
        for limit in ("256", "257", "64", "65"):
            if vid.endswith(f"_{limit}"):
                number = limit if limit in ("256", "64") else str(int(limit) - 1)
                assert number in description, vid
        if kind == "error_from_event" and vid.endswith("/error"):
            event = vid.rsplit("/", 1)[0]
            assert description == f"{event} carries its error at {spec.events[event]}"


def test_every_typed_code_has_each_family_of_details_vectors(
    computed: Computed,
) -> None:
    """docs "Typed details": for each code declaring fields, the vectors try the
    required fields alone, every field, an extra key, an integer written 3.0, the
    details absent or null, each required field missing, each field of a wrong
    type, each bound and enum broken, and the constructor; here on the document
    computed now, so a family dropped or emptied by the code is caught (the
    goldens check of tests/targets/contract/test_conformance.py cannot, once they are
    regenerated).
    """
    spec, _, document, _ = computed
    by_id = {v["id"]: v for v in document["vectors"]}
    for code, entry in spec.codes.items():
        if not entry.fields:
            continue
        prefix = f"from_payload/details/{code}/"
        fields = dict(entry.fields)
        # Issue 30 §7: a constant field is never required ("absent or equal").
        required = [
            n for n, f in entry.fields if f.get("required", True) and "const" not in f
        ]

        rest = spec.payload["details"] == "*"

        def details(vid: str) -> Any:
            given = spec_oracle.view(spec, by_id[prefix + vid]["input"])
            assert (given["code"], given["message"]) == (entry.wire, "m"), vid
            if spec.payload["retryable"] is not None:
                assert given["retryable"] is entry.retryable, vid
            # (Under details "*" no other member is empty details.)
            return given.get("details", {} if rest else "absent")

        assert set(details("required_only")) == set(required), code
        assert set(details("every_field")) == set(fields), code
        extra = details("extra_key")
        assert set(extra) - set(fields) and set(required) <= set(extra), code
        integers = [n for n, f in entry.fields if f["type"] == "integer"]
        if integers:
            given = details("integer_as_float")
            assert isinstance(given[integers[0]], float), code
            assert given[integers[0]] == int(given[integers[0]]), code
            assert integers[0] in by_id[prefix + "integer_as_float"]["description"]
        else:
            assert prefix + "integer_as_float" not in by_id, code
        if required and spec.payload["details"] == "*":
            # Issue 14 §2: no members but the code and message are no details.
            assert details("absent") == {} == details("null"), code
        elif required:
            assert details("absent") == "absent" and details("null") is None, code
        for name, field in entry.fields:
            if name in required:
                assert set(details(f"{name}/missing")) == set(fields) - {name}
            if "const" in field:
                # Issue 30 §7: a value of the field's shape, not its constant.
                other = details(f"{name}/not_the_constant")[name]
                assert spec_oracle.fits(field, other), (code, name)
                assert not spec_oracle.same_constant(other, field["const"])
            wrong = details(f"{name}/type")
            assert set(wrong) == set(fields), (code, name)
            assert not spec_oracle.fits(field, wrong[name]), (code, name)
            others = {"integer": ["fraction", "boolean"], "number": ["boolean"]}
            for why in others.get(field["type"], []):
                broken = details(f"{name}/{why}")[name]
                assert not spec_oracle.fits(field, broken), (code, name, why)
            if field["type"] == "array":
                broken = details(f"{name}/item_type")[name]
                assert not spec_oracle.fits(field, broken), (code, name)
                # One item broken beside a good one, so that a runtime checking
                # only the first item fails the vector.
                assert spec_oracle.fits(field, broken[:1]), (code, name)
            for bound, side in (("minimum", "below"), ("maximum", "above")):
                if bound in field:
                    broken = details(f"{name}/{side}_{bound}")[name]
                    assert not spec_oracle.fits(field, broken), (code, name)
            if "enum" in field:
                broken = details(f"{name}/not_in_enum")[name]
                assert isinstance(broken, str) and broken not in field["enum"]
        constructs = {
            vid.removeprefix(f"construct/{code}/"): v["input"]["details"]
            for vid, v in by_id.items()
            if vid.startswith(f"construct/{code}/")
        }
        assert set(constructs["required_only"]) == set(required), code
        assert set(constructs["every_field"]) == set(fields), code
        # README "Message templates": a whole number is shown without ".0".
        number = next(
            (n for n, f in entry.fields if f["type"] == "number" and n in required),
            None,
        )
        if number is not None and entry.message is not None:
            given = constructs.get("whole_number")
            if spec_oracle.fits(fields[number], 3.0):
                assert given is not None and given[number] == 3.0, code
                assert isinstance(given[number], float), code


def test_a_whole_number_construct_for_the_first_required_number(
    tmp_path: Path,
) -> None:
    """README "Message templates": a number field given 3.0 is shown as 3; the
    construct vectors try it on a code's first required number field, here one
    after a required text and bounded so that 3 fits and 4 does not.
    """
    path = tmp_path / "taxonomy.yaml"
    path.write_text(
        """\
format: 1
name: tiny
title: Tiny
version: 1.0.0
base: TinyError
fallback: oops
wrap: oops
domains:
  misc:
    title: Misc
    codes:
      oops: {retryable: false, meaning: m}
      slow:
        retryable: true
        meaning: Slow
        message: "{task} waits {seconds}s"
        details:
          task: string
          seconds: {type: number, maximum: 3.5}
""",
        encoding="utf-8",
    )
    spec = read_spec(path)
    files = contract.files(load_names(path))
    document = json.loads(files[VECTORS_PATH].decode("utf-8"))
    _states_the_yaml(spec, document)
    by_id = {v["id"]: v for v in document["vectors"]}
    given = by_id["construct/slow/whole_number"]["input"]["details"]
    assert set(given) == {"task", "seconds"} and given["seconds"] == 3.0
    assert isinstance(given["seconds"], float)
    want = spec_oracle.constructed(spec, "slow", given)
    assert want["message"] == f"{given['task']} waits 3s"
    assert by_id["construct/slow/whole_number"]["expect"] == {**want, "code": "slow"}
    # ...and the other construct vectors a fraction, where the bounds allow one
    # (README "Message templates": a placeholder shows a number as JSON does).
    plain = by_id["construct/slow/required_only"]
    fraction = plain["input"]["details"]["seconds"]
    assert isinstance(fraction, float) and not fraction.is_integer()
    task = plain["input"]["details"]["task"]
    assert plain["expect"]["message"] == f"{task} waits {fraction}s"


# ------------------------------------------- issue 14 §2: a mapped payload


def test_a_mapped_payload_s_rule_vectors(computed: Computed) -> None:
    """Each rule a payload mapping brings has its vector, in the mapping's members:
    the issue's words, read against the vectors' inputs (not the generator's)."""
    spec, _, document, _ = computed
    if not spec.mapped_payload:
        return
    p = spec.payload
    by_id = {
        v["id"].split("/", 1)[1]: v
        for v in document["vectors"]
        if v["kind"] == "from_payload"
    }
    at = f"{p['envelope']}." if p["envelope"] else ""

    def body(value: Any) -> Any:
        """The error object of an input or a re-emitted payload."""
        return value.get(p["envelope"]) if p["envelope"] else value

    own = {"code", "message", "retryable", "details"} - {
        field for field in ("retryable", "details") if p[field] in (None, "*")
    }
    members = {p[field] for field in own}
    if p.get("status"):  # issue 30 §2: the member holding the HTTP status
        members.add(p["status"])
    for vid, vector in by_id.items():
        seen = spec_oracle.vector_input(vector)
        if not isinstance(seen, dict) or vid.startswith("envelope_"):
            continue
        given = body(seen)
        assert isinstance(given, dict), vid
        # Today's names appear only where the mapping keeps them.
        for field in {"code", "message", "retryable", "details"} - members:
            assert field not in given or p["details"] == "*", (vid, field)
    # README: "The limits on details (depth, values) apply to the details however
    # they travel"; details absent or null are read as none.
    kept = ["details_depth_64", "details_depth_65", "details_absent"]
    if p["details"] is None:
        # (details_absent stays: a payload without details is one of them)
        assert {vid for vid in by_id if vid.startswith("details")} <= {"details_absent"}
    elif p["details"] == "*":
        assert set(kept) <= set(by_id)
    else:
        assert {*kept, "details_null", "details_nested"} <= set(by_id)
        for vid in ("details_absent", "details_null"):
            assert by_id[vid]["expect"]["ok"] is True, vid
    if p["retryable"] is None:
        assert not any(vid.startswith("retryable_") for vid in by_id)
    else:
        assert "retryable_from_wire" in by_id
    if p["envelope"]:
        # README: "the error object sits under this member".
        missing, not_object = by_id["envelope_missing"], by_id["envelope_not_an_object"]
        for vector in (missing, not_object):
            assert vector["expect"] == {"ok": False, "field": p["envelope"]}
            assert p["envelope"] in vector["description"]
        # Each is a good payload, but for where it sits.
        assert p["envelope"] not in missing["input"]
        (inner,) = not_object["input"][p["envelope"]]
        for good in (missing["input"], inner):
            read = spec_oracle.read_mapped(spec, {p["envelope"]: good})
            assert isinstance(read, dict), read
    if p["details_type"] == "any" and p["details"] is not None:
        # "data may be any JSON value (a string or an array decodes too)"
        for vid, kind in (
            ("details_string", str),
            ("details_array", list),
            ("details_number", int),
            ("details_boolean", bool),
        ):
            member = body(by_id[vid]["input"])[p["details"]]
            assert type(member) is kind, vid
            assert by_id[vid]["expect"]["ok"] is True, vid
            assert body(by_id[vid]["expect"]["payload"])[p["details"]] == member
        # "no data is written when there are no details"
        absent = body(by_id["details_absent"]["expect"]["payload"])
        assert p["details"] not in absent
    if p["details_type"] == "array" and p["details"] is not None:
        assert type(body(by_id["details_object"]["input"])[p["details"]]) is dict
        assert by_id["details_object"]["expect"] == {
            "ok": False,
            "field": at + p["details"],
        }
        member = body(by_id["details_array"]["input"])[p["details"]]
        assert type(member) is list and member, member
        assert by_id["details_array"]["expect"]["ok"] is True
    if p["details_type"] == "object" and p["details"] not in (None, "*"):
        assert isinstance(body(by_id["details_array"]["input"])[p["details"]], list)
        assert by_id["details_array"]["expect"] == {
            "ok": False,
            "field": at + p["details"],
        }
    if p["preset"] == "problem":
        _problem_rule_vectors(spec, by_id, body)


def _problem_rule_vectors(spec: Spec, by_id: dict[str, Any], body: Any) -> None:
    """README "RFC 9457 problem details", a vector for each of its sentences."""
    p = spec.payload
    kind, detail = p["code"], p["message"]
    fallback = spec.codes[spec.fallback]
    first = spec.first
    uri = spec_oracle.type_uri(spec, first.wire)
    assert spec.docs_url is not None  # README: "The preset needs docs_url"
    docs_prefix = spec.docs_url.split("{code}")[0]

    def given(vid: str) -> dict[str, Any]:
        value = body(by_id[vid]["input"])
        assert isinstance(value, dict), vid
        return value

    def written(vid: str) -> dict[str, Any]:
        expect = by_id[vid]["expect"]
        assert expect["ok"] is True, vid
        value = body(expect["payload"])
        assert isinstance(value, dict), vid
        return value

    # "No type (null too) means about:blank: the fallback, written back with its
    # own URI."
    assert kind not in given("type_absent")
    assert by_id["type_absent"]["expect"]["code"] == fallback.wire
    assert written("type_absent")[kind] == spec_oracle.type_uri(spec, fallback.wire)
    # "any other URI (about:blank, another site's, another spelling) falls back
    # and is kept"
    others = {
        "type_about_blank": lambda t: t == "about:blank",
        "type_other_uri": lambda t: (
            re.fullmatch(r"[A-Za-z][A-Za-z0-9+.-]*:\S+", t) is not None
            and not t.startswith(docs_prefix)
        ),
    }
    # Another spelling: a code whose first character is unreserved can also be
    # written as %XX (README: "%2D for - is not" the code).
    if str(first.wire)[0] in spec_oracle.UNRESERVED:
        others["type_other_spelling"] = lambda t: (
            t != uri and urllib.parse.unquote(t) == urllib.parse.unquote(uri)
        )
    for vid, shows in others.items():
        sent = given(vid)[kind]
        assert shows(sent), (vid, sent)
        assert spec_oracle.code_in_uri(spec, sent) is None, vid
        assert by_id[vid]["expect"]["code"] == fallback.wire, vid
        assert written(vid)[kind] == sent, vid
    # "one that names an unknown well-formed code falls back ..., its code kept"
    sent = given("type_unknown_code")[kind]
    code = spec_oracle.code_in_uri(spec, sent)
    assert code is not None and spec.known(code) is None, sent
    assert spec.matched(code) is None, sent
    assert by_id["type_unknown_code"]["expect"]["wire_code"] == code
    assert written("type_unknown_code")[kind] == sent
    # "detail ... may be absent, and the message is then the title received,
    # else the meaning"
    for vid in ("detail_absent", "detail_absent_title", "instance_and_extensions"):
        assert given(vid)[kind] == uri, vid
        assert by_id[vid]["expect"]["code"] == first.wire, vid
    assert detail not in given("detail_absent") and "title" not in given(
        "detail_absent"
    )
    assert written("detail_absent")[detail] == first.meaning
    titled = given("detail_absent_title")
    assert detail not in titled and titled["title"]
    assert written("detail_absent_title")[detail] == titled["title"]
    # "instance and every extension member are the error's details and survive
    # the round trip"; status and title are "kept as sent".
    extended = given("instance_and_extensions")
    extras = set(extended) - {kind, detail}
    assert {"instance", "title", "status"} < extras, extras
    for key in extras:
        assert written("instance_and_extensions")[key] == extended[key], key
    # "status is the code's HTTP status, always written"; "title ... written as
    # the code's meaning otherwise".
    known = written(f"code/{first.code}")
    assert known["status"] == first.http_status and known["title"] == first.meaning


def test_the_mapped_schema_at_each_edge(computed: Computed) -> None:
    """The schema of a mapped payload at each edge of the issue's rules."""
    spec, schema, _, _ = computed
    if not spec.mapped_payload:
        return
    validator = _validator(schema)
    p = spec.payload
    entry = spec.first
    problem = p["preset"] == "problem"
    code = spec_oracle.type_uri(spec, entry.wire) if problem else entry.wire
    good: dict[str, Any] = {p["code"]: code, p["message"]: "m"}
    if p["retryable"]:
        good[p["retryable"]] = entry.retryable
    # The code's fields, each a value of its shape (issue 30 §7: a constant's
    # own), in the details member, or beside the code under details "*".
    named = p["details"] not in (None, "*")
    fields: dict[str, Any] = good if not named else {}
    for field, shape in entry.fields:
        value = shape["const"] if "const" in shape else spec_oracle.sample(shape)
        fields.setdefault(field, value)
    if named and fields:
        good[p["details"]] = fields

    def wrapped(body: Any) -> Any:
        return {p["envelope"]: body} if p["envelope"] else body

    cases_: list[tuple[Any, bool]] = [
        (good, True),
        ({**good, p["message"]: 5}, False),
        ({**good, p["code"]: True}, False),
        ({**good, "zz_extra": [1]}, True),
    ]
    if problem:
        cases_ += [
            ({k: v for k, v in good.items() if k != p["code"]}, True),
            ({**good, p["code"]: "about:blank"}, True),
            ({k: v for k, v in good.items() if k != p["message"]}, True),
            ({**good, "status": "not a number", "title": 5}, True),  # kept as sent
        ]
    else:
        cases_.append(({k: v for k, v in good.items() if k != p["code"]}, False))
        # Issue 30 §1: "message_required: false: the message member may be
        # absent" (null counts as absent, as the problem's detail does).
        optional = p.get("message_required") is False
        cases_.append(({k: v for k, v in good.items() if k != p["message"]}, optional))
        cases_.append(({**good, p["message"]: None}, optional))
    if p["retryable"]:
        cases_.append(({**good, p["retryable"]: "yes"}, False))
    if p["details"] not in (None, "*"):
        verdicts = {
            "object": ({**fields, "a": 1}, [1], "x"),
            "array": ([{"a": 1}], {"a": 1}, "x"),
            "any": ("x", None, None),
        }[p["details_type"]]
        valid, *invalid = verdicts
        cases_.append(({**good, p["details"]: valid}, True))
        cases_.append(({**good, p["details"]: None}, True))
        cases_ += [
            ({**good, p["details"]: bad}, False) for bad in invalid if bad is not None
        ]
    for given, valid in cases_:
        assert validator.is_valid(wrapped(given)) is valid, given
    if p["envelope"]:
        # README: "the error object sits under this member"; what sits beside
        # it is the sender's (Anthropic's errors carry "type": "error" there).
        assert not validator.is_valid(good)
        assert not validator.is_valid([wrapped(good)])
        assert not validator.is_valid({p["envelope"]: [good]})
        assert validator.is_valid({**wrapped(good), "type": "error"})
    # docs "Typed details": a code's declared fields, in the member the
    # mapping gives its details (each a member of its own under "*").
    for code in spec.codes.values():
        if not code.fields or p["details"] is None:
            continue
        sent = spec_oracle.type_uri(spec, code.wire) if problem else code.wire
        base: dict[str, Any] = {p["code"]: sent, p["message"]: "m"}
        if p["retryable"]:
            base[p["retryable"]] = code.retryable
        details = spec_oracle.sample_details(spec, code.code)
        required = any(
            f.get("required", True) and "const" not in f for _, f in code.fields
        )

        def carrying(value: dict[str, Any], body: dict[str, Any] = base) -> Any:
            if p["details"] == "*":
                return wrapped({**body, **value})
            return wrapped({**body, p["details"]: value})

        assert validator.is_valid(carrying(details)), code.code
        assert validator.is_valid(carrying({})) is not required, code.code
        if p["details"] != "*":
            lacking = wrapped(base)
            assert validator.is_valid(lacking) is not required, code.code


def test_the_schema_states_each_default_as_an_annotation(computed: Computed) -> None:
    """docs "Schema, vectors and docs": each code's ``then`` gives its fields'
    ``default`` as an annotation, the value the YAML declares."""
    spec, schema, _, _ = computed
    if spec.mapped_payload:  # its members differ: see the mapped schema's tests
        return
    rules = {
        rule["if"]["properties"]["code"]["const"]: rule["then"]
        for rule in schema.get("allOf", [])
    }
    for entry in spec.codes.values():
        if not entry.fields:
            continue
        properties = rules[entry.wire]["properties"]["details"]["properties"]
        for name, field in entry.fields:
            if "default" in field:
                assert properties[name]["default"] == field["default"], name
                assert type(properties[name]["default"]) is type(field["default"])
            else:
                assert "default" not in properties[name], name


def test_vectors_of_an_optional_example_field_and_a_one_value_enum(
    tmp_path: Path,
) -> None:
    """README: a known code's ``from_payload/code/...`` vector carries valid
    details, here of a code whose one field is an optional text named
    ``example``; and a field may allow a single value.
    """
    path = tmp_path / "taxonomy.yaml"
    path.write_text(
        """\
format: 1
name: tiny
title: Tiny
version: 1.0.0
base: TinyError
fallback: oops
wrap: oops
domains:
  misc:
    title: Misc
    codes:
      oops: {retryable: false, meaning: m}
      noted:
        retryable: false
        meaning: Noted
        details:
          example: {type: string, required: false}
      fixed:
        retryable: false
        meaning: Fixed
        details:
          mode: {type: string, enum: [only]}
""",
        encoding="utf-8",
    )
    spec = read_spec(path)
    files = contract.files(load_names(path))
    document = json.loads(files[VECTORS_PATH].decode("utf-8"))
    _states_the_yaml(spec, document)
    by_id = {v["id"]: v for v in document["vectors"]}
    for code in ("noted", "fixed"):
        vector = by_id[f"from_payload/code/{code}"]
        assert vector["expect"]["ok"] is True, code
        assert spec_oracle.payload_problem(spec, vector["input"]) is None, code
    assert by_id["from_payload/details/fixed/every_field"]["input"]["details"] == {
        "mode": "only"
    }
