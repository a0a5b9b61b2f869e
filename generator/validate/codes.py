"""Codes: one entry of a domain's ``codes``, live, deprecated or removed.

A live code needs ``retryable`` and ``meaning`` and may take ``class``,
``wire``, ``since``, ``deprecated``, and the ``http_status``, ``grpc_status``
and ``throttling`` of :mod:`.status`; a removed code (``removed: {since,
reason}``) is a tombstone, no longer generated, whose name may never be used
again.  The :class:`Codes` registry remembers every code met so far across
domains, so a code defined twice, a removed name reused, or a ``fallback``
naming no code is reported with the line of the other side.  Once every code
is read, :func:`resolve_replacements` gives each deprecation the wire code of
its replacement, which messages name.

It is longer than 300 lines because a code's parts (wire code, deprecation,
tombstone) are read here together, where the registry of codes met so far can
name the other line of a clash.
"""

from __future__ import annotations

import dataclasses
from typing import NamedTuple

from taxogen.diagnostics import Position
from taxogen.model import (
    ANY_CASE,
    CASE_PATTERNS,
    CLASS_OVERRIDE,
    Code,
    Deprecation,
    Domain,
    Tombstone,
    WIRE_PATTERN,
)
from taxogen.naming import class_guess
from taxogen.nodes import MapNode, Node, ScalarNode, SeqNode
from taxogen.validate.fields import (
    NONE_DECLARED,
    Declared,
    merge_fields,
    read_fields,
)
from taxogen.validate.reader import Found, Reader, get, join
from taxogen.validate.status import (
    STATUS_KEYS,
    read_statuses,
    read_throttling,
    read_version,
)
from taxogen.validate.native import (
    GO_IS_KEY,
    PYTHON_BASES_KEY,
    read_go_is,
    read_python_bases,
)
from taxogen.validate.retry import RETRY_KEY, read_retry_after
from taxogen.validate.templates import read_template
from taxogen.validate.text import describe
from taxogen.validate.wire import Wires, read_wire

__all__ = ["Codes", "is_removed", "read_code", "resolve_replacements"]

_CODE_KEYS = (
    "retryable",
    "meaning",
    "class",
    "since",
    "deprecated",
    "details",
    "message",
    "removed",
    *STATUS_KEYS,
    "throttling",
    "wire",
    RETRY_KEY,
    "aliases",
    PYTHON_BASES_KEY,
    GO_IS_KEY,
)
_DEPRECATED_KEYS = ("reason", "replaced_by", "since")
_REMOVED_KEYS = ("since", "reason", "replaced_by")
_REMOVED_REQUIRED = ("since", "reason")


class Codes:
    """The codes met so far: the valid ones by domain, and whether all could be read."""

    def __init__(self, wire_type: str | None = "string") -> None:
        self.wires = Wires(wire_type)
        self.valid: dict[str, tuple[str, Position]] = {}
        self.removed: dict[str, Tombstone] = (
            {}
        )  # tombstones: names that may never come back
        self.named: set[str] = set()  # every code key written, valid or not
        #: Each alias met: the code it names, and where.
        self.aliases: dict[str, tuple[str, Position]] = {}
        self.complete = (
            True  # false when a domain or its codes could not be read at all
        )

    def unknown(self, code: str) -> bool:
        """Whether ``code`` is surely not in the taxonomy (so naming it is an error)."""
        return self.complete and code not in self.named


