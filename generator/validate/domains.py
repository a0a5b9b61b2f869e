"""Domains: each entry of ``domains``, codes sharing a prefix and a base class.

A domain needs a ``title`` and at least one live code (or, when it is the
parent of other domains, none), and may take a ``description``, a ``class``,
the ``http_status`` and ``grpc_status`` its codes inherit, and the ``parent``
and ``match`` of :mod:`.hierarchy`.  Besides the domain itself, its valid parts
are returned even when the whole is not, so that the name clashes among them
can be reported in the same run as every other problem.
"""

from __future__ import annotations

from taxogen.model import CLASS_OVERRIDE, Code, Domain, Tombstone
from taxogen.naming import pascal_guess
from taxogen.nodes import MapNode, Node, ScalarNode
from taxogen.validate.codes import Codes, is_removed, read_code
from taxogen.validate.hierarchy import Hierarchy, Match, read_match
from taxogen.validate.reader import Reader, get, join
from taxogen.validate.retry import RETRY_KEY, read_retry_after
from taxogen.validate.shared import DomainFields
from taxogen.validate.status import STATUS_KEYS, read_statuses
from taxogen.validate.text import describe
from taxogen.validate.unknown import is_null

__all__ = ["read_domain"]

_DOMAIN_KEYS = (
    "title",
    "description",
    "class",
    "parent",
    "match",
    "details",
    "codes",
    "fallback",
    *STATUS_KEYS,
    RETRY_KEY,
)


def read_domain(
    r: Reader,
    key_node: ScalarNode,
    node: Node,
    code_case: str | None,
    codes: Codes,
    hierarchy: Hierarchy,
    fields: DomainFields = DomainFields(),
) -> tuple[Domain | None, Domain | None]:
    """The domain, and its valid parts (for the name checks), each None if unusable.

    Its ``parent`` and ``match`` are recorded in ``hierarchy`` for the checks
    that need every domain; ``fields`` are its details fields, as
    :mod:`.shared` read them beforehand.
    """
    dkey = join("domains", key_node.value)
    # Either case whatever the codes' (an UPPER_SNAKE catalogue may keep `llm`).
    ok = r.case_key(key_node, dkey, "domain name", None)
    found = r.mapping(node, dkey, _DOMAIN_KEYS, ("title",), owner=key_node.position)
    if found is None:
        codes.complete = False
        return None, None
    parent_node = found["parent"][1] if "parent" in found else None
    parent = get(found, "parent", lambda n: r.text(n, join(dkey, "parent")))
    match = (
        read_match(r, found["match"][1], join(dkey, "match"), codes.wires.wire_type)
        if "match" in found
        else Match()
    )
    hierarchy.add(
        key_node.value,
        key_node.position,
        # A domain whose codes could not be read is not reported as having none.
        has_codes="codes" in found,
        parent=(
            None
            if parent is None or parent_node is None
            else (parent, parent_node.position)
        ),
        match=match or Match(),
    )
    title = get(
        found, "title", lambda n: r.text(n, join(dkey, "title"), allow_empty=False)
    )
    description = (
        get(
            found,
            "description",
            lambda n: r.text(n, join(dkey, "description"), lines=True),
        )
        or ""
    )
    class_name = get(
        found,
        "class",
        lambda n: r.matching(
            n,
            join(dkey, "class"),
            CLASS_OVERRIDE,
            "a class name (a capital, then letters, digits or underscores)",
            pascal_guess,
        ),
    )
    class_ok = "class" not in found or class_name is not None
    statuses = read_statuses(r, dkey, found)
    keeps_ok = _read_fallback(r, dkey, found)
    retry_after, retry_at, retry_ok = read_retry_after(r, dkey, found)
    shared = fields.inherited
    valid: list[Code] = []
    partial: list[Code] = []
    removed: list[Tombstone] = []
    complete = (
        ok
        and title is not None
        and class_ok
        and shared.complete
        and fields.own.complete
        and statuses.ok
        and retry_ok
        and keeps_ok
        and match is not None
        and ("parent" not in found or parent is not None)
    )
    if "codes" in found:
        codes_node = found["codes"][1]
        ckey = join(dkey, "codes")
        if codes_node.refused:
            codes.complete = False
        elif not isinstance(codes_node, MapNode):
            r.error(
                codes_node.position,
                ckey,
                f"expected a mapping of codes, got {describe(codes_node)}",
            )
            codes.complete = False
        elif not codes_node.items:
            r.error(codes_node.position, ckey, "a domain must have at least one code")
        code_nodes = codes_node.items if isinstance(codes_node, MapNode) else ()
        for code_node, value in code_nodes:
            code, part = read_code(
                r,
                key_node.value,
                ckey,
                code_node,
                value,
                code_case,
                codes,
                shared or (),
            )
            tomb = codes.removed.get(code_node.value)
            if (
                tomb is not None
                and tomb.domain == key_node.value
                and tomb.position == code_node.position
            ):
                removed.append(tomb)
            elif code is None:
                complete = False
            else:
                valid.append(code)
            if part is not None:
                partial.append(part)
        # Judged from the YAML, not from which codes were read without a mistake,
        # so that it is reported with the file's other errors, in the same run.
        if code_nodes and all(is_removed(value) for _, value in code_nodes):
            r.error(
                key_node.position,
                dkey,
                "every code of the domain is removed:"
                " a domain needs at least one live code",
            )
    part_domain = None
    if ok and class_ok:
        part_domain = Domain(
            key=key_node.value,
            title=title or "",
            description=description,
            codes=tuple(partial),
            class_name=class_name,
            position=key_node.position,
        )
    if (
        not complete
        or title is None
        or match is None
        or ("codes" in found and not valid)
    ):
        return None, part_domain
    domain = Domain(
        key=key_node.value,
        title=title,
        description=description,
        codes=tuple(valid),
        class_name=class_name,
        position=key_node.position,
        removed=tuple(removed),
        fields=fields.own.fields,
        http_status=statuses.http_status,
        grpc_status=statuses.grpc_status,
        http_statuses=statuses.http_statuses,
        retry_after=retry_after,
        retry_after_at=retry_at,
        parent=parent,
        prefixes=tuple(prefix for prefix, _ in match.prefixes),
        ranges=tuple((low, high) for low, high, _ in match.ranges),
        keeps_unknown="fallback" in found,
    )
    return domain, part_domain


def _read_fallback(
    r: Reader, dkey: str, found: dict[str, tuple[ScalarNode, Node]]
) -> bool:
    """A domain's ``fallback`` (issue 30 §3): only null, and only beside a
    ``match:`` (whose unknown codes then keep their identity); whether it is
    right (else reported)."""
    if "fallback" not in found:
        return True
    key_node, node = found["fallback"]
    if node.refused:
        return False
    if not is_null(node):
        r.error(
            node.position,
            join(dkey, "fallback"),
            "a domain's fallback can only be null (its unknown codes keep their "
            "identity); the code unknown codes become is the top level's fallback",
        )
        return False
    if "match" not in found:
        r.error(
            key_node.position,
            join(dkey, "fallback"),
            "null keeps the identity of the unknown codes the domain's match "
            "claims, but the domain has no match:; give it one, or remove fallback",
        )
        return False
    return True
