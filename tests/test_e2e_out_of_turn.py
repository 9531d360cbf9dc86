"""End to end: at three players, a card tapped by the player outside the bout, who
has nothing to throw in (their hand shows no table), is answered with whose turn it
is, not with the ranks on a table they do not see."""

from __future__ import annotations

from pathlib import Path

from bot.callbacks import CardCb
from engine import Card, Rules, State
from engine.actions import OPEN, THROW
from tests.e2e_helpers import (
    hand_message,
    running_bot,
    settle,
    three_friends,
    three_seated,
)
from tests.fakes import FakeTelegram, FakeUser


def quiet_third(state: State) -> Card | None:
    """An opening card after which the third seat has nothing to throw in."""
    third = next(s for s in range(state.n) if s not in (state.attacker, state.defender))
    for opening in state.legal_actions(state.attacker):
        if opening.kind != OPEN or len(opening.cards) > 1:
            continue
        opened = state.copy()
        opened.apply(opening)
        if not any(a.kind == THROW for a in opened.legal_actions(third)):
            return opening.cards[0]
    return None


SEED = next(s for s in range(500) if quiet_third(State(Rules(players=3), s)))


async def test_a_tap_out_of_turn_outside_the_bout_says_whose_turn_it_is(
    tg: FakeTelegram, tmp_path: Path
) -> None:
    users, group = three_friends(tg)
    async with running_bot(tg, tmp_path / "db.sqlite3") as app:
        live = await three_seated(tg, app, group, users, SEED)
        card = quiet_third(live.state)
        assert card is not None
        by_seat: dict[int, FakeUser] = {
            s: u for s in range(3) for u in users if live.seats[s].user_id == u.id
        }
        a, d = live.state.attacker, live.state.defender
        (third,) = {0, 1, 2} - {a, d}
        hand = hand_message(tg, by_seat[a])
        assert hand is not None
        tap = next(
            x for x in hand.button_data() if x[:2] == "c:" and CardCb.unpack(x).card == str(card)
        )
        assert (await (await tg.press(by_seat[a], hand, tap))).text is None
        await settle(app)

        quiet = hand_message(tg, by_seat[third])
        assert quiet is not None and quiet.text is not None
        assert "На столе" not in quiet.text  # the table is not shown to them
        length = len(live.state.history)
        for data in [x for x in quiet.button_data() if x.startswith("c:")]:
            answer = await (await tg.press(by_seat[third], quiet, data))
            name = by_seat[d].first_name
            assert answer.text == f"Сейчас не ваш ход: отбивается {name}.", answer.text
        assert len(live.state.history) == length
