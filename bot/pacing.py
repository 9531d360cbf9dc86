"""The outbox's pacing: its limits, and the global rate that adapts to Telegram's 429s."""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass

log = logging.getLogger(__name__)
WORTH_A_WAIT = 0.001  # seconds: a shorter wait for the global rate is not worth a loop pass


@dataclass(frozen=True)
class Limits:
    per_chat: float = 1.0  # seconds between two messages to one chat, on average
    chat_burst: int = 3  # messages a quiet chat may get at once
    group_per_minute: int = 20  # sends and edits in one group, evenly spaced
    per_second: float = 30.0  # the global rate to start at; it adapts
    max_per_second: float = 10_000.0  # a bound on the adapted rate, not a target
    timeout: float = 10.0  # seconds one call may take (rounded up to whole seconds)
    backoff: float = 0.5  # seconds before the first retry of a failed call; doubles
    attempts: int = 5  # tries of one call
    idle: float = 60.0  # quiet seconds after which a chat's worker ends


class Rate:
    """The global pace: calls are spaced ``1 / rate`` apart; each second in which a
    call had to wait and no 429 came multiplies the rate by ``growth``; a 429 halves
    it (once, however many calls get one until its ``retry_after`` has passed)."""

    growth = 1.5

    def __init__(self, start: float, ceiling: float) -> None:
        self.rate = start
        self.ceiling = ceiling
        self._next = 0.0  # when the next call may start
        self._since = time.monotonic()
        self._waited = False
        self._hold = 0.0  # no growth before this

    def reserve(self) -> float:
        """Book the next free moment; returns how long to wait for it."""
        now = time.monotonic()
        if now - self._since >= 1.0:
            if self._waited and now >= self._hold:
                self.rate = min(self.ceiling, self.rate * self.growth)
            self._since, self._waited = now, False
        slot = max(now, self._next)
        self._next = slot + 1.0 / self.rate
        self._waited |= slot - now > WORTH_A_WAIT  # (shorter waits: no room to grow)
        return slot - now

    def cut(self, retry_after: float) -> None:
        now = time.monotonic()
        if now >= self._hold:
            self.rate = max(1.0, self.rate / 2)
            log.warning("429: global rate down to %.1f calls/s", self.rate)
        self._hold = max(self._hold, now + max(1.0, retry_after))
        self._since, self._waited = now, False
