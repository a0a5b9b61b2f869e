"""The Go target: a Go module, standard library only (off by default)."""

from generator.targets.go.target import GO_VERSION, TARGET, GoView

__all__ = ["GO_VERSION", "TARGET", "GoView"]
