"""A lock for coroutines whose queue drains in one pass of the event loop.

``asyncio.Lock`` hands a released lock to its first waiter, which runs a pass of the
event loop later; until then everyone else queues behind it, even a coroutine that
would hold it for a fraction of a millisecond without yielding. Once a queue forms
(behind a holder that awaits something), it drains one holder per pass of the loop,
and a pass grows with the load: at 1,000 tables SQLite's transactions, 0.2 ms each,
waited seconds for their lock. Here a release wakes every waiter, and they take the
lock in turn within that pass, each body that does not yield running to its end; a
newcomer waits while others do, so the lock is still taken in the order asked for.
"""

from __future__ import annotations

import asyncio
from types import TracebackType


class Gate:
    def __init__(self) -> None:
        self._held = False
        self._waiting = 0
        self._opened = asyncio.Event()  # set, and replaced, at a release with waiters

    def locked(self) -> bool:
        return self._held

    async def __aenter__(self) -> None:
        if self._held or self._waiting:  # in turn behind those already waiting
            self._waiting += 1
            try:
                while True:
                    await self._opened.wait()
                    if not self._held:
                        break
            except BaseException:  # cancelled: the turn passes on to the others
                self._waiting -= 1
                if not self._held:
                    self._open()
                raise
            self._waiting -= 1
        self._held = True

    async def __aexit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self._held = False
        self._open()

    def _open(self) -> None:
        if self._waiting:
            opened, self._opened = self._opened, asyncio.Event()
            opened.set()
