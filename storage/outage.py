"""When the database could not be reached (a server restarting, a network cut): noted by
the database's calls, each failure for want of a connection and the first success after
them, so that the service can give the players back the time an outage took from them
(``service.outage``). A SQLite file is never out of reach."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Outage:
    """From the first call that failed (epoch seconds) to the first that succeeded after
    it (None: none has yet)."""

    started: float
    ended: float | None = None


class Reach:
    """The database's last outage, over or going on."""

    def __init__(self, now: Callable[[], float] = time.time) -> None:
        self._now = now
        self._since: float | None = None
        self._last: Outage | None = None

    def failed(self) -> None:
        """A call failed for want of a connection."""
        if self._since is None:
            self._since = self._now()
            log.warning("the database cannot be reached")

    def reached(self) -> None:
        """A call succeeded."""
        if self._since is not None:
            now = self._now()
            self._last, self._since = Outage(self._since, now), None
            log.warning("the database is back after %.1f s", now - self._last.started)

    def outage(self) -> Outage | None:
        """The outage going on, else the last one (None: there was none)."""
        return Outage(self._since) if self._since is not None else self._last
