"""The docs target: one Markdown page of every domain and code, and the changes."""

from taxogen.targets.docs.target import TARGET, Change, DocsView, Field

__all__ = ["TARGET", "Change", "DocsView", "Field"]
