"""Tables: the lobby's seats and settings, and starting a game from them."""

from __future__ import annotations

import asyncio

import pytest

from engine.bots import MonteCarloBot
from engine.players import Player
from service import LiveGame, Seat, Update
from service.tables import Person, TableError, Tables
from storage.records import SeatKind
from tests.service_helpers import ANNA, BORIS, VIKA, held, play_moves, refused

pytestmark = pytest.mark.usefixtures("backend")  # SQLite and PostgreSQL


async def test_one_open_table_per_chat(tables: Tables) -> None:
    first, created = await tables.open(-1, "Группа", ANNA)
    again, created_again = await tables.open(-1, "Группа", BORIS)
    assert created and not created_again and again.id == first.id
    assert again.creator_id == ANNA.id and again.settings.deck == 36


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
    assert info.value.params == {"chat_id": -1, "title": "Группа"}


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
    assert (await tables.get(table.id)).settings.seats == 3
    for p in (ANNA, BORIS, VIKA):
        await tables.join(table.id, p)
    with refused("seats_taken"):
        await tables.change(table.id, ANNA, "seats", -1)


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
    assert [s.kind for s in held(tables.games, update.game_id).seats] == ["human", "bot"]
    assert (await tables.get(table.id)).status == "playing"
    with refused("cannot_leave"):
        await tables.leave(table.id, ANNA)


async def test_closing_a_table_stops_its_game(tables: Tables) -> None:
    table, _ = await tables.open(-1, "Группа", ANNA)
    await tables.join(table.id, ANNA)
    await tables.join(table.id, BORIS)
    update = await tables.start(table.id, ANNA)
    await tables.close(table.id)
    assert update.game_id not in tables.games.game_ids()
    with refused("no_table"):
        await tables.get(table.id)
    assert await tables.games.restore() == 0


async def test_the_creator_chooses_the_bots_strength_and_the_bots_play_at_it(
    tables: Tables,
) -> None:
    table, _ = await tables.open(-1, "Группа", ANNA)
    await tables.change(table.id, ANNA, "seats", +1)
    await tables.join(table.id, ANNA)
    await tables.add_bot(table.id, ANNA)
    with refused("only_creator"):
        await tables.set_bots(table.id, BORIS, "master")
    with refused("not_now"):
        await tables.set_bots(table.id, ANNA, "grandmaster")
    table = await tables.set_bots(table.id, ANNA, "master")  # the seated bot too
    table = await tables.add_bot(table.id, ANNA)
    assert table.settings.bots == "master"
    assert [(s.name, s.level) for s in table.seats] == [
        ("Аня", None),
        ("Мастер 1", "master"),
        ("Мастер 2", "master"),
    ]
    levels: list[str | None] = []
    autoplay = tables.games.autoplay
    choose = autoplay.player_for

    def player_for(seat: Seat) -> Player:
        levels.append(seat.level)
        return choose(seat)

    autoplay.player_for = player_for
    update = await tables.start(table.id, ANNA)
    await play_moves(tables.games, update.game_id, 3)
    assert levels and set(levels) == {"master"}  # every bot move was the Master's
    assert isinstance(choose(Seat(SeatKind.BOT, "Мастер", level="master")), MonteCarloBot)


async def test_a_chat_remembers_its_bots_strength_for_the_next_table(tables: Tables) -> None:
    table, _ = await tables.open(-1, "Группа", ANNA)
    await tables.set_bots(table.id, ANNA, "expert")
    await tables.close(table.id)
    table, _ = await tables.open(-1, "Группа", BORIS)
    assert table.settings.bots == "expert"
    table = await tables.add_bot(table.id, BORIS)
    assert table.seats[0] == Seat(SeatKind.BOT, "Опытный 1", level="expert")


async def test_a_table_speaks_its_creators_language(tables: Tables) -> None:
    assert await tables.lang(-1) == "ru" and await tables.lang(-1, default="en") == "en"
    table, _ = await tables.open(-1, "Group", Person(5, "Anna", lang="en"))
    assert await tables.lang(-1) == "en"
    await tables.open(-1, "Group", BORIS)  # the open table keeps its language
    assert await tables.lang(-1) == "en"
    await tables.close(table.id)
    await tables.open(-1, "Group", BORIS)
    assert await tables.lang(-1) == "ru"


