"""End to end: presses that arrive together (aiogram handles updates concurrently), an
automatic start that is refused, and /settings after a game."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

from bench.playing import hand_message
from bot.app import App
from bot.callbacks import LobbyCb, LobbyOp
from service.tables import TableError, TableRefusal
from storage.records import Chat
from storage.repos import GameRepo
from tests.e2e_helpers import latest, open_table, play_to_the_end, running_bot, settle, two_friends
from tests.fakes import FakeChat, FakeMessage, FakeTelegram, FakeUser

PLAYING = "Идёт партия — это можно будет сделать после неё."


async def lobby_of_three(
    tg: FakeTelegram, app: App, group: FakeChat, users: list[FakeUser]
) -> FakeMessage:
    """A lobby of three seats with the two ``users`` seated (the first opened it)."""
    lobby = await open_table(tg, app, group, users[0])
    await (await tg.press(users[0], lobby, LobbyCb(table=1, op=LobbyOp.SET, arg="seats").pack()))
    for user in users:
        await (await tg.press(user, lobby, LobbyCb(table=1, op=LobbyOp.JOIN).pack()))
    await settle(app)
    return lobby


def slow_next_lobby(app: App, seconds: float) -> tuple[asyncio.Event, asyncio.Event]:
    """The next lobby drawn takes ``seconds`` longer: set as it starts, and after (its
    first read, the group's language, is slow)."""
    records = app.presenter.records  # (the lobby's drawing reads the same)
    real, slow, drawn = records.chat, asyncio.Event(), asyncio.Event()

    async def chat(chat_id: int) -> Chat | None:
        if not slow.is_set():
            slow.set()
            await asyncio.sleep(seconds)
            drawn.set()
        return await real(chat_id)

    records.chat = chat  # type: ignore[method-assign]  # a read made slow
    return slow, drawn


async def test_a_double_press_of_start_or_play_again_starts_one_game(
    tg: FakeTelegram, tmp_path: Path
) -> None:
    anna, boris, group = two_friends(tg)
    async with running_bot(tg, tmp_path / "db.sqlite3") as app:
        lobby = await lobby_of_three(tg, app, group, [anna, boris])
        start = LobbyCb(table=1, op=LobbyOp.START).pack()
        presses = [await tg.press(anna, lobby, start) for _ in range(2)]
        answers = sorted([(await p).text or "" for p in presses])
        await settle(app)
        assert answers == ["", PLAYING] and app.service.game_ids() == [1]
        await play_to_the_end(tg, app, group, [anna, boris])
        summary = latest(tg, group)
        again = LobbyCb(table=1, op=LobbyOp.AGAIN).pack()
        presses = [await tg.press(user, summary, again) for user in (anna, boris)]
        answers = sorted([(await p).text or "" for p in presses])
        await settle(app)
        # One new game; the finished one has left memory (its rows stay).
        assert answers == ["", PLAYING] and app.service.game_ids() == [2]
        assert await GameRepo(app.db).get(3) is None
    assert tg.unanswered_callbacks() == []


async def test_a_refused_automatic_start_says_why_and_keeps_the_seat(
    tg: FakeTelegram, tmp_path: Path
) -> None:
    anna, boris, group = two_friends(tg)
    async with running_bot(tg, tmp_path / "db.sqlite3") as app:
        lobby = await open_table(tg, app, group, anna)

        def refuse(table: object, person: object) -> None:
            raise TableError(TableRefusal.BAD_SETTINGS, reason="rules")

        app.tables.check_start = refuse  # type: ignore[method-assign]  # a refusal made certain
        join = LobbyCb(table=1, op=LobbyOp.JOIN).pack()
        await (await tg.press(anna, lobby, join))
        answer = await (await tg.press(boris, lobby, join))
        await settle(app)
        assert answer.text == "Так нельзя: такое сочетание правил не играется"
        assert answer.show_alert and not app.service.game_ids()
        assert "Борис" in (lobby.text or "") and lobby.keyboard
    assert tg.unanswered_callbacks() == []


async def test_a_lobby_drawn_slowly_does_not_hold_the_tables_next_press(
    tg: FakeTelegram, tmp_path: Path
) -> None:
    anna, _, group = two_friends(tg)
    async with running_bot(tg, tmp_path / "db.sqlite3") as app:
        lobby = await open_table(tg, app, group, anna)
        await settle(app)
        hang = 6.0  # Telegram takes this long to say whether the bot is an admin
        tg.inject_fault("timeout", methods=["getChatMember"], delay=hang)
        app.group_hands._admin.clear()  # (asked again: the minute is over)
        began = time.monotonic()
        presses = [
            await tg.press(anna, lobby, LobbyCb(table=1, op=LobbyOp.SET, arg=field).pack())
            for field in ("deck", "mode")  # the second waits for the table's lock
        ]
        answers = [await p for p in presses]
        answered = time.monotonic() - began
        assert all((a.text or "").startswith("Теперь: ") for a in answers), answers
        assert answered < hang / 2, answered  # before: after the first lobby's drawing
        await tg.wait_for(  # both drawn, in order, once Telegram answered
            lambda: "52" in (lobby.text or "") and "ереводн" in (lobby.text or ""), timeout=2 * hang
        )
    assert tg.unanswered_callbacks() == []


async def test_a_lobby_drawn_slowly_does_not_cover_the_game_started_meanwhile(
    tg: FakeTelegram,
    tmp_path: Path,
) -> None:
    anna, boris, group = two_friends(tg)
    async with running_bot(tg, tmp_path / "db.sqlite3") as app:
        lobby = await lobby_of_three(tg, app, group, [anna, boris])
        slow, _ = slow_next_lobby(app, 1.0)
        deck = await tg.press(anna, lobby, LobbyCb(table=1, op=LobbyOp.SET, arg="deck").pack())
        await tg.wait_for(slow.is_set, what="the lobby being drawn")
        start = await tg.press(anna, lobby, LobbyCb(table=1, op=LobbyOp.START).pack())
        await deck, await start
        await tg.wait_for(lambda: "Козырь" in (lobby.text or ""), what="the game's table message")
        await asyncio.sleep(1.0)
        await settle(app)  # the lobby drawn meanwhile is not sent over it
        assert "Козырь" in (lobby.text or ""), lobby.text
    assert tg.unanswered_callbacks() == []


async def test_a_lobby_drawn_slowly_does_not_cover_a_game_that_ended_meanwhile(
    tg: FakeTelegram,
    tmp_path: Path,
) -> None:
    """The game started and ended (a surrender) while the lobby was drawn: the table is a
    lobby again, but its message is the result's now, and the old one keeps the game."""
    anna, boris, group = two_friends(tg)
    async with running_bot(tg, tmp_path / "db.sqlite3") as app:
        lobby = await lobby_of_three(tg, app, group, [anna, boris])
        slow, drawn = slow_next_lobby(app, 2.0)
        deck = await tg.press(anna, lobby, LobbyCb(table=1, op=LobbyOp.SET, arg="deck").pack())
        await tg.wait_for(slow.is_set, what="the lobby being drawn")
        await (await tg.press(anna, lobby, LobbyCb(table=1, op=LobbyOp.START).pack()))
        await tg.wait_for(lambda: hand_message(tg, anna) is not None, what="Аня's hand")
        hand = hand_message(tg, anna)
        assert hand is not None
        await (await tg.press(anna, hand, button_text="⋯"))
        await tg.wait_for(lambda: "Сдаться" in str(hand.keyboard), what="«Сдаться»")
        await (await tg.press(anna, hand, button_text="Сдаться"))
        over = lambda: any("Партия окончена" in (m.text or "") for m in tg.messages(group))  # noqa: E731
        await tg.wait_for(over, what="the game's result")
        assert not drawn.is_set(), "the test's slow draw ended too soon"
        await deck
        await tg.wait_for(drawn.is_set, what="the slow draw")
        await settle(app)
        await app.outbox.drain()
        assert "Козырь" in (lobby.text or ""), lobby.text  # the game's message, not a lobby
    assert tg.unanswered_callbacks() == []


async def test_settings_after_a_game_takes_the_buttons_off_the_older_lobby(
    tg: FakeTelegram,
    tmp_path: Path,
) -> None:
    anna, boris, group = two_friends(tg)
    async with running_bot(tg, tmp_path / "db.sqlite3") as app:
        lobby = await open_table(tg, app, group, anna)
        for user in (anna, boris):
            await (await tg.press(user, lobby, LobbyCb(table=1, op=LobbyOp.JOIN).pack()))
        await settle(app)
        await play_to_the_end(tg, app, group, [anna, boris])
        summary = latest(tg, group)
        await tg.send_text(anna, group, "/settings")
        first = await tg.wait_for_message(
            group, lambda m: "Стол для игры" in (m.text or "") and m.message_id > summary.message_id
        )
        await settle(app)
        assert not summary.keyboard  # the lobby below it: the game goes on from there
        await tg.send_text(anna, group, "/settings")
        await tg.wait_for(lambda: first.text == "Стол переехал ниже ↓", what="the old lobby")
        assert not first.keyboard and not summary.keyboard
        assert latest(tg, group).keyboard


async def test_a_second_table_is_refused_naming_the_chat_of_the_first(
    tg: FakeTelegram, tmp_path: Path
) -> None:
    anna, boris = tg.add_user(1, "Аня"), tg.add_user(2, "Борис")
    friends = tg.add_group(-100, "Друзья <3", members=[anna, boris])
    work = tg.add_group(-200, "Работа", members=[anna, boris])
    for user in (anna, boris):
        tg.start_private(user)
    async with running_bot(tg, tmp_path / "db.sqlite3") as app:
        first = await open_table(tg, app, friends, anna)
        await (await tg.press(anna, first, LobbyCb(table=1, op=LobbyOp.JOIN).pack()))
        second = await open_table(tg, app, work, boris)
        answer = await (await tg.press(anna, second, LobbyCb(table=2, op=LobbyOp.JOIN).pack()))
        refusal = "Вы уже за другим столом — в чате «Друзья <3»."
        assert (answer.text or "").startswith(refusal)  # a pop-up: plain text
        token = (await app.tables.get(2)).join_token
        tg.start_private(anna, payload=f"join_{token}")  # the same by the deep link
        reply = await tg.wait_for_message(anna, lambda m: "за другим столом" in (m.text or ""))
        assert (reply.text or "").startswith(refusal)
        assert [s.user_id for s in (await app.tables.get(2)).seats] == []
    assert tg.unanswered_callbacks() == []


async def test_two_durak_at_the_same_instant_open_one_table(
    tg: FakeTelegram, tmp_path: Path
) -> None:
    anna, boris, group = two_friends(tg)
    async with running_bot(tg, tmp_path / "db.sqlite3") as app:
        await tg.send_text(anna, group, "/durak")  # both in one batch of updates
        await tg.send_text(boris, group, "дурак")

        def lobbies() -> list[str]:
            return [m.text for m in tg.messages(group) if m.text and "Стол для игры" in m.text]

        # before: the later press raised an IntegrityError and got no answer
        await tg.wait_for(lambda: len(lobbies()) == 2, what="both presses answered")
        await settle(app)
        assert all("Создатель стола — Аня" in text for text in lobbies())
        rows = await app.db.fetch_all("SELECT id, creator_id FROM tables")
        assert [tuple(r) for r in rows] == [(1, anna.id)]


async def test_a_lobby_posted_anew_from_a_table_read_before_a_seat_was_taken_shows_it(
    tg: FakeTelegram, tmp_path: Path
) -> None:
    """/settings or /durak read the table, then a seat is taken before their lobby is
    drawn (a press handled meanwhile): the lobby is still posted below, as the table is
    now (before: not at all, while the older one said it had moved)."""
    anna, boris, group = two_friends(tg)
    async with running_bot(tg, tmp_path / "db.sqlite3") as app:
        lobby = await open_table(tg, app, group, anna)
        await settle(app)
        read_before = await app.tables.in_chat(group.id)
        assert read_before is not None
        join = await tg.press(boris, lobby, LobbyCb(table=1, op=LobbyOp.JOIN).pack())
        assert (await join).text == "Вы за столом!"
        await settle(app)
        await app.delivery.lobby(read_before, new=True)
        below = latest(tg, group)
        assert below.message_id != lobby.message_id
        assert "Стол для игры" in (below.text or "") and "Борис" in (below.text or "")
    assert tg.unanswered_callbacks() == []
