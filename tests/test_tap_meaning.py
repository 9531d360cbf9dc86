"""What a tap on an older hand's card may still mean: a throw-in tap outlives the
defender's beat, a beat tap does not outlive a card thrown in (it could now beat
a card its player never saw)."""

from __future__ import annotations

from bot.callbacks import CardCb, tap_meaning
from engine import Action, Rules, State
from engine.actions import BEAT, THROW
from tests.service_helpers import next_move


def test_a_card_thrown_in_makes_a_beat_tap_stale_and_a_beat_keeps_a_throw_tap() -> None:
    thrown = beaten = 0
    for seed in range(30):
        state = State(Rules(players=3, deck=36), seed)
        while not state.is_over:
            seat, text = next_move(state)
            action = Action.from_text(seat, text)
            before = {kind: tap_meaning(state, kind) for kind in (BEAT, THROW)}
            state.apply(action)
            if action.kind == THROW and state.att:
                thrown += 1
                assert tap_meaning(state, BEAT) != before[BEAT]
            elif action.kind == BEAT and state.att:
                beaten += 1
                assert tap_meaning(state, THROW) == before[THROW]
            assert CardCb(game=1, card="7S", meant=tap_meaning(state, BEAT), k="0" * 8).pack()
    assert thrown > 20 and beaten > 20
