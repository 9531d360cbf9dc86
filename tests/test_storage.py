"""Storage on a real SQLite file and a real PostgreSQL database: migrations, round
trips, the action log."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path

import asyncpg
import pytest

from storage.connect import open_database
from storage.db import Conflict, Database, configured_path, migrations
from storage.records import GameRecord, SeatKind, Series, TableRecord, TableStatus
from storage.repos import (
    ChatRepo,
    GameRepo,
    Seat,
    Stats,
    StatsRepo,
    TableRepo,
    TableSettings,
    UserRepo,
)
from tests.backends import db_target, sqlite_file, value_of

pytestmark = pytest.mark.usefixtures("backend")

BOT = Seat(SeatKind.BOT, "Новичок 1", level="novice")


@pytest.fixture
async def db(tmp_path: Path, backend: str) -> AsyncIterator[Database]:
    database = await open_database(await db_target(tmp_path / "durak.sqlite3"))
    yield database
    await database.close()


async def table_of(db: Database, table_id: int) -> TableRecord:
    table = await TableRepo(db).get(table_id)
    assert table is not None, f"no table {table_id}"
    return table


async def game_of(db: Database, game_id: int) -> GameRecord:
    game = await GameRepo(db).get(game_id)
    assert game is not None, f"no game {game_id}"
    return game


async def make_table(db: Database, chat_id: int = -100) -> int:
    async with db.tx() as c:
        await ChatRepo.upsert(c, chat_id, "Друзья")
        await UserRepo.upsert(c, 1, "Аня")
        return await TableRepo.create(
            c, chat_id, 1, TableSettings(), [Seat(SeatKind.HUMAN, "Аня", 1)]
        )


@pytest.mark.sqlite_only
async def test_new_file_gets_every_migration_and_sane_pragmas(db: Database) -> None:
    assert await db.schema_version() == len(migrations()) == 14
    assert await value_of(db, "PRAGMA journal_mode") == "wal"
    assert await value_of(db, "PRAGMA foreign_keys") == 1
    assert await value_of(db, "PRAGMA busy_timeout") == 5000


@pytest.mark.sqlite_only
async def test_the_file_comes_from_durak_db_or_defaults(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("DURAK_DB", raising=False)
    assert configured_path() == "./durak.sqlite3"
    monkeypatch.setenv("DURAK_DB", str(tmp_path / "from-env.sqlite3"))
    database = await open_database()
    assert sqlite_file(database).path == str(tmp_path / "from-env.sqlite3")
    assert (tmp_path / "from-env.sqlite3").exists()
    await database.close()


async def test_old_database_is_upgraded_in_place(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    old = await open_database(await db_target(path), upto=1)
    assert await old.schema_version() == 1
    async with old.tx() as c:  # tables as version 1 wrote them
        await UserRepo.upsert(c, 1, "Аня")
        for chat_id in (-100, -200):
            await ChatRepo.upsert(c, chat_id, "Друзья")
            await c.execute(
                "INSERT INTO tables (chat_id, creator_id, settings, seats, status, created_at)"
                " VALUES (?, 1, '{}', '[]', 'lobby', 0)",
                (chat_id,),
            )
    table_id = 1
    with pytest.raises((sqlite3.OperationalError, asyncpg.UndefinedTableError)):
        await old.fetch_one("SELECT * FROM stats")  # no statistics table yet in version 1
    await old.close()

    new = await open_database(await db_target(path))
    assert await new.schema_version() == len(migrations())
    table = await TableRepo(new).get(table_id)
    assert table is not None and table.chat_id == -100 and table.status == "lobby"
    assert table.series == Series()  # an old table starts its series afresh
    other = await TableRepo(new).get(2)
    assert other is not None  # each old table got its own random join token
    assert len(table.join_token) == 32 and table.join_token != other.join_token
    assert await TableRepo(new).by_join_token(table.join_token) == table
    async with new.tx() as c:
        await StatsRepo.put(c, Stats(-100, 1, 1, 1, 0, 0, 0, 0, 26.0, 8.0))
    assert (await StatsRepo(new).get(-100, 1)) == Stats(-100, 1, 1, 1, 0, 0, 0, 0, 26.0, 8.0)
    await new.close()


async def test_chat_user_and_table_round_trip(db: Database) -> None:
    table_id = await make_table(db)
    async with db.tx() as c:
        await ChatRepo.set_settings(c, -100, TableSettings(deck=24))
        await UserRepo.set_can_message(c, 1, True)
        await TableRepo.update(c, table_id, seats=[BOT], lobby_message_id=7)
    chat = await ChatRepo(db).get(-100)
    assert chat is not None and chat.title == "Друзья" and chat.settings == TableSettings(deck=24)
    user = await UserRepo(db).get(1)
    assert user is not None and user.name == "Аня" and user.can_message
    table = await TableRepo(db).open_in_chat(-100)
    assert table is not None and table.id == table_id
    assert table.seats == [BOT] and table.lobby_message_id == 7


async def test_one_open_table_per_chat(db: Database) -> None:
    table_id = await make_table(db)
    with pytest.raises(Conflict):
        async with db.tx() as c:
            await TableRepo.create(c, -100, 1, TableSettings(), [])
    async with db.tx() as c:
        await TableRepo.update(c, table_id, status=TableStatus.CLOSED)
        assert await TableRepo.create(c, -100, 1, TableSettings(), []) != table_id


async def test_game_and_action_log_round_trip(db: Database) -> None:
    table_id = await make_table(db)
    async with db.tx() as c:
        game_id = await GameRepo.create(c, table_id, {"players": 2}, [], 42, {"s": 1})
        for seq, text in enumerate(["a 7S", "d 9S>7S", "done"], 1):
            await GameRepo.append_action(c, game_id, seq, seq % 2, text, seq == 3, 1000.0 + seq)
        await GameRepo.save_state(
            c, game_id, version=3, snapshot={"s": 2}, deadline=1030.0, deadline_for="attack"
        )
        await GameRepo.set_hand_message(c, game_id, 1, 55)
        await GameRepo.set_hand_message(c, game_id, 1, 56)
    repo = GameRepo(db)
    game = await repo.get(game_id)
    assert game is not None
    assert (game.seed, game.version, game.snapshot, game.status) == (42, 3, {"s": 2}, "playing")
    assert (game.deadline, game.deadline_for) == (1030.0, "attack")
    assert [g.id for g in await repo.running()] == [game_id]
    log = await repo.actions(game_id)
    assert [(a.seq, a.seat, a.action, a.auto) for a in log] == [
        (1, 1, "a 7S", False), (2, 0, "d 9S>7S", False), (3, 1, "done", True),
    ]  # fmt: skip
    assert await repo.hand_message(game_id, 1) == 56

    with pytest.raises(Conflict):  # a sequence number is used once
        async with db.tx() as c:
            await GameRepo.append_action(c, game_id, 2, 0, "take", False, 1.0)
    assert len(await repo.actions(game_id)) == 3  # the failed transaction left nothing

    async with db.tx() as c:
        await GameRepo.save_state(
            c, game_id, version=4, snapshot={}, deadline=None, deadline_for=None,
            outcome={"fools": [1]},
        )  # fmt: skip
    over = await repo.get(game_id)
    assert over is not None and over.status == "over" and over.outcome == {"fools": [1]}
    assert await repo.running() == []


async def test_chat_migration_moves_tables_and_statistics(db: Database) -> None:
    table_id = await make_table(db)
    async with db.tx() as c:
        await StatsRepo.put(c, Stats(-100, 1, 3, 2, 1, 0, 0, 0, 27.0, 7.0))
        await ChatRepo.migrate_id(c, -100, -100200)
    table = await TableRepo(db).get(table_id)
    assert table is not None and table.chat_id == -100200
    assert await StatsRepo(db).get(-100, 1) is None
    moved = await StatsRepo(db).get(-100200, 1)
    assert moved is not None and moved.games == 3
    assert [s.user_id for s in await StatsRepo(db).chat_top(-100200)] == [1]


async def test_a_table_is_found_by_its_random_join_token_while_open(db: Database) -> None:
    first, second = await make_table(db, -100), await make_table(db, -200)
    tokens = [(await table_of(db, t)).join_token for t in (first, second)]
    assert len(set(tokens)) == 2 and all(len(t) == 22 for t in tokens)
    found = await TableRepo(db).by_join_token(tokens[1])
    assert found is not None and found.id == second
    assert tokens[1] not in repr(found)  # a secret of the table's group
    async with db.tx() as c:
        await TableRepo.update(c, second, status=TableStatus.CLOSED)
    assert await TableRepo(db).by_join_token(tokens[1]) is None
    assert await TableRepo(db).by_join_token("") is None


async def test_a_128_bit_seed_round_trips_and_older_games_keep_theirs(tmp_path: Path) -> None:
    path = tmp_path / "seeds.sqlite3"
    old = await open_database(await db_target(path), upto=5)
    table_id = await make_table(old)
    async with old.tx() as c:  # a game as version 5 wrote it: the seed as INTEGER
        await c.execute(
            "INSERT INTO games (table_id, rules, seats, seed, status, snapshot, started_at)"
            " VALUES (?, '{}', '[]', ?, 'over', '{}', 0)",
            (table_id, 2**63 - 1),
        )
    await old.close()
    db = await open_database(await db_target(path))
    seed = 2**128 - 12345  # before: OverflowError (SQLite INTEGER holds 64 bits)
    try:
        async with db.tx() as c:
            game_id = await GameRepo.create(c, table_id, {}, [], seed, {"s": 1})
        assert (await game_of(db, game_id)).seed == seed
        assert (await game_of(db, 1)).seed == 2**63 - 1
    finally:
        await db.close()


@pytest.mark.parametrize("ticks", [0, 1, 2, 3, 5, 8])
async def test_a_transaction_cancelled_anywhere_leaves_the_connection_usable(
    tmp_path: Path, ticks: int
) -> None:
    db = await open_database(await db_target(tmp_path / "c.sqlite3"))

    async def write() -> None:
        async with db.tx() as c:
            await c.execute("INSERT INTO chats (id, title, created_at) VALUES (7, 'a', 0)")

    task = asyncio.create_task(write())
    for _ in range(ticks):  # cancelled while beginning, writing or committing
        await asyncio.sleep(0)
    task.cancel()
    await asyncio.gather(task, return_exceptions=True)
    async with db.tx() as c:  # the next transaction works, whatever became of that one
        await c.execute("INSERT INTO chats (id, title, created_at) VALUES (8, 'b', 0)")
    rows = await db.fetch_all("SELECT id FROM chats ORDER BY id")
    assert [r[0] for r in rows] in ([8], [7, 8])
    await db.close()
