"""Time as a dependency, so that tests run thirty-second timers in no time."""

from __future__ import annotations

import time
from typing import Protocol


class Clock(Protocol):
    def now(self) -> float:
        """Seconds since the epoch, as stored in the database."""
        ...

    def real_seconds(self, seconds: float) -> float:
        """How long to really wait for ``seconds`` of this clock to pass."""
        ...


class SystemClock:
    def now(self) -> float:
        return time.time()

    def real_seconds(self, seconds: float) -> float:
        return seconds


class FakeClock:
    """A clock that moves only when told to (``advance``) or, with ``speed``,
    runs ``speed`` times faster than real time."""

    def __init__(self, start: float = 1_700_000_000.0, *, speed: float | None = None) -> None:
        self._start = start
        self._offset = 0.0
        self._real0 = time.monotonic()
        self.speed = speed

    def now(self) -> float:
        running = (time.monotonic() - self._real0) * self.speed if self.speed else 0.0
        return self._start + self._offset + running

    def advance(self, seconds: float) -> None:
        self._offset += seconds

    def real_seconds(self, seconds: float) -> float:
        return seconds / self.speed if self.speed else 3600.0  # a manual clock never wakes us
