"""End to end under «Переводной с мухлежом»: the defender cheats from the hand keyboard
and is caught with «Антимухлёж»; a wrong accusation; stale and forged presses."""

from __future__ import annotations

from pathlib import Path

from aiogram.filters.callback_data import CallbackData

from bot.app import App
from bot.callbacks import CheatCb, LobbyCb, LobbyOp, MoveCb, PageCb, PageName
from tests.e2e_helpers import (
    hand_buttons,
    hand_key,
    hand_of,
    latest,
    open_table,
    running_bot,
    seat_everyone,
    settle,
)
from tests.fakes import FakeChat, FakeMessage, FakeTelegram, FakeUser
from tests.service_helpers import held

SEED = 7


class Raw(str):
    """Forged callback data as it arrives, packed as it is."""

    def pack(self) -> str:
        return str(self)


def lobby(op: str, arg: str = "") -> str:
    return LobbyCb(table=1, op=LobbyOp(op), arg=arg).pack()


def labels(message: FakeMessage) -> list[str]:
    return [text for row in message.keyboard for text, _ in row]


def data_of(message: FakeMessage, label: str) -> str:
    found = [d for row in message.keyboard for t, d in row if t == label and d]
    assert found, f"no {label!r} in {labels(message)}"
    return found[0]


async def press(
    tg: FakeTelegram,
    app: App,
    user: FakeUser,
    message: FakeMessage,
    data: str,
    *,
    forge: bool = False,
) -> str:
    answer = await (await tg.press(user, message, data, forge=forge))
    await settle(app)
    return answer.text or ""


async def opened_bout(
    tg: FakeTelegram, app: App, group: FakeChat, users: list[FakeUser]
) -> tuple[FakeUser, FakeUser]:
    """«Переводной с мухлежом» chosen in the lobby, and the first attack made from the
    hand keyboard; returns (attacker, defender)."""
    app.service.new_seed = lambda: SEED
    message = await open_table(tg, app, group, users[0])
    for data in (lobby("rules"), lobby("preset", "transfer_cheating"), lobby("back")):
        await press(tg, app, users[0], message, data)
    assert "Правила: Переводной с мухлежом" in (message.text or "")
    assert "мухлёж и «Антимухлёж»" in (message.text or "")
    await seat_everyone(tg, app, group, users)
    state = held(app.service, 1).state
    attacker, defender = users[state.attacker], users[state.defender]
    hand = hand_of(tg, attacker)
    opening = next(d for t, d in hand_buttons(hand) if t.startswith("• "))
    assert await press(tg, app, attacker, hand, opening) == ""
    return attacker, defender


def no_cheat_in_public(tg: FakeTelegram, group: FakeChat, honest: FakeUser) -> None:
    """Nothing in the group, and nothing on an honest player's keyboard, tells of a cheat."""
    for message in tg.messages(group):
        assert "🤫" not in (message.text or "")
        assert not any("🤫" in t for t in labels(message))
    for message in tg.messages(tg.private(honest)):
        assert not any(
            "🤫" in t or (d or "").startswith("f:") for row in message.keyboard for t, d in row
        )


