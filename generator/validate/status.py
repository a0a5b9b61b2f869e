"""Status: what a code maps to in other protocols, and the version it belongs to.

``http_status`` (an integer from 100 to 599, or a list of them: the statuses a
code may take, the first its default) and ``grpc_status`` (one of the 16
canonical gRPC status names but ``OK``, kept as the name) may sit on a code, on
a domain (for its codes) or at the top level (for every code); which one a code
carries is :meth:`taxogen.model.Taxonomy.mapped`.  ``throttling: true`` marks
a retryable code whose callers must back off; on a code that is not retryable it
is an error.  ``docs_url`` at the top level is each code's documentation link,
``{code}`` standing for its wire code.  A version (``version``, every ``since``)
is a semantic version or an ISO date that is a real date.  Each wrong value is
reported at its line and column, with a did-you-mean where one is certain:
``unavailable`` or ``14`` for ``UNAVAILABLE``, a quoted ``"404"`` for 404.
"""

from __future__ import annotations

import calendar
import re
from typing import NamedTuple

from taxogen.model import (
    DATE_VERSION,
    DOCS_URL_PLACEHOLDER,
    GRPC_STATUSES,
    HTTP_STATUSES,
    VERSION,
    parse_date_version,
    version_guess,
)
from taxogen.nodes import Node, ScalarNode, SeqNode
from taxogen.validate.hints import close_match
from taxogen.validate.reader import Found, Reader, get, join
from taxogen.validate.text import NULLS, describe, show

__all__ = [
    "MAX_URL_LENGTH",
    "STATUS_KEYS",
    "Statuses",
    "read_docs_url",
    "read_statuses",
    "read_throttling",
    "read_version",
]

#: The keys a code, a domain and the top level may all give.
STATUS_KEYS = ("http_status", "grpc_status")
#: The longest ``docs_url`` accepted (browsers and servers stop near 2,000).
MAX_URL_LENGTH = 2000

# RFC 3986: the characters a URL may hold as they are; anything else must be
# percent-encoded (a "%" only ever starts such an escape).
_URL_CHAR = re.compile(r"[A-Za-z0-9\-._~:/?#\[\]@!$&'()*+,;=]")
_PERCENT = re.compile(r"%[0-9A-Fa-f]{2}")


class Statuses(NamedTuple):
    """The statuses a code, domain or taxonomy declares (None: not declared) and
    whether every one declared could be read."""

    http_status: int | None
    grpc_status: str | None
    ok: bool
    #: Every status of ``http_status: [..]``, the default first; () for one.
    http_statuses: tuple[int, ...] = ()


#: What a mapping declaring neither status reads as.
_UNDECLARED = Statuses(None, None, True, ())


def read_statuses(r: Reader, key: str, found: Found) -> Statuses:
    """``http_status`` and ``grpc_status`` of the mapping at ``key``, if given."""
    if "http_status" not in found and "grpc_status" not in found:
        return _UNDECLARED  # most codes: no key path built, nothing read
    where = join(key, "http_status")
    several = get(found, "http_status", lambda n: _https(r, n, where))
    grpc = get(found, "grpc_status", lambda n: _grpc(r, n, join(key, "grpc_status")))
    http = None if several is None else several[0]
    ok = ("http_status" not in found or http is not None) and (
        "grpc_status" not in found or grpc is not None
    )
    listed = () if several is None or len(several[1]) < 2 else several[1]
    return Statuses(http, grpc, ok, listed)


def _https(r: Reader, node: Node, key: str) -> tuple[int, tuple[int, ...]] | None:
    """A status and every status given: ``(status, (status,))`` for one, a
    list's first and all of it (the statuses a code may take); None (reported)."""
    if not isinstance(node, SeqNode) or node.refused:
        one = _http(r, node, key)
        return None if one is None else (one, (one,))
    if not node.items:
        r.error(
            node.position,
            key,
            f"expected {_HTTP_WANTED} or a list of them (the statuses a code may "
            "take, its default first), got an empty list",
        )
        return None
    statuses: list[int] = []
    ok = True
    for index, item in enumerate(node.items):
        status = _http(r, item, f"{key}[{index}]")
        if status is None:
            ok = False
        elif status in statuses:
            r.error(
                item.position,
                f"{key}[{index}]",
                f"{status} is listed twice (first at [{statuses.index(status)}]); "
                "list each status once",
            )
            ok = False
        else:
            statuses.append(status)
    if not ok:
        return None
    return statuses[0], tuple(statuses)


_HTTP_WANTED = (
    f"an HTTP status (an integer from {HTTP_STATUSES[0]} to {HTTP_STATUSES[1]})"
)


def _http(r: Reader, node: Node, key: str) -> int | None:
    if node.refused:
        return None
    hint = ""
    if isinstance(node, ScalarNode) and re.fullmatch(r"[0-9]+", node.value):
        # Digits, not int(): Python refuses to convert over 4,300 of them.
        digits = node.value.lstrip("0") or "0"
        if node.plain:
            if len(digits) <= 3 and HTTP_STATUSES[0] <= int(digits) <= HTTP_STATUSES[1]:
                return int(digits)
            r.error(
                node.position, key, f"expected {_HTTP_WANTED}, got {show(digits)[1:-1]}"
            )
            return None
        hint = f"; quoted, it is text: write {show(digits)[1:-1]} without quotes"
    elif isinstance(node, ScalarNode) and not (node.plain and node.value in NULLS):
        lead = re.match(r"([1-5][0-9]{2})\s+[A-Za-z]", node.value)  # a reason
        if lead is not None:
            hint = f"; write the number alone, as {lead.group(1)}"
    r.error(node.position, key, f"expected {_HTTP_WANTED}, got {describe(node)}{hint}")
    return None


