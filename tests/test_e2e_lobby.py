"""End to end: the lobby's bot strength, deadlines, leaving a running game, the table's
language and /settings."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from bot.app import App
from bot.callbacks import LobbyCb, LobbyOp
from service import FakeClock, Seat
from storage.records import SeatKind
from tests.e2e_helpers import (
    PRIORITY,
    hand_message,
    hand_of,
    latest,
    open_table,
    play_round,
    play_to_the_end,
    running_bot,
    seat_everyone,
    settle,
    two_friends,
)
from tests.fakes import FakeMessage, FakeTelegram, FakeUser
from tests.helpers import turn_of
from tests.service_helpers import held

LEAVE = LobbyCb(table=1, op=LobbyOp.LEAVE).pack()
BOTH_LANGUAGES = ("Побить", "Beat", "• ", "Бито", "Done", "Пас", "Pass", "Беру", "Take")

NB = "\u00a0"  # a space a line never breaks at


async def finish(
    tg: FakeTelegram,
    app: App,
    game_id: int,
    users: list[FakeUser],
    priority: tuple[str, ...] = PRIORITY,
) -> None:
    """Play the game to its end (whatever the group's language)."""
    for _ in range(400):
        if held(app.service, game_id).state.is_over:
            break
        await play_round(tg, app, users, priority)
    await settle(app)
    assert held(app.service, game_id).state.is_over


def whose_turn(app: App) -> int:
    return turn_of(held(app.service, 1).state).seats[0]


async def press(
    tg: FakeTelegram, user: FakeUser, message: FakeMessage, data: str, *, forge: bool = False
) -> str | None:
    return (await (await tg.press(user, message, data, forge=forge))).text


async def test_the_creator_chooses_the_bots_strength(tg: FakeTelegram, tmp_path: Path) -> None:
    anna, boris = tg.add_user(1, "Аня"), tg.add_user(2, "Борис")
    group = tg.add_group(-100, "Друзья", members=[anna, boris])
    tg.start_private(anna)
    async with running_bot(tg, tmp_path / "db.sqlite3") as app:
        lobby = await open_table(tg, app, group, anna)
        assert "Боты: Новичок" in (lobby.text or "")
        expert = LobbyCb(table=1, op=LobbyOp.BOTS, arg="expert").pack()
        assert await press(tg, boris, lobby, expert) == "Это может только создатель стола."
        assert await press(tg, anna, lobby, expert) == "🤖 Боты: Опытный"
        await settle(app)
        master = LobbyCb(table=1, op=LobbyOp.BOTS, arg="master").pack()
        shown = [b for row in tg.keyboard(lobby) for b in row]
        assert ("🤖 Опытный", expert.replace("expert", "master")) in shown
        assert await press(tg, anna, lobby, master) == "🤖 Боты: Мастер"
        await settle(app)
        assert "Боты: Мастер" in (lobby.text or "")
        await seat_everyone(tg, app, group, [anna])
        await press(tg, anna, lobby, LobbyCb(table=1, op=LobbyOp.BOT).pack())  # the table is full
        await settle(app)
        live = held(app.service, 1)
        assert live.seats[1] == Seat(SeatKind.BOT, "Мастер 1", level="master")
        assert "Мастер 1" in (latest(tg, group).text or "")  # the table message
        for _ in range(3):
            await play_round(tg, app, [anna])
        bot_moves = [i for i, a in enumerate(live.state.history) if a.seat == 1]
        assert bot_moves and not any(live.state.auto[i] for i in bot_moves)
    assert tg.unanswered_callbacks() == []


async def test_the_table_message_says_whose_move_it_is_and_until_when_in_the_zone_it_names(
    tg: FakeTelegram, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DURAK_TZ", "Asia/Novosibirsk")
    clock = FakeClock(datetime(2024, 5, 1, 14, 4, 5, tzinfo=UTC).timestamp())
    anna, boris, group = two_friends(tg)
    async with running_bot(tg, tmp_path / "db.sqlite3", clock) as app:
        await open_table(tg, app, group, anna)
        await seat_everyone(tg, app, group, [anna, boris])
        attacker, defender = (anna, boris)[:: 1 if whose_turn(app) == 0 else -1]
        table = latest(tg, group)
        first = (table.text or "").split("\n")[0]  # 14:04:05 UTC and 30 s: 21:04:35 at UTC+7
        assert first == f"⏳ Ходит {attacker.first_name} · до{NB}21:04:35{NB}UTC+7"
        assert "⏳ 30 с" in (hand_of(tg, attacker).text or "")  # the same moment
        edits = len(tg.calls_to("editMessageText", group))
        clock.advance(12)
        app.presenter.redraw(1)  # drawn again as time goes by: the table is as it was
        await settle(app)
        assert len(tg.calls_to("editMessageText", group)) == edits
        await play_round(tg, app, [attacker])  # the opening card, 12 s later
        first = (table.text or "").split("\n")[0]
        assert first == f"⏳ Отбивается {defender.first_name} · до{NB}21:04:47{NB}UTC+7"


async def test_only_a_player_out_of_cards_may_leave_a_running_game(
    tg: FakeTelegram, tmp_path: Path
) -> None:
    users = [tg.add_user(1, "Аня"), tg.add_user(2, "Борис"), tg.add_user(3, "Вика")]
    group = tg.add_group(-100, "Друзья", members=users)
    other_group = tg.add_group(-200, "Соседи", members=users)
    for user in users:
        tg.start_private(user)
    async with running_bot(tg, tmp_path / "db.sqlite3") as app:
        lobby = await open_table(tg, app, group, users[0])
        await press(tg, users[0], lobby, LobbyCb(table=1, op=LobbyOp.SET, arg="seats").pack())
        await seat_everyone(tg, app, group, users)
        for attempt in range(1, 10):  # deals are random: until one player is out first
            live = held(app.service, attempt).state
            before = live.to_dict()
            table_message = latest(tg, group)  # its lobby keyboard is gone
            answer = await press(tg, users[0], table_message, LEAVE, forge=True)
            assert (answer or "").startswith("Пока у вас на руках карты, выйти из-за стола нельзя")
            assert held(app.service, attempt).state.to_dict() == before
            for _ in range(400):
                if live.is_over or any(live.place):
                    break
                await play_round(tg, app, users)
                live = held(app.service, attempt).state
            if not live.is_over:
                break
            summary = latest(tg, group)
            await press(tg, users[0], summary, LobbyCb(table=1, op=LobbyOp.AGAIN).pack())
            await settle(app)
        game = held(app.service, attempt)
        out_id = next(game.seats[s].user_id for s in range(3) if game.state.place[s])
        out = next(u for u in users if u.id == out_id)
        players = [u for u in users if u is not out]
        hand = hand_of(tg, out)
        assert "Можно досмотреть партию" in (hand.text or "")
        assert await press(tg, out, hand, LEAVE) == (
            "Вы вышли из-за стола и можете сесть за другой."
        )
        await settle(app)
        assert hand_message(tg, out) is None  # the hand has no button left
        assert out.id not in {s.user_id for s in (await app.tables.get(1)).seats}
        await tg.send_text(out, other_group, "/durak")
        other = await tg.wait_for_message(other_group, lambda m: "Стол для игры" in (m.text or ""))
        assert await press(tg, out, other, LobbyCb(table=2, op=LobbyOp.JOIN).pack()) == (
            "Вы за столом!"
        )
        await finish(tg, app, attempt, players)
        summary = latest(tg, group)
        await press(tg, players[0], summary, LobbyCb(table=1, op=LobbyOp.AGAIN).pack())
        await settle(app)
        assert held(app.service, attempt + 1).state.n == 2  # «Ещё партию» without them
    assert tg.unanswered_callbacks() == []


async def test_a_table_speaks_its_creators_language(tg: FakeTelegram, tmp_path: Path) -> None:
    anna, boris = tg.add_user(1, "Anna", language_code="en"), tg.add_user(2, "Борис")
    group = tg.add_group(-100, "Friends", members=[anna, boris])
    for user in (anna, boris):
        tg.start_private(user)
    async with running_bot(tg, tmp_path / "db.sqlite3") as app:
        await tg.send_text(anna, group, "/durak")
        lobby = await tg.wait_for_message(group, lambda m: "A Durak table" in (m.text or ""))
        assert "Seats:" in (lobby.text or "") and [t for t, _ in tg.keyboard(lobby)[0]] == [
            "Take a seat",
            "Add a bot",
        ]
        join = LobbyCb(table=1, op=LobbyOp.JOIN).pack()
        assert await press(tg, boris, lobby, join) == "Вы за столом!"  # his own language
        assert await press(tg, anna, lobby, join) == "You are at the table!"
        await settle(app)
        assert "Trump:" in (latest(tg, group).text or "")
        assert "Козырь:" in (hand_of(tg, boris).text or "")
        assert "Trump:" in (hand_of(tg, anna).text or "")
        await tg.send_text(boris, group, "настройки")
        playing = await tg.wait_for_message(group, lambda m: "A game is on" in (m.text or ""))
        assert "Throw-in · 36 cards · 2 seats" in (playing.text or "") and not playing.keyboard
        await finish(tg, app, 1, [anna, boris], BOTH_LANGUAGES)
        assert (latest(tg, group).text or "").startswith(("🃏 Game over", "🤝 A draw"))
        assert [t for t, _ in tg.keyboard(latest(tg, group))[0]] == ["Play again"]
        hand = next(m for m in tg.messages(tg.private(boris)) if "Козырь" in (m.text or ""))
        assert "Партия окончена" in (hand.text or "")


async def test_settings_shows_the_lobby_again_or_how_to_open_a_table(
    tg: FakeTelegram, tmp_path: Path
) -> None:
    anna, boris, group = two_friends(tg)
    async with running_bot(tg, tmp_path / "db.sqlite3") as app:
        await tg.send_text(boris, group, "/settings")
        hint = await tg.wait_for_message(group, lambda m: "Стола сейчас нет" in (m.text or ""))
        assert "/durak" in (hint.text or "") and not hint.keyboard
        first = await open_table(tg, app, group, anna)
        await tg.send_text(boris, group, "Настройки")
        await tg.wait_for(lambda: first.text == "Стол переехал ниже ↓", what="the old lobby")
        assert not first.keyboard
        lobby = latest(tg, group)
        assert "Стол для игры" in (lobby.text or "") and lobby.keyboard
        deck = LobbyCb(table=1, op=LobbyOp.SET, arg="deck").pack()
        assert ((await press(tg, anna, lobby, deck)) or "").startswith("Теперь: ")  # its new deck
        await settle(app)
        assert "52 карты" in (lobby.text or "")  # the new message is the lobby now
        await press(tg, anna, lobby, LobbyCb(table=1, op=LobbyOp.SET, arg="deck").pack())
        await seat_everyone(tg, app, group, [anna, boris])
        await tg.send_text(anna, group, "/settings")
        playing = await tg.wait_for_message(group, lambda m: "Идёт партия" in (m.text or ""))
        text = playing.text or ""
        assert "Подкидной · 24 карты · 2 места" in text and "Боты: Новичок" in text
        assert not playing.keyboard
    assert tg.unanswered_callbacks() == []
    for lang, description in (("", "Настройки стола"), ("en", "Table settings")):
        registered = tg.commands({"type": "all_group_chats"}, language_code=lang)
        assert {c["command"]: c["description"] for c in registered}["settings"] == description


async def test_another_game_keeps_the_last_result_in_the_chat(
    tg: FakeTelegram, tmp_path: Path
) -> None:
    anna, boris, group = two_friends(tg)
    async with running_bot(tg, tmp_path / "db.sqlite3") as app:
        await open_table(tg, app, group, anna)
        await seat_everyone(tg, app, group, [anna, boris])
        first_table = latest(tg, group)
        await play_to_the_end(tg, app, group, [anna, boris])
        summary = latest(tg, group)
        result = summary.text
        assert summary.keyboard and summary.message_id > first_table.message_id
        again = LobbyCb(table=1, op=LobbyOp.AGAIN).pack()
        vika = tg.add_user(3, "Вика")
        group.members[vika.id] = "member"
        assert (await (await tg.press(vika, summary, again))).text == (
            "«Ещё партию» начинают те, кто сидит за столом. Чтобы сесть, напишите /durak."
        )
        assert (await (await tg.press(boris, summary, again))).text is None
        await settle(app)
        assert summary.text == result and not summary.keyboard  # no dead «Ещё партию»
        table = latest(tg, group)
        assert table.message_id > summary.message_id and "Козырь:" in (table.text or "")
        await play_round(tg, app, [anna, boris])
        await settle(app)
        assert latest(tg, group) is table and summary.text == result
        assert "Козырь:" in (first_table.text or "")  # the first game's table stays as it ended
    assert tg.unanswered_callbacks() == []


async def test_durak_again_moves_the_lobby_down_or_says_a_game_is_on(
    tg: FakeTelegram, tmp_path: Path
) -> None:
    anna, boris, group = two_friends(tg)
    async with running_bot(tg, tmp_path / "db.sqlite3") as app:
        first = await open_table(tg, app, group, anna)
        await tg.send_text(boris, group, "дурак")
        await tg.wait_for(lambda: first.text == "Стол переехал ниже ↓", what="the old lobby")
        assert not first.keyboard and latest(tg, group).keyboard
        await seat_everyone(tg, app, group, [anna, boris])
        table = latest(tg, group)
        await tg.send_text(boris, group, "/durak")
        playing = await tg.wait_for_message(group, lambda m: "Идёт партия" in (m.text or ""))
        await settle(app)
        assert not playing.keyboard and "Козырь:" in (table.text or "")
        ours = [m for m in tg.messages(group) if m.from_user and m.from_user.is_bot]
        assert ours == [first, table, playing]  # no second lobby during the game
    assert tg.unanswered_callbacks() == []
