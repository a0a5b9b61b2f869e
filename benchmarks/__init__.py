"""taxogen's benchmark suite: ``make bench`` (``python -m benchmarks.bench``); see
README.md.
"""
