"""``python -m taxogen``: the taxogen command line.

``python -m`` puts the working folder first on the import path, so in a
repository with a ``yaml.py`` or a ``jinja2/`` of its own those would run in
place of the libraries taxogen imports.  By the time this module runs, the
``taxogen`` package itself has been found, so the folder is taken off the path
again, as ``python -P`` would leave it off: every later import, taxogen's own and
its libraries', comes from the installation.
"""

import os
import sys

if not sys.flags.safe_path and sys.path and sys.path[0] in ("", os.getcwd()):
    del sys.path[0]

from taxogen.cli import run  # noqa: E402  (after the path is made safe)

run()
