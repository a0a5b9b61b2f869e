"""The contract target: files computed in code, not rendered from templates.

The JSON Schema of the payload (:mod:`.schema`) and the conformance vectors
(:mod:`.vectors`) that every generated runtime, and any other implementation
of the protocol, must pass.  They are data, built as JSON values from the model
alone; this target only spells them (:mod:`.dump`): the schema indented, the
vectors one a line (readable, diffable, and fast to write at 20,000 vectors).
"""

from __future__ import annotations

from generator.naming import Names
from generator.targets.base import Target, header_lines
from generator.targets.contract import dump, schema, vectors

__all__ = ["PATHS", "SCHEMA_PATH", "TARGET", "VECTORS_PATH", "files"]

SCHEMA_PATH = "schema/error-payload.schema.json"
VECTORS_PATH = "conformance/vectors.json"
#: Every file the contract writes.
PATHS = (SCHEMA_PATH, VECTORS_PATH)


def files(names: Names) -> dict[str, bytes]:
    """The schema and the vectors of ``names``."""
    header = " ".join(header_lines(names.taxonomy.source))
    return {
        SCHEMA_PATH: dump.dump_json(schema.payload_schema(names, header)),
        VECTORS_PATH: dump.dump_json(vectors.vectors(names, header), inline_below=2),
    }


TARGET = Target(name="contract", compute=files, computed_paths=PATHS)
