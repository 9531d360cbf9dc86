"""What several processes share of their messages (``storage.outgoing``): those waiting
for the process that sends for all (migration 0009), kept in the order written until
deleted as sent, and the hands' open pages (migration 0010, ``bot.hand_pages``), kept while
their game runs and deleted in the transaction that ends it."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bot.callbacks import PageName
from bot.hand_pages import HandPages, Page, SharedPages
from engine import Action, Card, Rules, State
from engine.actions import BEAT, OPEN, THROW
from service import GameService, TableSettings
from service.tables import Tables
from storage.connect import open_database
from storage.db import Database, is_url
from storage.outgoing import HandPageRepo, OutgoingRepo
from storage.repos import ChatRepo, GameRepo, TableRepo, UserRepo
from tests.backends import db_target
from tests.service_helpers import held, humans, new_table, open_service, start

pytestmark = pytest.mark.usefixtures("backend")


async def test_waiting_messages_come_in_the_order_written_until_sent(tmp_path: Path) -> None:
    db = await open_database(await db_target(tmp_path / "d.sqlite3"))
    try:
        repo = OutgoingRepo(db)
        ids = [await repo.add(n % 2, f'{{"n": {n}}}') for n in range(5)]
        assert ids == sorted(ids)
        waiting = await repo.waiting(limit=3)
        assert [w.id for w in waiting] == ids[:3]
        assert [w.body for w in waiting] == ['{"n": 0}', '{"n": 1}', '{"n": 2}']
        await repo.sent([ids[0], ids[2]])
        await repo.sent([])  # nothing to forget
        assert [w.id for w in await repo.waiting()] == [ids[1], ids[3], ids[4]]
        with pytest.raises(RuntimeError):  # one written in a change that failed is never sent
            async with db.tx() as c:
                await OutgoingRepo.put(c, 0, '{"n": 5}')
                raise RuntimeError
        assert [w.id for w in await repo.waiting()] == [ids[1], ids[3], ids[4]]
    finally:
        await db.close()


async def test_each_shard_holder_reads_only_its_shards_messages(tmp_path: Path) -> None:
    db = await open_database(await db_target(tmp_path / "d.sqlite3"))
    try:
        repo = OutgoingRepo(db)
        ids = [await repo.add(shard, f'{{"n": {shard}}}') for shard in (3, 5, 3, 7)]
        async with db.tx() as c:  # a row of an older bot, written before the shards
            await c.execute("INSERT INTO outgoing (body, created_at) VALUES ('{}', 0)")
        assert [(w.id, w.shard) for w in await repo.waiting({3})] == [(ids[0], 3), (ids[2], 3)]
        assert [w.id for w in await repo.waiting({5, 7})] == [ids[1], ids[3]]
        assert await repo.waiting(set()) == []
        old = await repo.waiting({0})  # sent by shard 0's holder
        assert [(w.body, w.shard) for w in old] == [("{}", 0)]
        assert len(await repo.waiting()) == 5
    finally:
        await db.close()


async def test_a_new_message_is_heard_of_by_the_other_processes(tmp_path: Path) -> None:
    target = await db_target(tmp_path / "d.sqlite3")
    if not is_url(target):  # SQLite: one process, nobody to tell
        db = await open_database(target)
        try:
            assert await OutgoingRepo(db).follow(lambda: None) is None
        finally:
            await db.close()
        return
    writer = await open_database(target, shared=True)
    reader = await open_database(target, shared=True)
    try:
        heard = asyncio.Event()
        listener = await OutgoingRepo(reader).follow(heard.set)
        assert listener is not None
        try:
            await OutgoingRepo(writer).add(0, "{}")
            await asyncio.wait_for(heard.wait(), 5)
        finally:
            await listener.close()
    finally:
        await reader.close()
        await writer.close()


def shared_page_deal(state: State) -> tuple[Action, Action, Card] | None:
    """An opening, the attacker's throw-in after it, and a card of the defender's that
    beats something both before and after the throw-in (their target choice)."""
    attacker, defender = state.attacker, state.defender
    for opening in state.legal_actions(attacker):
        if opening.kind != OPEN or len(opening.cards) > 1:
            continue
        opened = state.copy()
        opened.apply(opening)
        for throw in (a for a in opened.legal_actions(attacker) if a.kind == THROW):
            thrown = opened.copy()
            thrown.apply(throw)
            after = {a.cards[0] for a in thrown.legal_actions(defender) if a.kind == BEAT}
            for beat in opened.legal_actions(defender):
                if beat.kind == BEAT and beat.cards[0] in after:
                    return opening, throw, beat.cards[0]
    return None


RULES = Rules(players=2, deck=36)
SEED = next(s for s in range(500) if shared_page_deal(State(RULES, s)))


def opened_deal() -> tuple[State, Action, Card]:
    """SEED's game after its opening, the attacker's throw-in to come, and the
    defender's card that beats something before it and after it."""
    state = State(RULES, seed=SEED)
    found = shared_page_deal(state)
    assert found is not None
    opening, throw, card = found
    state.apply(opening)
    return state, throw, card


