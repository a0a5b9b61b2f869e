"""Packaging: the one thing pyproject.toml cannot say, which packages ship.

Every package under ``generator/`` is found (each target's folder among them,
so adding a target is adding its folder, issue 31), and the top-level
``templates/`` folder ships as ``generator.templates`` (``package-dir`` in
pyproject.toml).  A pyproject.toml says either a list of packages or a search,
never a search plus one mapped folder; everything else is in pyproject.toml.
"""

from setuptools import find_packages, setup

setup(
    packages=[
        *find_packages(include=["generator", "generator.*"]),
        "generator.templates",
    ]
)
