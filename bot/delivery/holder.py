"""This process's share of the shards (``storage.shards``) among several processes on
a PostgreSQL server: every ``period`` it looks at who holds what (``ShardLeases.look``)
and takes free shards up to its share, or lets its extra ones go when another process
joined, each after the delivery has sent what it took of them (``releasing``), so that
two processes never send to one chat at once. A process that dies lets its shards go
with its connection; the others take them at their next look and show their games
again (``gained``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable

from storage.db import ShardLeases

log = logging.getLogger(__name__)

PERIOD = 0.5  # seconds between two looks at the shards (a dead process's: taken within ~1 s)

Shards = frozenset[int]


class Holder:
    def __init__(
        self,
        leases: ShardLeases,
        *,
        gained: Callable[[Shards], Awaitable[None]],
        releasing: Callable[[Shards], Awaitable[None]],
        lost: Callable[[Shards], None],
        period: float = PERIOD,
    ) -> None:
        """``gained``: told of shards this process has just taken (it shows their chats
        from now on); ``releasing``: of shards it is about to let go (it stops showing
        them, and returns once what it took of them has been sent); ``lost``: of shards
        it no longer holds (its connection to the server was lost)."""
        self.leases = leases
        self.period = period
        self.taken = 0  # times this process took shards
        self.members = 0  # processes sharing the shards at the last look
        self._gained, self._releasing, self._lost = gained, releasing, lost
        self._shown: Shards = frozenset()  # the shards the delivery was told it holds
        self._counts: list[int] = []  # the counts of shards the members had at the last look
        self._task: asyncio.Task[None] | None = None

    @property
    def shards(self) -> Shards:
        """The shards this process holds and shows."""
        return self._shown & self.leases.held

    @property
    def held(self) -> bool:
        """Whether this process holds any shard."""
        return bool(self.shards)

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.create_task(self._run(), name="shards")

    async def halt(self) -> None:
        """Take or let go of no shard any more (those held stay held until ``stop``)."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    async def stop(self) -> None:
        await self.halt()
        self._shown = frozenset()
        await self.leases.close()

    async def _run(self) -> None:
        while True:
            try:
                await self.turn()
            except Exception:
                log.exception("the shards' leases: again in %s s", self.period)
            await asyncio.sleep(self.period)

    async def turn(self) -> None:
        """One look: take free shards up to this process's share, or let the extra go."""
        try:
            fleet = await self.leases.look()
        finally:
            self._forget_lost()
        self.members = fleet.members
        held, want = self.leases.held, fleet.want(self.leases.count)
        counts = sorted(fleet.counts)
        if len(counts) > 1 and counts != self._counts:  # (said once per change)
            log.error(
                "the processes on this database divide the chats into %s shards"
                " (DURAK_SHARDS; here %s): none holds any until they agree",
                " or ".join(map(str, counts)), self.leases.count,
            )  # fmt: skip
        self._counts = counts
        if len(held) > want:
            extra = frozenset(sorted(held)[want:])
            log.info("letting shards %s go to the other processes (%s)", sorted(extra), fleet)
            self._shown -= extra  # (shown no more from now on)
            try:
                await self._releasing(extra)
            finally:  # (a release that failed lets them go all the same: else held, unshown)
                for shard in extra:
                    await self.leases.release(shard)
        elif len(held) < want:
            count = self.leases.count
            start = fleet.rank * count // max(fleet.members, 1)  # (apart from the others')
            free = [s for i in range(count) if (s := (start + i) % count) not in fleet.taken]
            new = set()
            for shard in free[: want - len(held)]:
                if await self.leases.take(shard):
                    new.add(shard)
            if new:
                self.taken += 1
                self._shown |= new
                log.info("took shards %s (%s held; %s)", sorted(new), len(self.leases.held), fleet)
                try:
                    await self._gained(frozenset(new))
                except BaseException:  # not shown: let go, to be taken again at a later look
                    self._shown -= new
                    for shard in new:
                        with contextlib.suppress(Exception):
                            await self.leases.release(shard)
                    raise

    def _forget_lost(self) -> None:
        lost = self._shown - self.leases.held
        if lost:
            log.warning("lost %s shards with the connection holding them", len(lost))
            self._shown -= lost
            self._lost(lost)
