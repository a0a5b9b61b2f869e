"""The Jinja templates taxogen renders, shipped as package data of ``taxogen``.

This folder is the repository's top-level ``templates/``; setuptools installs
it as the package ``taxogen.templates`` (see ``[tool.setuptools]`` in
``pyproject.toml``), so the wheel and the sdist carry every ``*.j2`` file and
``taxogen.render`` finds them through the import system wherever pip puts the
tool, an editable install included.  It holds no code: this file only makes the
folder a package.
"""
