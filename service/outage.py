"""An outage of the database does not cost a player the turn.

While the database cannot be reached nobody can move, and a deadline that comes then
cannot fire either (its timer tries again). When it does fire, a deadline that fell in
the outage (or within ``AFTER`` seconds of its end) is moved on by the outage's length
instead: the player gets back the time they had when the database went away, and at
least ``LEAST`` seconds from now. The outage is what the database's calls saw
(``storage.outage``): its first failed call may come a little after the real start, so
a deadline up to ``BEFORE`` seconds before it counts too (its own fire failed then).
While games run, ``Watch`` asks the database every ``EVERY`` seconds whether it is there,
so that an outage's start and end are known to within that, and at its end the
deadlines that could not fire meanwhile fire at once (instead of at their timers' next
try, up to half a minute later).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable

from storage.db import Database
from storage.outage import Outage

log = logging.getLogger(__name__)

BEFORE = 5.0  # seconds before the first failed call that still count as in the outage
AFTER = 5.0  # seconds after the first call that succeeded again
LEAST = 10.0  # seconds a player has at least once their deadline moved on
EVERY = 2.0  # seconds between two questions of ``Watch``


def moved_deadline(deadline: float, outage: Outage | None, now: float) -> float | None:
    """Where an outage moves ``deadline``, due ``now`` (None: it did not fall in one).
    An outage still going on ends now, if this step reaches the database.

    >>> moved_deadline(120.0, Outage(100.0, 130.0), 131.0)  # 20 s left at 100: 20 s at 130
    150.0
    >>> moved_deadline(132.0, Outage(100.0, 130.0), 132.0)  # just after: nobody could move
    162.0
    >>> moved_deadline(101.0, Outage(100.0, 130.0), 140.0)  # 1 s left: at least LEAST
    150.0
    >>> moved_deadline(90.0, Outage(100.0, 130.0), 140.0) is None  # fired before it
    True
    >>> moved_deadline(140.0, Outage(100.0, 130.0), 140.0) is None  # well after it
    True
    >>> moved_deadline(120.0, Outage(100.0), 125.0)  # going on: it ends now, if at all
    145.0
    """
    if outage is None:
        return None
    ended = now if outage.ended is None else outage.ended
    if not outage.started - BEFORE <= deadline <= ended + AFTER:
        return None
    return max(deadline + (ended - outage.started), now + LEAST)


class Watch:
    def __init__(
        self,
        db: Database,
        *,
        busy: Callable[[], bool],
        back: Callable[[], None],
        every: float = EVERY,
    ) -> None:
        """``busy``: whether games run (else nothing is asked); ``back``: the database is
        back after an outage."""
        self.db, self._busy, self._back, self.every = db, busy, back, every
        self._told: Outage | None = None  # the last outage whose end was told
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.create_task(self._run(), name="database-watch")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(self.every)
            if self._busy():
                with contextlib.suppress(Exception):  # (the outage is noted by the call)
                    await self.db.fetch_one("SELECT 1")
            outage = self.db.reach.outage()
            if outage is not None and outage.ended is not None and outage is not self._told:
                self._told = outage
                self._back()
