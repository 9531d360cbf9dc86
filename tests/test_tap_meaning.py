"""What a tap on an older hand's card may still do: a throw-in tap outlives the
defender's beat, and a beat tap outlives a card thrown in, but never beats that new
card (its player has not seen it)."""

from __future__ import annotations

from bot.callbacks import CardCb, still_meant, tap_meaning
from engine import Action, Rules, State
from engine.actions import BEAT, THROW
from tests.service_helpers import next_move


def test_a_tap_drawn_before_a_throw_in_never_beats_the_new_card() -> None:
    new_refused = old_kept = thrown_kept = 0
    for seed in range(30):
        state = State(Rules(players=3, deck=36), seed)
        while not state.is_over:
            # A throw-in before the defender beats (the case at issue), when one can come.
            early = [a for a in state.all_legal_actions() if a.kind == THROW and state.unbeaten]
            action = early[0] if early else Action.from_text(*next_move(state))
            before = {kind: tap_meaning(state, kind) for kind in (BEAT, THROW)}
            state.apply(action)
            assert CardCb(game=1, card="7S", meant=before[BEAT], k="0" * 8).pack()
            if action.kind == THROW and state.att:
                for beat in (a for a in state.legal_actions(state.defender) if a.kind == BEAT):
                    new = beat.target == action.cards[0]
                    assert still_meant(state, beat, before[BEAT]) is not new
                    new_refused += new
                    old_kept += not new
            elif action.kind == BEAT and state.att:
                throws = [a for a in state.all_legal_actions() if a.kind == THROW]
                assert all(still_meant(state, a, before[THROW]) for a in throws)
                thrown_kept += len(throws)
    assert new_refused > 20 and old_kept > 20 and thrown_kept > 20
