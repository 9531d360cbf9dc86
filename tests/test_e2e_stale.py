"""End to end: a card tapped on a hand drawn just before the opponent's move.

The client shows the old keyboard until the bot edits it (a second or more under
Telegram's limits); a tap on it counts while the bout, its defender and «Беру» are the
same, and is refused as stale once any of them changed."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from bot.callbacks import CardCb, tap_meaning
from engine import Action, Card, Rules, State
from engine.actions import BEAT, OPEN, THROW, TRANSFER
from engine.rules import Mode
from tests.e2e_helpers import (
    hand_of,
    open_table,
    running_bot,
    seat_everyone,
    settle,
    two_friends,
)
from tests.fakes import FakeMessage, FakeTelegram
from tests.service_helpers import held

STALE = "Кнопка устарела: игра уже ушла дальше."


def scenario(state: State) -> tuple[Action, Action, Action] | None:
    """An opening, a throw-in of the same rank, and a defender's card that covers
    only the opening card once both are on the table."""
    a, d = state.attacker, state.defender
    for opening in state.legal_actions(a):
        if opening.kind != OPEN or len(opening.cards) > 1:
            continue
        opened = state.copy()
        opened.apply(opening)
        for throw in (x for x in opened.legal_actions(a) if x.kind == THROW):
            both = opened.copy()
            both.apply(throw)
            beats = [x for x in both.legal_actions(d) if x.kind == BEAT]
            targets = Counter(x.cards[0] for x in beats)
            for beat in beats:
                if targets[beat.cards[0]] == 1 and beat.target == opening.cards[0]:
                    return opening, throw, beat
    return None


SEED = next(s for s in range(500) if scenario(State(Rules(), s)))


def card_data(message: FakeMessage, card: Card) -> str:
    found = [d for d in message.button_data() if d.startswith("c:")]
    return next(d for d in found if CardCb.unpack(d).card == str(card))


async def test_a_tap_on_a_hand_drawn_before_a_throw_in_still_counts(
    tg: FakeTelegram, tmp_path: Path
) -> None:
    anna, boris, group = two_friends(tg)
    async with running_bot(tg, tmp_path / "db.sqlite3") as app:
        app.service.new_seed = lambda: SEED
        await open_table(tg, app, group, anna)
        await seat_everyone(tg, app, group, [anna, boris])
        live = held(app.service, 1)
        found = scenario(live.state)
        assert found is not None
        opening, throw, beat = found
        user = {s: u for s, u in enumerate((anna, boris)) if live.seats[s].user_id == u.id}
        attacker, defender = user[opening.seat], user[beat.seat]

        # Taps on the hands drawn before the opening: the attacker's second card of
        # the rank was an opening card then (now it would be a throw-in) and the
        # defender had nothing to play, so both will be stale.
        first_hands = {u: hand_of(tg, u) for u in (attacker, defender)}
        stale_taps = [
            (attacker, card_data(first_hands[attacker], throw.cards[0])),
            (defender, card_data(first_hands[defender], beat.cards[0])),
        ]
        hand = first_hands[attacker]
        answer = await (await tg.press(attacker, hand, card_data(hand, opening.cards[0])))
        assert answer.text is None
        await settle(app)
        for who, data in stale_taps:
            answer = await (await tg.press(who, first_hands[who], data, forge=True))
            assert answer.text == STALE
        assert live.state.history[-1] == opening
        old_hand = hand_of(tg, defender)
        old_tap = card_data(old_hand, beat.cards[0])
        hand = hand_of(tg, attacker)
        assert (
            await (await tg.press(attacker, hand, card_data(hand, throw.cards[0])))
        ).text is None
        await settle(app)
        assert live.state.history[-1] == throw

        # Борис saw only the opening card when he tapped: the beat is made.
        answer = await (await tg.press(defender, old_hand, old_tap, forge=True))
        assert answer.text is None
        assert live.state.history[-1] == beat
        # The same tap again (a double tap): the card is on the table now, calmly said.
        answer = await (await tg.press(defender, old_hand, old_tap, forge=True))
        assert answer.text == "Ход уже сделан."
        await settle(app)

        # After «Беру» the attacker's earlier hand is stale: its cards would go to the taker.
        before_take = hand_of(tg, attacker)
        old_taps = [d for d in before_take.button_data() if d.startswith("c:")]
        hand = hand_of(tg, defender)
        assert (await (await tg.press(defender, hand, button_text="Беру"))).text is None
        await settle(app)
        length = len(live.state.history)
        for data in old_taps:
            answer = await (await tg.press(attacker, before_take, data, forge=True))
            assert answer.text == STALE
        assert len(live.state.history) == length
    assert tg.unanswered_callbacks() == []


def test_a_tap_means_another_move_after_transfers_even_to_the_same_defender() -> None:
    rules = Rules(mode=Mode.PEREVODNOY)
    for seed in range(3000):
        state = State(rules, seed)
        before = tap_meaning(state.view(state.defender), BEAT)
        defender = state.defender
        state.apply(next(a for a in state.legal_actions(state.attacker) if a.kind == OPEN))
        for _ in range(2):  # there and back: two players, the defender is the same again
            transfer = next(
                (a for a in state.legal_actions(state.defender) if a.kind == TRANSFER), None
            )
            if transfer is None:
                break
            state.apply(transfer)
        else:
            assert state.defender == defender and state.bouts == 0
            assert tap_meaning(state, BEAT) != before
            return
    raise AssertionError("no deal with two transfers in a row")
