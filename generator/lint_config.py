"""The lint rules' table and ``[tool.taxogen.lint]``: which rules there are, at
what level each runs by default, and how a project changes that.

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

__all__ = ["LEVELS", "RULES", "LintConfig", "LintConfigError", "RuleInfo"]

LEVELS = ("error", "warning", "off")


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class RuleInfo:
    """A lint rule as a project names it: its id, default level and summary."""

    id: str
    level: str
    summary: str


#: Every rule, in the order its findings are reported.
RULES: tuple[RuleInfo, ...] = (
    RuleInfo(
        id="domain-generic-code",
        level="warning",
        summary="each domain has its generic <domain>_error code",
    ),
    RuleInfo(
        id="code-domain-prefix",
        level="off",
        summary="codes carry their domain's prefix",
    ),
    RuleInfo(
        id="timeout-retryable",
        level="warning",
        summary="a *_timeout code is retryable",
    ),
    RuleInfo(
        id="terminal-not-retryable",
        level="warning",
        summary="*_cancelled, unauthorized and invalid_* codes are not retryable",
    ),
    RuleInfo(
        id="fallback-not-retryable",
        level="warning",
        summary="the fallback code is not retryable",
    ),
    RuleInfo(
        id="meaning-present",
        level="error",
        summary="every code, removed ones too, records its meaning",
    ),
    RuleInfo(
        id="meaning-no-period",
        level="warning",
        summary="meanings end without a period, like the spec's",
    ),
    RuleInfo(
        id="meaning-unique",
        level="warning",
        summary="no two codes share a meaning",
    ),
    RuleInfo(
        id="replaced-by-live",
        level="error",
        summary="replaced_by names a live, undeprecated code",
    ),
    RuleInfo(
        id="template-uses-field",
        level="warning",
        summary="a message template uses at least one details field",
    ),
    RuleInfo(
        id="field-described",
        level="warning",
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
    """Rule levels and per-code ignores, from ``[tool.taxogen.lint]``."""

    levels: Mapping[str, str]
    ignore: Mapping[str, frozenset[str]]

    @classmethod
    def default(cls) -> "LintConfig":
        return cls(levels={rule.id: rule.level for rule in RULES}, ignore={})

    @classmethod
    def from_table(cls, table: Mapping[str, Any]) -> "LintConfig":
        known = {rule.id for rule in RULES}
        levels = {rule.id: rule.level for rule in RULES}

        def rule_ids(key: str) -> list[str]:
            value = table.get(key, [])
            if not isinstance(value, list) or not all(
                isinstance(v, str) for v in value
            ):
                raise LintConfigError(
                    f"expected a list of rule ids, got {describe_value(value)}", (key,)
                )
            for rule_id in value:
                if rule_id not in known:
                    raise LintConfigError(f"unknown rule {rule_id!r}", (key,))
            return value

        for key in table:
            if key not in ("enable", "disable", "level", "ignore"):
                raise LintConfigError(
                    f"unknown key {key!r} (expected enable, disable, level, ignore)",
                    (key,),
                )
        for rule_id in rule_ids("enable"):
            if levels[rule_id] == "off":
                levels[rule_id] = "warning"
        for rule_id in rule_ids("disable"):
            levels[rule_id] = "off"
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
        ignore_table = table.get("ignore", {})
        if not isinstance(ignore_table, dict):
            raise LintConfigError(
                "expected a table of rule id = [codes], got"
                f" {describe_value(ignore_table)}",
                ("ignore",),
            )
        ignore: dict[str, frozenset[str]] = {}
        for rule_id, codes in ignore_table.items():
            if rule_id not in known:
                raise LintConfigError(f"unknown rule {rule_id!r}", ("ignore", rule_id))
            if not isinstance(codes, list) or not all(
                isinstance(c, str) for c in codes
            ):
                raise LintConfigError(
                    f"expected a list of codes, got {describe_value(codes)}",
                    ("ignore", rule_id),
                )
            ignore[rule_id] = frozenset(codes)
        return cls(levels=levels, ignore=ignore)
