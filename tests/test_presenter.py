"""The presenter's scheduling: one worker per game, the newest state shown (rendered
when the outbox sends, not when a move is reported), a new message sent once; a
failed send is tried again; a finished game leaves nothing behind."""

from __future__ import annotations

import asyncio
import itertools
from datetime import UTC, datetime
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from aiogram.types import Chat, InlineKeyboardMarkup, Message

from bot.callbacks import PageName
from bot.hand_pages import HandPages, Page
from bot.outbox import Render
from bot.presenter import Presenter
from engine import Action, Rules, State
from service import Update
from service.records import Records
from storage.repos import UserRepo
from tests.service_helpers import humans, new_table, next_move, open_service, play_moves


def presenter_with(show: Any) -> Presenter:
    service = SimpleNamespace(live=lambda game_id: None)
    presenter = Presenter(records=None, service=service, outbox=None, pages=HandPages())  # type: ignore[arg-type]
    presenter._show = show  # type: ignore[method-assign]
    return presenter


def news(game_id: int, version: int) -> Update:
    return Update(game_id, version, [], State(Rules(), 0))


async def test_a_slow_game_does_not_hold_up_the_others() -> None:
    gate, shown = asyncio.Event(), []

    async def show(game_id: int, news: set[int | None]) -> None:
        if game_id == 1:
            await gate.wait()  # e.g. a new message waiting for its slot
        shown.append(game_id)

    presenter = presenter_with(show)
    presenter.start()
    await presenter.on_update(news(1, 1))
    await presenter.on_update(news(2, 1))
    await asyncio.sleep(0.05)
    assert shown == [2]
    gate.set()
    await presenter.idle()
    assert shown == [2, 1]
    await presenter.stop()


async def test_news_that_arrives_while_showing_is_shown_once_more() -> None:
    gate, shown = asyncio.Event(), []

    async def show(game_id: int, news: set[int | None]) -> None:
        shown.append(game_id)
        await gate.wait()

    presenter = presenter_with(show)
    presenter.start()
    await presenter.on_update(news(1, 1))
    await asyncio.sleep(0.01)
    for version in (2, 3, 4):  # three moves while the first is still being handed over
        await presenter.on_update(news(1, version))
    gate.set()
    await presenter.idle()
    assert shown == [1, 1]  # the newest state once, not every version in between
    await presenter.stop()


async def test_news_before_the_start_is_shown_at_the_start() -> None:
    shown: list[int] = []

    async def show(game_id: int, news: set[int | None]) -> None:
        shown.append(game_id)

    presenter = presenter_with(show)
    await presenter.on_update(news(5, 1))  # e.g. a game restored before start()
    await asyncio.sleep(0.01)
    assert shown == []
    presenter.start()
    await presenter.idle()
    assert shown == [5]
    await presenter.stop()


class Outbox:
    """Keeps what the presenter queues and renders it only at ``flush`` (the slot);
    new messages to ``held`` wait for ``gate``, and the first one to ``failing`` fails."""

    def __init__(self, held: int | None = None, failing: int | None = None) -> None:
        self.queued: dict[tuple[int, int], Render] = {}  # (chat, message) -> newest render
        self.sent: list[tuple[str, int, InlineKeyboardMarkup | None]] = []
        self.drawn_at: list[int] = []  # per sent message: the game's version when rendered
        self.version = lambda: 0  # the game's version now (set by ``running``)
        self.gate = asyncio.Event()
        self.held, self.failing = held, failing
        self._ids = itertools.count(100)

    def show(self, chat_id: int, message_id: int | None, render: Render) -> Any:
        if message_id is None:
            return asyncio.ensure_future(self._send(chat_id, render))
        self.queued[(chat_id, message_id)] = render
        return asyncio.get_running_loop().create_future()

    def send(self, chat_id: int, text: str, markup: Any = None) -> Any:
        return asyncio.ensure_future(self._send(chat_id, lambda: (text, markup)))

    async def _send(self, chat_id: int, render: Render) -> Message | None:
        if chat_id == self.failing:
            self.failing = None
            return None
        if chat_id == self.held:
            await self.gate.wait()  # e.g. waiting for its slot under Telegram's limits
        content = render()
        assert content is not None
        self._note("send", chat_id, content[1])
        chat = Chat(id=chat_id, type="private")
        return Message(
            message_id=next(self._ids),
            date=datetime.now(UTC),
            chat=chat,
            text=content[0],
            reply_markup=content[1],  # as Telegram returns it
        )

    def _note(self, kind: str, chat_id: int, markup: InlineKeyboardMarkup | None) -> None:
        self.sent.append((kind, chat_id, markup))
        self.drawn_at.append(self.version())

    def flush(self) -> None:
        """Every chat's slot comes: each queued message is rendered and sent."""
        for (chat_id, _), render in self.queued.items():
            content = render()
            if content is not None:
                self._note("edit", chat_id, content[1])
        self.queued.clear()

    def versions(self, chat_id: int) -> list[int]:
        """The game version each keyboard sent to the chat was drawn for."""
        return [
            version
            for (_, chat, markup), version in zip(self.sent, self.drawn_at, strict=True)
            if chat == chat_id and markup is not None
        ]


