"""``python -m taxogen`` and the ``taxogen`` console script: the command line.

``python -m`` puts the working folder first on the import path, so in a
repository with a ``yaml.py`` or a ``jinja2/`` of its own those would run in
place of the libraries taxogen imports.  By the time this module runs, the
``taxogen`` package itself has been found, so the folder is taken off the path
again, as ``python -P`` would leave it off: every later import, taxogen's own and
its libraries', comes from the installation.

Both ways in pause the cycle collector before anything else is imported, as
:func:`taxogen.cli.main` does for the run itself: importing the command's
modules makes thousands of long-lived objects (classes, functions, tables),
which the collector would walk some 46 times, once wholly (about 5 to 10 ms of
every run, a few percent of a small one); the process exits after the run.
"""

import gc
import os
import sys
from typing import NoReturn

if not sys.flags.safe_path and sys.path and sys.path[0] in ("", os.getcwd()):
    del sys.path[0]


def entry() -> NoReturn:
    """The console script's entry point: the collector paused, then the command."""
    gc.disable()
    from taxogen.cli import run

    run()


if __name__ == "__main__":
    entry()
