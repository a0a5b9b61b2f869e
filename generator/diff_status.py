"""What changed in what a code maps to (HTTP and gRPC status, throttling, docs link).

Each code present in both taxonomies is compared by what it carries, inherited
values included (a domain's or the top level's status counts for each of its
codes): a status on a code that had none is compatible (a client that ignored
the absence keeps working); a status changed or removed is breaking (clients
switch on it: a retry loop keyed on 503, a gateway mapping NOT_FOUND).  A code
that becomes throttling is compatible (callers only back off more); one that
stops is breaking (callers built to back off from it no longer would, and those
that switch on it stop matching).  ``docs_url`` is a link people follow: any
change is docs only, and :mod:`taxogen.diff` decides its kind in one place.
:mod:`taxogen.diff` turns each finding into a change classified by its
``RULES``.
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
    if before.throttling and not after.throttling:
        yield "throttling-removed", f"{where} is no longer throttling", after.position
    elif after.throttling and not before.throttling:
        yield "throttling-added", f"{where} is now throttling", after.position


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
