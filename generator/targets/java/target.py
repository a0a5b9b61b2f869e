"""The Java target's declaration: its templates, its runtime and where its files go.

Every run imports every target's declaration, selected or not (the manifest
trusts every target's paths), so this module is kept cheap: the view model
(``view.py``, with its dataclasses: about 5 ms of import) is imported only by
a run that renders Java.  A class, a record and a runtime file each are one
file, named by the view (``each``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from taxogen.naming import Names
from taxogen.targets.base import Options, Target, Template
from taxogen.targets.java.escape import java_comment, java_str

if TYPE_CHECKING:
    from taxogen.targets.java.view import JavaView

__all__ = ["RUNTIME", "TARGET", "TARGETS", "view"]

#: The runtime's sources (real Java, compiled and tested as they are).
RUNTIME = Path(__file__).resolve().parent / "runtime"


def view(names: Names, options: Options) -> Any:
    """The Java view of a named taxonomy (:func:`taxogen.targets.java.view.view`)."""
    from taxogen.targets.java import view as made

    return made.view(names, options)


Each = Iterable[tuple[Mapping[str, str], Mapping[str, Any]]]


def _one(name: str) -> Any:
    def each(view: JavaView) -> Each:
        yield {"folder": view.folder, "name": name}, {}

    return each


def _base(view: JavaView) -> Each:
    yield {"folder": view.folder, "name": view.base}, {}


def _per_class(view: JavaView) -> Each:
    for cls in view.classes:
        yield {"folder": view.folder, "name": cls.name}, {"c": cls}


def _per_record(view: JavaView) -> Each:
    for record in view.records:
        yield {"folder": view.folder, "name": record.name}, {"r": record}


def _per_runtime(view: JavaView) -> Each:
    for name, source in view.runtime:
        yield {"folder": view.folder, "name": name}, {"source": source}


_SOURCES = "java/src/main/java/{folder}/"
TARGET = Target(
    name="java",
    view=view,
    templates=(
        Template(
            template="java/Base.java.j2", output=_SOURCES + "{name}.java", each=_base
        ),
        Template(
            template="java/Class.java.j2",
            output=_SOURCES + "{name}.java",
            each=_per_class,
        ),
        Template(
            template="java/Details.java.j2",
            output=_SOURCES + "{name}.java",
            each=_per_record,
        ),
        *(
            Template(
                template=f"java/{name}.java.j2",
                output=_SOURCES + "{name}.java",
                each=_one(name),
            )
            for name in ("Code", "Domain", "Errors", "Registry")
        ),
        Template(
            template="java/runtime.java.j2",
            output=_SOURCES + "runtime/{name}.java",
            each=_per_runtime,
        ),
    ),
    placeholders={
        "folder": r"[A-Za-z_$][A-Za-z0-9_$]*(?:/[A-Za-z_$][A-Za-z0-9_$]*)*",
        "name": r"[A-Za-z_$][A-Za-z0-9_$]*",
    },
    filters={"java_str": java_str, "java_comment": java_comment},
)
#: This folder's targets (see target.toml).
TARGETS = (TARGET,)
