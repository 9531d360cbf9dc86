"""The sending lease (``storage.lease``) on a real PostgreSQL server."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from storage.lease import PgLease
from storage.postgres import SENDING_KEY
from tests.backends import PgDatabases


class Answering:
    """The lease's connection, whose next ``SELECT 1`` answers when the test says."""

    def __init__(self, conn: Any) -> None:
        self.conn = conn
        self.answer: asyncio.Future[int] = asyncio.get_running_loop().create_future()

    def fetchval(self, query: str) -> asyncio.Future[int]:
        return self.answer

    def __getattr__(self, name: str) -> Any:
        return getattr(self.conn, name)


async def test_a_check_cancelled_as_the_server_answers_is_cancelled(
    pg_databases: PgDatabases,
) -> None:
    lease = PgLease(await pg_databases.target("lease"), SENDING_KEY)
    assert await lease.take()
    real = lease._conn
    answering = lease._conn = Answering(real)
    try:
        check = asyncio.create_task(lease.check())
        await asyncio.sleep(0)  # waiting for the answer
        answering.answer.set_result(1)  # it comes in the same turn as the stop's cancel
        check.cancel()
        with pytest.raises(asyncio.CancelledError):  # before: True, and the holder's loop
            await check  # went on, so stopping the process hung for good
    finally:
        lease._conn = real
        await lease.close()
