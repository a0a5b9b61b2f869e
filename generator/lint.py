"""Lint: conventions a valid taxonomy should still follow, as rules with stable ids.

Validation refuses what cannot be generated; lint flags what is legal but
probably wrong: a domain without its generic code, a ``*_timeout`` that is not
retryable, a meaning that reads differently from the rest, a message template
that uses no field or a details field nothing describes.  Each rule has a
stable id and a level (``error`` or ``warning``); only what is true of every
catalogue runs by default, one style's conventions are opt-in
(:mod:`taxogen.lint_config`).  A project changes them in ``[tool.taxogen.lint]``
of its pyproject.toml, as ruff spells it::

    [tool.taxogen.lint]
    extend-select = ["meaning-no-period"]    # opt in to a convention
    ignore = ["fallback-not-retryable", "session", "task_timeout.elapsed_ms"]
    level = {"meaning-unique" = "error"}

Every finding says what it is about (:class:`About`: its code, domain, details
field), which is what ``ignore`` matches.

Findings print as ``PATH:LINE:COL: LEVEL RULE-ID: message``.

The rules' table (ids, default levels, summaries) and the configuration that
names them are :mod:`taxogen.lint_config`, which every command reads with
pyproject.toml and which imports neither the model nor naming; the checks are
here, by id.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator

from taxogen import lint_config
from taxogen.diagnostics import Position
from taxogen.lint_config import LEVELS, LintConfig, LintConfigError
from taxogen.lint_details import About, Found, field_described, template_uses_field
from taxogen.model import Code, Taxonomy
from taxogen.naming import domain_prefix, generic_code, words

__all__ = [
    "About",
    "LEVELS",
    "RULES",
    "Finding",
    "LintConfig",
    "LintConfigError",
    "Rule",
    "lint",
]


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class Finding:
    """One place where a rule fired."""

    rule: str
    level: str
    code: str | None  # the code it concerns, if any
    message: str
    position: Position | None
    about: About = About()

    def format(self, path: str) -> str:
        where = (
            path
            if self.position is None
            else f"{path}:{self.position.line}:{self.position.col}"
        )
        return f"{where}: {self.level} {self.rule}: {self.message}"


_Check = Callable[[Taxonomy], Iterator[Found]]


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class Rule:
    """A lint rule: its id, default level, one-line summary and check."""

    id: str
    level: str
    summary: str
    check: _Check


def _about(code: Code) -> About:
    return About(code=code.code, domain=code.domain)


def _domain_generic_code(
    t: Taxonomy,
) -> Iterator[Found]:
    for domain in t.domains:
        generic = generic_code(domain.key, t.code_case)
        # A domain without codes is a parent of others (docs "Hierarchies"):
        # an abstract class, raised through its children's codes.
        if domain.codes and all(c.code != generic for c in domain.codes):
            yield (
                About(domain=domain.key),
                (
                    f"domain {domain.key!r} has no generic code {generic!r} for errors"
                    " it cannot be more precise about"
                ),
                domain.position,
            )


def _code_domain_prefix(
    t: Taxonomy,
) -> Iterator[Found]:
    for domain in t.domains:
        prefix = domain_prefix(domain.key, t.code_case)  # llm -> LLM_ in UPPER_SNAKE
        for code in domain.codes:
            if not code.code.startswith(prefix):
                yield (
                    _about(code),
                    (
                        f"code {code.code!r} does not start with its domain's prefix"
                        f" {prefix!r}"
                    ),
                    code.position,
                )


def _timeout_retryable(
    t: Taxonomy,
) -> Iterator[Found]:
    for code in t.codes:
        if words(code.code)[-1] == "timeout" and not code.retryable:
            yield (
                _about(code),
                (
                    f"{code.code!r} is a timeout and should be retryable (the same call"
                    " may succeed later)"
                ),
                code.position,
            )


def _terminal_not_retryable(
    t: Taxonomy,
) -> Iterator[Found]:
    for code in t.codes:
        parts = words(code.code)
        terminal = (
            parts[-1] == "cancelled"
            or parts == ["unauthorized"]
            or parts[0] == "invalid"
        )
        if terminal and code.retryable:
            yield (
                _about(code),
                (
                    f"{code.code!r} should not be retryable: cancellations,"
                    " authorization failures and invalid input fail the same way again"
                ),
                code.position,
            )


def _fallback_not_retryable(
    t: Taxonomy,
) -> Iterator[Found]:
    if t.fallback is None:
        return  # fallback: null (issue 30 §3): no code is borrowed
    fallback = t.code(t.fallback)
    if fallback.retryable:
        yield (
            _about(fallback),
            (
                f"the fallback {fallback.code!r} is retryable, so every unknown code"
                " would be retried"
            ),
            fallback.position,
        )


def _meaning_present(t: Taxonomy) -> Iterator[Found]:
    for code in t.codes:
        if not code.meaning.strip():
            yield _about(code), f"{code.code!r} has no meaning", code.position
    for tomb in t.removed:
        if not tomb.meaning.strip():
            yield (
                About(code=tomb.code, domain=tomb.domain),
                f"removed code {tomb.code!r} does not record what it meant",
                tomb.position,
            )


def _meaning_no_period(
    t: Taxonomy,
) -> Iterator[Found]:
    for code in t.codes:
        if code.meaning.rstrip().endswith("."):
            yield (
                _about(code),
                (
                    f"the meaning of {code.code!r} ends with a period; meanings are"
                    " phrases"
                ),
                code.position,
            )


def _meaning_unique(t: Taxonomy) -> Iterator[Found]:
    first: dict[str, Code] = {}
    for code in t.codes:
        key = " ".join(code.meaning.lower().split())
        if key in first:
            yield (
                _about(code),
                (
                    f"{code.code!r} has the same meaning as {first[key].code!r} (line"
                    f" {first[key].position.line})"
                ),
                code.position,
            )
        else:
            first[key] = code


def _replaced_by_live(t: Taxonomy) -> Iterator[Found]:
    live = {c.code: c for c in t.codes}
    for code in t.codes:
        dep = code.deprecated
        if dep is None or dep.replaced_by is None:
            continue
        target = live.get(dep.replaced_by)
        if target is None:
            yield (
                _about(code),
                (
                    f"{code.code!r} is replaced by {dep.replaced_by!r}, which is not a"
                    " live code"
                ),
                dep.position,
            )
        elif target.deprecated is not None:
            yield (
                _about(code),
                (
                    f"{code.code!r} is replaced by {dep.replaced_by!r}, which is"
                    " deprecated too"
                ),
                dep.position,
            )
        elif target.code == code.code:
            yield _about(code), f"{code.code!r} is replaced by itself", dep.position
    for tomb in t.removed:  # a removed code's page links to its replacement
        if tomb.replaced_by is not None and tomb.replaced_by not in live:
            message = f"removed {tomb.code!r} is replaced by {tomb.replaced_by!r}"
            about = About(code=tomb.code, domain=tomb.domain)
            yield about, message + ", which is not a live code", tomb.position


#: Each rule's check, by id; the ids, levels and summaries are
#: :data:`taxogen.lint_config.RULES`, whose order findings follow.
_CHECKS: dict[str, _Check] = {
    "domain-generic-code": _domain_generic_code,
    "code-domain-prefix": _code_domain_prefix,
    "timeout-retryable": _timeout_retryable,
    "terminal-not-retryable": _terminal_not_retryable,
    "fallback-not-retryable": _fallback_not_retryable,
    "meaning-present": _meaning_present,
    "meaning-no-period": _meaning_no_period,
    "meaning-unique": _meaning_unique,
    "replaced-by-live": _replaced_by_live,
    "template-uses-field": template_uses_field,
    "field-described": field_described,
}

RULES: tuple[Rule, ...] = tuple(
    Rule(id=info.id, level=info.level, summary=info.summary, check=_CHECKS[info.id])
    for info in lint_config.RULES
)


def lint(taxonomy: Taxonomy, config: LintConfig | None = None) -> list[Finding]:
    """Every finding of every selected rule, in rule order then taxonomy order,
    but those ``config`` ignores."""
    config = config or LintConfig.default()
    findings: list[Finding] = []
    for rule in RULES:
        level = config.levels.get(rule.id, "off")
        if level == "off":
            continue
        for about, message, position in rule.check(taxonomy):
            if config.silenced(rule.id, about.subjects()):
                continue
            findings.append(
                Finding(
                    rule=rule.id,
                    level=level,
                    code=about.code,
                    message=message,
                    position=position,
                    about=about,
                )
            )
    return findings
