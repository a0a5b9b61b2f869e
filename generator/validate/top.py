"""The top level of a taxonomy file: its settings, and the model built from all parts.

The keys every taxonomy gives (``format``, ``name``, ``title``, ``version``,
``base``, ``fallback``, ``wrap``, ``domains``) and the optional ones
(``code_case``, ``python_layout``, ``wire_type``, ``events``, ``docs``, the
statuses and ``docs_url`` of :mod:`.status`, ``retry_after`` of :mod:`.retry`)
are read here; the domains, events and docs are read by their own modules.
When anything is wrong, the name clashes among the valid parts are reported
too, and no model is built.  It runs a few lines past 300 because
:func:`read_taxonomy` reads every top-level key in one place, in file order.
"""

from __future__ import annotations

from taxogen.model import (
    CASE_PATTERNS,
    CLASS_PATTERN,
    CLASS_SUFFIX,
    CODE_CASES,
    NAME_PATTERN,
    PYTHON_LAYOUTS,
    WIRE_TYPES,
    Domain,
    Taxonomy,
)
from taxogen.naming import check_names, pascal_guess, snake_guess
from taxogen.nodes import MapNode, Node, ScalarNode
from taxogen.validate.codes import Codes, resolve_replacements
from taxogen.validate.docs import check_pages, read_docs
from taxogen.validate.domains import read_domain
from taxogen.validate.events import read_events
from taxogen.validate.fields import NONE_DECLARED, read_fields
from taxogen.validate.hierarchy import Hierarchy
from taxogen.validate.hints import name_hint
from taxogen.validate.reader import Reader, get
from taxogen.validate.payload import check_payload, read_payload
from taxogen.validate.retry import RETRY_KEY, check_retry_after, read_retry_after
from taxogen.validate.shared import DomainFields, shared_fields
from taxogen.validate.status import read_docs_url, read_statuses, read_version
from taxogen.validate.text import describe, show
from taxogen.validate.unknown import UNKNOWN_KEY, is_null, read_unknown_retryable

__all__ = ["FORMAT", "TOP_REQUIRED", "read_taxonomy"]

#: The taxonomy format this version of taxogen reads.
FORMAT = 1

_TOP_KEYS = (
    "format",
    "name",
    "title",
    "version",
    "base",
    "fallback",
    "wrap",
    "code_case",
    "python_layout",
    "wire_type",
    "class_suffix",
    "domains",
    "events",
    "docs",
    "http_status",
    "grpc_status",
    "docs_url",
    "payload",
    "details",
    RETRY_KEY,
    UNKNOWN_KEY,
)
#: The keys every taxonomy gives (the JSON Schema requires the same ones).
TOP_REQUIRED = (
    "format",
    "name",
    "title",
    "version",
    "base",
    "fallback",
    "wrap",
    "domains",
)


