"""The Go target's declaration: its templates, its runtime and where its files go.

Every run imports every target's declaration, selected or not (the manifest
trusts every target's paths), so this module is kept cheap: the view model
(``view.py``, with its dataclasses: about 5 ms of import) is imported only by
a run that renders Go.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from taxogen.naming import Names
from taxogen.targets.base import Options, Runtime, Target, Template
from taxogen.targets.go.escape import go_comment, go_header, go_str


def view(names: Names, options: Options) -> Any:
    """The Go view of a named taxonomy (:func:`taxogen.targets.go.view.view`)."""
    from taxogen.targets.go import view as made

    return made.view(names, options)


TARGET = Target(
    name="go",
    view=view,
    templates=(
        Template(template="go/go.mod.j2", output="go/go.mod"),
        Template(template="go/errors.go.j2", output="go/errors.go"),
    ),
    runtime=(
        Runtime(
            source="runtime.go",
            output="go/internal/taxogen/runtime.go",
            comment="// ",
        ),
        Runtime(
            source="values.go",
            output="go/internal/taxogen/values.go",
            comment="// ",
        ),
    ),
    runtime_dir=Path(__file__).resolve().parent / "runtime",
    header=go_header,
    filters={"go_str": go_str, "go_comment": go_comment},
)
#: This folder's targets (see target.toml).
TARGETS = (TARGET,)