async def test_a_hand_page_is_shared_through_the_database_until_its_player_moves(
    tmp_path: Path,
) -> None:
    service = await open_service(tmp_path / "d.sqlite3")
    db = service.db
    try:
        here, there = SharedPages(db), SharedPages(db)  # two processes' pages
        game = (await start(service, RULES, SEED, humans(2))).game_id
        state, throw, card = opened_deal()
        defender = state.defender
        key = (game, defender + 1)  # the defender's page
        page = Page(state.bouts, PageName.MORE)
        await here.show(key, page, len(state.history))
        await here.pick(key, card, len(state.history))
        await there.sync(key)
        assert there.current(key, state, defender) == (page, card)
        state.apply(throw)  # another player's move keeps it
        assert there.current(key, state, defender) == (page, card)
        bouts = state.bouts
        state.apply(state.legal_actions(defender)[0])  # its player's, made here, closes it
        assert state.bouts == bouts and there.current(key, state, defender) == (None, None)
        assert here.current(key, state, defender) == (None, None)  # wherever it was made
        assert await pages_of(db) == [key]  # (until the game ends: it says when it opened)
        await there.sync(key)
        assert there.current(key, state, defender) == (None, None)
        assert there.shown(key) is None
    finally:
        await service.stop()
        await db.close()


async def test_a_page_of_one_process_alone_closes_at_its_players_own_move_too() -> None:
    pages = HandPages()  # (kept in memory only)
    state, throw, card = opened_deal()
    defender = state.defender
    key, page = (1, defender + 1), Page(state.bouts, PageName.MORE)
    await pages.show(key, page, len(state.history))
    await pages.pick(key, card, len(state.history))
    state.apply(throw)  # another player's move keeps it
    assert pages.current(key, state, defender) == (page, card)
    made_for_them = state.copy()  # (by a timeout, or a stand-in for an absent player)
    made_for_them.apply(state.legal_actions(defender)[0], auto=True)
    assert pages.current(key, made_for_them, defender)[0] == page  # keeps it
    state.apply(state.legal_actions(defender)[0])  # a move of its player's own closes it
    assert pages.current(key, state, defender) == (None, None) and pages.shown(key) is None


async def pages_of(db: Database) -> list[tuple[int, int]]:
    rows = await db.fetch_all("SELECT game_id, user_id FROM hand_pages ORDER BY game_id, user_id")
    return [(int(r[0]), int(r[1])) for r in rows]


async def two_games(service: GameService) -> tuple[int, int]:
    """Two running games, at two groups' tables."""
    rules, seats = Rules(players=2, deck=36), humans(2)
    one = await service.create_game(await new_table(service, 2, chat=-1), rules, seats, 3)
    two = await service.create_game(await new_table(service, 2, chat=-2), rules, seats, 4)
    return one.game_id, two.game_id


async def test_a_games_pages_go_in_the_transaction_that_ends_it(tmp_path: Path) -> None:
    service = await open_service(tmp_path / "d.sqlite3")
    db, repo = service.db, HandPageRepo(service.db)
    try:
        played, closed = await two_games(service)
        for game in (played, closed):
            for user in (1, 2):
                await repo.put(game, user, '{"opened": 0}')
        assert await pages_of(db) == [(played, 1), (played, 2), (closed, 1), (closed, 2)]
        state = held(service, played).state
        update = await service.act(
            played, Action.from_text(0, "quit"), len(state.history)
        )  # surrendered: over
        assert update.state.is_over and await pages_of(db) == [(closed, 1), (closed, 2)]
        await Tables(db, service).close(held(service, closed).table_id)  # ended unfinished
        assert await pages_of(db) == []
        await repo.put(played, 1, '{"opened": 9}')  # a page opened as the game ended: dropped
        assert await repo.get(played, 1) is None and await pages_of(db) == []
    finally:
        await service.stop()
        await db.close()


async def test_pages_left_by_games_that_ended_before_are_deleted_by_the_migration(
    tmp_path: Path,
) -> None:
    target = await db_target(tmp_path / "d.sqlite3")
    old = await open_database(target, upto=10)  # (older than the service: rows by hand)
    try:
        async with old.tx() as c:
            games = []
            for user in (1, 2):
                await UserRepo.upsert(c, user, f"Игрок {user}")
            for chat in (-1, -2):
                await ChatRepo.upsert(c, chat, "Стол")
                table = await TableRepo.create(c, chat, 1, TableSettings(), [])
                games.append(await GameRepo.create(c, table, {}, humans(2), chat, {}))
            running, ended = games
            await c.execute("UPDATE games SET status = 'over' WHERE id = ?", (ended,))
            for game in (running, ended):
                await c.execute(
                    "INSERT INTO hand_pages (game_id, user_id, body) VALUES (?, 1, '{}')", (game,)
                )
    finally:
        await old.close()
    db = await open_database(target)
    try:
        assert await pages_of(db) == [(running, 1)]
    finally:
        await db.close()
