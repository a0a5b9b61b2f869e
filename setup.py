"""Packaging: the one thing pyproject.toml cannot say, which packages ship.

The import package is ``taxogen``; its source is the repository's
``generator/`` folder (``package-dir`` in pyproject.toml maps one to the
other).  Every package under ``generator/`` is found (each target's folder
among them, so adding a target is adding its folder, issue 31), and the
top-level ``templates/`` folder ships as ``taxogen.templates``.  A
pyproject.toml says either a list of packages or a search, never a search
under a renamed folder plus one mapped folder; everything else is in
pyproject.toml.
"""

from setuptools import find_packages, setup

setup(
    packages=[
        "taxogen",
        *(f"taxogen.{name}" for name in find_packages(where="generator")),
        "taxogen.templates",
    ]
)
