"""Environment: the one Jinja environment every target renders through.

``StrictUndefined``, so a template that names something its view lacks fails
loudly; no autoescaping, since every target escapes for its own language with
its own filters (its folder's escapers); each target renders through an overlay
holding its own filters only, so a Python filter cannot leak into TypeScript.
Compiled templates are cached in taxogen's cache folder (:class:`_TemplateCache`).
With a user's templates folder, the environment is the sandbox of
:mod:`taxogen.targets.sandbox` instead, its templates served from the bytes
read once (:class:`taxogen.user_templates.FolderLoader`), without that cache.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import jinja2
import jinja2.bccache

import taxogen.templates
from taxogen import cache
from taxogen.targets.sandbox import Sandbox
from taxogen.user_templates import FolderLoader, UserTemplates

__all__ = ["TEMPLATES", "environment", "overlay"]

#: Where the templates live: the package data ``taxogen.templates``, found
#: through the import system (the repository's top-level ``templates/`` folder,
#: which the wheel and the sdist ship inside the package; an editable install
#: maps it to the checkout's folder).  Each target's templates are in a folder
#: named for the target.
TEMPLATES = Path(taxogen.templates.__file__).resolve().parent


class _TemplateCache(jinja2.BytecodeCache):
    """Compiled templates kept in taxogen's cache folder (:mod:`taxogen.cache`).

    Compiling the templates costs about 50 ms a run (more than rendering the
    shipped taxonomy), and they only change with taxogen.  Jinja checks an
    entry against its template's source, its bytecode format and the Python
    version; the file name adds what it does not check: Jinja's version and
    this module's source (the environment's options).  A compiled template is
    code that runs, so entries are read only from the cache's own folder, where
    no one but the user can write (never from a repository or the installed
    package); no usable cache, or an unreadable entry, only means compiling.
    """

    #: The most compiled templates kept: every built-in one many times over.
    KEEP = 512
    #: An entry's name: Jinja's bucket key (SHA-1), then the tag (see _name).
    NAMES = re.compile(r"[0-9a-f]{40}\.[0-9a-f]{16}\.jinja")
    #: The largest entry read: the largest compiled template is about 100 KiB.
    LIMIT = 16 * 1024 * 1024

    def __init__(self) -> None:
        stamp = hashlib.sha256(
            jinja2.__version__.encode() + Path(__file__).read_bytes()
        )
        self.tag = stamp.hexdigest()[:16]

    def _name(self, bucket: jinja2.bccache.Bucket) -> str:
        return f"{bucket.key}.{self.tag}.jinja"

    def load_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        shelf = cache.shelf("templates", keep=self.KEEP, create=False, names=self.NAMES)
        if shelf is None:
            return
        with shelf:
            data = shelf.read(self._name(bucket), self.LIMIT)
        if data is None:
            return
        try:
            bucket.bytecode_from_string(data)
        except Exception:  # a truncated or foreign file: compile instead
            bucket.reset()

    def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        shelf = cache.shelf("templates", keep=self.KEEP, create=True, names=self.NAMES)
        if shelf is None:
            return
        with shelf:
            shelf.write(self._name(bucket), bucket.bytecode_to_string())


#: How every environment renders, sandboxed or not.
_OPTIONS: dict[str, Any] = {
    "undefined": jinja2.StrictUndefined,
    "autoescape": False,
    "trim_blocks": True,
    "lstrip_blocks": True,
    "keep_trailing_newline": True,
}


def environment(user: UserTemplates | None = None) -> jinja2.Environment:
    """A new environment over :data:`TEMPLATES` (one per render); with ``user``, a
    folder of templates (see :mod:`taxogen.user_templates`), whose templates
    are found first, all of them rendered in the sandbox."""
    builtin = jinja2.FileSystemLoader(TEMPLATES)
    if user is None:
        return jinja2.Environment(
            loader=builtin, bytecode_cache=_TemplateCache(), **_OPTIONS
        )
    loader = jinja2.ChoiceLoader([FolderLoader(user), builtin])
    return Sandbox(loader=loader, bytecode_cache=None, **_OPTIONS)


def overlay(
    env: jinja2.Environment, filters: Mapping[str, Callable[..., str]]
) -> jinja2.Environment:
    """``env`` with ``filters`` and no other target's."""
    layer = env.overlay()
    layer.filters.update(filters)
    return layer
