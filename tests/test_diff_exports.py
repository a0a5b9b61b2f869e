"""taxogen diff against the packages themselves (issue 30 §10): whatever removes
or renames an exported name in any generated package is breaking.

The oracle is the generated Python, TypeScript and Go source, not diff's rule
table: each before/after pair of tests/test_diff.py (and each the other way
round) is rendered in all three languages, the names a program can import or
call are read off the files (Python's ``__all__``, its enum members, details
keys and constructor keywords; TypeScript's exports, the keys of its code and
domain objects and of its details types; Go's exported constants, types,
functions, methods and struct fields), and a pair that loses one must be
reported breaking: a program that names it stops compiling.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from taxogen.diff import BREAKING, COMPATIBLE, check_version, diff
from taxogen.pipeline import build_plan, load_names
from tests import test_diff as pairs

LANGUAGES = ["python", "typescript", "go"]


def _python(source: str) -> set[str]:
    names: set[str] = set()
    for node in ast.parse(source).body:
        if isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name):
            target = node.targets[0].id
            value = node.value
            if target == "__all__" and isinstance(value, ast.List):
                names |= {e.value for e in value.elts if isinstance(e, ast.Constant)}
            elif isinstance(value, ast.Call) and len(value.args) == 2:
                keys = value.args[1]  # TypedDict("X", {...}): the details keys
                if isinstance(keys, ast.Dict):
                    names |= {
                        f"{target}.{k.value}"
                        for k in keys.keys
                        if isinstance(k, ast.Constant)
                    }
        elif isinstance(node, ast.ClassDef):
            for item in node.body:
                if node.name in ("ErrorCode", "Domain") and isinstance(
                    item, ast.Assign
                ):
                    names |= {
                        f"{node.name}.{t.id}"
                        for t in item.targets
                        if isinstance(t, ast.Name)
                    }
                if isinstance(item, ast.FunctionDef) and item.name == "__init__":
                    names |= {f"{node.name}({a.arg}=)" for a in item.args.kwonlyargs}
    return names


def _typescript(source: str) -> set[str]:
    names = set(
        re.findall(
            r"^export (?:declare )?(?:abstract )?(?:class|const|function|type|"
            r"interface|enum) (\w+)",
            source,
            re.M,
        )
    )
    for listed in re.findall(r"^export (?:type )?\{([^}]*)\}", source, re.M):
        names |= {n.strip() for n in listed.split(",") if n.strip()}
    for name, body in re.findall(
        r"^export (?:const|type) (\w+) = \{\n(.*?)^\}", source, re.M | re.S
    ):
        keys = re.findall(r"^  (?:readonly )?\"?(\w+)\"?\??:", body, re.M)
        names |= {f"{name}.{key}" for key in keys}
    return names


def _go(source: str) -> set[str]:
    names = set(re.findall(r"^(?:const|type|func|var) ([A-Z]\w*)", source, re.M))
    names |= {
        f"{receiver}.{method}"
        for receiver, method in re.findall(
            r"^func \(\w+ \*?(\w+)\) ([A-Z]\w*)\(", source, re.M
        )
    }
    for name, body in re.findall(
        r"^type ([A-Z]\w*) struct \{\n(.*?)^\}", source, re.M | re.S
    ):
        names |= {
            f"{name}.{field}" for field in re.findall(r"^\t([A-Z]\w*) ", body, re.M)
        }
    block = re.findall(r"^const \(\n(.*?)^\)", source, re.M | re.S)
    for body in block:
        names |= set(re.findall(r"^\t([A-Z]\w*)\b", body, re.M))
    return names


def exported(path: Path) -> set[str]:
    """Every name a program can use from the packages generated from ``path``,
    each prefixed with its language."""
    plan = build_plan(path, LANGUAGES)
    names: set[str] = set()
    for file, data in plan.items():
        text = data.decode("utf-8")
        if file.startswith("python/") and file.endswith("/__init__.py"):
            names |= {f"python:{n}" for n in _python(text)}
        elif file == "typescript/src/index.ts":
            names |= {f"typescript:{n}" for n in _typescript(text)}
        elif (
            file.startswith("go/") and file.endswith(".go") and "/internal/" not in file
        ):
            names |= {f"go:{n}" for n in _go(text)}
    return names


def _edit(text: str, edits: list[tuple[str, str]]) -> str:
    for old, new in edits:
        assert old in text, f"the edit's anchor is missing: {old!r}"
        text = text.replace(old, new, 1)
    return text


def _every_pair() -> list[tuple[str, str, str]]:
    """(id, before, after) for every pair test_diff checks by its rules."""
    found = [(p[0], pairs.BASE, _edit(pairs.BASE, p[1])) for p in pairs.PAIRS]
    for label, before, after, _ in pairs.OTHER_PAIRS:
        old = _edit(pairs.BASE, before)
        found.append((label, old, _edit(old, after) if after else pairs.BASE))
    found += [
        (p[0], pairs.TYPED, _edit(pairs.TYPED, p[1])) for p in pairs.DETAILS_PAIRS
    ]
    found += [(p[0], p[1], _edit(p[1], p[2])) for p in pairs.STATUS_PAIRS]
    found += [
        (p[0], pairs.SQLSTATE, _edit(pairs.SQLSTATE, p[1]))
        for p in pairs.HIERARCHY_PAIRS
    ]
    found += [
        (p[0], pairs.NESTED, _edit(pairs.NESTED, p[1])) for p in pairs.NESTED_PAIRS
    ]
    found += MORE
    return found


# Pairs of issue 30 §10 beyond test_diff's: each renames or removes a name.
TOMBSTONE = (
    pairs.CANCELLED,
    "      task_cancelled: {removed: {since: 0.3.0, reason: nobody sends it},"
    " meaning: Task was cancelled}\n",
)
MORE = [
    # (id, before, after)
    (
        "deprecated code tombstoned",
        _edit(pairs.BASE, [pairs.DEPRECATE]),
        _edit(pairs.BASE, [TOMBSTONE]),
    ),
    (
        "domain class renamed",  # the generic code's class is its domain's
        pairs.BASE,
        _edit(
            pairs.BASE,
            [("      tool_error: {", "      tool_error: {class: ToolFailure, ")],
        ),
    ),
]

PAIRS = _every_pair()


@pytest.mark.parametrize("label, before, after", PAIRS, ids=[p[0] for p in PAIRS])
@pytest.mark.parametrize("way", ["forward", "back"])
def test_a_lost_name_is_breaking(
    tmp_path: Path, label: str, before: str, after: str, way: str
) -> None:
    if way == "back":
        before, after = after, before
    old_path, new_path = tmp_path / "old.yaml", tmp_path / "new.yaml"
    old_path.write_text(before, encoding="utf-8")
    new_path.write_text(after, encoding="utf-8")
    lost = exported(old_path) - exported(new_path)
    kinds = {c.kind for c in diff(load_names(old_path), load_names(new_path))}
    if lost:
        assert BREAKING in kinds, f"{sorted(lost)} leave the packages, yet {kinds}"


def test_the_oracle_sees_every_language(tmp_path: Path) -> None:
    """The test above cannot pass by reading nothing: the shipped taxonomy's
    task_cancelled is a name in each language, and a tombstone takes it away."""
    path = tmp_path / "t.yaml"
    path.write_text(pairs.BASE, encoding="utf-8")
    names = exported(path)
    for name in (
        "python:TaskCancelledError",
        "python:ErrorCode.TASK_CANCELLED",
        "python:TaskTimeoutDetails.timeout_ms",
        "python:TaskTimeoutError(timeout_ms=)",
        "typescript:TaskCancelledError",
        "typescript:ErrorCode.TASK_CANCELLED",
        "typescript:TaskTimeoutDetails.timeout_ms",
        "go:CodeTaskCancelled",
        "go:NewTaskCancelledError",
        "go:IsTaskCancelledError",
        "go:TaskTimeoutDetails.TimeoutMs",
    ):
        assert name in names, name
    path.write_text(_edit(pairs.BASE, [TOMBSTONE]), encoding="utf-8")
    gone = names - exported(path)
    assert {"python:TaskCancelledError", "typescript:TaskCancelledError"} <= gone
    assert {"go:CodeTaskCancelled", "go:NewTaskCancelledError"} <= gone


def test_a_tombstone_needs_a_major_bump(tmp_path: Path) -> None:
    """Issue 30: a tombstone deletes the class from every package, yet diff
    called it compatible and a minor bump passed."""
    old_path, new_path = tmp_path / "old.yaml", tmp_path / "new.yaml"
    old_path.write_text(pairs.BASE.replace("version: 0.2.0", "version: 1.2.0"))
    new_path.write_text(
        _edit(pairs.BASE, [TOMBSTONE]).replace("version: 0.2.0", "version: 1.3.0")
    )
    changes = diff(load_names(old_path), load_names(new_path))
    assert [(c.kind, c.rule) for c in changes] == [(BREAKING, "code-tombstoned")]
    assert "TaskCancelledError" in changes[0].message
    check = check_version("1.2.0", "1.3.0", changes)
    assert (check.ok, check.required) == (False, "major"), check.message
    assert check_version("1.2.0", "2.0.0", changes).ok


def test_additions_stay_compatible(tmp_path: Path) -> None:
    """Only the additions of test_diff's pairs are compatible, and none loses
    a name (the other half of the rule: compatible keeps every program)."""
    for label, before, after in PAIRS:
        old_path, new_path = tmp_path / "old.yaml", tmp_path / "new.yaml"
        old_path.write_text(before, encoding="utf-8")
        new_path.write_text(after, encoding="utf-8")
        kinds = {c.kind for c in diff(load_names(old_path), load_names(new_path))}
        if kinds == {COMPATIBLE}:
            assert not exported(old_path) - exported(new_path), label
