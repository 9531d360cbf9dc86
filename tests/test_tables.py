"""Tables: the lobby's seats and settings, and starting a game from them."""

from __future__ import annotations

from pathlib import Path

import pytest

from service.tables import Person, TableError, Tables
from storage.repos import UserRepo
from tests.service_helpers import open_service

ANNA, BORIS, VIKA = Person(1, "Аня"), Person(2, "Борис"), Person(3, "Вика")


@pytest.fixture
async def tables(tmp_path: Path):
    service = await open_service(tmp_path / "t.sqlite3")
    tables = Tables(service.db, service)
    for p in (ANNA, BORIS, VIKA):
        await tables.remember(p)
        async with service.db.tx() as c:
            await UserRepo.set_can_message(c, p.id, True)
    yield tables
    await service.db.close()


def refused(code: str):
    return pytest.raises(TableError, match=f"^{code}$")


async def test_one_open_table_per_chat(tables: Tables) -> None:
    first, created = await tables.open(-1, "Группа", ANNA)
    again, created_again = await tables.open(-1, "Группа", BORIS)
    assert created and not created_again and again.id == first.id
    assert again.creator_id == ANNA.id and again.settings["deck"] == 36


async def test_joining_needs_the_private_chat_and_one_table_at_a_time(tables: Tables) -> None:
    table, _ = await tables.open(-1, "Группа", ANNA)
    stranger = Person(9, "Гость")
    await tables.remember(stranger)
    with refused("need_private"):
        await tables.join(table.id, stranger)
    await tables.join(table.id, ANNA)
    with refused("already_seated"):
        await tables.join(table.id, ANNA)
    other, _ = await tables.open(-2, "Другая", BORIS)
    with refused("other_table") as info:
        await tables.join(other.id, ANNA)
    assert info.value.params["chat_id"] == -1


async def test_impossible_settings_are_refused_with_a_reason(tables: Tables) -> None:
    table, _ = await tables.open(-1, "Группа", ANNA)
    await tables.change(table.id, ANNA, "deck")  # 36 -> 52
    await tables.change(table.id, ANNA, "deck")  # 52 -> 24
    for _ in range(2):
        await tables.change(table.id, ANNA, "seats", +1)  # 4 seats with 24 cards
    with refused("bad_settings") as info:
        await tables.change(table.id, ANNA, "seats", +1)
    assert info.value.params == {"reason": "deck_players", "deck": 24, "low": 2, "high": 4}
    await tables.change(table.id, ANNA, "seats", -1)  # 3 seats
    with refused("bad_settings") as info:
        await tables.change(table.id, ANNA, "pairs")
    assert info.value.params == {"reason": "pairs_players"}
    with refused("only_creator"):
        await tables.change(table.id, BORIS, "mode")
    assert (await tables.get(table.id)).settings["seats"] == 3


async def test_a_game_starts_with_the_seated_players(tables: Tables) -> None:
    table, _ = await tables.open(-1, "Группа", ANNA)
    await tables.change(table.id, ANNA, "seats", +1)
    await tables.join(table.id, ANNA)
    with refused("need_two"):
        await tables.start(table.id, ANNA)
    await tables.add_bot(table.id, ANNA)
    with refused("only_creator"):
        await tables.start(table.id, BORIS)
    update = await tables.start(table.id, ANNA)
    assert update.state.rules.players == 2
    assert [s["kind"] for s in tables.games.games[update.game_id].seats] == ["human", "bot"]
    assert (await tables.get(table.id)).status == "playing"
    with refused("cannot_leave"):
        await tables.leave(table.id, ANNA)


async def test_closing_a_table_stops_its_game(tables: Tables) -> None:
    table, _ = await tables.open(-1, "Группа", ANNA)
    await tables.join(table.id, ANNA)
    await tables.join(table.id, BORIS)
    update = await tables.start(table.id, ANNA)
    await tables.close(table.id)
    assert update.game_id not in tables.games.games
    with refused("no_table"):
        await tables.get(table.id)
    assert await tables.games.restore() == 0
