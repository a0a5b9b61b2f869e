"""Synthetic taxonomies for the benchmarks: N codes, 50 per domain, realistic meanings.

Deterministic (seeded by N), valid under taxogen's rules, and shaped like a real
catalogue: every domain has a ``<domain>_error`` base code, codes are
``<domain>_<condition>``, and meanings vary in length, about one in five longer
than 70 characters (a few past 78, which no wrapping can fit in black's 88
columns), a few with quotes, apostrophes or a non-ASCII dash.
"""

from __future__ import annotations

import json
import random
import re

__all__ = ["CODES_PER_DOMAIN", "meaning_stats", "synthesize"]

CODES_PER_DOMAIN = 50

_AREAS = (
    "billing",
    "ledger",
    "catalog",
    "inventory",
    "shipping",
    "identity",
    "storage",
    "search",
    "messaging",
    "payments",
    "scheduler",
    "workflow",
    "analytics",
    "notification",
    "pricing",
    "checkout",
    "media",
    "geo",
    "compliance",
    "audit",
    "tenant",
    "webhook",
    "report",
    "document",
    "device",
)
_PARTS = (
    "gateway",
    "store",
    "index",
    "queue",
    "cache",
    "worker",
    "api",
    "sync",
    "export",
    "ingest",
    "replica",
    "broker",
)

# (suffix, meaning with {s} for the subject, retryable)
_CONDITIONS = (
    ("timeout", "{s} timed out before completing the request", True),
    ("unavailable", "{s} is temporarily unavailable", True),
    ("rate_limited", "{s} rate limit exceeded", True),
    ("quota_exceeded", "{s} quota exceeded for the current period", False),
    ("not_found", "{s} resource not found", False),
    ("already_exists", "{s} resource already exists", False),
    ("conflict", "Concurrent modification of the same {l} resource", True),
    ("invalid_argument", "Invalid argument passed to the {l}", False),
    ("invalid_state", "{s} is in a state that does not allow this operation", False),
    ("precondition_failed", "A precondition of the {l} request was not met", False),
    ("permission_denied", "Caller lacks permission for the {l}", False),
    ("unauthenticated", "Request to the {l} carried no valid credentials", False),
    ("expired", "{s} resource has expired", False),
    ("revoked", "{s} access was revoked", False),
    ("locked", "{s} resource is locked by another operation", True),
    ("busy", "{s} is busy", True),
    ("overloaded", "{s} is overloaded and shedding load", True),
    ("cancelled", "Operation on the {l} was cancelled by the caller", False),
    ("aborted", "{s} aborted the operation", True),
    ("deadline_exceeded", "Deadline exceeded while waiting for the {l}", True),
    ("payload_too_large", "Request body too large for the {l}", False),
    ("unsupported_media", "Media type not supported by the {l}", False),
    ("malformed_request", "Malformed request to the {l}", False),
    ("schema_mismatch", "Record does not match the {l} schema", False),
    ("version_conflict", "Stale version of a {l} record", True),
    ("checksum_mismatch", "Checksum mismatch on {l} data", True),
    ("dependency_failed", "A dependency of the {l} failed", True),
    ("upstream_timeout", "Upstream of the {l} timed out", True),
    ("upstream_rejected", "Upstream of the {l} rejected the call", False),
    ("config_missing", "{s} configuration is missing", False),
    ("config_invalid", "{s} configuration is invalid", False),
    ("capacity_exhausted", "{s} capacity exhausted", True),
    ("partition_moved", "{s} partition moved to another node", True),
    ("leader_changed", "{s} leader changed during the request", True),
    ("replay_detected", "Replayed request detected by the {l}", False),
    ("duplicate_request", "Duplicate request to the {l}", False),
    ("sequence_gap", "Gap in the {l} sequence numbers", True),
    ("encoding_invalid", "Invalid text encoding in {l} input", False),
    ("signature_invalid", "Invalid signature on a {l} request", False),
    ("token_missing", "Token missing from the {l} request", False),
    ("token_expired", "Token for the {l} has expired", False),
    ("scope_insufficient", "Token scope insufficient for the {l}", False),
    ("region_unsupported", "{s} is not offered in this region", False),
    ("feature_disabled", "{s} feature is disabled for this tenant", False),
    ("maintenance_mode", "{s} is in maintenance mode", True),
    ("migration_pending", "{s} data migration pending", True),
    ("backpressure", "{s} applied backpressure", True),
    ("storage_full", "{s} storage is full", False),
    ("handshake_failed", "Handshake with the {l} failed", True),
    ("retry_exhausted", "Retries against the {l} exhausted", False),
)

