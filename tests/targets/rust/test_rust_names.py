"""Rust's reserved words, held to rustc itself (README "Rust", reserved.py).

The Rust Reference's keywords (strict, reserved, weak) are listed in
``generator/targets/rust/reserved.py``; here rustc is asked to take each as a
plain identifier (``let <word> = 1;``, edition 2021): every strict and reserved
keyword must be refused (``gen`` only from edition 2024, where rustc knows
it), every weak one and a control word accepted; as a raw identifier
(``r#<word>``) every keyword is taken but the four the Reference says cannot
be raw, which the details fields spell with a trailing underscore instead.
The crate-level names of reserved.py are those lib.rs and the runtime declare.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from taxogen.pipeline import build_plan, load_names
from taxogen.targets.rust.naming import code_names, field_name
from taxogen.targets.rust.reserved import (
    RUST_CRATE_NAMES,
    RUST_ERROR_METHODS,
    RUST_NOT_RAW,
    RUST_RESERVED,
    RUST_STRICT,
    RUST_WEAK,
)
from tests.support import REPO
from tests.targets.rust.test_rust import _tool
from tests.support import require_tool

RUNTIME = REPO / "generator" / "targets" / "rust" / "runtime" / "runtime.rs"


def _compiles(source: str, tmp_path: Path, edition: str = "2021") -> bool:
    rustc = _tool("rustc")
    require_tool(rustc is not None, "rustc (`make rust` installs Debian's)")
    assert rustc is not None
    path = tmp_path / "probe.rs"
    path.write_text(source)
    done = subprocess.run(
        [
            rustc,
            "--edition",
            edition,
            "--crate-type",
            "lib",
            "--emit",
            "metadata",
            "-o",
            str(tmp_path / "probe.rmeta"),
            str(path),
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    return done.returncode == 0


def _binding(word: str) -> str:
    return f"#![allow(unused)]\npub fn f() {{ let {word} = 1; }}\n"


@pytest.mark.parametrize("word", sorted(RUST_STRICT | RUST_RESERVED - {"gen"}))
def test_every_keyword_is_refused_as_an_identifier(word: str, tmp_path: Path) -> None:
    assert not _compiles(_binding(word), tmp_path)


@pytest.mark.parametrize("word", sorted(RUST_WEAK) + ["acme", "gen"])
def test_weak_keywords_and_a_control_are_identifiers(word: str, tmp_path: Path) -> None:
    """Weak keywords are identifiers outside their context (taxogen refuses
    them all the same: a reader should not meet ``union`` as a name)."""
    assert _compiles(_binding(word), tmp_path)


@pytest.mark.parametrize("word", sorted(RUST_STRICT | RUST_RESERVED | RUST_WEAK))
def test_a_details_field_of_every_keyword_compiles(word: str, tmp_path: Path) -> None:
    """field_name spells a keyword raw, or with ``_`` where it cannot be raw."""
    name = field_name(word)
    snake = word.lower()  # a field is spelt in snake case: Self is self
    assert name == (snake + "_" if snake in RUST_NOT_RAW else f"r#{snake}")
    source = f"#![allow(unused)]\npub struct S {{ pub {name}: i64 }}\n"
    assert _compiles(source, tmp_path)
    if snake in RUST_NOT_RAW:
        raw = f"#![allow(unused)]\npub struct S {{ pub r#{snake}: i64 }}\n"
        assert not _compiles(raw, tmp_path)


def test_the_crate_names_are_what_the_crate_declares() -> None:
    """RUST_CRATE_NAMES: lib.rs's root items and re-exports, less the
    taxonomy's own; RUST_ERROR_METHODS: the runtime's methods of Error."""
    names = load_names(REPO / "taxonomy.yaml")
    lib = build_plan(REPO / "taxonomy.yaml", ["rust"])["rust/src/lib.rs"].decode()
    declared = set(
        re.findall(r"^(?:pub )?(?:fn|struct|enum|const|mod) (\w+)", lib, re.M)
    )
    uses = lib.split("pub use runtime::{")[1].split("};")[0]
    declared |= {name.strip() for name in uses.split(",") if name.strip()}
    own = {
        name
        for c in map(code_names, names.codes)
        for name in (c.new, c.details)
        if name
    }
    assert declared - own == RUST_CRATE_NAMES
    runtime = RUNTIME.read_text()
    block = runtime.split("\nimpl Error {\n")[1].split("\n}\n")[0]
    methods = set(re.findall(r"^    pub(?:\(crate\))? fn (\w+)", block, re.M))
    assert methods <= RUST_ERROR_METHODS


def test_a_word_is_spelt_alike_however_often_it_is_met() -> None:
    # rust_camel remembers each word's spelling (issue 34); its docstring is the
    # oracle: UpperCamelCase of the words, an acronym as one word.
    from taxogen.targets.rust.naming import rust_camel

    assert [rust_camel(text) for text in ("IOError", "io_error", "IO_ERROR")] == [
        "IoError",
        "IoError",
        "IoError",
    ]
    assert rust_camel("HTTPServerError") == "HttpServerError"
