"""The shards' leases (``storage.lease``) on a real PostgreSQL server."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from storage.lease import PgShards
from tests.backends import PgDatabases


class Answering:
    """The leases' connection, whose next look answers when the test says."""

    def __init__(self, conn: Any) -> None:
        self.conn = conn
        self.answer: asyncio.Future[list[Any]] = asyncio.get_running_loop().create_future()

    def fetch(self, query: str, *args: Any) -> asyncio.Future[list[Any]]:
        return self.answer

    def __getattr__(self, name: str) -> Any:
        return getattr(self.conn, name)


async def test_a_look_cancelled_as_the_server_answers_is_cancelled(
    pg_databases: PgDatabases,
) -> None:
    leases = PgShards(await pg_databases.target("lease"), 4)
    assert await leases.take(0)
    real = leases._conn
    answering = leases._conn = Answering(real)
    try:
        look = asyncio.create_task(leases.look())
        await asyncio.sleep(0)  # waiting for the answer
        answering.answer.set_result([])  # it comes in the same turn as the stop's cancel
        look.cancel()
        with pytest.raises(asyncio.CancelledError):  # before: the holder's loop went on,
            await look  # so stopping the process hung for good
    finally:
        leases._conn = real
        await leases.close()


async def test_each_shard_is_held_by_one_process_and_the_members_are_counted(
    pg_databases: PgDatabases,
) -> None:
    url = await pg_databases.target("shards")
    one, two = PgShards(url, 4), PgShards(url, 4)
    try:
        assert (await one.look()).members == 1
        assert await one.take(0) and await one.take(1)
        fleet = await two.look()
        assert (fleet.members, fleet.taken) == (2, frozenset({0, 1}))
        assert {fleet.rank, (await one.look()).rank} == {0, 1}
        assert fleet.want(4) == 2 and fleet.counts == {4}
        assert not await two.take(1)  # held by the other
        assert await two.take(2)
        await one.release(1)
        assert await two.take(1)
        assert one.held == {0} and two.held == {1, 2}
        await one.close()  # (as a process that dies: its session ends)
        fleet = await two.look()
        assert (fleet.members, fleet.taken, fleet.rank) == (1, frozenset({1, 2}), 0)
        assert await two.take(0)
    finally:
        await one.close()
        await two.close()
