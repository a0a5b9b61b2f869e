"""Mapped: the HTTP status, gRPC status, throttling and docs link of every class.

Python and TypeScript share one class tree (the root, each domain's class, each
code's class), and each class carries ``http_status``, ``grpc_status``,
``throttling`` and ``doc_url`` (``httpStatus``...): a code's class what the
code maps to (:meth:`taxogen.model.Taxonomy.mapped`), the root what the
fallback code does (a bare root error carries the fallback code; nothing where
there is none), and a domain's
own class (one no ``<domain>_error`` code owns) the statuses of the domain and,
as its bare instance still carries the fallback code, the root's throttling and
link.  Each class also carries the details field of its retry hint
(``retry_after_field``, issue 30 §8).  A class states a value only where it
differs from its parent's, the runtime's base saying none (``None``,
``False``): a taxonomy that declares none of these keys generates what it did
before they existed.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from taxogen.model import Code, Taxonomy
from taxogen.naming import Names

__all__ = [
    "NONE",
    "Mapping",
    "schema_annotations",
    "status_schema",
    "class_mappings",
    "code_mapping",
    "declares_any",
    "declares_nothing",
    "stated",
]


@dataclasses.dataclass(frozen=True, slots=True)
class Mapping:
    """What one class maps to (None or False where nothing is declared)."""

    http_status: int | None = None
    grpc_status: str | None = None
    throttling: bool = False
    doc_url: str | None = None
    #: The details field that says when to retry, in seconds (``retry_after:``,
    #: issue 30 §8); each error reads its value as its retry hint.
    retry_after_field: str | None = None
    #: Every status the code may take where it may take several (``http_status:
    #: [400, 401]``, the default first); () for one or none.  Said by the docs,
    #: schemas and OpenAPI, never a class attribute.
    http_statuses: tuple[int, ...] = ()


#: The runtime base class's values: nothing declared.
NONE = Mapping()


def code_mapping(taxonomy: Taxonomy, code: Code) -> Mapping:
    """What the class of ``code`` (and every error of that code) carries."""
    if (
        not code.throttling
        and taxonomy.docs_url is None
        and all(
            x.http_status is None and x.grpc_status is None and x.retry_after is None
            for x in taxonomy.lineage(code)
        )
    ):
        # Most taxonomies declare none of it: every target asks for every code,
        # and building each code's Mapped cost 0.13 s at 10,000 codes (make
        # bench).  The lineage stays Taxonomy.lineage's, parents and all.
        return NONE
    retry_after = taxonomy.retry_field(code)
    mapped = taxonomy.mapped(code)
    return Mapping(
        http_status=mapped.http_status,
        grpc_status=mapped.grpc_status,
        throttling=code.throttling,
        doc_url=taxonomy.doc_url(code),
        http_statuses=mapped.http_statuses if len(mapped.http_statuses) > 1 else (),
        retry_after_field=retry_after,
    )


def declares_nothing(taxonomy: Taxonomy, *, retry: bool = True) -> bool:
    """Whether nothing in the taxonomy (top level, any domain, any code) gives a
    status, a gRPC status, throttling or a docs_url, nor (``retry``) a retry
    field: then no code's lineage holds one, and every code maps to NONE (with
    ``retry`` False, to NONE but for its retry field), known without walking
    10,000 lineages."""
    return (
        taxonomy.docs_url is None
        and not (retry and taxonomy.retry_after is not None)
        and taxonomy.http_status is None
        and taxonomy.grpc_status is None
        and all(
            d.http_status is None
            and d.grpc_status is None
            and not (retry and d.retry_after is not None)
            for d in taxonomy.domains
        )
        and all(
            c.http_status is None
            and c.grpc_status is None
            and not c.throttling
            and not (retry and c.retry_after is not None)
            for c in taxonomy.codes
        )
    )


def declares_any(taxonomy: Taxonomy) -> bool:
    """Whether any code carries one of the four values (else no output says them)."""
    # A retry hint's field (issue 30 §8) is not among them: the vectors test it
    # with a kind of their own.
    if declares_nothing(taxonomy, retry=False):
        return False  # no lineage can hold a status (most taxonomies: none walked)
    return any(
        dataclasses.replace(code_mapping(taxonomy, code), retry_after_field=None)
        != NONE
        for code in taxonomy.codes
    )


def class_mappings(names: Names) -> dict[str, tuple[str, Mapping]]:
    """Every class by name: its parent class ("": the runtime's base) and what
    it carries (made once for ``names``: several targets read it; a copy)."""
    return dict(names.derived(_class_mappings))


def _class_mappings(names: Names) -> dict[str, tuple[str, Mapping]]:
    taxonomy = names.taxonomy
    # With no fallback (issue 30 §3) the root maps to nothing: its errors carry
    # the status they were received with, or none.
    fallback = names.fallback
    root = NONE if fallback is None else code_mapping(taxonomy, fallback.code)
    out: dict[str, tuple[str, Mapping]] = {names.base: ("", root)}
    for domain in names.domains:
        if domain.base_code is None:
            mapped = taxonomy.mapped(domain.domain)
            own = dataclasses.replace(
                root, http_status=mapped.http_status, grpc_status=mapped.grpc_status
            )
            out[domain.class_name] = (domain.parent_class, own)
        for named in domain.codes:
            out[named.class_name] = (named.parent, code_mapping(taxonomy, named.code))
    return out


def stated(names: Names) -> dict[str, tuple[tuple[str, object], ...]]:
    """For every class, the (attribute, value) pairs it states: those that differ
    from its parent's (the root's: from nothing declared), in a fixed order
    (made once for ``names``; a copy)."""
    return dict(names.derived(_stated))


def _stated(names: Names) -> dict[str, tuple[tuple[str, object], ...]]:
    classes = names.derived(_class_mappings)
    attributes = [f.name for f in dataclasses.fields(Mapping)]
    attributes.remove("http_statuses")
    out = {}
    for name, (parent, mapping) in classes.items():
        inherited = classes[parent][1] if parent in classes else NONE
        # Most classes map to what their parent does (equal in every field):
        # they state nothing, found by one comparison.
        out[name] = (
            ()
            if mapping == inherited
            else tuple(
                (attribute, getattr(mapping, attribute))
                for attribute in attributes
                if getattr(mapping, attribute) != getattr(inherited, attribute)
            )
        )
    return out


def schema_annotations(mapping: Mapping) -> dict[str, Any]:
    """What the JSON Schema and the OpenAPI document say of a code beside its
    schema: ``x-http-status`` (and ``x-http-statuses``, every status where a
    code may take several), ``x-grpc-status``, ``x-throttling``, ``x-doc-url``,
    and ``x-retry-after`` (its retry hint's field), each only where the code has
    one."""
    out: dict[str, Any] = {}
    if mapping.http_status is not None:
        out["x-http-status"] = mapping.http_status
    if mapping.http_statuses:
        out["x-http-statuses"] = list(mapping.http_statuses)
    if mapping.grpc_status is not None:
        out["x-grpc-status"] = mapping.grpc_status
    if mapping.throttling:
        out["x-throttling"] = True
    if mapping.doc_url is not None:
        out["x-doc-url"] = mapping.doc_url
    if mapping.retry_after_field is not None:
        out["x-retry-after"] = mapping.retry_after_field
    return out


def status_schema(mapping: Mapping | None = None) -> dict[str, Any]:
    """The schema of the payload's status member (``payload.status``): an HTTP
    status, absent or null where the error has none; a code's says its default."""
    schema: dict[str, Any] = {
        "description": "The HTTP status of this one error (absent or null: its "
        "code's).",
        "type": ["integer", "null"],
        "minimum": 100,
        "maximum": 599,
    }
    if mapping is not None and mapping.http_status is not None:
        schema["default"] = mapping.http_status
    return schema
