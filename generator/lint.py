"""Lint: conventions a valid taxonomy should still follow, as rules with stable ids.

Validation refuses what cannot be generated; lint flags what is legal but
probably wrong: a domain without its generic code, a ``*_timeout`` that is not
retryable, a meaning that reads differently from the rest, a message template
that uses no field or a details field nothing describes.  Each rule has a
stable id and a default level (``error``, ``warning`` or ``off``); a project
changes them in ``[tool.taxogen.lint]`` of its pyproject.toml::

    [tool.taxogen.lint]
    enable = ["code-domain-prefix"]          # turn on rules that are off by default
    disable = ["meaning-no-period"]
    level = {"meaning-unique" = "error"}
    ignore = {"timeout-retryable" = ["session_timeout"]}   # per-code exceptions

Findings print as ``PATH:LINE:COL: LEVEL RULE-ID: message``.

It is a little longer than 300 lines because each rule's table entry, its
check and the configuration that names it read best side by side.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator, Mapping
from typing import Any

from generator.diagnostics import Position, describe_value
from generator.lint_details import field_described, template_uses_field
from generator.model import Code, Taxonomy
from generator.naming import domain_prefix, generic_code, words

__all__ = [
    "LEVELS",
    "RULES",
    "Finding",
    "LintConfig",
    "LintConfigError",
    "Rule",
    "lint",
]

LEVELS = ("error", "warning", "off")


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class Finding:
    """One place where a rule fired."""

    rule: str
    level: str
    code: str | None  # the code it concerns, for per-code ignores
    message: str
    position: Position | None

    def format(self, path: str) -> str:
        where = (
            path
            if self.position is None
            else f"{path}:{self.position.line}:{self.position.col}"
        )
        return f"{where}: {self.level} {self.rule}: {self.message}"


_Check = Callable[[Taxonomy], Iterator[tuple[str | None, str, Position | None]]]


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class Rule:
    """A lint rule: its id, default level, one-line summary and check."""

    id: str
    level: str
    summary: str
    check: _Check


class LintConfigError(Exception):
    """``[tool.taxogen.lint]`` names an unknown rule or level; ``key`` is where, in that
    table.
    """

    def __init__(self, message: str, key: tuple[str, ...] = ()) -> None:
        super().__init__(message)
        self.key = key


def _domain_generic_code(
    t: Taxonomy,
) -> Iterator[tuple[str | None, str, Position | None]]:
    for domain in t.domains:
        generic = generic_code(domain.key, t.code_case)
        # A domain without codes is a parent of others (README "Hierarchies"):
        # an abstract class, raised through its children's codes.
        if domain.codes and all(c.code != generic for c in domain.codes):
            yield (
                None,
                (
                    f"domain {domain.key!r} has no generic code {generic!r} for errors"
                    " it cannot be more precise about"
                ),
                domain.position,
            )


def _code_domain_prefix(
    t: Taxonomy,
) -> Iterator[tuple[str | None, str, Position | None]]:
    for domain in t.domains:
        prefix = domain_prefix(domain.key, t.code_case)  # llm -> LLM_ in UPPER_SNAKE
        for code in domain.codes:
            if not code.code.startswith(prefix):
                yield (
                    code.code,
                    (
                        f"code {code.code!r} does not start with its domain's prefix"
                        f" {prefix!r}"
                    ),
                    code.position,
                )


def _timeout_retryable(
    t: Taxonomy,
) -> Iterator[tuple[str | None, str, Position | None]]:
    for code in t.codes:
        if words(code.code)[-1] == "timeout" and not code.retryable:
            yield (
                code.code,
                (
                    f"{code.code!r} is a timeout and should be retryable (the same call"
                    " may succeed later)"
                ),
                code.position,
            )


def _terminal_not_retryable(
    t: Taxonomy,
) -> Iterator[tuple[str | None, str, Position | None]]:
    for code in t.codes:
        parts = words(code.code)
        terminal = (
            parts[-1] == "cancelled"
            or parts == ["unauthorized"]
            or parts[0] == "invalid"
        )
        if terminal and code.retryable:
            yield (
                code.code,
                (
                    f"{code.code!r} should not be retryable: cancellations,"
                    " authorization failures and invalid input fail the same way again"
                ),
                code.position,
            )


def _fallback_not_retryable(
    t: Taxonomy,
) -> Iterator[tuple[str | None, str, Position | None]]:
    fallback = t.code(t.fallback)
    if fallback.retryable:
        yield (
            fallback.code,
            (
                f"the fallback {fallback.code!r} is retryable, so every unknown code"
                " would be retried"
            ),
            fallback.position,
        )


def _meaning_present(t: Taxonomy) -> Iterator[tuple[str | None, str, Position | None]]:
    for code in t.codes:
        if not code.meaning.strip():
            yield code.code, f"{code.code!r} has no meaning", code.position
    for tomb in t.removed:
        if not tomb.meaning.strip():
            yield (
                tomb.code,
                f"removed code {tomb.code!r} does not record what it meant",
                tomb.position,
            )


def _meaning_no_period(
    t: Taxonomy,
) -> Iterator[tuple[str | None, str, Position | None]]:
    for code in t.codes:
        if code.meaning.rstrip().endswith("."):
            yield (
                code.code,
                (
                    f"the meaning of {code.code!r} ends with a period; meanings are"
                    " phrases"
                ),
                code.position,
            )


def _meaning_unique(t: Taxonomy) -> Iterator[tuple[str | None, str, Position | None]]:
    first: dict[str, Code] = {}
    for code in t.codes:
        key = " ".join(code.meaning.lower().split())
        if key in first:
            yield (
                code.code,
                (
                    f"{code.code!r} has the same meaning as {first[key].code!r} (line"
                    f" {first[key].position.line})"
                ),
                code.position,
            )
        else:
            first[key] = code


def _replaced_by_live(t: Taxonomy) -> Iterator[tuple[str | None, str, Position | None]]:
    live = {c.code: c for c in t.codes}
    for code in t.codes:
        dep = code.deprecated
        if dep is None or dep.replaced_by is None:
            continue
        target = live.get(dep.replaced_by)
        if target is None:
            yield (
                code.code,
                (
                    f"{code.code!r} is replaced by {dep.replaced_by!r}, which is not a"
                    " live code"
                ),
                dep.position,
            )
        elif target.deprecated is not None:
            yield (
                code.code,
                (
                    f"{code.code!r} is replaced by {dep.replaced_by!r}, which is"
                    " deprecated too"
                ),
                dep.position,
            )
        elif target.code == code.code:
            yield code.code, f"{code.code!r} is replaced by itself", dep.position


RULES: tuple[Rule, ...] = (
    Rule(
        id="domain-generic-code",
        level="warning",
        summary="each domain has its generic <domain>_error code",
        check=_domain_generic_code,
    ),
    Rule(
        id="code-domain-prefix",
        level="off",
        summary="codes carry their domain's prefix",
        check=_code_domain_prefix,
    ),
    Rule(
        id="timeout-retryable",
        level="warning",
        summary="a *_timeout code is retryable",
        check=_timeout_retryable,
    ),
    Rule(
        id="terminal-not-retryable",
        level="warning",
        summary="*_cancelled, unauthorized and invalid_* codes are not retryable",
        check=_terminal_not_retryable,
    ),
    Rule(
        id="fallback-not-retryable",
        level="warning",
        summary="the fallback code is not retryable",
        check=_fallback_not_retryable,
    ),
    Rule(
        id="meaning-present",
        level="error",
        summary="every code, removed ones too, records its meaning",
        check=_meaning_present,
    ),
    Rule(
        id="meaning-no-period",
        level="warning",
        summary="meanings end without a period, like the spec's",
        check=_meaning_no_period,
    ),
    Rule(
        id="meaning-unique",
        level="warning",
        summary="no two codes share a meaning",
        check=_meaning_unique,
    ),
    Rule(
        id="replaced-by-live",
        level="error",
        summary="replaced_by names a live, undeprecated code",
        check=_replaced_by_live,
    ),
    Rule(
        id="template-uses-field",
        level="warning",
        summary="a message template uses at least one details field",
        check=template_uses_field,
    ),
    Rule(
        id="field-described",
        level="warning",
        summary="a details field has a description or a template that uses it",
        check=field_described,
    ),
)


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
        known = {rule.id: rule for rule in RULES}
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


def lint(taxonomy: Taxonomy, config: LintConfig | None = None) -> list[Finding]:
    """Every finding of every enabled rule, in rule order then taxonomy order."""
    config = config or LintConfig.default()
    findings: list[Finding] = []
    for rule in RULES:
        level = config.levels.get(rule.id, rule.level)
        if level == "off":
            continue
        skip = config.ignore.get(rule.id, frozenset())
        for code, message, position in rule.check(taxonomy):
            if code is not None and code in skip:
                continue
            findings.append(
                Finding(
                    rule=rule.id,
                    level=level,
                    code=code,
                    message=message,
                    position=position,
                )
            )
    return findings
