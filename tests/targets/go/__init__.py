"""The go target's own tests."""
