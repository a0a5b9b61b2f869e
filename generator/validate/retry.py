"""Retry hints (issue 30 §8): ``retry_after: FIELD`` names the details field that
says when to retry, in seconds.

It may sit on a code, on a domain (for its codes) or at the top level (for
every code); a code's is the nearest of :meth:`taxogen.model.Taxonomy.lineage`
(:meth:`~taxogen.model.Taxonomy.retry_field`).  Read here as text; once the
taxonomy is built, :func:`check_retry_after` holds every code it applies to to
declare that field with a numeric type (``integer`` or ``number``), and each
problem points at the ``retry_after`` that named the field, listing the codes.
"""

from __future__ import annotations

from taxogen.diagnostics import Position
from taxogen.model import Code, Domain, Taxonomy
from taxogen.nodes import Node
from taxogen.validate.hints import close_match
from taxogen.validate.reader import Found, Reader, join
from taxogen.validate.text import show

__all__ = ["RETRY_KEY", "check_retry_after", "read_retry_after"]

#: The key, on a code, a domain or the top level.
RETRY_KEY = "retry_after"
#: The field types a number of seconds may have.
_NUMERIC = ("integer", "number")


def read_retry_after(
    r: Reader, key: str, found: Found
) -> tuple[str | None, Position | None, bool]:
    """The field ``retry_after`` names in the mapping at ``key``, where its value
    stands, and whether it was readable (absent: ``(None, None, True)``)."""
    if RETRY_KEY not in found:
        return None, None, True
    node: Node = found[RETRY_KEY][1]
    field = r.text(node, join(key, RETRY_KEY), allow_empty=False)
    return field, node.position, field is not None


def check_retry_after(
    r: Reader, taxonomy: Taxonomy, top: tuple[Position, str] | None
) -> None:
    """Every code a ``retry_after`` applies to declares its field, numeric;
    ``top`` is where the top level's stands and the field it names, if any."""
    if (
        top is None
        and all(domain.retry_after is None for domain in taxonomy.domains)
        and all(code.retry_after is None for code in taxonomy.codes)
    ):
        return  # no retry_after anywhere (most taxonomies): no code's lineage walked
    owners: dict[tuple[str, Position | None, str], list[tuple[Code, str]]] = {}
    for code in taxonomy.codes:
        owner = _owner(taxonomy, code, top)
        if owner is None:
            continue
        declared = code.field(owner[2])
        if declared is not None and declared.shape.type in _NUMERIC:
            continue
        if declared is None:
            hint = close_match(owner[2], (f.name for f in code.fields))
            problem = "declares no such details field" + (
                f" (did you mean {show(hint)}?)" if hint else ""
            )
        else:
            problem = f"declares it as {declared.shape.type}"
        owners.setdefault(owner, []).append((code, problem))
    for (key, position, field), problems in owners.items():
        listed = "; ".join(
            f"code {show(code.code)} (line {code.position.line}) {problem}"
            for code, problem in problems[:5]
        )
        more = f"; and {len(problems) - 5} more" if len(problems) > 5 else ""
        r.error(
            position,
            key,
            f"{show(field)} must be a details field of every code it applies to, "
            f"with type integer or number (the seconds to wait): {listed}{more}",
        )


def _owner(
    taxonomy: Taxonomy, code: Code, top: tuple[Position, str] | None
) -> tuple[str, Position | None, str] | None:
    """The key path, position and field of the ``retry_after`` that applies to
    ``code`` (None: none does)."""
    if code.retry_after is not None:
        key = f"domains.{code.domain}.codes.{code.code}.{RETRY_KEY}"
        return key, code.retry_after_at, code.retry_after
    for item in taxonomy.lineage(code):
        if isinstance(item, Domain) and item.retry_after is not None:
            key = f"domains.{item.key}.{RETRY_KEY}"
            return key, item.retry_after_at, item.retry_after
    if top is None:
        return None
    return RETRY_KEY, top[0], top[1]
