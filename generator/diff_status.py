"""What changed in what a code maps to (HTTP and gRPC status, throttling, docs link).

Each code present in both taxonomies is compared by what it carries, inherited
values included (a domain's or the top level's status counts for each of its
codes): a status on a code that had none is compatible (a client that ignored
the absence keeps working); a status changed or removed is breaking (clients
switch on it: a retry loop keyed on 503, a gateway mapping NOT_FOUND).  A code
that becomes throttling is compatible (callers only back off more); one that
stops is breaking (callers built to back off from it no longer would, and those
that switch on it stop matching).  Of the statuses a code may take
(``http_status: [400, 401]``, issue 30 §2), one added beside its default is
compatible (a client that handled the others still does), one no longer listed
is breaking (a server that answers with it no longer matches the contract, and
clients keyed on it lose it); the default's own change is the HTTP status's
rule above.  A retry hint (``retry_after:``, issue 30 §8) on a code that had
none is compatible (the hint was absent, and a client that ignored it still
may); one removed or naming another field is breaking (a client that waited as
told no longer can: ``retry_after`` reads absent).  ``docs_url`` is a link
people follow: any change is docs only, and :mod:`taxogen.diff` decides its
kind in one place. :mod:`taxogen.diff` turns each finding into a change
classified by its ``RULES``.
"""

from __future__ import annotations

from collections.abc import Iterator

from taxogen.diagnostics import Position
from taxogen.model import Code, Taxonomy

__all__ = ["docs_url_change", "mapping_changes"]


def mapping_changes(
    old: Taxonomy, before: Code, new: Taxonomy, after: Code
) -> Iterator[tuple[str, str, Position | None]]:
    """(rule, message, position) for each change of what ``before`` (in ``old``)
    maps to, as ``after`` (in ``new``)."""
    where = f"code {after.code!r}"
    was, now = old.mapped(before), new.mapped(after)
    for rule, label, then, later in (
        ("http-status", "HTTP status", was.http_status, now.http_status),
        ("grpc-status", "gRPC status", was.grpc_status, now.grpc_status),
    ):
        if then == later:
            continue
        if then is None:
            message = f"{where}: {label} {later} was added"
            yield f"{rule}-added", message, after.position
        elif later is None:
            message = f"{where}: {label} {then} was removed"
            yield f"{rule}-removed", message, after.position
        else:
            message = f"{where}: {label} changed from {then} to {later}"
            yield f"{rule}-changed", message, after.position
    if was.http_status is not None and now.http_status is not None:
        yield from _listed_changes(where, was.http_statuses, now.http_statuses, after)
    yield from _retry_change(
        where, old.retry_field(before), new.retry_field(after), after
    )
    if before.throttling and not after.throttling:
        yield "throttling-removed", f"{where} is no longer throttling", after.position
    elif after.throttling and not before.throttling:
        yield "throttling-added", f"{where} is now throttling", after.position


def _listed_changes(
    where: str, then: tuple[int, ...], later: tuple[int, ...], after: Code
) -> Iterator[tuple[str, str, Position | None]]:
    """Issue 30 §2: the statuses a code may take beside its default, each one
    no longer listed or newly listed (a changed default is reported apart)."""
    shown = f"[{', '.join(map(str, then))}] -> [{', '.join(map(str, later))}]"
    for status in then[1:]:
        if status not in later:
            message = f"{where}: HTTP status {status} is no longer listed ({shown})"
            yield "http-status-unlisted", message, after.position
    for status in later[1:]:
        if status not in then:
            message = f"{where}: HTTP status {status} was listed ({shown})"
            yield "http-status-listed", message, after.position


def docs_url_change(
    old: Taxonomy, new: Taxonomy
) -> tuple[str, str, Position | None] | None:
    """(rule, message, position) when ``docs_url`` changed, else None."""
    if old.docs_url == new.docs_url:
        return None
    if old.docs_url is None:
        message = f"docs_url {new.docs_url} was added"
    elif new.docs_url is None:
        message = f"docs_url {old.docs_url} was removed"
    else:
        message = f"docs_url changed from {old.docs_url} to {new.docs_url}"
    return "docs-url-changed", message, new.position_of("docs_url")


def _retry_change(
    where: str, then: str | None, later: str | None, after: Code
) -> Iterator[tuple[str, str, Position | None]]:
    """The change of the details field a code's retry hint is read from."""
    if then == later:
        return
    if then is None:
        yield "retry-after-added", f"{where}: retry hint {later!r} was added", (
            after.position
        )
    elif later is None:
        yield "retry-after-removed", f"{where}: retry hint {then!r} was removed", (
            after.position
        )
    else:
        message = f"{where}: retry hint changed from {then!r} to {later!r}"
        yield "retry-after-changed", message, after.position
