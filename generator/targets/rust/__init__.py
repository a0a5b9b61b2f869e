"""The Rust target: a Rust crate depending on serde and serde_json only (off by
default).

Its target is in ``target.py`` and its options in ``options.py``; this file
imports neither, so that reading the options (every run's settings) does not
load the target.
"""
