"""Each target's own tests, in a folder named for it (issue 31 §1)."""
