"""The openapi target: the catalogue as OpenAPI 3.1 components an API can $ref."""

from taxogen.targets.openapi.target import PATH, TARGET, document

__all__ = ["PATH", "TARGET", "document"]
