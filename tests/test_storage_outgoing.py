"""What several processes share of their messages (``storage.outgoing``): those waiting
for the process that sends for all (migration 0009), kept in the order written until
deleted as sent, and the hands' open pages (migration 0010, ``bot.hand_pages``)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bot.hand_pages import HandPages, Page
from engine import Rules, State
from storage.db import Database, is_url
from storage.outgoing import OutgoingRepo
from tests.backends import db_target

pytestmark = pytest.mark.usefixtures("backend")


async def test_waiting_messages_come_in_the_order_written_until_sent(tmp_path: Path) -> None:
    db = await Database.open(await db_target(tmp_path / "d.sqlite3"))
    try:
        repo = OutgoingRepo(db)
        ids = [await repo.add(f'{{"n": {n}}}') for n in range(5)]
        assert ids == sorted(ids)
        waiting = await repo.waiting(limit=3)
        assert [w.id for w in waiting] == ids[:3]
        assert [w.body for w in waiting] == ['{"n": 0}', '{"n": 1}', '{"n": 2}']
        await repo.sent([ids[0], ids[2]])
        await repo.sent([])  # nothing to forget
        assert [w.id for w in await repo.waiting()] == [ids[1], ids[3], ids[4]]
        with pytest.raises(RuntimeError):  # one written in a change that failed is never sent
            async with db.tx() as c:
                await OutgoingRepo.put(c, '{"n": 5}')
                raise RuntimeError
        assert [w.id for w in await repo.waiting()] == [ids[1], ids[3], ids[4]]
    finally:
        await db.close()


async def test_a_new_message_is_heard_of_by_the_other_processes(tmp_path: Path) -> None:
    target = await db_target(tmp_path / "d.sqlite3")
    if not is_url(target):  # SQLite: one process, nobody to tell
        db = await Database.open(target)
        try:
            assert await OutgoingRepo(db).follow(lambda: None) is None
        finally:
            await db.close()
        return
    writer = await Database.open(target, shared=True)
    reader = await Database.open(target, shared=True)
    try:
        heard = asyncio.Event()
        listener = await OutgoingRepo(reader).follow(heard.set)
        assert listener is not None
        try:
            await OutgoingRepo(writer).add("{}")
            await asyncio.wait_for(heard.wait(), 5)
        finally:
            await listener.close()
    finally:
        await reader.close()
        await writer.close()


async def test_a_hand_page_is_shared_through_the_database_until_its_player_moves(
    tmp_path: Path,
) -> None:
    db = await Database.open(await db_target(tmp_path / "d.sqlite3"))
    try:
        here, there = HandPages(), HandPages()  # two processes' presenters
        here.share(db)
        there.share(db)
        state = State(Rules(players=2, deck=36), seed=3)
        attacker, defender = state.attacker, state.defender
        key = (7, 42)  # the defender's page
        marked = tuple(state.view(defender).hand[:2])
        here.pages[key] = Page(state.bouts, "mark", None, marked)
        here.picking[key] = state.view(defender).hand[2]
        await here.save(key, len(state.history))
        await there.load(key)
        assert there.current(key, state, defender) == (here.pages[key], here.picking[key])
        state.apply(state.legal_actions(attacker)[0])  # another player's move keeps it
        assert there.current(key, state, defender) == (here.pages[key], here.picking[key])
        bouts = state.bouts
        state.apply(state.legal_actions(defender)[0])  # its player's, made here, closes it
        assert state.bouts == bouts and there.current(key, state, defender) == (None, None)
        here.forget(key)
        await here.save(key, len(state.history))  # closed: gone from the database too
        await there.load(key)
        assert key not in there.pages and key not in there.picking and key not in there.opened
    finally:
        await db.close()