def read_code(
    r: Reader,
    domain: str,
    ckey: str,
    code_node: ScalarNode,
    node: Node,
    code_case: str | None,
    codes: Codes,
    shared: Declared = NONE_DECLARED,
) -> tuple[Code | None, Code | None]:
    """The code, and its name alone (for the name checks), each ``None`` if unusable.

    ``shared`` are the details fields its domain declares for all its codes.
    """
    key = join(ckey, code_node.value)
    codes.named.add(code_node.value)
    ok = r.case_key(code_node, key, "code", code_case)
    if ok:
        earlier = codes.valid.get(code_node.value)
        tomb = codes.removed.get(code_node.value)
        if tomb is not None:
            r.error(
                code_node.position,
                key,
                f"code {code_node.value!r} was removed in {tomb.since} (line "
                f"{tomb.position.line}); "
                "a removed code's name can never be used again, so old clients cannot "
                "misread it",
            )
            ok = False
        elif earlier is not None:
            r.error(
                code_node.position,
                key,
                f"code {code_node.value!r} is already defined in domain {earlier[0]!r} "
                f"at line {earlier[1].line};"
                " a code belongs to one domain",
            )
            ok = False
        elif code_node.value in codes.aliases:
            owner, where = codes.aliases[code_node.value]
            r.error(
                code_node.position,
                key,
                f"{code_node.value!r} is already an alias of code {owner!r} (line "
                f"{where.line}); a name is one code's",
            )
            ok = False
        else:
            codes.valid[code_node.value] = (domain, code_node.position)
    removed = is_removed(node)
    required = () if removed else ("retryable", "meaning")
    found = r.mapping(node, key, _CODE_KEYS, required, owner=code_node.position)
    if found is None:
        name_only = Code(
            code=code_node.value,
            domain=domain,
            retryable=False,
            meaning="",
            class_name=None,
            position=code_node.position,
        )
        return None, name_only if ok and not node.refused else None
    wire = _wire(r, key, code_node, found, codes, ok, removed)
    if removed:
        tomb = read_tombstone(r, domain, key, code_node, found)
        if tomb is not None and wire.ok and wire.value is not None:
            tomb = dataclasses.replace(tomb, wire=wire.value)
        if tomb is not None and ok:
            codes.removed[code_node.value] = tomb
        return None, None
    retryable = get(found, "retryable", lambda n: r.boolean(n, join(key, "retryable")))
    meaning = get(
        found, "meaning", lambda n: r.text(n, join(key, "meaning"), allow_empty=False)
    )
    class_name = get(
        found,
        "class",
        lambda n: r.matching(
            n,
            join(key, "class"),
            CLASS_OVERRIDE,
            "a class name (a capital, then letters, digits or underscores)",
            class_guess,
        ),
    )
    since = get(
        found,
        "since",
        lambda n: read_version(r, n, join(key, "since")),
    )
    deprecated = (
        read_deprecation(r, key, found["deprecated"], code_case)
        if "deprecated" in found
        else None
    )
    own = (
        read_fields(r, join(key, "details"), found["details"], None)
        if "details" in found
        else NONE_DECLARED
    )
    fields = merge_fields(r, join(key, "details"), shared, own)
    template = (
        read_template(r, join(key, "message"), found["message"][1], fields)
        if "message" in found
        else None
    )
    statuses = read_statuses(r, key, found)
    throttling = read_throttling(r, key, found, retryable)
    retry_after, retry_at, retry_ok = read_retry_after(r, key, found)
    aliases = (
        read_aliases(r, key, code_node, found["aliases"][1], code_case, codes, ok)
        if "aliases" in found
        else ()
    )
    python_bases, bases_at, bases_ok = read_python_bases(r, key, found)
    go_is, go_ok = read_go_is(r, key, found)
    broken = (
        not retry_ok
        or not bases_ok
        or not go_ok
        or not wire.ok
        or not statuses.ok
        or throttling is None
        or ("since" in found and since is None)
        or ("deprecated" in found and deprecated is None)
        or not fields.complete
        or ("message" in found and template is None)
        or aliases is None
    )
    if not ok or ("class" in found and class_name is None):
        return None, None
    part = Code(
        code=code_node.value,
        domain=domain,
        retryable=bool(retryable),
        meaning=meaning or "",
        class_name=class_name,
        position=code_node.position,
        since=since,
        deprecated=deprecated,
        fields=fields.fields,
        message=template,
        wire=wire.value,
        http_status=statuses.http_status,
        grpc_status=statuses.grpc_status,
        http_statuses=statuses.http_statuses,
        throttling=bool(throttling),
        retry_after=retry_after,
        retry_after_at=retry_at,
        aliases=aliases or (),
        python_bases=python_bases,
        python_bases_at=bases_at,
        go_is=go_is,
    )
    if retryable is None or meaning is None or broken:
        return None, part
    return part, part


