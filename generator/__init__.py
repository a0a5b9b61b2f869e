"""taxogen: one taxonomy.yaml of error codes → Python, TypeScript, Markdown in sync.

The pipeline, one module per step: ``source`` (YAML → nodes with positions),
``validate`` (nodes → the frozen ``model``, every problem collected), ``naming``
(identifiers per language), ``render`` (templates → a plan of files, Python
finished by ``pysyntax``) and ``emit`` (write atomically, or compare for
``check``); ``pipeline`` chains them and ``cli`` is the command line.
"""

__all__ = ["__version__"]

__version__ = "0.1.0"
