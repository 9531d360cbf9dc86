"""Move timers: one deadline per game, each due game fired in a task of its own.

The deadlines themselves live in the database (games.deadline); this keeps only
the armed copy. A timer carries the game version it was set for: when it fires,
the service does nothing unless the game is still at that version, and with
several processes only the one that claims the game's row makes the timeout
(``steps.write_step``); the others catch up. A fire that
fails (a locked database, a full disk, any error) is logged and re-armed with a
growing back-off, never dropped. The armed deadlines are also kept in a heap, so a
thousand armed games cost nothing between fires; the loop is woken only by a deadline
sooner than the one it waits for.
"""

from __future__ import annotations

import asyncio
import contextlib
import heapq
import logging
import math
from collections.abc import Awaitable, Callable

from .clock import Clock

log = logging.getLogger(__name__)

Fire = Callable[[int, int], Awaitable[None]]

BACKOFF = (1.0, 2.0, 5.0, 10.0, 30.0)  # seconds (of the clock) before the next try


class Timers:
    def __init__(self, clock: Clock, fire: Fire) -> None:
        self.clock = clock
        self._fire = fire
        self._due: dict[int, tuple[float, int]] = {}  # game id -> (deadline, version)
        self._heap: list[tuple[float, int, int]] = []  # also entries _due no longer holds
        self._wake_at = math.inf  # the deadline the loop waits for
        self._failures: dict[int, tuple[int, int]] = {}  # game -> (version, failed fires)
        self._firing: set[asyncio.Task[None]] = set()
        self._changed = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    def arm(self, game_id: int, version: int, deadline: float) -> None:
        self._due[game_id] = (deadline, version)
        heapq.heappush(self._heap, (deadline, game_id, version))
        if len(self._heap) > 2 * len(self._due) + 64:  # mostly replaced entries: rebuild
            self._heap = [(d, g, v) for g, (d, v) in self._due.items()]
            heapq.heapify(self._heap)
        if deadline < self._wake_at:
            self._changed.set()

    def cancel(self, game_id: int) -> None:
        self._due.pop(game_id, None)  # its heap entry is passed over when it comes up
        self._failures.pop(game_id, None)

    def hurry(self) -> None:
        """Fire now the timers that failed and wait for their next try (what they needed,
        the database, is back)."""
        now = self.clock.now()
        for game_id, (version, _) in list(self._failures.items()):
            armed = self._due.get(game_id)
            if armed is not None and armed[1] == version and armed[0] > now:
                self.arm(game_id, version, now)

    def deadline(self, game_id: int) -> tuple[float, int] | None:
        return self._due.get(game_id)

    def _armed(self, entry: tuple[float, int, int]) -> bool:
        deadline, game_id, version = entry
        return self._due.get(game_id) == (deadline, version)

    async def fire_due(self, *, wait: bool = True) -> int:
        """Fire every timer whose deadline has passed, side by side; returns how many.
        ``wait``: until they have all finished (the background loop does not wait)."""
        now = self.clock.now()
        due = []
        while self._heap and self._heap[0][0] <= now:
            entry = heapq.heappop(self._heap)
            if self._armed(entry):
                del self._due[entry[1]]
                due.append((entry[1], entry[2]))
        tasks = []
        for game_id, version in due:
            task = asyncio.create_task(self._one(game_id, version), name=f"timer-{game_id}")
            self._firing.add(task)
            task.add_done_callback(self._firing.discard)
            tasks.append(task)
        if wait:
            await asyncio.gather(*tasks)
        return len(due)

    async def _one(self, game_id: int, version: int) -> None:
        try:
            await self._fire(game_id, version)
        except Exception:
            last, failures = self._failures.get(game_id, (version, 0))
            failures = failures + 1 if last == version else 1
            self._failures[game_id] = (version, failures)
            delay = BACKOFF[min(failures, len(BACKOFF)) - 1]
            log.exception(
                "timer of game %s (version %s) failed %s times: again in %s s",
                game_id,
                version,
                failures,
                delay,
            )
            if game_id not in self._due:  # nothing re-armed it meanwhile
                self.arm(game_id, version, self.clock.now() + delay)
        else:
            self._failures.pop(game_id, None)

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.create_task(self._run(), name="move-timers")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
        firing = list(self._firing)
        for task in firing:
            task.cancel()
        await asyncio.gather(*firing, return_exceptions=True)

    async def _run(self) -> None:
        while True:
            self._changed.clear()
            await self.fire_due(wait=False)
            while self._heap and not self._armed(self._heap[0]):
                heapq.heappop(self._heap)  # replaced or cancelled
            self._wake_at = self._heap[0][0] if self._heap else math.inf
            wait = None
            if self._heap:
                wait = max(0.0, self.clock.real_seconds(self._wake_at - self.clock.now()))
            with contextlib.suppress(TimeoutError):  # (asyncio.timeout: a stop's cancel
                async with asyncio.timeout(wait):  # is never lost, as with wait_for)
                    await self._changed.wait()
