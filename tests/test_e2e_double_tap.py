"""End to end: a double tap (the same button twice within a moment) plays the move
once and the second tap is answered calmly, never as a stale button."""

from __future__ import annotations

from pathlib import Path

from tests.e2e_helpers import hand_message, open_table, running_bot, seat_everyone, two_friends
from tests.fakes import FakeTelegram, FakeUser
from tests.service_helpers import held

STALE = "Кнопка устарела: игра уже ушла дальше."
MADE = "Ход уже сделан."


async def test_a_double_tap_plays_once_and_is_answered_calmly(
    tg: FakeTelegram, tmp_path: Path
) -> None:
    anna, boris, group = two_friends(tg)
    async with running_bot(tg, tmp_path / "db.sqlite3") as app:
        await open_table(tg, app, group, anna)
        await seat_everyone(tg, app, group, [anna, boris])
        live = held(app.service, 1)
        assert live is not None
        user: dict[int, FakeUser] = {
            s: u for s in range(2) for u in (anna, boris) if live.seats[s].user_id == u.id
        }
        attacker, defender = user[live.state.attacker], user[live.state.defender]

        # Two taps on one card before the hand is redrawn: one opening, one calm answer.
        hand = hand_message(tg, attacker)
        assert hand is not None
        card = next(d for d in hand.button_data() if d.startswith("c:"))
        first = await tg.press(attacker, hand, card)
        second = await tg.press(attacker, hand, card, forge=True)
        answers = {(await first).text, (await second).text}
        assert answers == {None, MADE}
        assert len(live.state.history) == 1

        # The same tap a moment later, once the hand is redrawn: still calm.
        await app.service.idle()
        third = await (await tg.press(attacker, hand, card, forge=True))
        assert third.text == MADE
        assert len(live.state.history) == 1

        # «Беру» twice: taken once.
        await app.presenter.idle()
        taking = hand_message(tg, defender)
        assert taking is not None
        take = next(d for row in taking.keyboard for text, d in row if text == "Беру")
        first = await tg.press(defender, taking, take)
        second = await tg.press(defender, taking, take, forge=True)
        answers = {(await first).text, (await second).text}
        assert answers == {None, MADE}
        assert STALE not in answers
        assert [a.kind for a in live.state.history].count("take") == 1
    assert tg.unanswered_callbacks() == []
