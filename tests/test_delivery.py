"""Both ways a process shows what happens (``bot.delivery``), through one suite: every test
runs against ``Alone`` (one process on SQLite) and ``Shared`` (one of several on
PostgreSQL, alone there: holding every shard), each wired by the real ``App`` and sending to
the Bot API emulator."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from dataclasses import dataclass, replace
from pathlib import Path

import pytest

from bot.app import App
from bot.callbacks import PageName
from bot.config import Config
from bot.delivery import Alone, Shared
from bot.hand_pages import Page
from service import Update
from service.lobbies import Said
from service.records import Records
from service.tables import Person
from storage.repos import UserRepo
from tests.backends import PgDatabases
from tests.e2e_helpers import TOKEN, settle
from tests.fakes import FakeChat, FakeTelegram, FakeUser

ANNA, BORIS = Person(1, "Аня"), Person(2, "Борис")


@dataclass
class Rig:
    tg: FakeTelegram
    app: App
    group: FakeChat
    anna: FakeUser
    boris: FakeUser


@pytest.fixture(params=["alone", "shared"])
async def rig(
    request: pytest.FixtureRequest, tmp_path: Path, pg_databases: PgDatabases
) -> AsyncIterator[Rig]:
    """The app as configured for the mode, started (the shared one holding the lease),
    with a group of two people who started the bot."""
    async with FakeTelegram(token=TOKEN) as tg:
        anna, boris = tg.add_user(1, "Аня", started=True), tg.add_user(2, "Борис", started=True)
        group = tg.add_group(-100, "Друзья", members=[anna, boris])
        config = Config(token=TOKEN, db_path=str(tmp_path / "d.sqlite3"), api_base=tg.base_url)
        if request.param == "shared":  # webhook mode on a server: one of several processes
            url = await pg_databases.target("delivery")
            config = replace(config, db_path=url, webhook_url="https://bot.invalid/tg")
        limits = replace(config.limits, per_chat=0.0, group_per_minute=10**6, per_second=10**6)
        app = await App.create(replace(config, limits=limits, bot_pause=(0.0, 0.0)))
        kind = Shared if request.param == "shared" else Alone
        assert isinstance(app.delivery, kind)
        async with app.db.tx() as c:
            for user in (anna, boris):
                await UserRepo.upsert(c, user.id, user.first_name)
                await UserRepo.set_can_message(c, user.id, True)
        await app.start()
        try:
            if isinstance(app.delivery, Shared):
                shared = app.delivery
                await tg.wait_for(lambda: shared.showing == 64, what="every shard")
            yield Rig(tg, app, group, anna, boris)
        finally:
            await app.stop()


def texts(rig: Rig, chat: FakeChat | FakeUser) -> list[str]:
    where = rig.tg.private(chat) if isinstance(chat, FakeUser) else chat
    return [m.text or "" for m in rig.tg.messages(where) if m.from_user and m.from_user.is_bot]


async def test_messages_and_edits_reach_their_chat_in_order(rig: Rig) -> None:
    delivery, group = rig.app.delivery, rig.group
    await delivery.send(group.id, "раз")
    await delivery.send(group.id, "два")
    await rig.tg.wait_for(lambda: texts(rig, group) == ["раз", "два"], what="both, in order")
    first = rig.tg.messages(group)[0]
    await delivery.edit(group.id, first.message_id, "раз (исправлено)")
    await rig.tg.wait_for(lambda: texts(rig, group)[0] == "раз (исправлено)", what="the edit")


async def test_a_lobby_change_shows_its_lobby_noted_as_the_tables(rig: Rig) -> None:
    tables = rig.app.tables
    table, created = await tables.open(rig.group.id, "Друзья", ANNA)
    assert created
    await rig.tg.wait_for(
        lambda: any("Стол для игры" in t for t in texts(rig, rig.group)), what="the lobby"
    )

    async def noted() -> bool:
        now = await tables.record(table.id)
        return now is not None and now.lobby_message_id is not None

    await rig.tg.wait_for(noted, what="the lobby noted as the table's")
    await tables.join(table.id, BORIS)
    await rig.tg.wait_for(lambda: "Борис" in texts(rig, rig.group)[-1], what="the seat shown")
    assert len(texts(rig, rig.group)) == 1  # edited in place


async def test_a_change_while_a_new_lobby_is_on_its_way_edits_it(rig: Rig) -> None:
    """Telegram holds the lobby's first post a second (a 429): the seat taken meanwhile
    edits that message once it is sent and noted, no second lobby is posted."""
    rig.tg.inject_429(1, retry_after=1, chat=rig.group, methods=["sendMessage"])
    table, _ = await rig.app.tables.open(rig.group.id, "Друзья", ANNA)
    await rig.app.tables.join(table.id, ANNA)
    seated = lambda: "1. Аня" in (texts(rig, rig.group) or [""])[-1]  # noqa: E731
    await rig.tg.wait_for(seated, 10, what="the lobby with Аня seated")
    await settle(rig.app)
    assert len(texts(rig, rig.group)) == 1


async def test_a_seat_taken_while_a_lobby_below_a_result_is_on_its_way_shows(rig: Rig) -> None:
    """After a game's result (the table's message), a new lobby is on its way when Борис
    sits down: once noted (no longer a result), it is edited to show him."""
    table, _ = await rig.app.tables.open(rig.group.id, "Друзья", ANNA)
    await rig.tg.wait_for(lambda: texts(rig, rig.group), what="the lobby")
    await rig.app.delivery.drawn()
    first = rig.tg.messages(rig.group)[0].message_id
    await Records(rig.app.db).set_lobby_message(table.id, first, summary=True)  # a result
    rig.tg.inject_429(1, retry_after=1, chat=rig.group, methods=["sendMessage"])
    now = await rig.app.tables.record(table.id)
    assert now is not None
    posting = asyncio.create_task(rig.app.delivery.lobby(now, new=True))  # /durak below it
    held = lambda: [c for c in rig.tg.calls if c.status == 429]  # noqa: E731
    await rig.tg.wait_for(held, what="the new lobby's first try")
    await rig.app.tables.join(table.id, BORIS)
    await posting
    shown = lambda: "Борис" in (texts(rig, rig.group) or [""])[-1]  # noqa: E731
    await rig.tg.wait_for(shown, 10, what="the new lobby with Борис")
    assert len(texts(rig, rig.group)) == 2  # the result, and one lobby


async def started(rig: Rig) -> Update:
    """Аня and Борис at a table in the group, their game started and both hands shown."""
    table, _ = await rig.app.tables.open(rig.group.id, "Друзья", ANNA)
    for person in (ANNA, BORIS):
        table = await rig.app.tables.join(table.id, person)
    update = await rig.app.tables.start(table.id, ANNA)
    await settle(rig.app)
    await rig.tg.wait_for(lambda: texts(rig, rig.anna) and texts(rig, rig.boris), what="hands")
    return update


async def test_a_move_shows_on_the_table_and_the_hands(rig: Rig) -> None:
    app = rig.app
    update = await started(rig)
    before = texts(rig, rig.group)[-1]
    state = update.state
    seat = state.attacker
    await app.service.act(update.game_id, state.legal_actions(seat)[0], len(state.history))
    await settle(app)
    edited = lambda: texts(rig, rig.group)[-1] != before  # noqa: E731
    await rig.tg.wait_for(edited, 15, what="the table edited")  # (slow on a busy machine)


async def test_a_page_of_the_hand_is_shown_again(rig: Rig) -> None:
    app = rig.app
    update = await started(rig)
    page = Page(update.state.bouts, PageName.MORE)
    await app.presenter.hand_pages.show((update.game_id, rig.anna.id), page, update.version)
    await app.delivery.hand(update.game_id, rig.anna.id)
    await rig.tg.wait_for(lambda: "Сдаться" in keys(rig, rig.anna), what="the «⋯» page")


async def test_a_closed_table_says_so_and_its_reply_follows(rig: Rig) -> None:
    app = rig.app
    table, _ = await app.tables.open(rig.group.id, "Друзья", ANNA)
    await rig.tg.wait_for(lambda: texts(rig, rig.group), what="the lobby")
    said = Said(rig.group.id, "Стол закрыт.")
    await app.tables.close(table.id, why="closed.stopped", title="Друзья", said=said)
    await rig.tg.wait_for(lambda: texts(rig, rig.group)[-1] == "Стол закрыт.", what="the reply")
    assert "Стол для игры" not in texts(rig, rig.group)[0]  # the lobby says it is closed


async def test_a_table_closed_while_its_lobby_is_on_its_way_says_so_in_it(rig: Rig) -> None:
    """/stop before the lobby message was sent (Telegram held it a second): once it is
    there, it is edited to say the table is closed, and the reply follows."""
    rig.tg.inject_429(1, retry_after=1, chat=rig.group, methods=["sendMessage"])
    table, _ = await rig.app.tables.open(rig.group.id, "Друзья", ANNA)
    held = lambda: [c for c in rig.tg.calls if c.status == 429]  # noqa: E731
    await rig.tg.wait_for(held, what="the lobby's first try")
    said = Said(rig.group.id, "Стол закрыт.")
    await rig.app.tables.close(table.id, why="closed.stopped", title="Друзья", said=said)
    closed = lambda: len(texts(rig, rig.group)) == 2  # noqa: E731
    await rig.tg.wait_for(closed, 10, what="the lobby and the reply")
    assert texts(rig, rig.group) == ["Стол закрыт."] * 2  # the lobby edited, then the reply


def keys(rig: Rig, user: FakeUser) -> str:
    """The button texts of the user's newest hand."""
    messages = [m for m in rig.tg.messages(rig.tg.private(user)) if m.keyboard]
    return " ".join(text for row in messages[-1].keyboard for text, _ in row) if messages else ""


