"""Several bot processes on one PostgreSQL database: the holder of the sending lease is
the one that shows the games.

Any process may make a move (it answers the press itself), but only the holder edits
the tables and hands: its own moves reach its presenter directly, the others' through
the follower (``service.follow``), which loads every move made elsewhere. So Telegram's
per-chat and per-group limits are kept by one outbox, and two processes never draw one
hand from two caches. When the holder dies, its connection ends, the server lets the
lease go, and the next process to try takes it and shows every running game again: a
move committed just before the death is shown then.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable

from storage.db import Lease

from ..outbox import Outbox
from ..presenter import Presenter
from .base import Following

log = logging.getLogger(__name__)

PERIOD = 1.0  # seconds between two tries to take the lease, or checks that it is held


class Holder:
    def __init__(
        self,
        lease: Lease,
        presenter: Presenter,
        outbox: Outbox,
        *,
        gained: Callable[[], None],
        period: float = PERIOD,
    ) -> None:
        """``gained``: told each time this process becomes the one that shows the games."""
        self.lease = lease
        self.presenter = presenter
        self.outbox = outbox
        self.period = period
        self.held = False
        self.taken = 0  # times this process became the one that shows the games
        self._gained = gained
        self._task: asyncio.Task[None] | None = None

    def start(self, games: Following) -> None:
        if self._task is None:
            self._task = asyncio.create_task(self._run(games), name="sending-lease")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
        self.held = False
        await self.lease.close()

    async def _run(self, games: Following) -> None:
        while True:
            try:
                if self.held:
                    if not await self.lease.check():
                        self.held = False
                        log.warning("lost the sending lease: another process shows the games")
                elif await self.lease.take():
                    await self._gain(games)
            except Exception:
                self.held = False
                log.exception("the sending lease: again in %s s", self.period)
            await asyncio.sleep(self.period)

    async def _gain(self, games: Following) -> None:
        """Now this process shows the games: every running one again, as the database
        has it (the last holder may have died between a commit and its edits)."""
        self.held = True
        self.taken += 1
        self.outbox.assume_busy()  # the last holder may have just sent anywhere
        await games.catch_up_all()
        shown = self.presenter.redraw_all()
        log.info("this process shows the games now (%s running)", shown)
        self._gained()
