"""Two bot processes on one database (two services) making moves in one game: the
database serializes them, so a move is applied once, and the process that lost the
race answers as for a press from an older hand and catches up."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from engine import Action, Rules
from service import GameService, Refused, Update
from service.tables import Tables
from storage.records import GameStatus, TableStatus
from storage.repos import GameRepo, TableRepo
from tests.backends import db_target
from tests.processes import two_services
from tests.service_helpers import held, humans, next_move, play_moves, start

pytestmark = pytest.mark.usefixtures("backend")  # SQLite and PostgreSQL

RULES = Rules(players=2, deck=36)


@pytest.fixture
async def pair(tmp_path: Path, backend: str) -> AsyncIterator[tuple[GameService, GameService]]:
    async with two_services(await db_target(tmp_path / "shared.sqlite3")) as both:
        yield both


async def started(a: GameService, b: GameService) -> int:
    """A game started by ``a`` and loaded by ``b``, both idle at the same version."""
    game = (await start(a, RULES, 7, humans(2))).game_id
    await a.idle()
    assert await b.catch_up(game)
    assert held(b, game).state == held(a, game).state
    return game


async def logged(service: GameService, game: int) -> list[str]:
    return [f"{r.seat} {r.action}" for r in await GameRepo(service.db).actions(game)]


async def test_a_move_made_by_two_processes_at_once_is_applied_once(
    pair: tuple[GameService, GameService],
) -> None:
    a, b = pair
    game = await started(a, b)
    version = len(held(a, game).state.history)
    seat, text = next_move(held(a, game).state)
    results = await asyncio.gather(
        a.act(game, Action.from_text(seat, text), version),
        b.act(game, Action.from_text(seat, text), version),
        return_exceptions=True,
    )
    made = [r for r in results if isinstance(r, Update)]
    refused = [r for r in results if isinstance(r, Refused)]
    assert len(made) == 1 and len(refused) == 1 and refused[0].reason == "stale", results
    await asyncio.gather(a.idle(), b.idle())
    log = await logged(a, game)
    assert log[version] == f"{seat} {text}" and log.count(f"{seat} {text}") == 1
    loser = b if made[0] is results[0] else a
    assert [str(x) for x in held(loser, game).state.history][: version + 1] == log[: version + 1]


async def test_a_process_whose_cache_is_behind_refuses_as_stale_and_catches_up(
    pair: tuple[GameService, GameService],
) -> None:
    a, b = pair
    game = await started(a, b)
    version = len(held(a, game).state.history)
    seat, text = next_move(held(a, game).state)
    await a.act(game, Action.from_text(seat, text), version)
    await a.idle()
    assert len(held(b, game).state.history) == version  # b has not heard of it
    with pytest.raises(Refused) as info:
        await b.act(game, Action.from_text(seat, text), version)  # the same press, reaching b
    assert info.value.reason == "stale"
    assert held(b, game).state == held(a, game).state  # b reloaded the game
    assert b.deadline(game) == a.deadline(game) is not None  # and armed its new deadline
    assert await logged(b, game) == [str(x) for x in held(a, game).state.history]
    seat, text = next_move(held(b, game).state)  # now b may move, and a is behind
    await b.act(game, Action.from_text(seat, text), len(held(b, game).state.history))


async def test_a_computer_move_decided_twice_is_made_once(
    pair: tuple[GameService, GameService],
) -> None:
    a, b = pair
    game = await started(a, b)
    live_a, live_b = held(a, game), held(b, game)
    version = len(live_a.state.history)
    seat, text = next_move(live_a.state)
    action = Action.from_text(seat, text)
    moved = await asyncio.gather(
        a.step(game, live_a, version, action, True), b.step(game, live_b, version, action, True)
    )
    assert sorted(moved) == [False, True]
    assert live_a.state.history[: version + 1] == live_b.state.history[: version + 1]
    assert (await logged(a, game)).count(f"{seat} {text}") == 1


async def test_a_game_started_by_another_process_takes_a_move_here(
    pair: tuple[GameService, GameService],
) -> None:
    a, b = pair
    game = (await start(a, RULES, 7, humans(2))).game_id
    await a.idle()
    state = held(a, game).state
    seat, text = next_move(state)
    update = await b.act(game, Action.from_text(seat, text), len(state.history))  # b loads it first
    assert update.version == len(state.history) + 1 and game in b.game_ids()


async def test_a_game_ended_elsewhere_leaves_the_cache_at_the_next_move(
    pair: tuple[GameService, GameService],
) -> None:
    a, b = pair
    game = await started(a, b)
    table = held(a, game).table_id
    await a.end_table(table)  # its table was closed in a
    state = held(b, game).state
    seat, text = next_move(state)
    with pytest.raises(Refused, match="moved on"):
        await b.act(game, Action.from_text(seat, text), len(state.history))
    assert b.live(game) is None and b.deadline(game) is None
    over = await GameRepo(b.db).get(game)
    assert over is not None and over.status == GameStatus.OVER


async def test_a_table_s_next_game_started_elsewhere_replaces_the_finished_one_here(
    pair: tuple[GameService, GameService],
) -> None:
    a, b = pair
    game = await started(a, b)
    table = held(a, game).table_id
    await play_moves(a, game, 1000)
    assert await b.catch_up(game) is False and held(b, game).state.is_over  # the summary
    seats = held(a, game).seats
    following = (await a.create_game(table, RULES, seats, 8)).game_id
    assert await b.catch_up(following)
    assert b.games_of(table) == [following] and b.game_of(table) == following


async def test_a_press_from_a_hand_newer_than_the_cache_is_made_after_catching_up(
    pair: tuple[GameService, GameService],
) -> None:
    a, b = pair
    game = await started(a, b)
    seat, text = next_move(held(a, game).state)
    await a.act(game, Action.from_text(seat, text), len(held(a, game).state.history))
    await a.idle()
    behind = len(held(b, game).state.history)
    state = held(a, game).state  # the hand the next press comes from was drawn by a
    seat, text = next_move(state)
    update = await b.act(
        game, Action.from_text(seat, text), len(state.history)
    )  # b has not heard of a's move
    assert update.version == len(state.history) + 1 == behind + 2
    assert await logged(a, game) == [str(x) for x in held(b, game).state.history]


async def test_a_table_closed_elsewhere_stays_closed_while_its_game_was_being_played(
    pair: tuple[GameService, GameService],
) -> None:
    a, b = pair
    game = (await start(a, RULES, 7, humans(2))).game_id
    await a.idle()
    table = held(a, game).table_id
    await Tables(b.db, b).close(table)  # closed in b, which never held the game
    state = held(a, game).state
    seat, text = next_move(state)
    with pytest.raises(Refused):
        await a.act(game, Action.from_text(seat, text), len(state.history))
    assert a.live(game) is None  # a dropped it: its table is closed
    over = await GameRepo(a.db).get(game)
    assert over is not None and over.status == GameStatus.OVER
    record = await TableRepo(a.db).get(table)
    assert record is not None and record.status == TableStatus.CLOSED
    assert await b.catch_up(game) is False and b.live(game) is None
