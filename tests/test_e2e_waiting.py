"""End to end: a hand that waits for others says whom it waits for («Ходит Аня.»,
«Аня подкидывает.», «Ждём: Аня, Вика.»), never «Ждём других игроков.»."""

from __future__ import annotations

from pathlib import Path

from bot.callbacks import CardCb
from engine import Action, Card, Rules, State
from engine.actions import OPEN, TAKE
from tests.e2e_helpers import (
    hand_message,
    running_bot,
    settle,
    three_friends,
    three_seated,
)
from tests.fakes import FakeTelegram, FakeUser

VAGUE = "Ждём других игроков."


def thrown_after_take(state: State) -> Card | None:
    """An opening card after whose «Беру» someone may throw in (the bout waits)."""
    for opening in state.legal_actions(state.attacker):
        if opening.kind != OPEN or len(opening.cards) > 1:
            continue
        taken = state.copy()
        taken.apply(opening)
        taken.apply(Action(state.defender, TAKE))
        turn = taken.turn()
        if turn is not None and turn.kind == "throw":
            return opening.cards[0]
    return None


SEED = next(s for s in range(500) if thrown_after_take(State(Rules(players=3), s)))


async def test_a_waiting_hand_names_who_must_act(tg: FakeTelegram, tmp_path: Path) -> None:
    users, group = three_friends(tg)
    async with running_bot(tg, tmp_path / "db.sqlite3") as app:
        live = await three_seated(tg, app, group, users, SEED)
        by_seat: dict[int, FakeUser] = {
            s: u for s in range(3) for u in users if live.seats[s].user_id == u.id
        }
        name = {s: u.first_name for s, u in by_seat.items()}
        a, d = live.state.attacker, live.state.defender
        (third,) = {0, 1, 2} - {a, d}

        def text(seat: int) -> str:
            message = hand_message(tg, by_seat[seat])
            assert message is not None and message.text is not None
            return message.text

        # Before the opening: the defender is told who opens, the third who plays whom.
        assert text(d).endswith(f"Ходит {name[a]}.")
        assert text(third).endswith(f"{name[a]} ходит, {name[d]} отбивается.")

        hand = hand_message(tg, by_seat[a])
        assert hand is not None
        opening = thrown_after_take(live.state)
        assert opening is not None
        card = next(
            d for d in hand.button_data() if d[:2] == "c:" and CardCb.unpack(d).card == str(opening)
        )
        assert (await (await tg.press(by_seat[a], hand, card))).text is None
        await settle(app)
        taking = hand_message(tg, by_seat[d])
        assert taking is not None
        assert (await (await tg.press(by_seat[d], taking, button_text="Беру"))).text is None
        await settle(app)

        # After «Беру» the taker waits for those who may throw in.
        turn = live.state.view(d).turn
        assert turn is not None and turn.kind == "throw"
        throwers = [name[s] for s in turn.seats]
        if len(throwers) == 1:
            assert text(d).endswith(f"{throwers[0]} подкидывает."), text(d)
        else:
            assert text(d).endswith(f"Ждём: {', '.join(throwers)}."), text(d)
        assert all(VAGUE not in m.text for u in users for m in tg.messages(u) if m.text)
