"""The docs target: one Markdown page of every domain and code, and the changes."""

from generator.targets.docs.target import TARGET, Change, DocsView, Field

__all__ = ["TARGET", "Change", "DocsView", "Field"]
