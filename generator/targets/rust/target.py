"""The Rust target's declaration: its templates, its runtime and where its files go.

Every run imports every target's declaration, selected or not (the manifest
trusts every target's paths), so this module is kept cheap: the view model
(``view.py``, with its dataclasses: about 5 ms of import) is imported only by
a run that renders Rust.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from taxogen.naming import Names
from taxogen.targets.base import Options, Runtime, Target, Template
from taxogen.targets.rust.escape import rust_comment, rust_str


def view(names: Names, options: Options) -> Any:
    """The Rust view of a named taxonomy (:func:`taxogen.targets.rust.view.view`)."""
    from taxogen.targets.rust import view as made

    return made.view(names, options)


TARGET = Target(
    name="rust",
    view=view,
    templates=(
        Template(template="rust/Cargo.toml.j2", output="rust/Cargo.toml"),
        Template(template="rust/lib.rs.j2", output="rust/src/lib.rs"),
        Template(template="rust/tables.json.j2", output="rust/src/tables.json"),
    ),
    runtime=(
        Runtime(source="runtime.rs", output="rust/src/runtime.rs", comment="// "),
    ),
    runtime_dir=Path(__file__).resolve().parent / "runtime",
    filters={"rust_str": rust_str, "rust_comment": rust_comment},
)
#: This folder's targets (see target.toml).
TARGETS = (TARGET,)
