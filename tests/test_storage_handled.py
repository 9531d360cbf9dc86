"""An update is recorded as handled in the transaction of the change it made, so that
one sent again acts once: only changes of consequence, only the handling task's, once
per update; a second handling of it at the same time rolls back."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from storage.connect import open_database
from storage.db import Database
from storage.handled import HandledRepo
from storage.handling import KEEP, AlreadyHandled, Handled
from storage.outgoing import OutgoingRepo
from storage.records import SeatKind, TableStatus
from storage.repos import ChatRepo, Seat, TableRepo, TableSettings, UserRepo
from tests.backends import db_target

pytestmark = pytest.mark.usefixtures("backend")


@pytest.fixture
async def db(tmp_path: Path) -> AsyncIterator[Database]:
    database = await open_database(await db_target(tmp_path / "durak.sqlite3"))
    yield database
    await database.close()


async def a_table(db: Database) -> int:
    async with db.tx() as c:
        await ChatRepo.upsert(c, -100, "Друзья")
        await UserRepo.upsert(c, 1, "Аня")
        return await TableRepo.create(c, -100, 1, TableSettings(), [Seat(SeatKind.HUMAN, "Аня", 1)])


async def queued(db: Database) -> int:
    return len(await OutgoingRepo(db).waiting())


async def test_a_change_made_while_an_update_is_handled_records_it(db: Database) -> None:
    table = await a_table(db)  # (no update handled: nothing recorded)
    handled = Handled(7)
    with db.handling.of(handled):
        async with db.tx() as c:
            await TableRepo.update(c, table, status=TableStatus.PLAYING)
            assert not handled.recorded  # not before the commit
    assert handled.recorded and handled.durable.is_set()
    assert await HandledRepo(db).seen(7) and not await HandledRepo(db).seen(8)
    assert await HandledRepo(db).count() == 1


async def test_a_change_rolled_back_records_nothing(db: Database) -> None:
    handled = Handled(7)
    with db.handling.of(handled):
        with pytest.raises(RuntimeError):
            async with db.tx() as c:
                await OutgoingRepo.put(c, 0, "{}")
                raise RuntimeError("the change failed")
        assert not handled.recorded and not await HandledRepo(db).seen(7)
        async with db.tx() as c:  # the handling goes on: its next change records it
            await OutgoingRepo.put(c, 0, "{}")
    assert handled.recorded and await HandledRepo(db).seen(7)


async def test_the_first_change_of_a_handling_records_it_and_the_others_go_through(
    db: Database,
) -> None:
    with db.handling.of(Handled(7)):
        for _ in range(3):
            async with db.tx() as c:
                await OutgoingRepo.put(c, 0, "{}")
    assert await queued(db) == 3 and await HandledRepo(db).count() == 1


async def test_what_is_the_same_when_written_again_records_nothing(db: Database) -> None:
    table = await a_table(db)
    with db.handling.of(Handled(7)):
        async with db.tx() as c:
            await UserRepo.upsert(c, 2, "Борис")  # a person's name
            await TableRepo.update(c, table, lobby_message_id=55)  # a message's id
    assert not await HandledRepo(db).seen(7)


async def test_a_task_started_while_an_update_is_handled_records_nothing(db: Database) -> None:
    async def later() -> None:  # a computer player's move, an outbox worker...
        async with db.tx() as c:
            await OutgoingRepo.put(c, 0, "{}")

    handled = Handled(7)
    with db.handling.of(handled):
        await asyncio.create_task(later())
    assert not handled.recorded and not await HandledRepo(db).seen(7)


async def test_an_update_handled_twice_at_once_changes_things_once(db: Database) -> None:
    holding, go_on = asyncio.Event(), asyncio.Event()

    async def handle(wait: bool) -> None:
        with db.handling.of(Handled(9)):
            async with db.tx() as c:
                await OutgoingRepo.put(c, 0, "{}")
                if wait:
                    holding.set()
                    await go_on.wait()  # not committed yet while the other one writes

    first = asyncio.create_task(handle(True))
    await holding.wait()
    second = asyncio.create_task(handle(False))
    await asyncio.sleep(0.2)
    go_on.set()
    await first
    with pytest.raises(AlreadyHandled):
        await second
    assert await queued(db) == 1 and await HandledRepo(db).count() == 1


async def test_rows_older_than_an_hour_are_forgotten(db: Database) -> None:
    async with db.tx() as c:
        for update_id, age in ((1, KEEP + 60), (2, KEEP - 60), (3, 0)):
            await c.execute(
                "INSERT INTO handled_updates (update_id, handled_at) VALUES (?, ?)",
                (update_id, time.time() - age),
            )
    repo = HandledRepo(db)
    assert await repo.forget() == 1
    assert [await repo.seen(u) for u in (1, 2, 3)] == [False, True, True]