def is_removed(node: Node) -> bool:
    """Whether the code's mapping has ``removed:``, well written or not.

    Read from the YAML alone, so a tombstone with a mistake in it is still a
    removed code (its mistakes are reported on their own).
    """
    if isinstance(node, MapNode):
        for key, _ in node.items:  # a loop: no generator made for every code
            if key.value == "removed":
                return True
    return False


class _Wire(NamedTuple):
    """A code's ``wire:`` as read: its value (None: its key is its wire code),
    and whether it is valid and free (else reported)."""

    value: str | int | None
    ok: bool


def _wire(
    r: Reader,
    key: str,
    code_node: ScalarNode,
    found: Found,
    codes: Codes,
    ok: bool,
    removed: bool,
) -> _Wire:
    """The code's ``wire:``, claimed in ``codes.wires``.

    A removed code's wire code is claimed too: like its name, it never comes back.
    """
    wires = codes.wires
    if wires.wire_type is None:  # wire_type is invalid, and reported
        return _Wire(None, True)
    wire: str | int | None = None
    if "wire" in found:
        wire = read_wire(r, found["wire"][1], join(key, "wire"), wires.wire_type)
        if wire is None:
            return _Wire(None, False)
        position = found["wire"][1].position
    elif wires.wire_type == "integer" and not removed:
        r.error(
            code_node.position,
            join(key, "wire"),
            "wire_type is integer, so every code needs an integer wire: (the code "
            "on the wire)",
        )
        return _Wire(None, False)
    elif removed:
        return _Wire(None, True)
    else:
        position = code_node.position
    if not ok:
        return _Wire(wire, True)
    claimed = wires.claim(
        r,
        key if wire is None else join(key, "wire"),
        code_node.value,
        code_node.value if wire is None else wire,
        position,
        removed,
    )
    return _Wire(wire if claimed else None, claimed)


def read_deprecation(
    r: Reader, key: str, item: tuple[ScalarNode, Node], code_case: str | None
) -> Deprecation | None:
    key_node, node = item
    dkey = join(key, "deprecated")
    found = r.mapping(
        node, dkey, _DEPRECATED_KEYS, ("reason",), owner=key_node.position
    )
    if found is None:
        return None
    reason = get(
        found, "reason", lambda n: r.text(n, join(dkey, "reason"), allow_empty=False)
    )
    # Say which case: "expected a code" would not tell why 'oops' is refused.
    if code_case:
        pattern, what = CASE_PATTERNS[code_case], f"a code name in {code_case}"
    else:  # code_case is itself invalid (and reported): either case will do
        pattern, what = ANY_CASE, "a code name"
    replaced_by = get(
        found,
        "replaced_by",
        lambda n: r.matching(n, join(dkey, "replaced_by"), pattern, what),
    )
    since = get(
        found,
        "since",
        lambda n: read_version(r, n, join(dkey, "since")),
    )
    if (
        reason is None
        or ("replaced_by" in found and replaced_by is None)
        or ("since" in found and since is None)
    ):
        return None
    return Deprecation(
        reason=reason, replaced_by=replaced_by, since=since, position=key_node.position
    )


