"""Two bot processes on one database (two services, each with its own connections):
the lobby's rules hold across them, kept by the database, not by in-process locks."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.handlers.lobby import error_text
from service.tables import Person, TableError, Tables
from storage.records import TableRecord
from storage.repos import GameRepo, UserRepo
from tests.backends import db_target
from tests.processes import two_services
from tests.service_helpers import ANNA, BORIS, tables_over

pytestmark = pytest.mark.usefixtures("backend")  # SQLite and PostgreSQL


@pytest.fixture
async def pair(tmp_path: Path, backend: str) -> AsyncIterator[tuple[Tables, Tables]]:
    async with two_services(await db_target(tmp_path / "shared.sqlite3")) as (a, b):
        yield await tables_over(a, (ANNA, BORIS)), await tables_over(b, ())


def stale_once(tables: Tables, name: str, value: object) -> None:
    """The next ``name`` call of ``tables`` answers ``value``, as read before the other
    process wrote: the race, made certain."""
    real = getattr(tables, name)
    calls = 0

    async def once(*args: object) -> object:
        nonlocal calls
        calls += 1
        return value if calls == 1 else await real(*args)

    setattr(tables, name, once)


async def test_a_person_sits_at_one_table_even_through_two_processes(
    pair: tuple[Tables, Tables],
) -> None:
    a, b = pair
    here, _ = await a.open(-1, "Первая", ANNA)
    there, _ = await b.open(-2, "Вторая", BORIS)
    await a.join(here.id, ANNA)
    stale_once(b, "table_of", None)  # b read before a seated her
    with pytest.raises(TableError, match=r"^other_table$") as info:
        await b.join(there.id, ANNA)
    assert info.value.params == {"chat_id": -1, "title": "Первая"}  # the refusal of today
    assert [s.user_id for s in (await b.get(there.id)).seats] == []


async def test_joins_at_once_through_two_processes_find_one_seat_each(
    pair: tuple[Tables, Tables],
) -> None:
    a, b = pair
    here, _ = await a.open(-1, "Первая", ANNA)
    there, _ = await b.open(-2, "Вторая", BORIS)
    results = await asyncio.gather(
        a.join(here.id, ANNA), b.join(there.id, ANNA), return_exceptions=True
    )
    refused = [r for r in results if isinstance(r, TableError)]
    assert len(refused) == 1 and refused[0].code == "other_table", results
    seated = [t for t in (here.id, there.id) if (await a.get(t)).seats]
    assert len(seated) == 1


async def test_a_join_is_not_lost_when_another_process_seats_someone_meanwhile(
    pair: tuple[Tables, Tables],
) -> None:
    a, b = pair
    table, _ = await a.open(-1, "Группа", ANNA)
    before = await b.get(table.id)
    await a.join(table.id, ANNA)
    stale_once(b, "get", before)  # b read the seats before Аня took hers
    await b.join(table.id, BORIS)
    assert [s.user_id for s in (await a.get(table.id)).seats] == [ANNA.id, BORIS.id]


async def test_two_processes_starting_one_table_start_one_game(
    pair: tuple[Tables, Tables],
) -> None:
    a, b = pair
    table, _ = await a.open(-1, "Группа", ANNA)
    await a.join(table.id, ANNA)
    await a.join(table.id, BORIS)
    lobby = await b.get(table.id)
    await a.start(table.id, ANNA)
    stale_once(b, "get", lobby)  # b saw the lobby before a started the game
    with pytest.raises(TableError, match=r"^playing$"):
        await b.start(table.id, ANNA)
    assert len(await GameRepo(a.db).running_ids()) == 1


async def test_a_closed_table_frees_its_seats(pair: tuple[Tables, Tables]) -> None:
    a, b = pair
    here, _ = await a.open(-1, "Первая", ANNA)
    await a.join(here.id, ANNA)
    await a.close(here.id)
    there, _ = await b.open(-2, "Вторая", BORIS)
    assert [s.user_id for s in (await b.join(there.id, ANNA)).seats] == [ANNA.id]


async def two_of_three_seated(a: Tables) -> tuple[TableRecord, Person]:
    """A table of three seats with Anna and Boris at it, and Vera, who may sit too."""
    vera = Person(3, "Вера")
    await a.remember(vera)
    async with a.db.tx() as c:
        await UserRepo.set_can_message(c, vera.id, True)
    table, _ = await a.open(-1, "Стол", ANNA)
    table = await a.change(table.id, ANNA, "seats", +1)  # 3 seats
    for p in (ANNA, BORIS):
        await a.join(table.id, p)
    return table, vera


async def test_fewer_seats_set_in_one_process_never_drop_below_those_taken_in_another(
    pair: tuple[Tables, Tables],
) -> None:
    a, b = pair
    table, vera = await two_of_three_seated(a)
    read = await b.get(table.id)  # b reads two seated...
    await a.join(table.id, vera)  # ...and a seats a third
    stale_once(b, "get", read)
    with pytest.raises(TableError, match=r"^seats_taken$"):
        await b.change(table.id, ANNA, "seats", -1)  # read again: three are seated
    now = await a.get(table.id)
    assert now.settings.seats == 3 and len(now.seats) == 3


async def test_of_two_settings_changes_at_once_through_two_processes_one_is_refused(
    pair: tuple[Tables, Tables],
) -> None:
    a, b = pair
    table, _ = await a.open(-1, "Стол", ANNA)
    read = await b.get(table.id)  # b reads the settings...
    changed = await a.change(table.id, ANNA, "deck")  # ...a changes them (36 -> 52)...
    stale_once(b, "get", read)
    with pytest.raises(TableError, match=r"^settings_moved$") as refused:
        await b.change(table.id, ANNA, "mode")  # ...so b's change, decided on 36, is refused
    assert error_text("ru", refused.value).startswith("Настройки только что изменило")
    now = await a.get(table.id)
    assert now.settings == changed.settings and now.settings.deck == 52
    assert now.settings.mode == read.settings.mode  # not written over a's change
    assert now.settings_version == read.settings_version + 1


async def test_a_settings_change_is_decided_again_when_only_the_seats_changed_meanwhile(
    pair: tuple[Tables, Tables],
) -> None:
    a, b = pair
    table, _ = await a.open(-1, "Стол", ANNA)
    read = await b.get(table.id)
    await a.join(table.id, BORIS)  # the seats, not the settings, changed meanwhile
    stale_once(b, "get", read)
    now = await b.change(table.id, ANNA, "deck")
    assert now.settings.deck == 52 and [s.user_id for s in now.seats] == [BORIS.id]


async def test_a_join_decided_on_more_seats_than_another_process_left_is_refused(
    pair: tuple[Tables, Tables],
) -> None:
    a, b = pair
    table, vera = await two_of_three_seated(a)
    read = await b.get(table.id)  # b sees a third seat free...
    await a.change(table.id, ANNA, "seats", -1)  # ...a takes it away
    stale_once(b, "get", read)
    with pytest.raises(TableError, match=r"^table_full$"):
        await b.join(table.id, vera)
    assert len((await a.get(table.id)).seats) == 2


async def test_a_start_pressed_on_settings_another_process_changed_is_refused(
    pair: tuple[Tables, Tables],
) -> None:
    a, b = pair
    table, _ = await a.open(-1, "Стол", ANNA)
    for p in (ANNA, BORIS):
        await a.join(table.id, p)
    read = await b.get(table.id)  # b reads 36 cards...
    await a.change(table.id, ANNA, "deck")  # ...a makes them 52...
    stale_once(b, "get", read)
    with pytest.raises(TableError, match=r"^settings_moved$"):
        await b.start(table.id, ANNA)  # ...so «Начать», pressed on 36, starts nothing
    assert await GameRepo(a.db).running_ids() == []
    assert (await a.get(table.id)).status == "lobby"
    stale_once(b, "get", read)  # every seat taken (or «Ещё партию»): decided again
    update = await b.start(table.id, None)
    assert update.state.rules.deck == 52


async def test_a_start_after_every_seat_taken_starts_nothing_once_a_seat_was_added(
    pair: tuple[Tables, Tables],
) -> None:
    a, b = pair
    table, vera = await two_of_three_seated(a)
    full = await b.join(table.id, vera)  # b takes the last seat: its start follows...
    await a.change(table.id, ANNA, "seats", +1)  # ...while a adds a fourth seat
    stale_once(b, "get", full)  # (the start read three of three: decided again)
    assert await b.start_full(table.id) is None  # before: a game of the three seated
    assert await GameRepo(a.db).running_ids() == []
    now = await a.get(table.id)
    assert now.status == "lobby" and len(now.seats) == 3 and now.settings.seats == 4
