"""Go's reserved names: what no Go name the go target generates may be.

Go's keywords and predeclared identifiers (the Go specification; the test
``tests/test_reserved_sources.py`` holds these tables to the Go toolchain's own
lists), the initialisms Go spells in capitals, and the names the generated
package declares itself.  :func:`go_reserved_reason` says, for people, which
of them a name is; the go target's naming (``naming.py``) refuses such a name.
"""

from __future__ import annotations

__all__ = [
    "GO_INITIALISMS",
    "GO_KEYWORDS",
    "GO_PACKAGE_NAMES",
    "GO_PREDECLARED",
    "go_reserved_reason",
]

# Go's keywords (the Go specification, "Keywords") and predeclared identifiers
# ("Predeclared identifiers", Go 1.21's min/max/clear included): a Go name
# taxogen generates may be none of them.  The generated names are exported
# (capitalised), so only the package name could ever meet them; the check is
# made on every Go name all the same.
GO_KEYWORDS = frozenset(
    """break case chan const continue default defer else fallthrough for func go goto
    if import interface map package range return select struct switch type
    var""".split()
)
GO_PREDECLARED = frozenset(
    """any bool byte comparable complex64 complex128 error float32 float64 int int8
    int16 int32 int64 rune string uint uint8 uint16 uint32 uint64 uintptr true false
    iota nil append cap clear close complex copy delete imag len make max min new
    panic print println real recover""".split()
)
# Words Go spells in capitals inside an identifier: golint's list, and IO and OS
# (issue 30 §11: errno's domains), which Go's Code Review Comments' rule
# ("initialisms ... have a consistent case") gives and the standard library
# spells so (runtime.LockOSThread, syscall.PtraceIO): ``user_id`` → ``UserID``,
# ``http_url`` → ``HTTPURL``, ``blocking_io`` → ``BlockingIO``.  docs/go.md lists
# them, and the tests read the list from there.
GO_INITIALISMS = frozenset(
    """ACL API ASCII CPU CSS DNS EOF GUID HTML HTTP HTTPS ID IO IP JSON LHS OS QPS
    RAM RHS RPC SLA SMTP SQL SSH TCP TLS TTL UDP UI UID UUID URI URL UTF8 VM XML XMPP
    XSRF XSS""".split()
)
# Names the generated Go package declares at package level besides the names of
# the codes and domains (its runtime.go and errors.go; unexported ones start in
# lower case, which no generated name does).
GO_PACKAGE_NAMES = frozenset(
    """Code Domain Error ErrorFromEvent Events FromPayload InvalidPayloadError
    IsRetryable Lookup MaxCodeLength MaxDetailsDepth MaxDetailsNodes New
    ToError Version WrappedValue""".split()
)


def go_reserved_reason(name: str) -> str | None:
    """Why ``name`` cannot be a Go name of the generated package (None when it can)."""
    if name in GO_KEYWORDS:
        return "is a Go keyword"
    if name in GO_PREDECLARED:
        return "would shadow Go's predeclared identifier of that name"
    if name in GO_PACKAGE_NAMES:
        return "is already defined by the generated Go package"
    return None