def read_tombstone(
    r: Reader,
    domain: str,
    key: str,
    code_node: ScalarNode,
    found: Found,
) -> Tombstone | None:
    """A removed code: ``removed: {since, reason}``, its old meaning optional."""
    key_node, node = found["removed"]
    rkey = join(key, "removed")
    extras = (
        "class",
        "deprecated",
        "since",
        "details",
        "message",
        "aliases",
        *STATUS_KEYS,
    )
    for extra in (*extras, "throttling"):
        if extra in found:
            r.error(
                found[extra][0].position,
                join(key, extra),
                f"a removed code takes no {extra!r} (it is no longer generated)",
            )
    if "retryable" in found:
        r.boolean(found["retryable"][1], join(key, "retryable"))
    meaning = get(found, "meaning", lambda n: r.text(n, join(key, "meaning"))) or ""
    removed = r.mapping(
        node, rkey, _REMOVED_KEYS, _REMOVED_REQUIRED, owner=key_node.position
    )
    if removed is None:
        return None
    # What replaced it, for its docs page: any code name (the check that it is
    # live is lint's, as for a deprecation's).
    replaced_by = get(
        removed,
        "replaced_by",
        lambda n: r.matching(n, join(rkey, "replaced_by"), WIRE_PATTERN, "a code name"),
    )
    since = get(
        removed,
        "since",
        lambda n: read_version(r, n, join(rkey, "since")),
    )
    reason = get(
        removed, "reason", lambda n: r.text(n, join(rkey, "reason"), allow_empty=False)
    )
    if since is None or reason is None:
        return None
    if "replaced_by" in removed and replaced_by is None:
        return None
    return Tombstone(
        code=code_node.value,
        domain=domain,
        since=since,
        reason=reason,
        meaning=meaning,
        position=code_node.position,
        replaced_by=replaced_by,
    )


def resolve_replacements(domains: list[Domain]) -> list[Domain]:
    """The domains with each deprecation's ``replaced_by_wire``: the wire code
    of the code it names (a live or a removed one), else the name as written."""
    wires: dict[str, str] = {}
    for domain in domains:
        for tomb in domain.removed:
            wires[tomb.code] = tomb.code if tomb.wire is None else str(tomb.wire)
        for code in domain.codes:
            wires[code.code] = code.wire_text
    out = []
    for domain in domains:
        codes = tuple(
            (
                code
                if code.deprecated is None or code.deprecated.replaced_by is None
                else dataclasses.replace(
                    code,
                    deprecated=dataclasses.replace(
                        code.deprecated,
                        replaced_by_wire=wires.get(
                            code.deprecated.replaced_by, code.deprecated.replaced_by
                        ),
                    ),
                )
            )
            for code in domain.codes
        )
        out.append(dataclasses.replace(domain, codes=codes))
    return out


def read_aliases(
    r: Reader,
    key: str,
    code_node: ScalarNode,
    node: Node,
    code_case: str | None,
    codes: Codes,
    ok: bool,
) -> tuple[str, ...] | None:
    """A code's ``aliases:``, each a name in the code case that no code, removed
    code or other alias has; with string wire codes each is a wire code too,
    claimed like one.  None when any is wrong (reported)."""
    akey = join(key, "aliases")
    if node.refused:
        return None
    if not isinstance(node, SeqNode) or not node.items:
        got = "an empty list" if isinstance(node, SeqNode) else describe(node)
        r.error(
            node.position,
            akey,
            "expected a list of other names of the code, such as [EWOULDBLOCK], "
            f"got {got}",
        )
        return None
    found: list[str] = []
    good = True
    for index, item in enumerate(node.items):
        ikey = f"{akey}[{index}]"
        if not isinstance(item, ScalarNode) or item.refused:
            r.error(item.position, ikey, f"expected a name, got {describe(item)}")
            good = False
            continue
        name = item.value
        if not r.case_key(item, ikey, "alias", code_case):
            good = False
            continue
        clash = _alias_clash(name, code_node.value, found, codes)
        if clash is not None:
            r.error(
                item.position, ikey, f"alias {name!r} {clash}; a name is one code's"
            )
            good = False
            continue
        if ok and codes.wires.wire_type == "string":
            if not codes.wires.claim(r, ikey, code_node.value, name, item.position):
                good = False
                continue
        found.append(name)
        codes.aliases[name] = (code_node.value, item.position)
    return tuple(found) if good else None


def _alias_clash(name: str, code: str, earlier: list[str], codes: Codes) -> str | None:
    """Why ``name`` cannot be an alias of ``code`` (None when it can)."""
    if name == code or name in earlier:
        return "is already a name of this code"
    if name in codes.removed:
        return f"was removed in {codes.removed[name].since} and can never come back"
    if name in codes.valid:
        other = codes.valid[name][1]
        return f"is the key of code {name!r} (line {other.line})"
    if name in codes.aliases:
        owner, where = codes.aliases[name]
        return f"is already an alias of code {owner!r} (line {where.line})"
    return None
