"""The TypeScript target: an ES module with error classes and a const enum of codes."""

from taxogen.targets.typescript.target import TARGET, TYPESCRIPT_RANGE, TypeScriptView

__all__ = ["TARGET", "TYPESCRIPT_RANGE", "TypeScriptView"]