def read_taxonomy(r: Reader, root: Node, source: str) -> Taxonomy | None:
    path = r.path
    if root.refused:
        return None
    if not isinstance(root, MapNode):
        r.error(
            root.position,
            "",
            "a taxonomy is a mapping of keys (format: 1, name: ..., domains: ...), "
            f"got {describe(root)}",
        )
        return None
    top = r.mapping(root, "", _TOP_KEYS, TOP_REQUIRED)
    if top is None:
        return None

    fmt = get(top, "format", lambda n: r.text(n, "format"))
    if fmt is not None and fmt != str(FORMAT):
        r.error(
            top["format"][1].position,
            "format",
            f"unsupported format {show(fmt)} (this taxogen reads format {FORMAT})",
        )
    name = get(
        top,
        "name",
        lambda n: r.matching(
            n,
            "name",
            NAME_PATTERN,
            "a lower_snake identifier such as 'acme'",
            snake_guess,
        ),
    )
    title = get(top, "title", lambda n: r.text(n, "title", allow_empty=False))
    version = get(top, "version", lambda n: read_version(r, n, "version"))
    base = get(
        top,
        "base",
        lambda n: r.matching(
            n,
            "base",
            CLASS_PATTERN,
            "a PascalCase class name such as 'AcmeError'",
            pascal_guess,
        ),
    )
    # None when unreadable or unknown: names are then only checked to be one case or the
    # other.
    code_case = (
        r.one_of(top["code_case"][1], "code_case", CODE_CASES)
        if "code_case" in top
        else "lower_snake"
    )
    python_layout = (
        r.one_of(top["python_layout"][1], "python_layout", PYTHON_LAYOUTS)
        if "python_layout" in top
        else "auto"
    )

    wire_type = (
        r.one_of(top["wire_type"][1], "wire_type", WIRE_TYPES)
        if "wire_type" in top
        else "string"
    )

    # The end of every derived class name; "" for psycopg's UniqueViolation.
    class_suffix = (
        get(
            top,
            "class_suffix",
            lambda n: r.matching(
                n,
                "class_suffix",
                CLASS_SUFFIX,
                "the end of a class name (letters, digits, underscores) or ''",
            ),
        )
        if "class_suffix" in top
        else "Error"
    )

    top_fields = (
        read_fields(r, "details", top["details"], None, top=True)
        if "details" in top
        else NONE_DECLARED
    )
    domains: list[Domain] = []
    partial: list[Domain] = []  # the valid parts of every domain, for the name checks
    codes = Codes(wire_type)
    hierarchy = Hierarchy()
    if "domains" in top:
        domains_node = top["domains"][1]
        if domains_node.refused:
            codes.complete = False
        elif not isinstance(domains_node, MapNode):
            r.error(
                domains_node.position,
                "domains",
                f"expected a mapping of domains, got {describe(domains_node)}",
            )
            codes.complete = False
        elif not domains_node.items:
            r.error(domains_node.position, "domains", "must define at least one domain")
        else:
            shared = shared_fields(r, domains_node, top_fields)
            for key_node, value in domains_node.items:
                domain, part = read_domain(
                    r,
                    key_node,
                    value,
                    code_case,
                    codes,
                    hierarchy,
                    shared.get(key_node.value, DomainFields()),
                )
                if domain is not None:
                    domains.append(domain)
                if part is not None:
                    partial.append(part)
            hierarchy.check(r)
    else:
        codes.complete = False

    # Issue 30 §3: fallback: null borrows no code for unknown ones.
    no_fallback = "fallback" in top and is_null(top["fallback"][1])
    for role in ("fallback", "wrap"):
        if role not in top or (role == "fallback" and no_fallback):
            continue
        role_node = top[role][1]
        role_code = r.text(role_node, role)
        if role_code is not None and role_code in codes.removed:
            r.error(
                role_node.position,
                role,
                f"{show(role_code)} is a removed code; name a live one",
            )
        elif role_code is not None and codes.unknown(role_code):
            more = name_hint(role_code, codes.named)
            r.error(
                role_node.position, role, f"no code {show(role_code)} is defined{more}"
            )
        elif role_code is not None:
            _check_role_fields(r, role, role_node, role_code, partial)

    events = read_events(r, top.get("events"))
    docs = read_docs(r, top.get("docs"), codes)
    statuses = read_statuses(r, "", top)
    retry_after, retry_at, _ = read_retry_after(r, "", top)
    docs_url = get(top, "docs_url", lambda n: read_docs_url(r, n))
    payload = read_payload(r, top["payload"][1] if "payload" in top else None)
    unknown_retryable = read_unknown_retryable(
        r, top, no_fallback or any(d.keeps_unknown for d in domains)
    )
    if no_fallback and payload is not None and payload.problem:
        r.error(
            top["fallback"][1].position,
            "fallback",
            "null borrows no code for an unknown one, but a problem (payload "
            "preset problem) whose type names no code of the taxonomy has none to "
            "keep; name a fallback code",
        )

    if (
        r.diagnostics
        or name is None
        or title is None
        or version is None
        or base is None
        or code_case is None
        or python_layout is None
        or wire_type is None
        or class_suffix is None
        or payload is None
        or unknown_retryable is None
    ):
        # Report the name clashes among the parts that are valid, in this same run.
        guess = code_case or _guess_case(partial)
        base_position = top["base"][1].position if "base" in top else None
        names_suffix = class_suffix if class_suffix is not None else "Error"
        for problem in check_names(
            partial, base, base_position, guess, path, names_suffix
        ):
            r.error(problem.position, problem.key, problem.message)
        return None
    domains = resolve_replacements(domains)
    taxonomy = Taxonomy(
        source=source,
        name=name,
        title=title,
        version=version,
        base=base,
        # Both were checked above to name a defined code (so they are plain text).
        fallback=None if no_fallback else _scalar(top["fallback"][1]),
        unknown_retryable=unknown_retryable,
        wrap=_scalar(top["wrap"][1]),
        code_case=code_case,
        domains=tuple(domains),
        events=events,
        docs=docs,
        base_position=top["base"][1].position,
        key_positions=tuple(
            (key, key_node.position) for key, (key_node, _) in top.items()
        ),
        python_layout=python_layout,
        wire_type=wire_type,
        class_suffix=class_suffix,
        http_status=statuses.http_status,
        grpc_status=statuses.grpc_status,
        http_statuses=statuses.http_statuses,
        retry_after=retry_after,
        docs_url=docs_url,
        payload=payload,
        fields=top_fields.fields,
    )
    if "payload" in top:
        check_payload(r, taxonomy, top["payload"][1])
        if r.diagnostics:
            return None
    top_retry = None if retry_at is None else (retry_at, str(retry_after))
    check_retry_after(r, taxonomy, top_retry)  # issue 30 §8
    check_pages(r, taxonomy)  # issue 33 §6
    return None if r.diagnostics else taxonomy


def _check_role_fields(
    r: Reader, role: str, node: Node, code: str, domains: list[Domain]
) -> None:
    """The fallback and the wrap code are built by taxogen's runtimes themselves
    (for an unknown code, for a value that is no error), which know no values for
    declared details: such a code may declare optional fields only.
    """
    for domain in domains:
        for candidate in domain.codes:
            if candidate.code != code:
                continue
            required = [f.name for f in candidate.fields if f.required]
            if required:
                r.error(
                    node.position,
                    role,
                    f"the {role} code {show(code)} declares required details "
                    f"({', '.join(required)}, line {candidate.position.line}), but "
                    f"the runtimes build {role} errors themselves and have no values "
                    "for them; make them optional or name another code",
                )


def _guess_case(domains: list[Domain]) -> str:
    """The code case a taxonomy with an invalid ``code_case`` most likely meant."""
    for domain in domains:
        if CASE_PATTERNS["upper_snake"].fullmatch(domain.key):
            return "upper_snake"
        if CASE_PATTERNS["lower_snake"].fullmatch(domain.key):
            return "lower_snake"
    return "lower_snake"


def _scalar(node: Node) -> str:
    return node.value if isinstance(node, ScalarNode) else ""
