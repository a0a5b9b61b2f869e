"""The contract target: the wire format as data, a JSON Schema and conformance
vectors.
"""

from generator.targets.contract.target import PATHS, TARGET, files

__all__ = ["PATHS", "TARGET", "files"]
