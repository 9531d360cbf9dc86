"""A process that keeps only some chats' games (``service.follow``, ``Keeping``: its
shards', and those a Mini App page open there shows) on a real PostgreSQL server: it
neither loads nor polls another's game, answers a move in one all the same (loaded for
it, let go at the next sync), and follows one from the moment it keeps it; it hears only
the notifications of the shards it keeps."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field

import pytest

from engine import Action, Rules
from service import FakeClock, GameService
from storage.connect import open_database
from storage.shards import SHARDS, shard_of
from tests.backends import PgDatabases
from tests.service_helpers import held, humans, next_move, start, until

pytestmark = pytest.mark.sqlite_only  # the test's own PostgreSQL database below

RULES = Rules(players=2, deck=36)


@dataclass
class Kept:
    """The games of these tables (as a page open on each, or their shards held)."""

    tables: dict[int, int] = field(default_factory=dict)  # table -> its chat

    def keeps(self, chat_id: int, table_id: int) -> bool:
        return table_id in self.tables

    def shards(self) -> frozenset[int]:
        return frozenset(shard_of(chat, SHARDS) for chat in self.tables.values())


@asynccontextmanager
async def service(url: str, keeping: Kept | None) -> AsyncIterator[GameService]:
    db = await open_database(url, shared=True)
    games = GameService(db, clock=FakeClock(), keeping=keeping)
    try:
        yield games
    finally:
        await games.stop()
        await db.close()


async def test_a_process_follows_only_the_games_it_keeps(pg_databases: PgDatabases) -> None:
    url = await pg_databases.target("keeps")
    kept = Kept()  # the tables whose games the second process keeps
    async with service(url, None) as a, service(url, kept) as b:
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

        kept.tables[table] = held(a, game).chat_id  # kept from now on (its shard taken...)
        await until(lambda: b.live(game) is not None, "followed")
        b.follower.poll = 60.0  # from here on, a's steps reach b by their notifications
        await asyncio.sleep(0.3)  # (b's follower is in its long sleep)
        for _ in range(2):
            state = held(a, game).state
            seat, text = next_move(state)
            await a.act(game, Action.from_text(seat, text), len(state.history))
            want = held(a, game).state

            def heard(want: object = want) -> bool:
                return held(b, game).state == want

            await until(heard, "a's move heard")
        kept.tables.clear()
        await b.catch_up_all()  # (as when a process lets shards go)
        assert b.live(game) is None  # let go once no longer kept

        kept.tables[table] = held(a, game).chat_id  # a page opened on its table
        await b.follow_table(table)
        assert held(b, game).state == held(a, game).state


async def test_whether_a_player_holds_cards_is_read_where_the_game_is_not_kept(
    pg_databases: PgDatabases,
) -> None:
    """A process that does not keep the game still knows who holds cards in it (one
    holding cards may not leave the table, RULES §8): it reads the game for that."""
    url = await pg_databases.target("holds")
    async with service(url, None) as a, service(url, Kept()) as b:
        game = (await start(a, RULES, 5, humans(2))).game_id
        live = held(a, game)
        player = live.seats[0].user_id
        assert player is not None and b.live(game) is None
        assert await b.holds_cards(live.table_id, player)
        assert not await b.holds_cards(live.table_id, player + 1000)  # not at this table


async def test_a_process_hears_the_steps_of_the_shards_it_keeps_only(
    pg_databases: PgDatabases,
) -> None:
    """The notifications of a game's steps go on its chat's shard's channel: a listener
    told which shards to hear gets theirs, and nothing of another shard's chats."""
    url = await pg_databases.target("heard")
    mine = next(c for c in range(-1001, -2000, -1) if shard_of(c, SHARDS) == 1)
    other = next(c for c in range(-1001, -2000, -1) if shard_of(c, SHARDS) != 1)
    writer, reader = await open_database(url, shared=True), await open_database(url)
    heard: list[str] = []
    listener = await reader.listen("durak_games", heard.append, sharded=True)
    assert listener is not None
    try:
        async with writer.tx() as c:  # every shard heard at first
            await c.notify("durak_games", "1 1", chat=other)
        await until(lambda: heard == ["1 1"], "heard before choosing")
        await listener.hear({1})
        async with writer.tx() as c:
            await c.notify("durak_games", "1 2", chat=other)
            await c.notify("durak_games", "2 1", chat=mine)
        await until(lambda: "2 1" in heard, "the shard heard")
        await asyncio.sleep(0.2)
        assert heard == ["1 1", "2 1"]
    finally:
        await listener.close()
        await writer.close()
        await reader.close()
