"""Move timers: one deadline per game, fired by one background loop.

The deadlines themselves live in SQLite (games.deadline); this keeps only the
armed copy. A timer carries the game version it was set for: when it fires,
the service does nothing unless the game is still at that version.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable

from .clock import Clock

log = logging.getLogger(__name__)

Fire = Callable[[int, int], Awaitable[None]]


class Timers:
    def __init__(self, clock: Clock, fire: Fire) -> None:
        self.clock = clock
        self._fire = fire
        self._due: dict[int, tuple[float, int]] = {}  # game id -> (deadline, version)
        self._changed = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    def arm(self, game_id: int, version: int, deadline: float) -> None:
        self._due[game_id] = (deadline, version)
        self._changed.set()

    def cancel(self, game_id: int) -> None:
        self._due.pop(game_id, None)
        self._changed.set()

    def deadline(self, game_id: int) -> tuple[float, int] | None:
        return self._due.get(game_id)

    async def fire_due(self) -> int:
        """Fire every timer whose deadline has passed; returns how many fired."""
        now = self.clock.now()
        due = sorted((d, g, v) for g, (d, v) in self._due.items() if d <= now)
        for _, game_id, version in due:
            if self._due.get(game_id, (0.0, -1))[1] != version:
                continue  # re-armed or cancelled by an earlier timer's move
            del self._due[game_id]
            try:
                await self._fire(game_id, version)
            except Exception:
                log.exception("timer of game %s (version %s) failed", game_id, version)
        return len(due)

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.create_task(self._run(), name="move-timers")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    async def _run(self) -> None:
        while True:
            self._changed.clear()
            await self.fire_due()
            wait = None
            if self._due:
                soonest = min(d for d, _ in self._due.values())
                wait = max(0.0, self.clock.real_seconds(soonest - self.clock.now()))
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._changed.wait(), timeout=wait)
