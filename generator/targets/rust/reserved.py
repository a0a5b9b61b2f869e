"""Rust's reserved names: what no Rust name the rust target generates may be.

Rust's keywords (the Rust Reference, "Keywords": strict, reserved and weak;
``tests/targets/rust/test_rust_names.py`` asks rustc to take each as an
identifier), the types the prelude brings into every module, and the names
the generated crate declares itself.  A details field that is a keyword is
written as a raw identifier (``r#type``); the few keywords that cannot be one
get a trailing underscore (``self_``).  :func:`rust_reserved_reason` says, for
people, which of them a type or function name is.
"""

from __future__ import annotations

__all__ = [
    "RUST_CRATE_NAMES",
    "RUST_ERROR_METHODS",
    "RUST_KEYWORDS",
    "RUST_NOT_RAW",
    "RUST_PRELUDE",
    "rust_reserved_reason",
]

# The Rust Reference, "Keywords": strict (2015 and 2018 editions), reserved,
# and weak (macro_rules, union, 'static is a lifetime, safe and raw are
# contextual).
RUST_STRICT = frozenset(
    """as break const continue crate else enum extern false fn for if impl in let
    loop match mod move mut pub ref return self Self static struct super trait true
    type unsafe use where while async await dyn""".split()
)
RUST_RESERVED = frozenset(
    """abstract become box do final macro override priv typeof unsized virtual yield
    try gen""".split()
)
RUST_WEAK = frozenset("macro_rules union safe raw".split())
RUST_KEYWORDS = RUST_STRICT | RUST_RESERVED
# Keywords that cannot be raw identifiers (the Reference, "Identifiers").
RUST_NOT_RAW = frozenset("crate self super Self".split())
# What the standard prelude (2021) names, which a crate-level type would shadow.
RUST_PRELUDE = frozenset(
    """Box Clone Copy Default Drop Eq Err Extend Fn FnMut FnOnce From FromIterator
    Into IntoIterator Iterator None Ok Option Ord PartialEq PartialOrd Result Send
    Sized Some String Sync ToOwned ToString TryFrom TryInto Unpin Vec
    DoubleEndedIterator ExactSizeIterator AsMut AsRef""".split()
)
# What the generated crate declares at its root besides the names of the codes
# and domains (lib.rs and the runtime it re-exports).
RUST_CRATE_NAMES = frozenset(
    """Cause Code Domain Error InvalidPayloadError Object WrappedValue TABLES VERSION
    MAX_CODE_LENGTH MAX_DETAILS_DEPTH MAX_DETAILS_NODES MAX_WIRE_INTEGER
    error_from_event events from_payload is_retryable lookup runtime""".split()
)
# The methods of Error, which a code's is_xxx and a domain's in_domain_xxx
# helper (methods too) may not be.
RUST_ERROR_METHODS = frozenset(
    """build code data details details_as doc_url domain grpc_status http_status
    in_domain is_retryable meaning message message_absent new outside retry_after
    throttling to_payload to_value with_cause with_http_status with_message wrap
    wrap_value wire_code source fmt clone""".split()
)


def rust_reserved_reason(name: str, space: str) -> str | None:
    """Why ``name`` cannot be a Rust name of the generated crate (None when it
    can).  ``space`` is where it is declared: ``variant`` (of the ``Code`` or
    ``Domain`` enum), ``method`` (of ``Error``), ``item`` (at the crate's root:
    a constructor or a details struct)."""
    if name in RUST_KEYWORDS or name in RUST_WEAK:
        return "is a Rust keyword"
    if space == "variant":
        return (
            "is already a variant of the generated enum" if name in _VARIANTS else None
        )
    if space == "method":
        taken = name in RUST_ERROR_METHODS
        return "is already a method of the generated Error" if taken else None
    if name in RUST_PRELUDE:
        return "would shadow the Rust prelude's name"
    if name in RUST_CRATE_NAMES:
        return "is already defined by the generated Rust crate"
    return None


#: The variants the Code enum has besides the codes'.
_VARIANTS = frozenset({"Unrecognized"})
