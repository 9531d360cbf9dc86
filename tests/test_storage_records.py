"""The typed records read back from rows as earlier versions wrote them, on SQLite and
PostgreSQL: seat kinds and statuses as enums, the series as a dataclass, the stored
text unchanged; statistics and standings read by column name."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from storage.connect import open_database
from storage.db import Database
from storage.records import GameStatus, Seat, SeatKind, Series, TableStatus
from storage.repos import ChatRepo, GameRepo, Standing, Stats, StatsRepo, TableRepo, UserRepo
from tests.backends import db_target

pytestmark = pytest.mark.usefixtures("backend")

# Seats as the first versions wrote them: a bot without a user id, a person without a level.
OLD_SEATS = '[{"kind": "human", "name": "Аня", "user_id": 1}, {"kind": "bot", "name": "Бот 1"}]'


@pytest.fixture
async def db(tmp_path: Path) -> AsyncIterator[Database]:
    database = await open_database(await db_target(tmp_path / "durak.sqlite3"))
    yield database
    await database.close()


async def old_table(db: Database, status: str, series: str = "{}") -> int:
    async with db.tx() as c:
        await ChatRepo.upsert(c, -100, "Друзья")
        await UserRepo.upsert(c, 1, "Аня")
        return await c.insert(
            "INSERT INTO tables (chat_id, creator_id, settings, seats, status, created_at,"
            " series) VALUES (-100, 1, '{}', ?, ?, 0, ?)",
            (OLD_SEATS, status, series),
        )


async def test_an_old_tables_seats_and_status_load_as_enums(db: Database) -> None:
    table_id = await old_table(db, "playing")
    table = await TableRepo(db).get(table_id)
    assert table is not None and table.status is TableStatus.PLAYING
    assert [s.kind for s in table.seats] == [SeatKind.HUMAN, SeatKind.BOT]
    assert table.seats[0].human and not table.seats[1].human
    assert table.seats[1] == Seat(SeatKind.BOT, "Бот 1")


async def test_seats_and_statuses_are_stored_as_the_same_words(db: Database) -> None:
    table_id = await old_table(db, "lobby")
    table = await TableRepo(db).get(table_id)
    assert table is not None
    async with db.tx() as c:
        await TableRepo.update(c, table_id, seats=table.seats, status=TableStatus.CLOSED)
    row = await db.fetch_one("SELECT seats, status FROM tables WHERE id = ?", (table_id,))
    assert row is not None and row["status"] == "closed"
    assert [s["kind"] for s in json.loads(row["seats"])] == ["human", "bot"]
    assert await TableRepo(db).open_in_chat(-100) is None  # closed frees the chat


async def test_a_game_is_playing_then_over(db: Database) -> None:
    table_id = await old_table(db, "playing")
    seats = [Seat(SeatKind.HUMAN, "Аня", 1), Seat(SeatKind.BOT, "Бот 1", level="novice")]
    async with db.tx() as c:
        game_id = await GameRepo.create(c, table_id, {}, seats, 7, {"v": 1})
    game = await GameRepo(db).get(game_id)
    assert game is not None and game.status is GameStatus.PLAYING and game.seats == seats
    async with db.tx() as c:
        await GameRepo.save_state(
            c, game_id, version=1, snapshot={}, deadline=None, deadline_for=None, outcome={}
        )
    over = await GameRepo(db).get(game_id)
    assert over is not None and over.status is GameStatus.OVER
    row = await db.fetch_one("SELECT status FROM games WHERE id = ?", (game_id,))
    assert row is not None and row[0] == "over"


async def test_a_series_stored_before_players_were_kept_loads_with_defaults(
    db: Database,
) -> None:
    table_id = await old_table(db, "lobby", '{"fool": "u2", "wins": {"u1": 3}}')
    table = await TableRepo(db).get(table_id)
    assert table is not None and table.series == Series(None, "u2", {}, {"u1": 3})
    async with db.tx() as c:
        assert await TableRepo.series_in(c, table_id) == table.series


async def test_a_series_is_stored_as_the_same_json(db: Database) -> None:
    table_id = await old_table(db, "playing")
    series = Series(("b1:novice", "u1"), "b1", {"u1": 2}, {"u1": 1})
    async with db.tx() as c:
        assert await TableRepo.series_in(c, table_id) == Series()
        await TableRepo.update(c, table_id, status=TableStatus.LOBBY, series=series)
    row = await db.fetch_one("SELECT series FROM tables WHERE id = ?", (table_id,))
    assert row is not None and json.loads(row[0]) == {
        "players": ["b1:novice", "u1"],
        "fool": "b1",
        "pogony": {"u1": 2},
        "wins": {"u1": 1},
    }
    table = await TableRepo(db).get(table_id)
    assert table is not None and table.series == series


async def test_statistics_and_standings_come_back_field_by_field(db: Database) -> None:
    anna = Stats(-100, 1, 5, 3, 1, 1, 0, 2, 27.5, 6.25, pogony_given=4)
    boris = Stats(-100, 2, 5, 1, 3, 1, 1, 0, 24.0, 7.0)
    elsewhere = Stats(-200, 1, 9, 2, 6, 1, 0, 5, 22.0, 5.5, pogony_given=1)
    async with db.tx() as c:
        for chat_id, title in ((-100, "Друзья"), (-200, "Работа")):
            await ChatRepo.upsert(c, chat_id, title)
        for user_id, name in ((1, "Аня"), (2, "Борис")):
            await UserRepo.upsert(c, user_id, name)
        for stats in (anna, boris, elsewhere):
            await StatsRepo.put(c, stats)
        assert await StatsRepo.get_in(c, -100, 2) == boris
    repo = StatsRepo(db)
    assert await repo.get(-100, 1) == anna and await repo.get(-100, 3) is None
    assert await repo.chat_top(-100) == [anna, boris]  # 27.5 - 3 * 6.25 > 24 - 3 * 7
    assert await repo.standings(1) == [  # most played first
        Standing(elsewhere, "Работа", place=1, players=1),
        Standing(anna, "Друзья", place=1, players=2),
    ]
    assert await repo.standings(2) == [Standing(boris, "Друзья", place=2, players=2)]
