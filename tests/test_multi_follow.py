"""Following the other processes when the notifications fail: a lost listening
connection is made anew, and what was missed meanwhile is read (PostgreSQL)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from engine import Action, Rules
from service import FakeClock, GameService, Update
from storage.connect import open_database
from storage.repos import GameRepo
from tests.backends import PgDatabases
from tests.processes import two_services
from tests.service_helpers import held, humans, new_table, next_move, start, until

pytestmark = pytest.mark.sqlite_only  # the test's own PostgreSQL database below

RULES = Rules(players=2, deck=36)
LISTENERS = (
    "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND query LIKE 'LISTEN %'"
)


async def test_a_lost_listening_connection_is_made_anew_and_the_missed_steps_read(
    tmp_path: Path, pg_databases: PgDatabases
) -> None:
    url = await pg_databases.target("follow")
    async with two_services(url, shared=True) as (a, b):
        b.follower.poll = 0.2
        b.follow()
        pids: list[int] = []

        async def listening() -> list[int]:
            return [int(r[0]) for r in await a.db.fetch_all(LISTENERS)]

        for _ in range(200):
            if pids := await listening():
                break
            await asyncio.sleep(0.05)
        assert len(pids) == 1
        await a.db.fetch_one("SELECT pg_terminate_backend(?)", (pids[0],))
        game = (await start(a, RULES, 5, humans(2))).game_id  # while b may not be listening
        await a.idle()
        await until(lambda: b.live(game) is not None, "b read the game it did not hear of")
        for _ in range(200):
            now = await listening()
            if now and now != pids:
                break
            await asyncio.sleep(0.05)
        assert now and now != pids  # listening again, on a new connection
        b.follower.poll = 3600.0  # from here on only what it hears
        await asyncio.sleep(0.3)  # the loop's last short sleep
        state = held(a, game).state
        seat, text = next_move(state)
        await a.act(game, Action.from_text(seat, text), len(state.history))
        await a.idle()
        want = held(a, game).state
        await until(lambda: b.live(game) is not None and held(b, game).state == want, "heard")


async def test_steps_heard_while_a_catch_up_reads_the_game_are_read_too(
    tmp_path: Path, pg_databases: PgDatabases
) -> None:
    url = await pg_databases.target("again")
    async with two_services(url, shared=True) as (a, b):
        game = (await start(a, RULES, 5, humans(2))).game_id
        await a.idle()
        assert await b.catch_up(game)
        reads = 0
        real = b.follower.catch_up

        async def slow(game_id: int) -> bool:  # a's next step commits during b's read
            nonlocal reads
            reads += 1
            loaded = await real(game_id)
            if reads == 1:
                state = held(a, game).state
                seat, text = next_move(state)
                await a.act(game, Action.from_text(seat, text), len(state.history))
                b.follower.heard(game, len(held(a, game).state.history))
            return loaded

        b.follower.catch_up = slow  # type: ignore[method-assign]  # a read made slow
        state = held(a, game).state
        seat, text = next_move(state)
        await a.act(game, Action.from_text(seat, text), len(state.history))
        b.follower.heard(game, len(held(a, game).state.history))
        await until(lambda: reads >= 2 and not b.follower._pending, "the second read")
        await a.idle()
        assert b.live(game) is not None and held(b, game).state == held(a, game).state


class Moved:
    """The layer that shows the games, as far as this test needs: which games it was
    told moved."""

    def __init__(self) -> None:
        self.games: list[int] = []

    async def news(self, update: Update) -> None:
        pass

    def moved(self, game_id: int) -> None:
        self.games.append(game_id)


async def test_a_deadline_an_outage_moved_elsewhere_is_heard_at_once(
    tmp_path: Path, pg_databases: PgDatabases
) -> None:
    """Another process gave the move the time an outage took: this one hears it (no
    step was made) and shows the new deadline with the time added."""
    url = await pg_databases.target("retimed")
    shown = Moved()
    async with two_services(url, listeners=(None, shown), shared=True) as (a, b):
        b.follower.poll = 3600.0  # only what it hears
        game = (await start(a, RULES, 5, humans(2))).game_id
        await a.idle()
        assert await b.catch_up(game)
        b.follow()
        await asyncio.sleep(0.3)  # listening
        deadline, version = a.deadline(game), len(held(a, game).state.history)
        assert deadline is not None and b.deadline(game) == deadline
        shown.games.clear()
        async with a.db.tx() as c:
            assert await GameRepo.move_deadline(c, game, version, deadline, deadline + 20)
        await until(lambda: b.deadline(game) == deadline + 20, "the deadline heard")
        assert held(b, game).time_added == 20 and shown.games == [game]
        state = held(a, game).state
        seat, text = next_move(state)
        await a.act(game, Action.from_text(seat, text), version)  # the next step: none added
        await until(lambda: len(held(b, game).state.history) > version, "the step heard")
        assert held(b, game).time_added is None


async def test_a_process_alone_on_its_database_notifies_nobody(
    tmp_path: Path, pg_databases: PgDatabases
) -> None:
    url = await pg_databases.target("alone")
    heard: list[str] = []
    watcher = await open_database(url)
    listener = await watcher.listen("durak_games", heard.append, sharded=True)
    assert listener is not None
    try:
        for shared in (False, True):
            service = GameService(await open_database(url, shared=shared), clock=FakeClock())
            try:
                table = await new_table(service, 2, chat=-1 - int(shared))
                await service.create_game(table, RULES, humans(2), 6)
                await service.idle()
                await asyncio.sleep(0.3)
                assert bool(heard) == shared, heard  # one of several: every step is told
            finally:
                await service.db.close()
    finally:
        await listener.close()
        await watcher.close()
