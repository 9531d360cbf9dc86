"""The presenter's scheduling: one worker per game, the newest state shown (rendered
when the outbox sends, not when a move is reported), a new message sent once; a
failed send is tried again; a finished game leaves nothing behind."""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bot.callbacks import PageName
from bot.ephemeral import EphemeralHands
from bot.hand_pages import HandPages, Page
from bot.keyboard import Keyboard
from bot.outbox import Render
from bot.outgoing import Posted
from bot.presenter import Presenter
from bot.reach import Reach
from engine import Action, Rules, State
from service import FakeClock, GameService, LiveGames, Update
from service.records import Records
from storage.connect import open_database
from storage.repos import UserRepo
from tests.backends import db_target
from tests.service_helpers import held, humans, new_table, next_move, play_moves


def presenter_with(show: Any) -> Presenter:
    presenter = Presenter(
        records=None,  # type: ignore[arg-type]  # never read: what it shows is replaced
        games=LiveGames(),
        clock=FakeClock(),
        outbox=None,  # type: ignore[arg-type]  # never used, as the records
        pages=HandPages(),
        reach=Reach(None),  # type: ignore[arg-type]  # never used, as the records
        group_hands=EphemeralHands(None),  # type: ignore[arg-type]  # never used, as the records
    )
    presenter._show = show  # type: ignore[method-assign]  # the scheduling alone, no drawing
    return presenter


def news(game_id: int, version: int) -> Update:
    return Update(game_id, version, [], State(Rules(), 0), 1, [])


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
        self.sent: list[tuple[str, int, Keyboard | None]] = []
        self.drawn_at: list[int] = []  # per sent message: the game's version when rendered
        self.version: Callable[[], int] = lambda: 0  # the game's version now (``running``)
        self.gate = asyncio.Event()
        self.held, self.failing = held, failing
        self._ids = itertools.count(100)
        self.edits: dict[tuple[int, int], asyncio.Future[Posted | None]] = {}
        self.lost: set[tuple[int, int]] = set()  # messages that can no longer be edited

    def show(self, chat_id: int, message_id: int | None, render: Render) -> Any:
        if message_id is None:
            return asyncio.ensure_future(self._send(chat_id, render))
        self.queued[(chat_id, message_id)] = render
        future = self.edits[(chat_id, message_id)] = asyncio.get_running_loop().create_future()
        return future

    def send(self, chat_id: int, text: str, markup: Any = None) -> Any:
        return asyncio.ensure_future(self._send(chat_id, lambda: (text, markup)))

    async def _send(self, chat_id: int, render: Render) -> Posted | None:
        if chat_id == self.failing:
            self.failing = None
            return None
        if chat_id == self.held:
            await self.gate.wait()  # e.g. waiting for its slot under Telegram's limits
        content = render()
        assert content is not None
        self._note("send", chat_id, content[1])
        echo = None if content[1] is None else content[1].json()  # as Telegram returns it
        return Posted(message_id=next(self._ids), reply_markup=echo)

    def _note(self, kind: str, chat_id: int, markup: Keyboard | None) -> None:
        self.sent.append((kind, chat_id, markup))
        self.drawn_at.append(self.version())

    def flush(self) -> None:
        """Every chat's slot comes: each queued message is rendered and sent (a lost one
        as a new message, as the real outbox does)."""
        for (chat_id, message_id), render in self.queued.items():
            content, shown = render(), None
            if content is not None:
                self._note("edit", chat_id, content[1])
                new = next(self._ids) if (chat_id, message_id) in self.lost else message_id
                shown = Posted(message_id=new, reply_markup=None)
            self.edits.pop((chat_id, message_id)).set_result(shown)
        self.queued.clear()

    def versions(self, chat_id: int) -> list[int]:
        """The game version each keyboard sent to the chat was drawn for."""
        return [
            version
            for (_, chat, markup), version in zip(self.sent, self.drawn_at, strict=True)
            if chat == chat_id and markup is not None
        ]


class Shows:
    """The game service's listener: its news straight to the presenter."""

    def __init__(self, presenter: Presenter) -> None:
        self.presenter = presenter

    async def news(self, update: Update) -> None:
        await self.presenter.on_update(update)

    def moved(self, game_id: int) -> None:
        self.presenter.redraw(game_id)


