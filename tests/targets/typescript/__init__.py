"""The typescript target's tests (issue 31: a target's tests live in its folder)."""