async def test_during_a_game_the_lobby_waits(tables: Tables) -> None:
    table, _ = await tables.open(-1, "Группа", ANNA)
    await tables.change(table.id, ANNA, "seats", +1)
    await tables.join(table.id, ANNA)
    await tables.join(table.id, BORIS)
    await tables.start(table.id, ANNA)
    for attempt in (
        tables.join(table.id, VIKA),
        tables.add_bot(table.id, ANNA),
        tables.change(table.id, ANNA, "mode"),
        tables.set_bots(table.id, ANNA, "master"),
        tables.start(table.id, ANNA),
    ):
        with refused("playing"):
            await attempt
    with refused("not_seated"):
        await tables.leave(table.id, VIKA)


async def test_only_a_player_out_of_cards_may_leave_a_running_game(tables: Tables) -> None:
    table, _ = await tables.open(-1, "Группа", ANNA)
    await tables.change(table.id, ANNA, "seats", +1)
    for p in (ANNA, BORIS, VIKA):
        await tables.join(table.id, p)

    def person_at(live: LiveGame, seat: int) -> Person:
        return next(p for p in (ANNA, BORIS, VIKA) if p.id == live.seats[seat].user_id)

    for _ in range(20):  # deals are random: play games until one ends with a player out first
        game_id = (await tables.start(table.id, ANNA)).game_id
        live = held(tables.games, game_id)
        before = live.state.to_dict()
        for seat in range(3):
            with refused("cannot_leave"):
                await tables.leave(table.id, person_at(live, seat))
        assert live.state.to_dict() == before
        assert len((await tables.get(table.id)).seats) == 3
        while not live.state.is_over and not any(live.state.place):
            await play_moves(tables.games, game_id, 1)
        if not live.state.is_over:
            break
    assert not live.state.is_over
    seat = next(s for s in range(3) if live.state.place[s])
    out = person_at(live, seat)
    table = await tables.leave(table.id, out)
    assert out.id not in {s.user_id for s in table.seats} and len(table.seats) == 2
    assert table.status == "playing" and await tables.table_of(out.id) is None
    other, _ = await tables.open(-2, "Другая", out)
    await tables.join(other.id, out)  # free to sit at another table
    await play_moves(tables.games, game_id, 1000)
    assert live.state.is_over
    update = await tables.start(table.id, None)  # «Ещё партию»: without the one who left
    assert update.state.n == 2


async def test_concurrent_presses_neither_lose_a_seat_nor_start_two_games(
    tables: Tables,
) -> None:
    table, _ = await tables.open(-1, "Группа", ANNA)
    await tables.change(table.id, ANNA, "seats", +1)
    await asyncio.gather(tables.join(table.id, ANNA), tables.join(table.id, BORIS))
    assert {s.user_id for s in (await tables.get(table.id)).seats} == {ANNA.id, BORIS.id}
    results = await asyncio.gather(
        tables.start(table.id, ANNA), tables.start(table.id, None), return_exceptions=True
    )
    assert sum(isinstance(r, Update) for r in results) == 1
    refusal = next(r for r in results if isinstance(r, TableError))
    assert refusal.code == "playing"
    assert len(tables.games.game_ids()) == 1


async def test_one_person_joining_two_tables_at_once_gets_one_seat(tables: Tables) -> None:
    first, _ = await tables.open(-1, "Группа", ANNA)
    second, _ = await tables.open(-2, "Другая", BORIS)
    results = await asyncio.gather(
        tables.join(first.id, VIKA), tables.join(second.id, VIKA), return_exceptions=True
    )
    seated = [t for t in (first, second) if (await tables.get(t.id)).seats]
    assert len(seated) == 1
    refusal = next(r for r in results if isinstance(r, TableError))
    assert refusal.code == "other_table"


async def test_two_opens_at_the_same_instant_open_one_table(tables: Tables) -> None:
    results = await asyncio.gather(
        tables.open(-1, "Группа", ANNA), tables.open(-1, "Группа", BORIS)
    )  # before: the second one raised IntegrityError (one open table per chat)
    # Either may come first (on PostgreSQL the two run on connections of their own).
    assert sorted(created for _, created in results) == [False, True]
    assert results[0][0].id == results[1][0].id
    winner = ANNA if results[0][1] else BORIS
    assert results[0][0].creator_id == results[1][0].creator_id == winner.id
