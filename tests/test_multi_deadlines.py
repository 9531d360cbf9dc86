"""Deadlines across bot processes on one database: they live in the games' rows, every
process that follows a game arms its timer, and each deadline fires exactly once (the
process that claims its row first makes the timeout; the others catch up)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from engine import Action, Rules
from service import FakeClock, GameService
from storage.connect import open_database
from storage.repos import GameRepo
from tests.backends import PgDatabases, db_target
from tests.processes import two_services
from tests.service_helpers import Heard, held, humans, new_table, next_move, open_service, start

pytestmark = pytest.mark.usefixtures("backend")  # SQLite and PostgreSQL

RULES = Rules(players=2, deck=36)


@pytest.fixture
async def pair(
    tmp_path: Path, backend: str
) -> AsyncIterator[tuple[GameService, GameService, Heard, Heard]]:
    """Two processes on one database, and what each one's service told its listener."""
    clock = FakeClock()  # one time for both processes, as on one machine
    heard_a, heard_b = Heard(), Heard()
    target = await db_target(tmp_path / "shared.sqlite3")
    async with two_services(target, clock=clock, listeners=(heard_a, heard_b)) as (a, b):
        yield a, b, heard_a, heard_b


async def test_a_deadline_both_processes_hold_fires_once(
    pair: tuple[GameService, GameService, Heard, Heard],
) -> None:
    a, b, heard_a, heard_b = pair
    clock = a.clock
    assert isinstance(clock, FakeClock)
    games = []
    for seed in (3, 4, 5):
        table = await new_table(a, 2, chat=-seed)
        games.append((await a.create_game(table, RULES, humans(2), seed)).game_id)
    await a.idle()
    assert await b.follower.sync() == 3  # b follows a's games and arms their deadlines
    assert all(b.deadline(g) == a.deadline(g) is not None for g in games)
    clock.advance(RULES.move_seconds)
    await asyncio.gather(a.fire_due(), b.fire_due())
    await asyncio.gather(a.idle(), b.idle())
    await b.follower.sync()
    await a.follower.sync()
    made_a, made_b = heard_a.timeouts(), heard_b.timeouts()
    assert len(made_a) + len(made_b) == 3, (made_a, made_b)
    for game in games:
        log = await GameRepo(a.db).actions(game)
        assert [r.auto for r in log] == [True]  # one timeout each, never two
        assert held(a, game).state == held(b, game).state
    # A process whose row was claimed by the other looks again a second later, and
    # finds the deadline moved on: nothing fires twice.
    clock.advance(1.0)
    await asyncio.gather(a.fire_due(), b.fire_due())
    assert len(heard_a.timeouts()) + len(heard_b.timeouts()) == 3
    for game in games:
        assert len(await GameRepo(a.db).actions(game)) == 1


async def test_a_process_that_did_not_make_the_move_fires_its_deadline(
    pair: tuple[GameService, GameService, Heard, Heard],
) -> None:
    a, b, _, _ = pair
    clock = a.clock
    assert isinstance(clock, FakeClock)
    game = (await start(a, RULES, 8, humans(2))).game_id
    await a.idle()
    await b.follower.sync()
    seat, text = next_move(held(a, game).state)
    await a.act(game, Action.from_text(seat, text), len(held(a, game).state.history))
    await a.idle()
    version = len(held(a, game).state.history)
    await a.stop()  # a dies: its timers with it
    await b.follower.sync()  # b hears of the move (here: reads it)
    assert len(held(b, game).state.history) == version and b.deadline(game) is not None
    clock.advance(RULES.move_seconds)
    assert await b.fire_due() == 1
    await b.idle()  # the words said for a player after it, if any
    log = await GameRepo(b.db).actions(game)
    assert len(log) > version and log[version].auto
    assert len(held(b, game).state.history) == len(log)


async def test_a_deadline_locked_by_another_process_is_skipped_not_waited_for(
    tmp_path: Path, backend: str
) -> None:
    a = await open_service(tmp_path / "lock.sqlite3")
    try:
        game = (await start(a, RULES, 2, humans(2))).game_id
        record = await GameRepo(a.db).get(game)
        assert record is not None and record.deadline is not None
        if backend == "sqlite":  # one writer at a time anyway: the claim is the check
            async with a.db.tx() as c:
                assert not await GameRepo.claim_due(c, game, 0, record.deadline - 1)
                assert await GameRepo.claim_due(c, game, 0, record.deadline)
            return
        other = await open_database(a.db.target)
        try:
            async with a.db.tx() as c:
                assert await GameRepo.claim_due(c, game, 0, record.deadline)
                async with other.tx() as d:  # the row is held: skipped at once
                    skipped = GameRepo.claim_due(d, game, 0, record.deadline)
                    assert not await asyncio.wait_for(skipped, 5)
            async with other.tx() as d:
                assert await GameRepo.claim_due(d, game, 0, record.deadline)
        finally:
            await other.close()
    finally:
        await a.db.close()


@pytest.mark.sqlite_only  # the test's own PostgreSQL database below
async def test_a_step_reaches_another_process_by_notification(
    tmp_path: Path, pg_databases: PgDatabases
) -> None:
    url = await pg_databases.target("notify")
    async with two_services(url, shared=True) as (a, b):
        b.follower.poll = 3600.0  # one read at the start, then only what it hears
        b.follow()
        await asyncio.sleep(0.5)
        game = (await start(a, RULES, 12, humans(2))).game_id
        for _ in range(2):
            await a.idle()
            state = held(a, game).state
            seat, text = next_move(state)
            await a.act(game, Action.from_text(seat, text), len(state.history))
            await a.idle()
            want = held(a, game).state
            for _ in range(100):
                live = b.live(game)  # (None until b hears of the game)
                if live is not None and live.state == want:
                    break
                await asyncio.sleep(0.05)
            assert b.live(game) is not None and held(b, game).state == want
        await a.end_table(held(a, game).table_id)
        for _ in range(100):
            if b.live(game) is None:
                break
            await asyncio.sleep(0.05)
        assert b.live(game) is None and b.deadline(game) is None