async def test_a_cheat_from_the_hand_keyboard_is_caught_with_antimukhlyozh(
    tg: FakeTelegram,
    tmp_path: Path,
) -> None:
    users = [tg.add_user(1, "Аня"), tg.add_user(2, "Борис")]
    group = tg.add_group(-100, "Друзья", members=users)
    for user in users:
        tg.start_private(user)
    async with running_bot(tg, tmp_path / "db.sqlite3") as app:
        attacker, defender = await opened_bout(tg, app, group, users)
        live = held(app.service, 1)
        hand = hand_of(tg, defender)
        assert await press(tg, app, defender, hand, data_of(hand, "🤫 Мухлёж")) == ""
        assert hand_of(tg, defender) is hand  # the keyboard was edited in place
        assert "эти кнопки видите только вы" in (hand.text or "")
        cheats = [d for row in hand.keyboard for t, d in row if d and t.startswith("🤫 ")]
        if not any(d.startswith("f:") for d in cheats):  # choose the card's target
            await press(tg, app, defender, hand, cheats[0])
            cheats = [d for row in hand.keyboard for t, d in row if d and t.startswith("🤫 ")]
        chosen = next(d for d in cheats if d.startswith("f:"))
        cheat = CheatCb.unpack(chosen).a
        d_seat, a_seat = live.state.defender, live.state.attacker
        assert cheat in {a.text for a in live.state.cheat_actions(d_seat)}
        assert await press(tg, app, defender, hand, chosen) == ""
        assert live.state.history[-1].text == cheat and live.state.cheats
        assert not any(t.startswith("🤫 ") or t == "Назад" for t in labels(hand))
        no_cheat_in_public(tg, group, attacker)
        table_cards = {c for pair in live.state.table for c in pair if c is not None}
        mine = hand_of(tg, attacker)
        cheater, accuser = defender.first_name, attacker.first_name
        caught = await press(tg, app, attacker, mine, data_of(mine, f"🕵 Антимухлёж: {cheater}"))
        assert caught == f"Поймали! {cheater} забирает карты со стола."
        assert (
            f"🕵 {accuser}: «Антимухлёж» против игрока {cheater} — поймали! "
            f"{cheater} забирает карты."
        ) in (latest(tg, group).text or "")
        state = live.state
        assert not state.table and table_cards <= set(state.view(d_seat).hand)
        assert state.attacker == a_seat  # the caught cheater is skipped, like any taker
        no_cheat_in_public(tg, group, attacker)
    assert tg.unanswered_callbacks() == []


async def test_a_wrong_accusation_bars_the_accuser_until_the_bout_ends(
    tg: FakeTelegram, tmp_path: Path
) -> None:
    users = [tg.add_user(1, "Аня"), tg.add_user(2, "Борис")]
    group = tg.add_group(-100, "Друзья", members=users)
    for user in users:
        tg.start_private(user)
    async with running_bot(tg, tmp_path / "db.sqlite3") as app:
        attacker, defender = await opened_bout(tg, app, group, users)
        mine = hand_of(tg, attacker)
        accused, accuser = defender.first_name, attacker.first_name
        accuse = data_of(mine, f"🕵 Антимухлёж: {accused}")
        missed = await press(tg, app, attacker, mine, accuse)
        assert missed == (
            f"Мимо: {accused} играет честно. До конца кона обвинить этого игрока снова нельзя."
        )
        assert (
            f"🕵 {accuser}: «Антимухлёж» против игрока {accused} — мимо: {accused} играет "
            f"честно. До конца кона {accuser} не может снова обвинить этого игрока."
        ) in (latest(tg, group).text or "")
        assert not any("🕵" in t for t in labels(mine))  # no dead button left
        # the same press again (a double tap) is answered calmly; a fresh one is refused
        assert await press(tg, app, attacker, mine, accuse, forge=True) == "Ход уже сделан."
        state = held(app.service, 1).state
        fresh = MoveCb(game=1, a=f"accuse {state.defender}", k=hand_key(mine))
        assert await press(tg, app, attacker, mine, fresh.pack(), forge=True) == (
            "Сейчас так сходить нельзя."
        )
        theirs = hand_of(tg, defender)
        assert f"🕵 Антимухлёж: {accuser}" in labels(theirs)  # the defender is not barred
        assert await press(tg, app, defender, theirs, data_of(theirs, "Беру")) == ""
        while held(app.service, 1).state.table:  # the attacker lets the bout end
            await press(tg, app, attacker, mine, data_of(mine, "Пас"))
        opening = next(d for t, d in hand_buttons(mine) if t.startswith("• "))
        await press(tg, app, attacker, mine, opening)  # a new bout: the right is back
        assert f"🕵 Антимухлёж: {accused}" in labels(mine)
    assert tg.unanswered_callbacks() == []


