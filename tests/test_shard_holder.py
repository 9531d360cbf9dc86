"""A process's share of the shards (``bot.delivery.holder``) on a real PostgreSQL server:
processes that join split them, a shard is let go only once its process has done with
it (its lease held meanwhile), a lost connection's shards are taken over, and processes
that disagree on the count of shards hold none."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field

from bot.delivery.holder import Holder, Shards
from storage.lease import PgShards
from tests.backends import PgDatabases
from tests.service_helpers import until


@dataclass
class Told:
    """What a holder told its delivery; ``gate``: a release waits for it."""

    gained: list[Shards] = field(default_factory=list)
    releasing: list[Shards] = field(default_factory=list)
    lost: list[Shards] = field(default_factory=list)
    gate: asyncio.Event = field(default_factory=asyncio.Event)

    async def gain(self, shards: Shards) -> None:
        self.gained.append(shards)

    async def release(self, shards: Shards) -> None:
        self.releasing.append(shards)
        await self.gate.wait()

    def lose(self, shards: Shards) -> None:
        self.lost.append(shards)


@asynccontextmanager
async def holding(url: str, count: int, told: Told) -> AsyncIterator[Holder]:
    leases = PgShards(url, count)
    holder = Holder(leases, gained=told.gain, releasing=told.release, lost=told.lose, period=0.05)
    holder.start()
    try:
        yield holder
    finally:
        await holder.stop()


async def test_a_joining_process_gets_shards_only_once_they_were_let_go(
    pg_databases: PgDatabases,
) -> None:
    url = await pg_databases.target("holder_join")
    first, second = Told(), Told()
    async with holding(url, 8, first) as a:
        await until(lambda: len(a.shards) == 8, "every shard")
        assert first.gained == [frozenset(range(8))] and a.members == 1
        async with holding(url, 8, second) as b:
            await until(lambda: first.releasing, "four let go")
            (going,) = first.releasing
            assert len(going) == 4 and not a.shards & going  # shown no more...
            assert a.leases.held >= going  # ...but held until the release returns
            await asyncio.sleep(0.3)  # (several looks of the other)
            assert not b.shards & going and not any(g & going for g in second.gained)
            first.gate.set()
            await until(lambda: len(b.shards) == 4, "four taken")
            assert b.shards == going and a.shards == frozenset(range(8)) - going
            assert a.members == b.members == 2
        await until(lambda: len(a.shards) == 8, "every shard again once it stopped")
        assert first.gained[-1] == going


async def test_a_lost_connection_shards_are_taken_over(pg_databases: PgDatabases) -> None:
    url = await pg_databases.target("holder_lost")
    first, second = Told(), Told()
    first.gate.set()
    second.gate.set()
    async with holding(url, 8, first) as a, holding(url, 8, second) as b:
        await until(lambda: len(a.shards) == len(b.shards) == 4, "an even split")
        mine = a.shards
        await a.halt()  # (it looks no more: gone, as far as the others can tell)
        a.leases._conn.terminate()  # type: ignore[attr-defined]  # the server ends the session
        await until(lambda: len(b.shards) == 8, "every shard taken")
        assert second.gained[-1] == mine
        assert not a.held
        a.start()  # it comes back: it learns what it lost, and gets its share again
        await until(lambda: first.lost == [mine], "the loss told")
        await until(lambda: len(a.shards) == len(b.shards) == 4, "an even split again")


async def test_processes_that_disagree_on_the_count_hold_no_shard(
    pg_databases: PgDatabases,
) -> None:
    url = await pg_databases.target("holder_counts")
    first, odd = Told(), Told()
    first.gate.set()
    async with holding(url, 8, first) as a:
        await until(lambda: len(a.shards) == 8, "every shard")
        async with holding(url, 4, odd) as b:
            await until(lambda: not a.shards, "every shard let go")
            await asyncio.sleep(0.3)
            assert not b.shards and not odd.gained  # (two could send to one chat)
        await until(lambda: len(a.shards) == 8, "every shard again")
