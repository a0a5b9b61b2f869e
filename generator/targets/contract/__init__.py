"""The contract target: the wire format as data, a JSON Schema and conformance
vectors.
"""

from taxogen.targets.contract.target import CONFORMANCE, PATHS, SCHEMA, files

__all__ = ["CONFORMANCE", "PATHS", "SCHEMA", "files"]