async def running(tmp_path: Path, outbox: Outbox) -> tuple[Presenter, int, GameService]:
    games, clock = LiveGames(), FakeClock()
    db = await open_database(await db_target(tmp_path / "db.sqlite3"))
    records = Records(db)
    presenter = Presenter(
        records,
        games,
        clock,
        outbox,  # type: ignore[arg-type]  # renders at flush; Presenter wants the class
        HandPages(),
        Reach(records),
        EphemeralHands(outbox),  # type: ignore[arg-type]  # as the outbox above
    )
    service = GameService(db, games=games, clock=clock, listener=Shows(presenter))
    outbox.version = lambda: max(len(held(games, g).state.history) for g in games.ids())
    presenter.start()
    table_id = await new_table(service)
    async with service.db.tx() as c:  # they started the bot: their hands come privately
        for user in (1, 2):
            await UserRepo.set_can_message(c, user, True)
    update = await service.create_game(table_id, Rules(), humans(2), seed=3)
    return presenter, update.game_id, service


async def test_an_edit_shows_the_state_at_its_slot_not_at_the_move(tmp_path: Path) -> None:
    outbox = Outbox()
    presenter, game, service = await running(tmp_path, outbox)
    await presenter.idle()
    outbox.flush()
    for _ in range(3):  # three moves before the hands' slots come
        state = held(service, game).state
        seat, text = next_move(state)
        await service.act(game, Action.from_text(seat, text), len(state.history))
        await service.idle()  # the words said for a player with nothing to add
        await presenter.idle()
    outbox.flush()
    version = len(held(service, game).state.history)
    for user in (1, 2):
        assert outbox.versions(user) == [0, version]  # nothing in between, nothing twice
    await presenter.stop()
    await presenter.records.db.close()


async def test_a_hand_is_sent_once_and_never_shown_older_than_before(tmp_path: Path) -> None:
    outbox = Outbox(held=1)
    presenter, game, service = await running(tmp_path, outbox)
    await asyncio.sleep(0.05)  # the first news waits to send the hand of user 1
    state = held(service, game).state
    seat, text = next_move(state)
    await service.act(game, Action.from_text(seat, text), len(state.history))
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
    presenter, game, _ = await running(tmp_path, outbox)
    await presenter.idle()
    assert not [p for p in outbox.sent if p[1] == 2]
    presenter.refresh(game, 2)  # the same hand as before: still never shown
    await presenter.idle()
    assert [kind for kind, chat, _ in outbox.sent if chat == 2] == ["send"]
    await presenter.stop()
    await presenter.records.db.close()


async def test_a_replaced_message_is_the_one_of_its_chat(tmp_path: Path) -> None:
    outbox = Outbox()
    presenter, game, service = await running(tmp_path, outbox)
    await presenter.idle()
    records = Records(service.db)

    async def hand(user: int) -> int:
        message_id = await records.hand_message(game, user)
        assert message_id is not None
        return message_id

    hands = {user: await hand(user) for user in (1, 2)}
    outbox.lost.add((2, hands[2]))  # the second one's hand can no longer be edited

    async def move() -> None:
        state = held(service, game).state
        seat, text = next_move(state)
        await service.act(game, Action.from_text(seat, text), len(state.history))
        await presenter.idle()

    await move()
    outbox.flush()  # sent anew (as the outbox does), and noted as the game's
    await asyncio.sleep(0.01)  # (the futures' callbacks)
    await presenter.idle()
    new = await records.hand_message(game, 2)
    assert new not in (None, hands[2]) and await records.hand_message(game, 1) == hands[1]
    await move()
    assert {(c, m) for c, m in outbox.queued if c > 0} == {(1, hands[1]), (2, new)}
    await presenter.stop()
    await presenter.records.db.close()


async def test_a_finished_game_leaves_no_entries(tmp_path: Path) -> None:
    outbox = Outbox()
    presenter, game, service = await running(tmp_path, outbox)
    await presenter.idle()
    await presenter.hand_pages.show((game, 1), Page(0, PageName.ACCUSE), 0)
    await play_moves(service, game, 1000)
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
    presenter, game, service = await running(tmp_path, outbox)
    await asyncio.sleep(0.05)
    state = held(service, game).state
    seat, text = next_move(state)
    await service.act(game, Action.from_text(seat, text), len(state.history))
    await asyncio.sleep(0.05)
    assert not outbox.gate.is_set() and any(chat == 2 for chat, _ in outbox.queued)
    outbox.gate.set()
    await presenter.idle()
    outbox.flush()
    assert outbox.versions(1)[-1] == 1  # and user 1's hand shows the move too
    await presenter.stop()
    await presenter.records.db.close()