async def test_stale_and_forged_cheats_and_pages_change_nothing(
    tg: FakeTelegram, tmp_path: Path
) -> None:
    users = [tg.add_user(1, "Аня"), tg.add_user(2, "Борис")]
    group = tg.add_group(-100, "Друзья", members=users)
    for user in users:
        tg.start_private(user)
    async with running_bot(tg, tmp_path / "db.sqlite3") as app:
        attacker, defender = await opened_bout(tg, app, group, users)
        live = held(app.service, 1)
        before = live.state.to_dict()
        cheat = live.state.cheat_actions(live.state.defender)[0].text
        a_seat = live.state.attacker
        theirs, mine = hand_of(tg, defender), hand_of(tg, attacker)
        k, m, old = hand_key(theirs), hand_key(mine), "f" * 8  # the last: no hand's key
        not_now = "Сейчас так сходить нельзя."
        forged: list[tuple[FakeUser, FakeMessage, CallbackData | Raw, str]] = [
            (defender, theirs, MoveCb(game=1, a=cheat, k=k), not_now),  # not as honest
            (defender, theirs, CheatCb(game=1, a="take", k=k), not_now),  # not a cheat
            (defender, theirs, CheatCb(game=1, a=cheat, k=old), "Кнопка устарела"),
            (defender, theirs, CheatCb(game=2, a=cheat, k=k), "Такой партии нет"),
            (attacker, mine, CheatCb(game=1, a=cheat, k=m), not_now),  # not the defender
            (attacker, mine, PageCb(game=1, page=PageName.CHEAT, k=m), not_now),
            # data that does not fit PageCb's fields is no page: the fallback answers
            (defender, theirs, Raw(f"p:1:cheat:ZZ:{k}"), "Кнопка устарела"),
            (defender, theirs, Raw(f"p:1:secret::{k}"), "Кнопка устарела"),
            (defender, theirs, PageCb(game=1, page=PageName.ACCUSE, k=old), "Кнопка устарела"),
            (attacker, mine, MoveCb(game=1, a=f"accuse {a_seat}", k=m), not_now),  # oneself
        ]
        shown = (theirs.text, theirs.keyboard, mine.text, mine.keyboard)
        for user, message, data, answer in forged:
            said = await press(tg, app, user, message, data.pack(), forge=True)
            assert said.startswith(answer), (data, said)
        assert live.state.to_dict() == before
        assert (theirs.text, theirs.keyboard, mine.text, mine.keyboard) == shown
        await press(tg, app, defender, theirs, data_of(theirs, "🤫 Мухлёж"))
        assert "Беру" not in labels(theirs)
        await press(tg, app, defender, theirs, data_of(theirs, "Назад"))
        assert "Беру" in labels(theirs) and "🤫 Мухлёж" in labels(theirs)
        assert live.state.to_dict() == before
        no_cheat_in_public(tg, group, attacker)
    assert tg.unanswered_callbacks() == []


async def test_a_computer_player_catches_a_cheat_and_the_table_says_so(
    tg: FakeTelegram, tmp_path: Path
) -> None:
    anna = tg.add_user(1, "Аня")
    group = tg.add_group(-100, "Друзья", members=[anna])
    tg.start_private(anna)
    async with running_bot(tg, tmp_path / "db.sqlite3") as app:
        app.service.new_seed = lambda: 1  # the bot attacks first
        message = await open_table(tg, app, group, anna)
        for data in (lobby("rules"), lobby("preset", "transfer_cheating"), lobby("back")):
            await press(tg, app, anna, message, data)
        await seat_everyone(tg, app, group, [anna])
        await press(tg, app, anna, latest(tg, group), lobby("bot"))
        live = held(app.service, 1)
        assert live.state.defender == 0 and live.state.table
        hand = hand_of(tg, anna)
        await press(tg, app, anna, hand, data_of(hand, "🤫 Мухлёж"))
        first = next(d for row in hand.keyboard for t, d in row if d and t.startswith("🤫 "))
        if not first.startswith("f:"):
            await press(tg, app, anna, hand, first)
            first = next(d for row in hand.keyboard for _, d in row if d and d.startswith("f:"))
        made = len(live.state.history)
        await press(tg, app, anna, hand, first)
        history = [str(a) for a in live.state.history[made:]]
        assert history[:2] == [f"0 {CheatCb.unpack(first).a}", "1 accuse 0"]
        assert history[2].startswith("1 a ")  # Аня took the table: the bot attacks again
        assert ("🕵 Новичок 1: «Антимухлёж» против игрока Аня — поймали! Аня забирает карты.") in (
            latest(tg, group).text or ""
        )
    assert tg.unanswered_callbacks() == []
