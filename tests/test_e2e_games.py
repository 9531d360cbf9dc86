"""End to end: transfers, pairs with bots, timeouts and a restart in the middle of a game."""

from __future__ import annotations

from pathlib import Path

from bot.callbacks import LobbyCb, LobbyOp
from service import FakeClock
from tests.e2e_helpers import (
    PRIORITY,
    TOKEN,
    game_over,
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
from tests.fakes import FakeChat, FakeTelegram, FakeUser
from tests.helpers import outcome_of
from tests.service_helpers import held

NB = "\u00a0"  # a space a line never breaks at


async def press_lobby(
    tg: FakeTelegram, user: FakeUser, group: FakeChat, op: str, arg: str = ""
) -> str | None:
    data = LobbyCb(table=1, op=LobbyOp(op), arg=arg).pack()
    answer = await (await tg.press(user, latest(tg, group), data))
    return answer.text


async def test_a_perevodnoy_game_with_transfers(tg: FakeTelegram, tmp_path: Path) -> None:
    users = [tg.add_user(1, "Аня"), tg.add_user(2, "Борис"), tg.add_user(3, "Вика")]
    group = tg.add_group(-100, "Друзья", members=users)
    for user in users:
        tg.start_private(user)
    async with running_bot(tg, tmp_path / "db.sqlite3") as app:
        app.service.new_seed = lambda: 1  # a deal with transfers for these players
        await open_table(tg, app, group, users[0])
        assert await press_lobby(tg, users[0], group, "set", "mode") == "Теперь: переводной."
        assert await press_lobby(tg, users[0], group, "set", "seats") == "Теперь: 3 места."
        await settle(app)
        assert "Переводной · " in (latest(tg, group).text or "")
        await seat_everyone(tg, app, group, users)
        await play_to_the_end(tg, app, group, users, ("↪ ", *PRIORITY))
        history = held(app.service, 1).state.history
        assert held(app.service, 1).state.rules.mode == "perevodnoy"
        assert any(a.kind == "x" for a in history), "nobody transferred"
    assert tg.unanswered_callbacks() == []


async def test_a_pairs_game_with_two_bots(tg: FakeTelegram, tmp_path: Path) -> None:
    anna, boris, group = two_friends(tg)
    async with running_bot(tg, tmp_path / "db.sqlite3") as app:
        await open_table(tg, app, group, anna)
        pairs = LobbyCb(table=1, op=LobbyOp.SET, arg="pairs").pack()  # not shown at 2 seats, but
        lobby = latest(tg, group)  # an older lobby's button is still answered
        assert (await (await tg.press(anna, lobby, pairs, forge=True))).text == (
            "Так нельзя: игра командами — для четырёх (пары) или шести (по трое) игроков"
        )
        for _ in range(2):
            await press_lobby(tg, anna, group, "set", "seats")
            await settle(app)
        await press_lobby(tg, anna, group, "set", "pairs")
        await settle(app)
        assert "парами" in (latest(tg, group).text or "")
        await seat_everyone(tg, app, group, [anna, boris])
        assert await press_lobby(tg, boris, group, "bot") == "Это может только создатель стола."
        for _ in range(2):
            await press_lobby(tg, anna, group, "bot")
        await settle(app)
        state = held(app.service, 1).state
        assert state.rules.teams and state.n == 4
        await play_to_the_end(tg, app, group, [anna, boris])
        outcome = held(app.service, 1).state.outcome
        assert outcome is not None
        assert outcome.draw or sorted(s % 2 for s in outcome.fools) in ([0, 0], [1, 1])


async def test_timeouts_hand_the_seat_to_a_bot_and_back(tg: FakeTelegram, tmp_path: Path) -> None:
    clock = FakeClock()
    anna, boris, group = two_friends(tg)
    async with running_bot(tg, tmp_path / "db.sqlite3", clock) as app:
        await open_table(tg, app, group, anna)
        await seat_everyone(tg, app, group, [anna, boris])
        idle = None
        for _ in range(6):
            clock.advance(30)
            await app.service.fire_due()
            await settle(app)
            state = held(app.service, 1).state
            idle = next((s for s in range(2) if state.idle(s)), None)
            if idle is not None:
                break
        assert idle is not None
        user = (anna, boris)[idle]
        assert "🤖 играет бот" in (latest(tg, group).text or "")
        assert "(время вышло)" in (latest(tg, group).text or "")
        hand = hand_of(tg, user)
        assert "За вас играет бот" in (hand.text or "")
        back = next(d for row in tg.keyboard(hand) for t, d in row if t == "Вернуть управление")
        await (await tg.press(user, hand, back))
        await settle(app)
        assert not held(app.service, 1).state.idle(idle)
        assert "Вернуть управление" not in str(tg.keyboard(hand_of(tg, user)))


async def test_a_restart_in_the_middle_of_a_game_loses_nothing(
    tg: FakeTelegram, tmp_path: Path
) -> None:
    db = tmp_path / "db.sqlite3"
    anna, boris, group = two_friends(tg)
    async with running_bot(tg, db) as app:
        await open_table(tg, app, group, anna)
        await seat_everyone(tg, app, group, [anna, boris])
        for _ in range(6):
            await play_round(tg, app, [anna, boris])
        before = held(app.service, 1).state.to_dict()
        hands = {u.id: hand_of(tg, u).message_id for u in (anna, boris)}
        drawn = {u.id: hand_of(tg, u).reply_markup for u in (anna, boris)}
    for user in (anna, boris):  # as if an older version of the bot had drawn them
        hand_of(tg, user).reply_markup = {"inline_keyboard": [[
            {"text": "6♠", "callback_data": "c:1:0:6S"}
        ]]}  # fmt: skip
    async with running_bot(tg, db) as app:  # a new process on the same file
        assert held(app.service, 1).state.to_dict() == before
        await settle(app)
        for user in (anna, boris):  # drawn again at the start, before anyone moves
            assert hand_of(tg, user).reply_markup == drawn[user.id]
        await play_to_the_end(tg, app, group, [anna, boris])
        for user in (anna, boris):  # the same hand messages, edited after the restart
            shown = [m for m in tg.messages(tg.private(user)) if "Козырь" in (m.text or "")]
            assert [m.message_id for m in shown] == [hands[user.id]]
    assert game_over(tg, group)


async def test_the_summary_keeps_the_series_score(tg: FakeTelegram, tmp_path: Path) -> None:
    anna, boris, group = two_friends(tg)
    async with running_bot(tg, tmp_path / "db.sqlite3") as app:
        await open_table(tg, app, group, anna)
        await seat_everyone(tg, app, group, [anna, boris])
        wins = {"Аня": 0, "Борис": 0}
        for game in (1, 2):
            for _ in range(400):
                if held(app.service, game).state.is_over:
                    break
                await play_round(tg, app, [anna, boris])
            await settle(app)
            live = held(app.service, game)
            outcome = live.state.outcome
            assert outcome is not None
            for seat, info in enumerate(live.seats):  # a draw: both won (service.series)
                wins[info.name] += seat not in outcome.fools
            summary = latest(tg, group).text
            assert f"Счёт: Аня{NB}—{NB}{wins['Аня']} · Борис{NB}—{NB}{wins['Борис']}" in (
                summary or ""
            ), summary
            if game == 1:
                await press_lobby(tg, anna, group, "again")  # one tap: the next game
                await settle(app)


async def test_other_players_at_the_table_start_a_new_series(tmp_path: Path) -> None:
    async with FakeTelegram(token=TOKEN) as tg:
        anna, boris, group = two_friends(tg)
        async with running_bot(tg, tmp_path / "db.sqlite3") as app:
            await open_table(tg, app, group, anna)
            await seat_everyone(tg, app, group, [anna, boris])
            hand = hand_of(tg, boris)  # Борис gives up: Аня wins the first game
            for button in ("⋯", "Сдаться"):
                await (await tg.press(boris, hand, button_text=button))
                await settle(app)
            assert f"Счёт: Аня{NB}—{NB}1 · Борис{NB}—{NB}0" in (latest(tg, group).text or "")
            await open_table(tg, app, group, anna)  # the lobby again: Борис leaves, a bot
            await settle(app)  # sits down in his place and the game starts
            assert await press_lobby(tg, boris, group, "leave") == "Вы вышли из-за стола."
            await settle(app)
            await press_lobby(tg, anna, group, "bot")
            await settle(app)
            live = held(app.service, 2)
            assert [s.name for s in live.seats] == ["Аня", "Новичок 1"]
            hand = hand_of(tg, anna)  # Аня gives up in her turn: the bot wins
            for button in ("⋯", "Сдаться"):
                await (await tg.press(anna, hand, button_text=button))
                await settle(app)
            assert live.state.outcome is not None and outcome_of(live.state).fools == (0,)
            summary = latest(tg, group).text  # not «Аня — 1»: her win was over Борис
            assert f"Счёт: Аня{NB}—{NB}0 · Новичок{NB}1{NB}—{NB}1" in (summary or ""), summary
        assert tg.unanswered_callbacks() == []
