"""What the benchmarks read of the machine they run on (Linux's /proc)."""

from __future__ import annotations

from contextlib import suppress
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Steal:
    """Ticks of the cores' time (/proc/stat): ``stolen`` of ``total`` the host gave to
    other guests while ours were ready to run."""

    stolen: int
    total: int

    @property
    def known(self) -> bool:
        return self.total > 0

    @property
    def share(self) -> float:
        return self.stolen / self.total if self.total else 0.0

    def __sub__(self, other: Steal) -> Steal:
        return Steal(self.stolen - other.stolen, self.total - other.total)

    def __add__(self, other: Steal) -> Steal:
        return Steal(self.stolen + other.stolen, self.total + other.total)

    def __str__(self) -> str:
        return f"{100 * self.share:.1f}%" if self.known else "?"


def steal() -> Steal:
    """The cores' time so far, and the part of it the host gave to others (steal is the
    eighth figure of /proc/stat's cpu line; guest time is counted in user time)."""
    with suppress(OSError):
        ticks = [int(t) for t in Path("/proc/stat").read_text().split("\n")[0].split()[1:]]
        return Steal(ticks[7] if len(ticks) > 7 else 0, sum(ticks[:8]))
    return Steal(0, 0)


def loadavg() -> str:
    with suppress(OSError):
        return " ".join(Path("/proc/loadavg").read_text().split()[:3])
    return "?"