async def running(tmp_path: Path, outbox: Outbox) -> tuple[Presenter, int]:
    service = await open_service(tmp_path / "db.sqlite3")
    presenter = Presenter(Records(service.db), service, outbox, HandPages())  # type: ignore[arg-type]
    outbox.version = lambda: max(len(g.state.history) for g in service.games.values())
    service.notify = presenter.on_update
    presenter.start()
    table_id = await new_table(service)
    async with service.db.tx() as c:  # they started the bot: their hands come privately
        for user in (1, 2):
            await UserRepo.set_can_message(c, user, True)
    update = await service.create_game(table_id, Rules(), humans(2), seed=3)
    return presenter, update.game_id


async def test_an_edit_shows_the_state_at_its_slot_not_at_the_move(tmp_path: Path) -> None:
    outbox = Outbox()
    presenter, game = await running(tmp_path, outbox)
    await presenter.idle()
    outbox.flush()
    for _ in range(3):  # three moves before the hands' slots come
        state = presenter.service.games[game].state
        seat, text = next_move(state)
        await presenter.service.act(game, Action.from_text(seat, text), len(state.history))
        await presenter.service.idle()  # the words said for a player with nothing to add
        await presenter.idle()
    outbox.flush()
    version = len(presenter.service.games[game].state.history)
    for user in (1, 2):
        assert outbox.versions(user) == [0, version]  # nothing in between, nothing twice
    await presenter.stop()
    await presenter.records.db.close()


async def test_a_hand_is_sent_once_and_never_shown_older_than_before(tmp_path: Path) -> None:
    outbox = Outbox(held=1)
    presenter, game = await running(tmp_path, outbox)
    await asyncio.sleep(0.05)  # the first news waits to send the hand of user 1
    state = presenter.service.games[game].state
    seat, text = next_move(state)
    await presenter.service.act(game, Action.from_text(seat, text), len(state.history))
    presenter.refresh(game, 1)  # a press that changes the hand's page
    outbox.gate.set()
    await presenter.idle()
    outbox.flush()
    assert [kind for kind, chat, _ in outbox.sent if chat == 1].count("send") == 1
    versions = outbox.versions(1)
    assert versions == sorted(versions) and versions[-1] == 1
    await presenter.stop()
    await presenter.records.db.close()


async def test_a_failed_send_is_tried_again_at_the_next_news(tmp_path: Path) -> None:
    outbox = Outbox(failing=2)
    presenter, game = await running(tmp_path, outbox)
    await presenter.idle()
    assert not [p for p in outbox.sent if p[1] == 2]
    presenter.refresh(game, 2)  # the same hand as before: still never shown
    await presenter.idle()
    assert [kind for kind, chat, _ in outbox.sent if chat == 2] == ["send"]
    await presenter.stop()
    await presenter.records.db.close()


async def test_a_replaced_message_is_the_one_of_its_chat(tmp_path: Path) -> None:
    outbox = Outbox()
    presenter, game = await running(tmp_path, outbox)
    await presenter.idle()
    shown = presenter._games[game]
    shown.ids[1] = shown.ids[2] = 555  # message ids are per chat: both may be 555
    await presenter.replaced(2, 555, 777)
    assert shown.ids[1] == 555 and shown.ids[2] == 777
    presenter.refresh(game, 1)
    presenter.refresh(game, 2)
    await presenter.idle()
    assert set(outbox.queued) == {(1, 555), (2, 777)}
    await presenter.stop()
    await presenter.records.db.close()


async def test_a_finished_game_leaves_no_entries(tmp_path: Path) -> None:
    outbox = Outbox()
    presenter, game = await running(tmp_path, outbox)
    await presenter.idle()
    await presenter.hand_pages.show((game, 1), Page(0, PageName.ACCUSE), 0)
    await play_moves(presenter.service, game, 1000)
    await presenter.idle()
    assert presenter.hand_pages.shown((game, 1)) is None
    assert not any([presenter._games, presenter._news])
    assert outbox.sent[-1][0] == "send"  # the summary
    outbox.flush()  # the hands' last edits, rendered after the game was forgotten
    assert all(markup is None for kind, _, markup in outbox.sent[-2:])  # «game over»
    presenter.refresh(game, 1)  # a late press: the finished game is not shown again
    await presenter.idle()
    assert not presenter._games and not outbox.queued
    await presenter.stop()
    await presenter.records.db.close()


async def test_a_new_message_waiting_for_its_slot_holds_up_no_other_hand(tmp_path: Path) -> None:
    outbox = Outbox(held=1)  # user 1's first hand waits, as in a 429 back-off
    presenter, game = await running(tmp_path, outbox)
    await asyncio.sleep(0.05)
    state = presenter.service.games[game].state
    seat, text = next_move(state)
    await presenter.service.act(game, Action.from_text(seat, text), len(state.history))
    await asyncio.sleep(0.05)
    assert not outbox.gate.is_set() and any(chat == 2 for chat, _ in outbox.queued)
    outbox.gate.set()
    await presenter.idle()
    outbox.flush()
    assert outbox.versions(1)[-1] == 1  # and user 1's hand shows the move too
    await presenter.stop()
    await presenter.records.db.close()
