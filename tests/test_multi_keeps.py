"""A process that keeps only some chats' games (``service.follow``, ``keeps``: its shards',
and those a Mini App page open there shows) on a real PostgreSQL server: it neither
loads nor polls another's game, answers a move in one all the same (loaded for it, let go
at the next sync), and follows one from the moment it keeps it."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager

import pytest

from engine import Action, Rules
from service import FakeClock, GameService
from storage.connect import open_database
from tests.backends import PgDatabases
from tests.service_helpers import held, humans, next_move, start, until

pytestmark = pytest.mark.sqlite_only  # the test's own PostgreSQL database below

RULES = Rules(players=2, deck=36)


@asynccontextmanager
async def service(url: str, keeps: Callable[[int, int], bool] | None) -> AsyncIterator[GameService]:
    db = await open_database(url, shared=True)
    games = GameService(db, clock=FakeClock(), keeps=keeps)
    try:
        yield games
    finally:
        await games.stop()
        await db.close()


async def test_a_process_follows_only_the_games_it_keeps(pg_databases: PgDatabases) -> None:
    url = await pg_databases.target("keeps")
    tables: set[int] = set()  # the tables whose games the second process keeps
    async with (
        service(url, None) as a,
        service(url, lambda _chat, table: table in tables) as b,
    ):
        b.follower.poll = 0.1
        b.follow()
        game = (await start(a, RULES, 5, humans(2))).game_id
        table = held(a, game).table_id
        await a.idle()
        await asyncio.sleep(0.5)  # heard of, and polled several times
        assert b.live(game) is None  # another's: not loaded

        state = held(a, game).state  # a move made in it here: loaded for it...
        seat, text = next_move(state)
        await b.act(game, Action.from_text(seat, text), len(state.history))
        await until(lambda: b.live(game) is None, "let go at the next sync")  # ...not kept
        assert await a.catch_up(game)  # (a follows nothing itself)
        assert len(held(a, game).state.history) == len(state.history) + 1

        tables.add(table)  # kept from now on (its shard taken, or a page open on it)
        await until(lambda: b.live(game) is not None, "followed")
        state = held(a, game).state
        seat, text = next_move(state)
        await a.act(game, Action.from_text(seat, text), len(state.history))
        want = held(a, game).state
        await until(lambda: held(b, game).state == want, "a's move followed")
        tables.clear()
        await until(lambda: b.live(game) is None, "let go once no longer kept")


async def test_whether_a_player_holds_cards_is_read_where_the_game_is_not_kept(
    pg_databases: PgDatabases,
) -> None:
    """A process that does not keep the game still knows who holds cards in it (one
    holding cards may not leave the table, RULES §8): it reads the game for that."""
    url = await pg_databases.target("holds")
    async with service(url, None) as a, service(url, lambda _chat, _table: False) as b:
        game = (await start(a, RULES, 5, humans(2))).game_id
        live = held(a, game)
        player = live.seats[0].user_id
        assert player is not None and b.live(game) is None
        assert await b.holds_cards(live.table_id, player)
        assert not await b.holds_cards(live.table_id, player + 1000)  # not at this table
