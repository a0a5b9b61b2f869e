"""The lint rules' table and ``[tool.taxogen.lint]``: which rules there are, at
what level each runs, which run by default, and how a project changes that.

The default set holds only what is true of every catalogue (issue 30 §9): a
meaning recorded, a replacement that is live, no two codes with one meaning, a
fallback that does not retry every unknown code.  The conventions of one style
(meanings without a period, a generic ``<domain>_error`` per domain, English
words in snake-case codes, every field described...) are opt-in, selected as
ruff spells it: ``select`` replaces the default set, ``extend-select`` adds to
it, ``ignore`` takes rule ids (the rule is off), codes, domains and
``CODE.FIELD`` (their findings are silenced, for every rule; a table of rule id
= [those] silences them for one rule), ``level`` sets a rule's level.  The
older ``enable`` and ``disable`` are ``extend-select`` and rule ids in
``ignore``.

Kept apart from the checks (:mod:`taxogen.lint`) because every command reads
pyproject.toml, and with it this table, before it knows it has work to do: the
checks need the model and naming, whose import is about a fifth of a no-op
``taxogen check`` answered from its memo (``check-noop-shipped`` in
benchmarks/RESULTS.md). A rule is added here, with its check in
:mod:`taxogen.lint` under the same id.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from taxogen.diagnostics import describe_value

__all__ = ["ALL", "LEVELS", "RULES", "LintConfig", "LintConfigError", "RuleInfo"]

LEVELS = ("error", "warning", "off")
#: In ``select`` and ``extend-select``: every rule (ruff's spelling).
ALL = "ALL"
#: The keys of ``[tool.taxogen.lint]``.
KEYS = ("select", "extend-select", "ignore", "level", "enable", "disable")


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class RuleInfo:
    """A lint rule as a project names it: its id, the level it runs at once
    selected, whether it is selected by default, and its summary."""

    id: str
    level: str  # "error" or "warning"
    default: bool
    summary: str


#: Every rule, in the order its findings are reported.
RULES: tuple[RuleInfo, ...] = (
    RuleInfo(
        id="domain-generic-code",
        level="warning",
        default=False,
        summary="each domain has its generic <domain>_error code",
    ),
    RuleInfo(
        id="code-domain-prefix",
        level="warning",
        default=False,
        summary="codes carry their domain's prefix",
    ),
    RuleInfo(
        id="timeout-retryable",
        level="warning",
        default=False,
        summary="a *_timeout code is retryable",
    ),
    RuleInfo(
        id="terminal-not-retryable",
        level="warning",
        default=False,
        summary="*_cancelled, unauthorized and invalid_* codes are not retryable",
    ),
    RuleInfo(
        id="fallback-not-retryable",
        level="warning",
        default=True,
        summary="the fallback code is not retryable",
    ),
    RuleInfo(
        id="meaning-present",
        level="error",
        default=True,
        summary="every code, removed ones too, records its meaning",
    ),
    RuleInfo(
        id="meaning-no-period",
        level="warning",
        default=False,
        summary="meanings end without a period, like the spec's",
    ),
    RuleInfo(
        id="meaning-unique",
        level="warning",
        default=True,
        summary="no two codes share a meaning",
    ),
    RuleInfo(
        id="replaced-by-live",
        level="error",
        default=True,
        summary="replaced_by names a live, undeprecated code",
    ),
    RuleInfo(
        id="template-uses-field",
        level="warning",
        default=False,
        summary="a message template uses at least one details field",
    ),
    RuleInfo(
        id="field-described",
        level="warning",
        default=False,
        summary="a details field has a description or a template that uses it",
    ),
)


class LintConfigError(Exception):
    """``[tool.taxogen.lint]`` names an unknown rule or level; ``key`` is where, in that
    table.
    """

    def __init__(self, message: str, key: tuple[str, ...] = ()) -> None:
        super().__init__(message)
        self.key = key


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class LintConfig:
    """Rule levels and ignores, from ``[tool.taxogen.lint]``.

    ``levels``: each rule's level, ``off`` for a rule not selected.
    ``ignore``: by rule id, the codes, domains and ``CODE.FIELD`` (or
    ``DOMAIN.FIELD``) whose findings that rule does not report;
    ``everywhere``: those no rule reports.
    """

    levels: Mapping[str, str]
    ignore: Mapping[str, frozenset[str]]
    everywhere: frozenset[str] = frozenset()

    @classmethod
    def default(cls) -> "LintConfig":
        return cls.from_table({})

    def silenced(self, rule: str, subjects: tuple[str, ...]) -> bool:
        """Whether a finding of ``rule`` about any of ``subjects`` (its code,
        domain, ``CODE.FIELD``...) is ignored."""
        per_rule = self.ignore.get(rule, frozenset())
        return any(s in per_rule or s in self.everywhere for s in subjects)

    @classmethod
    def from_table(cls, table: Mapping[str, Any]) -> "LintConfig":
        known = {rule.id: rule for rule in RULES}

        def rule_ids(key: str, *, all_: bool = False) -> list[str]:
            value = table.get(key, [])
            if not isinstance(value, list) or not all(
                isinstance(v, str) for v in value
            ):
                raise LintConfigError(
                    f"expected a list of rule ids, got {describe_value(value)}", (key,)
                )
            ids: list[str] = []
            for rule_id in value:
                if all_ and rule_id == ALL:
                    ids.extend(known)
                elif rule_id not in known:
                    raise LintConfigError(f"unknown rule {rule_id!r}", (key,))
                else:
                    ids.append(rule_id)
            return ids

        for key in table:
            if key not in KEYS:
                raise LintConfigError(
                    f"unknown key {key!r} (expected {', '.join(KEYS)})", (key,)
                )
        if "select" in table:
            selected = set(rule_ids("select", all_=True))
        else:
            selected = {rule.id for rule in RULES if rule.default}
        selected.update(rule_ids("extend-select", all_=True))
        selected.update(rule_ids("enable"))
        selected.difference_update(rule_ids("disable"))
        levels = {
            rule.id: rule.level if rule.id in selected else "off" for rule in RULES
        }
        level_table = table.get("level", {})
        if not isinstance(level_table, dict):
            raise LintConfigError(
                "expected a table of rule id = level, got"
                f" {describe_value(level_table)}",
                ("level",),
            )
        for rule_id, level in level_table.items():
            if rule_id not in known:
                raise LintConfigError(f"unknown rule {rule_id!r}", ("level", rule_id))
            if level not in LEVELS:
                raise LintConfigError(
                    f"expected one of {', '.join(LEVELS)}, got {describe_value(level)}",
                    ("level", rule_id),
                )
            levels[rule_id] = level
        ignore_value = table.get("ignore", [])
        ignore: dict[str, frozenset[str]] = {}
        everywhere: set[str] = set()
        if isinstance(ignore_value, list):
            for entry in ignore_value:
                if not isinstance(entry, str) or not entry:
                    raise LintConfigError(
                        "expected rule ids, codes, domains or CODE.FIELD, got"
                        f" {describe_value(entry)}",
                        ("ignore",),
                    )
                if entry in known:
                    levels[entry] = "off"
                else:
                    everywhere.add(entry)
        elif isinstance(ignore_value, dict):
            for rule_id, codes in ignore_value.items():
                if rule_id not in known:
                    raise LintConfigError(
                        f"unknown rule {rule_id!r}", ("ignore", rule_id)
                    )
                if not isinstance(codes, list) or not all(
                    isinstance(c, str) and c for c in codes
                ):
                    raise LintConfigError(
                        "expected a list of codes, domains or CODE.FIELD, got"
                        f" {describe_value(codes)}",
                        ("ignore", rule_id),
                    )
                ignore[rule_id] = frozenset(codes)
        else:
            raise LintConfigError(
                "expected a list of rule ids, codes, domains and CODE.FIELD, or a"
                f" table of rule id = [those], got {describe_value(ignore_value)}",
                ("ignore",),
            )
        return cls(levels=levels, ignore=ignore, everywhere=frozenset(everywhere))
