"""The contract targets: files computed in code, not rendered from templates.

The JSON Schema of the payload (:mod:`.schema`, the ``schema`` target) and the
conformance vectors (:mod:`.vectors`, the ``conformance`` target) that every
generated runtime, and any other implementation of the protocol, must pass.
They are data, built as JSON values from the model alone; these targets only
spell them (:mod:`.dump`): the schema indented, the vectors one a line
(readable, diffable, and fast to write at 20,000 vectors).  Each can be
selected alone (``targets`` in ``[tool.taxogen]``, ``--target``).
"""

from __future__ import annotations

from taxogen.naming import Names
from taxogen.targets.base import Target, header_lines
from taxogen.targets.contract import dump, schema, vectors

__all__ = [
    "CONFORMANCE",
    "PATHS",
    "SCHEMA",
    "SCHEMA_PATH",
    "TARGETS",
    "VECTORS_PATH",
    "files",
]

SCHEMA_PATH = "schema/error-payload.schema.json"
VECTORS_PATH = "conformance/vectors.json"
#: Every file the contract writes.
PATHS = (SCHEMA_PATH, VECTORS_PATH)


def _header(names: Names) -> str:
    return " ".join(header_lines(names.taxonomy.source))


def schema_files(names: Names) -> dict[str, bytes]:
    """The JSON Schema of the payload of ``names``."""
    return {SCHEMA_PATH: dump.dump_json(schema.payload_schema(names, _header(names)))}


def vector_files(names: Names) -> dict[str, bytes]:
    """The conformance vectors of ``names``."""
    document = vectors.vectors(names, _header(names))
    return {VECTORS_PATH: dump.dump_json(document, inline_below=2)}


def files(names: Names) -> dict[str, bytes]:
    """The schema and the vectors of ``names``."""
    return {**schema_files(names), **vector_files(names)}


SCHEMA = Target(name="schema", compute=schema_files, computed_paths=(SCHEMA_PATH,))
CONFORMANCE = Target(
    name="conformance", compute=vector_files, computed_paths=(VECTORS_PATH,)
)
#: This folder's targets (see target.toml).
TARGETS = (SCHEMA, CONFORMANCE)