_SHORT_TAILS = (
    " for this tenant",
    " in this region",
    " (transient)",
    " for this account",
    " on this shard",
)
_LONG_TAILS = (
    " because the upstream dependency did not answer within the configured deadline",
    "; the request may be retried after the interval given in details.retry_after_ms",
    " (see details.limit and details.window_ms for the limit that was hit)",
    ", and the operation was rolled back so that no partial state was persisted",
    "; the caller's credentials were valid but the tenant's plan does not include it",
    ' while processing the field named in details.field (for example "items[3].sku")',
)
_PLAIN = re.compile(r"[A-Za-z][A-Za-z0-9 .'()/_-]*")


def _meaning(rng: random.Random, template: str, subject: str) -> str:
    text = template.format(s=subject, l=subject.lower())
    roll = rng.random()
    if roll < 0.20:
        text += rng.choice(_LONG_TAILS)
    elif roll < 0.45:
        text += rng.choice(_SHORT_TAILS)
    if rng.random() < 0.02:
        text += " \u2014 see the runbook"
    return text


def _yaml_text(text: str) -> str:
    if _PLAIN.fullmatch(text) and ": " not in text and " #" not in text:
        return text
    return json.dumps(text, ensure_ascii=False)


def _domains(count: int) -> list[str]:
    names = ["protocol"]
    round_ = 0
    while len(names) < count:
        for area in _AREAS:
            for part in _PARTS:
                name = f"{area}_{part}" + (f"_v{round_ + 1}" if round_ else "")
                names.append(name)
                if len(names) == count:
                    return names
        round_ += 1
    return names[:count]


def synthesize(n: int, *, name: str = "synth") -> str:
    """A valid taxonomy of exactly ``n`` codes (50 per domain), as YAML text."""
    if n < 2:
        raise ValueError(
            "a synthetic taxonomy needs at least 2 codes (fallback and wrap)"
        )
    rng = random.Random(n)
    domain_count = -(-n // CODES_PER_DOMAIN)
    lines = [
        f"# Synthetic taxonomy of {n} codes for taxogen's benchmarks.",
        "format: 1",
        f"name: {name}",
        f"title: Synthetic Error Model ({n} codes)",
        "version: 1.0.0",
        f"base: {name.title().replace('_', '')}Error",
        "fallback: protocol_error",
        "wrap: internal_error",
        "",
        "domains:",
    ]
    left = n
    events: list[str] = []
    for index, domain in enumerate(_domains(domain_count)):
        subject = domain.replace("_", " ").capitalize()
        lines += [
            f"  {domain}:",
            f"    title: {subject.title()} Errors",
            f"    description: Errors raised by the {subject.lower()}.",
            "    codes:",
        ]
        size = min(CODES_PER_DOMAIN, left)
        codes = [(f"{domain}_error", f"Unspecified {subject.lower()} error", False)]
        if domain == "protocol":
            codes.append(
                ("internal_error", "Unexpected internal processing failure", True)
            )
        for suffix, template, retryable in _CONDITIONS:
            if len(codes) >= size:
                break
            codes.append(
                (f"{domain}_{suffix}", _meaning(rng, template, subject), retryable)
            )
        for code, meaning, retryable in codes[:size]:
            flag = "true" if retryable else "false"
            lines.append(
                f"      {code}: {{retryable: {flag}, meaning: {_yaml_text(meaning)}}}"
            )
        left -= size
        if index % 5 == 0:
            events.append(f"  {domain.replace('_', '.')}.failed: payload.error")
    lines += ["", "events:", *events, ""]
    return "\n".join(lines)


def meaning_stats(text: str) -> dict[str, float]:
    """Length statistics of the meanings in a synthesized taxonomy (for the report)."""
    lengths = []
    for line in text.splitlines():
        if "meaning: " in line:
            raw = line.split("meaning: ", 1)[1][:-1]
            value = json.loads(raw) if raw.startswith('"') else raw
            lengths.append(len(value))
    lengths.sort()
    return {
        "count": len(lengths),
        "min": lengths[0],
        "median": lengths[len(lengths) // 2],
        "max": lengths[-1],
        "over_70": sum(1 for x in lengths if x > 70) / len(lengths),
        "over_78": sum(1 for x in lengths if x > 78) / len(lengths),
    }
