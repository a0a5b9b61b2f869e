"""The contract target: files computed in code, not rendered from templates.

The JSON Schema of the payload and the conformance vectors that every
generated runtime, and any other implementation of the protocol, must pass.
They are data, so :mod:`generator.contract` builds them as JSON values and
this target only spells them: the schema indented, the vectors one a line
(readable, diffable, and fast to write at 20,000 vectors).
"""

from __future__ import annotations

from generator import contract
from generator.naming import Names
from generator.targets.base import Target, header_lines

__all__ = ["TARGET", "files"]


def files(names: Names) -> dict[str, bytes]:
    """The schema and the vectors of ``names``."""
    header = " ".join(header_lines(names.taxonomy.source))
    return {
        contract.SCHEMA_PATH: contract.dump_json(
            contract.payload_schema(names, header)
        ),
        contract.VECTORS_PATH: contract.dump_json(
            contract.vectors(names, header), inline_below=2
        ),
    }


TARGET = Target(name="contract", compute=files, computed_paths=contract.PATHS)