def _grpc(r: Reader, node: Node, key: str) -> str | None:
    if node.refused:
        return None
    if isinstance(node, ScalarNode) and node.value in GRPC_STATUSES:
        return node.value
    hint = ""
    if isinstance(node, ScalarNode) and not (node.plain and node.value in NULLS):
        text = node.value.strip()
        spelt = re.sub(r"[\s-]+", "_", text).upper()
        if spelt in ("OK", "0"):
            hint = "; OK is no error: a code maps to one of the others"
        elif re.fullmatch(r"[0-9]{1,2}", text) and 1 <= int(text) <= len(GRPC_STATUSES):
            name = GRPC_STATUSES[int(text) - 1]
            hint = f"; gRPC code {int(text)} is {name!r}: write its name"
        else:
            guess = (
                spelt if spelt in GRPC_STATUSES else close_match(spelt, GRPC_STATUSES)
            )
            if guess is not None:
                hint = f"; did you mean {guess!r}?"
    names = "" if hint else f" ({', '.join(GRPC_STATUSES)})"
    r.error(
        node.position,
        key,
        f"expected a canonical gRPC status name{names}, got {describe(node)}{hint}",
    )
    return None


def read_throttling(
    r: Reader, key: str, found: Found, retryable: bool | None
) -> bool | None:
    """``throttling`` of a code (False when not given), None when it is wrong.

    Throttling says how to retry, so only a retryable code may say ``true``
    (``false`` is what every code is anyway, and allowed).
    """
    if "throttling" not in found:
        return False
    key_node, node = found["throttling"]
    value = r.boolean(node, join(key, "throttling"))
    if value and retryable is False:
        r.error(
            node.position,
            join(key, "throttling"),
            "throttling is for a retryable code (its callers back off, then "
            "retry), and this code has retryable: false; make it retryable or "
            "remove throttling",
        )
        return None
    return value


def read_docs_url(r: Reader, node: Node, key: str = "docs_url") -> str | None:
    """A ``docs_url``: an absolute http(s) URL holding ``{code}`` once, after the
    host (in the path, the query or the fragment), no other brace, every other
    character one a URL may hold (else percent-encoded)."""
    text = r.text(node, key)
    if text is None:
        return None
    problem = _url_problem(text)
    if problem is not None:
        r.error(node.position, key, problem)
        return None
    return text


def _url_problem(text: str) -> str | None:
    example = f"such as 'https://errors.example.com/{DOCS_URL_PLACEHOLDER}'"
    if len(text) > MAX_URL_LENGTH:
        return f"longer than {MAX_URL_LENGTH} characters"
    count = text.count(DOCS_URL_PLACEHOLDER)
    rest = text.replace(DOCS_URL_PLACEHOLDER, "\0" * len(DOCS_URL_PLACEHOLDER))
    brace = re.search(r"[{}]", rest)
    if brace is not None:
        return (
            f"a brace is only part of the placeholder {DOCS_URL_PLACEHOLDER}, which "
            f"stands for each code; got {show(text)} (a {brace.group()!r} at "
            f"character {brace.start() + 1})"
        )
    if count != 1:
        return (
            f"expected a URL holding {DOCS_URL_PLACEHOLDER} once, where each code's "
            f"wire code goes ({example}); got {show(text)}"
            + ("" if count == 0 else f", which holds it {count} times")
        )
    # The placeholder as that many letters: every position stays the text's.
    filled = text.replace(DOCS_URL_PLACEHOLDER, "x" * len(DOCS_URL_PLACEHOLDER))
    bad = _bad_url_char(filled)
    if bad is not None:
        char = filled[bad]
        encoded = "".join(f"%{byte:02X}" for byte in char.encode("utf-8"))
        how = f"percent-encode it ({encoded})" if char != "%" else "write it %25"
        return (
            f"{char!r} at character {bad + 1} is not allowed in a URL; {how}"
            f" (got {show(text)})"
        )
    found = re.match(r"(https?)://([^/?#]*)", filled)
    if found is None:
        return f"expected an absolute http or https URL ({example}), got {show(text)}"
    authority = found.group(2)
    if not authority or authority.startswith(("@", ":")) or authority.endswith("@"):
        return f"the URL {show(text)} names no host"
    if text.index(DOCS_URL_PLACEHOLDER) < found.end():
        return (
            f"{DOCS_URL_PLACEHOLDER} must come after the host (in the path, the "
            f"query or the fragment), got {show(text)}"
        )
    return None


def _bad_url_char(text: str) -> int | None:
    """The index of the first character of ``text`` a URL may not hold as it is."""
    index = 0
    while index < len(text):
        if _PERCENT.match(text, index):
            index += 3
        elif _URL_CHAR.match(text, index):
            index += 1
        else:
            return index
    return None


def read_version(r: Reader, node: Node, key: str) -> str | None:
    """A version: a semantic version, or an ISO date that is a real date."""
    text = r.matching(
        node,
        key,
        VERSION,
        "a semantic version such as '1.2.0' or a date such as '2024-06-20'",
        version_guess,
    )
    if text is None or not DATE_VERSION.fullmatch(text):
        return text
    if parse_date_version(text) is not None:
        return text
    year, month, day = (int(part) for part in text.split("-"))
    if year == 0:
        why = "there is no year 0"
    elif not 1 <= month <= 12:
        why = f"there is no month {month}"
    else:
        days = calendar.monthrange(year, month)[1]
        why = f"{calendar.month_name[month]} {year} has {days} days"
    r.error(node.position, key, f"{show(text)} is not a date: {why}")
    return None
