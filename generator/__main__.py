"""``python -m generator``: the taxogen command line."""

from generator.cli import run

run()
