"""The lobby's rules kept by the database (migration 0007): one seat per person at a
time, one running game per table; older databases get their seated people filled in."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from storage.connect import open_database
from storage.db import Conflict, Database
from storage.records import SeatKind, TableStatus
from storage.repos import ChatRepo, GameRepo, Seat, TableRepo, TableSettings, UserRepo
from tests.backends import db_target

pytestmark = pytest.mark.usefixtures("backend")

ANNA, BORIS = Seat(SeatKind.HUMAN, "Аня", 1), Seat(SeatKind.HUMAN, "Борис", 2)
BOT = Seat(SeatKind.BOT, "Новичок 1", level="novice")


async def tables(db: Database, n: int) -> list[int]:
    async with db.tx() as c:
        for u, name in ((1, "Аня"), (2, "Борис")):
            await UserRepo.upsert(c, u, name)
        ids = []
        for chat in range(-1, -n - 1, -1):
            await ChatRepo.upsert(c, chat, f"Группа {chat}")
            ids.append(await TableRepo.create(c, chat, 1, TableSettings(), []))
        return ids


async def seated(db: Database) -> list[tuple[int, int]]:
    rows = await db.fetch_all("SELECT table_id, user_id FROM table_seats ORDER BY user_id")
    return [(int(r[0]), int(r[1])) for r in rows]


async def test_a_person_holds_one_seat_of_the_open_tables(tmp_path: Path) -> None:
    db = await open_database(await db_target(tmp_path / "d.sqlite3"))
    try:
        first, second = await tables(db, 2)
        async with db.tx() as c:
            assert await TableRepo.update(c, first, seats=[ANNA, BOT, BORIS])
        with pytest.raises(Conflict):
            async with db.tx() as c:
                await TableRepo.update(c, second, seats=[BORIS])
        assert await seated(db) == [(first, 1), (first, 2)]
        async with db.tx() as c:  # Борис leaves, then sits at the other table
            assert await TableRepo.update(c, first, seats=[ANNA], expect_seats=[ANNA, BOT, BORIS])
            assert not await TableRepo.update(c, first, seats=[], expect_seats=[ANNA, BORIS])
            assert await TableRepo.update(c, second, seats=[BORIS], expect_status=TableStatus.LOBBY)
            await TableRepo.update(c, first, status=TableStatus.CLOSED)
        assert await seated(db) == [(second, 2)]
    finally:
        await db.close()


async def test_a_table_plays_one_game_at_a_time(tmp_path: Path) -> None:
    db = await open_database(await db_target(tmp_path / "d.sqlite3"))
    try:
        (table,) = await tables(db, 1)
        async with db.tx() as c:
            game = await GameRepo.create(c, table, {}, [ANNA, BORIS], 1, {})
        with pytest.raises(Conflict):
            async with db.tx() as c:
                await GameRepo.create(c, table, {}, [ANNA, BORIS], 2, {})
        async with db.tx() as c:
            await GameRepo.abandon(c, game)
            await GameRepo.create(c, table, {}, [ANNA, BORIS], 3, {})  # the next one
    finally:
        await db.close()


async def test_older_databases_get_the_seated_people_of_their_open_tables(
    tmp_path: Path,
) -> None:
    path = await db_target(tmp_path / "old.sqlite3")
    old = await open_database(path, upto=6)
    first, second, closed = await tables(old, 3)
    async with old.tx() as c:  # as version 6 wrote them: seats only in the JSON
        for table, seats in ((first, [ANNA, BOT]), (second, [ANNA, BORIS]), (closed, [BORIS])):
            await c.execute(
                "UPDATE tables SET seats = ? WHERE id = ?",
                (json.dumps([s.to_dict() for s in seats]), table),
            )
        await c.execute("UPDATE tables SET status = 'closed' WHERE id = ?", (closed,))
    await old.close()
    db = await open_database(path)
    try:  # Аня sat at two tables (a bug of old): the first one keeps her
        assert await seated(db) == [(first, 1), (second, 2)]
    finally:
        await db.close()
