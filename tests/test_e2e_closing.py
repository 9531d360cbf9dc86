"""End to end under «Переводной с мухлежом»: a beat that ends the bout leaves it open
for «Антимухлёж» (RULES §9), and the group's table and every hand say so: the bout is
closing, the last chance to accuse, the seconds left; a card tapped then is answered
why; «Бито» from the others closes it."""

from __future__ import annotations

import re
from pathlib import Path

from bot.callbacks import LobbyCb, LobbyOp
from engine import Action
from tests.e2e_helpers import (
    hand_of,
    latest,
    open_table,
    running_bot,
    seat_everyone,
    settle,
)
from tests.fakes import FakeTelegram
from tests.service_helpers import held, next_move


async def test_the_open_bout_is_told_in_the_group_and_in_every_hand(
    tg: FakeTelegram, tmp_path: Path
) -> None:
    users = [tg.add_user(1, "Аня"), tg.add_user(2, "Борис"), tg.add_user(3, "Вика")]
    group = tg.add_group(-100, "Друзья", members=users)
    for user in users:
        tg.start_private(user)
    async with running_bot(tg, tmp_path / "db.sqlite3") as app:
        app.service.new_seed = lambda: 3
        lobby = await open_table(tg, app, group, users[0])
        for op, arg in (("set", "seats"), ("rules", ""), ("preset", "transfer_cheating")):
            await (
                await tg.press(users[0], lobby, LobbyCb(table=1, op=LobbyOp(op), arg=arg).pack())
            )
            await settle(app)
        await (await tg.press(users[0], lobby, LobbyCb(table=1, op=LobbyOp.BACK).pack()))
        await settle(app)
        await seat_everyone(tg, app, group, users)
        live = held(app.service, 1)
        for _ in range(300):  # greedy honest moves until a beat ends a bout
            if live.state.closing or live.state.outcome is not None:
                break
            seat, text = next_move(live.state)
            await app.service.act(1, Action.from_text(seat, text), len(live.state.history))
            await settle(app)
        state = live.state
        assert state.closing and state.outcome is None
        table = (latest(tg, group).text or "").split("\n")
        assert re.fullmatch(r"⏳ Кон закрывается · до\xa0\d\d:\d\d:\d\d\xa0\S+", table[0])
        assert table[1] == "🕵 Ещё можно «Антимухлёж»."
        defender = users[state.defender]
        throwers = [u for s, u in enumerate(users) if s != state.defender]
        for user in throwers:
            hand = hand_of(tg, user)
            assert "Всё побито — кон закрывается.\nПоследний шанс: «Антимухлёж»," in (
                hand.text or ""
            )
            assert "Подкинуть нечего" not in (hand.text or "") and (hand.text or "").endswith(" с")
        assert "Вы отбились — кон закрывается." in (hand_of(tg, defender).text or "")
        hand = hand_of(tg, throwers[0])
        card = next(d for row in hand.keyboard for _, d in row if d and d.startswith("c:"))
        answer = await (await tg.press(throwers[0], hand, card))
        assert (answer.text or "").startswith("Всё побито, кон закрывается: ходить больше нельзя")
        bouts = state.bouts
        for user in throwers:
            await (await tg.press(user, hand_of(tg, user), button_text="Бито"))
            await settle(app)
        assert live.state.bouts == bouts + 1 and not live.state.closing
        assert "Кон закрывается" not in (latest(tg, group).text or "")
    assert tg.unanswered_callbacks() == []
