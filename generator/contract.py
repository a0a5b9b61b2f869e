"""Contract, as it was importable before it moved to :mod:`generator.targets.contract`.

Kept only for ``benchmarks/children.py``, which imports it by this name: the
schema, the vectors and their JSON spelling now live in the contract target's
package (``schema``, ``vectors``, ``dump``), which nothing here is used by.
"""

from __future__ import annotations

from generator.targets.contract.dump import dump_json
from generator.targets.contract.schema import (
    MAX_CODE_LENGTH,
    MAX_DETAILS_DEPTH,
    MAX_DETAILS_NODES,
    payload_schema,
)
from generator.targets.contract.target import PATHS, SCHEMA_PATH, VECTORS_PATH
from generator.targets.contract.vectors import vectors

__all__ = [
    "MAX_CODE_LENGTH",
    "MAX_DETAILS_DEPTH",
    "MAX_DETAILS_NODES",
    "PATHS",
    "SCHEMA_PATH",
    "VECTORS_PATH",
    "dump_json",
    "payload_schema",
    "vectors",
]
