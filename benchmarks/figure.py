"""Figure: one reported figure, its baseline and target, and how values are shown."""

from __future__ import annotations

import dataclasses

__all__ = ["Figure", "fmt_bytes", "fmt_n", "fmt_seconds", "fmt_size"]


def fmt_seconds(value: float) -> str:
    if value != value:
        return "—"
    if value < 0:
        return "−" + fmt_seconds(-value)
    if value >= 1:
        return f"{value:.2f} s"
    if value >= 1e-3:
        return f"{value * 1e3:.1f} ms"
    if value >= 1e-6:
        return f"{value * 1e6:.2f} µs"
    return f"{value * 1e9:.0f} ns"


def fmt_bytes(kib: float) -> str:
    return f"{kib / 1024:.0f} MB"


def fmt_size(size: float) -> str:
    """A size in bytes, as a file's (1 KB = 1,024 bytes)."""
    if size < 1024:
        return f"{size:.0f} B"
    return f"{size / 1024:.1f} KB"


def fmt_n(n: int) -> str:
    return f"{n:,}"


@dataclasses.dataclass
class Figure:
    """One reported figure: its median, its baseline's median (same run), the target."""

    id: str
    title: str
    n: str
    value: float
    baseline_label: str
    baseline: float
    target: str
    checks: list[tuple[str, bool]]
    unit: str = "s"  # "s", "kib", "bytes", or "x" (a plain ratio)
    note: str = ""

    @property
    def ratio(self) -> float:
        return self.value / self.baseline if self.baseline else float("inf")

    def show(self, value: float) -> str:
        if self.unit == "kib":
            return fmt_bytes(value)
        if self.unit == "bytes":
            return fmt_size(value)
        if self.unit == "x":
            return f"{value:.2f}"
        return fmt_seconds(value)

    def verdict(self, smoke: bool) -> str:
        if smoke:
            return "n/a (smoke)"
        return "PASS" if all(ok for _, ok in self.checks) else "MISS"
