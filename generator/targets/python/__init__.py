"""The Python target: a typed package of exception classes and enums (see target.py)."""

from taxogen.targets.python.target import LAZY_ABOVE, TARGET, PythonView, lazy

__all__ = ["LAZY_ABOVE", "TARGET", "PythonView", "lazy"]
