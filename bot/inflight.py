"""The updates being handled right now, so that a shutdown lets them finish.

aiogram's polling hands each update to a task of its own and does not wait for
them when it stops; without this, a press handled during shutdown would meet a
closed database. ``bot.intake`` holds each update in here while it is handled.
"""

from __future__ import annotations

import asyncio
import contextlib
from types import TracebackType


class InFlight:
    def __init__(self) -> None:
        self.count = 0
        self._idle = asyncio.Event()
        self._idle.set()

    def __enter__(self) -> None:
        self.count += 1
        self._idle.clear()

    def __exit__(
        self, kind: type[BaseException] | None, e: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.count -= 1
        if not self.count:
            self._idle.set()

    async def settle(self, timeout: float) -> bool:
        """Wait up to ``timeout`` seconds for the updates in hand; False if some remain."""
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._idle.wait(), timeout)
        return not self.count