async def test_lobby_changes_in_a_burst_post_one_lobby(tmp_path: Path, tg: FakeTelegram) -> None:
    """Three changes before the group's first message could go (its pacing): each draw is
    of the table as its change left it, and one that finds the table changed since leaves
    it to the later draw, so the lobby is posted once and edited (alone)."""
    anna, boris = tg.add_user(1, "Аня", started=True), tg.add_user(2, "Борис", started=True)
    group = tg.add_group(-100, "Друзья", members=[anna, boris])
    config = Config(token=TOKEN, db_path=str(tmp_path / "d.sqlite3"), api_base=tg.base_url)
    app = await App.create(replace(config, bot_pause=(0.0, 0.0)))  # Telegram's pacing
    async with app.db.tx() as c:
        for user in (anna, boris):
            await UserRepo.upsert(c, user.id, user.first_name)
            await UserRepo.set_can_message(c, user.id, True)
    await app.start()
    try:
        table, _ = await app.tables.open(group.id, "Друзья", ANNA)
        await app.tables.join(table.id, BORIS)
        await app.tables.next_seats(table.id, ANNA)
        await settle(app)
        lobbies = [t for t in texts(Rig(tg, app, group, anna, boris), group) if "Стол" in t]
        assert len(lobbies) == 1 and "Борис" in lobbies[0], lobbies
    finally:
        await app.stop()
