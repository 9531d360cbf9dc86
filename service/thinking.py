"""Computer players think in worker processes, never on the event loop's thread.

PIMC holds the GIL for its whole budget, so a thread would stall every table;
a process does not. A worker that dies (BrokenProcessPool) or hangs past the
timeout is replaced with the whole pool, and the decision is asked again.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import os
from collections import deque
from collections.abc import AsyncIterator, Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from time import perf_counter

from engine import Action, View
from engine.bots import decide

log = logging.getLogger(__name__)

TIMEOUT = 10.0  # seconds of one decision before its worker counts as hung
NICENESS = 10  # added to the workers' nice value (0 = the loop's, 19 = the lowest)
Decide = Callable[[str, View, int, float], Action | None]  # (level, view, seed, share) -> move


class ThinkingFailed(Exception):
    """Every attempt to get a decision from a worker failed."""


def default_workers() -> int:
    """One core is left to the event loop; at least one worker."""
    return max(1, (os.cpu_count() or 1) - 1)


class Thinker:
    def __init__(
        self,
        workers: int | None = None,
        *,
        target: Decide = decide,
        timeout: float = TIMEOUT,
        attempts: int = 3,
    ) -> None:
        """``target`` runs in the workers: a module-level function (or a partial of
        one), so that it pickles. ``timeout``: seconds before a worker counts as hung."""
        self.workers = workers or default_workers()
        self.target = target
        self.timeout = timeout
        self.attempts = attempts
        self.replaced = 0  # pools replaced after a dead or hung worker
        self.seconds: deque[float] = deque(maxlen=10_000)  # recent decisions' time in a worker
        self._pool: ProcessPoolExecutor | None = None
        # One decision per worker at a time, so that the timeout measures thinking,
        # not waiting in the queue behind other games' decisions.
        self._running = asyncio.Semaphore(self.workers)
        self._queued = 0  # decisions waiting for a worker
        self._closed = False
        # The idle policy, until a decision times out: a worker that other work on its
        # cores starves under it (a weight of 3 against their 1024) looks hung, so the
        # new workers keep a fair share at nice 10 alone.
        self.idle = True

    def _executor(self) -> ProcessPoolExecutor:
        if self._pool is None:
            # forkserver: workers fork from a clean server that imported only the
            # engine, not from this process with its threads, sockets and aiogram.
            methods = multiprocessing.get_all_start_methods()
            context = multiprocessing.get_context(
                "forkserver" if "forkserver" in methods else "spawn"
            )
            if "forkserver" in methods:
                context.set_forkserver_preload(["engine.bots"])
            self._pool = ProcessPoolExecutor(
                self.workers,
                mp_context=context,
                initializer=yield_to_the_loop,
                initargs=(self.idle,),
            )
        return self._pool

    async def decide(self, level: str, view: View, seed: int) -> Action | None:
        """The move of a ``level`` player who sees ``view``."""
        loop = asyncio.get_running_loop()
        for attempt in range(1, self.attempts + 1):
            async with self._turn():
                if self._closed:
                    raise ThinkingFailed("the worker processes were shut down")
                pool = self._executor()
                try:
                    job = loop.run_in_executor(
                        pool, _timed, self.target, level, view, seed, self.share()
                    )
                    action, seconds = await asyncio.wait_for(job, self.timeout)
                    self.seconds.append(seconds)
                    return action
                except BrokenProcessPool:
                    log.warning("a thinking worker died (attempt %s): new workers", attempt)
                except TimeoutError:
                    log.warning("a thinking worker hung for %s s: new workers", self.timeout)
                    self.idle = False
                self._replace(pool)
        raise ThinkingFailed(f"no decision after {self.attempts} attempts")

    @contextlib.asynccontextmanager
    async def _turn(self) -> AsyncIterator[None]:
        """Holds a worker's slot; counted among the queued while waiting for it."""
        self._queued += 1
        try:
            await self._running.acquire()
        finally:
            self._queued -= 1
        try:
            yield
        finally:
            self._running.release()

    @property
    def queued(self) -> int:
        """Decisions waiting for a worker."""
        return self._queued

    def share(self) -> float:
        """The share of its work the next decision may spend: all of it, unless
        decisions queue behind it. Then the bots think less (``engine.bots.decide``
        sets a floor), and the people at their tables do not wait for every bot in
        the queue to think in full."""
        return self.workers / (self.workers + self._queued)

    def _replace(self, pool: ProcessPoolExecutor) -> None:
        """Kill ``pool``'s workers (unless another decision already replaced it)."""
        if self._pool is not pool:
            return
        self._pool = None
        self.replaced += 1
        _kill(pool)

    def close(self) -> None:
        self._closed = True
        if self._pool is not None:
            _kill(self._pool)
            self._pool = None


def _timed(
    target: Decide, level: str, view: View, seed: int, share: float
) -> tuple[Action | None, float]:
    """The decision, and the seconds it took in the worker (wall time)."""
    start = perf_counter()
    action = target(level, view, seed, share)
    return action, perf_counter() - start


def yield_to_the_loop(idle: bool) -> None:
    """Workers run at a lower priority: when the cores are busy, the event loop that
    answers every press gets them first, and the bots think a little longer."""
    os.nice(NICENESS)
    # And the idle policy (Linux): a woken loop preempts a thinking worker at once, where
    # at nice 10 it could wait out the worker's slice (bench.bot_tables: the presses' p99
    # beside tables of «Мастер» 57-63 ms at nice 10, 29-42 ms so; alone 14-25 ms). On
    # cores kept busy by other work they would barely think: see ``Thinker.idle``.
    if idle and hasattr(os, "SCHED_IDLE"):
        with contextlib.suppress(OSError):  # not allowed here: nice 10 will do
            os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))
    # Nor do they take the first core, even when it is idle: at a lower priority they
    # still held up the loop (bench.bot_tables on 2 cores: the presses' p99 beside
    # tables of «Мастер» x3.2 that without them; with this, x1.05-2.8). Linux only.
    cores = sorted(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else []
    if len(cores) > 1:
        os.sched_setaffinity(0, cores[1:])


def _kill(pool: ProcessPoolExecutor) -> None:
    kill = getattr(pool, "kill_workers", None)  # Python 3.14+
    if kill is not None:
        kill()
    else:  # the executor's own table of its worker processes
        for process in list((getattr(pool, "_processes", None) or {}).values()):
            process.kill()
    pool.shutdown(wait=False, cancel_futures=True)
