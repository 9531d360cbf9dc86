"""Closing a table while a move or a start waits: the game stays ended."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from engine import Action, Rules
from service import FakeClock, Refused
from service.tables import Person, Tables
from storage.records import TableStatus
from storage.repos import GameRepo
from tests.helpers import turn_of
from tests.service_helpers import held, humans, new_table, open_service

pytestmark = pytest.mark.usefixtures("backend")  # SQLite and PostgreSQL

ANNA, BORIS = Person(1, "Аня"), Person(2, "Борис")


async def status(tables: Tables, game: int) -> str:
    row = await tables.db.fetch_one("SELECT status FROM games WHERE id = ?", (game,))
    assert row is not None
    return str(row[0])


async def test_a_press_waiting_while_the_table_closes_is_refused(tmp_path: Path) -> None:
    service = await open_service(tmp_path / "p.sqlite3")
    tables = Tables(service.db, service)
    table = await new_table(service)
    game = (await service.create_game(table, Rules(players=2, deck=36), humans(2), 3)).game_id
    state = held(service, game).state
    seat = turn_of(state).seats[0]
    move = state.legal_actions(seat)[0].text
    live = held(service, game)
    async with live.lock:  # a computer move is being committed
        closing = asyncio.ensure_future(tables.close(table))
        await asyncio.sleep(0.05)
        press = asyncio.create_task(service.act(game, Action.from_text(seat, move), 0))
        timer = asyncio.create_task(service._on_timer(game, 0))
        await asyncio.sleep(0.05)
    await closing
    with pytest.raises(Refused) as refused:
        await press
    await timer
    assert refused.value.reason == "no_game"
    assert await status(tables, game) == "over"
    assert await GameRepo(service.db).actions(game) == []
    record = await tables.record(table)
    assert record is not None and record.status == TableStatus.CLOSED
    await service.db.close()


async def test_a_stop_during_a_start_ends_the_new_game(tmp_path: Path) -> None:
    service = await open_service(tmp_path / "s.sqlite3", FakeClock())
    tables = Tables(service.db, service)
    table, _ = await tables.open(-1, "Группа", ANNA)
    for person in (ANNA, BORIS):
        await tables.remember(person)
        await tables.records.set_can_message(person.id, True)
        await tables.join(table.id, person)
    for delay in range(0, 40, 4):  # /stop at several points of the start
        starting = asyncio.ensure_future(tables.start(table.id, ANNA))
        for _ in range(delay):
            await asyncio.sleep(0)
        await tables.close(table.id)
        await asyncio.gather(starting, return_exceptions=True)
        record = await tables.record(table.id)
        assert record is not None and record.status == TableStatus.CLOSED
        assert service.game_of(table.id) is None
        rows = await service.db.fetch_all("SELECT status FROM games")
        assert {r[0] for r in rows} <= {"over"}
        table, _ = await tables.open(-1, "Группа", ANNA)
        for person in (ANNA, BORIS):
            await tables.join(table.id, person)
    await service.db.close()
