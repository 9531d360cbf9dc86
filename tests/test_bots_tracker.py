"""The card tracker and the sampled deals agree with everything a seat may know."""

from __future__ import annotations

import random

import pytest

from engine import Rules, State
from engine.board import FIELDS
from engine.bots.heuristic import state_policy
from engine.bots.tracker import Tracker
from engine.bots.world import build_state, sample_hands
from engine.cards import Card, deck_mask, mask_of
from engine.rules import Mode, ThrowIn
from tests.helpers import cards, game, play, turn_of

RULES = [
    Rules(players=2, deck=36),
    Rules(players=3, deck=24, mode=Mode.PEREVODNOY),
    Rules(players=4, deck=24),
    Rules(players=4, deck=36, mode=Mode.PEREVODNOY, teams=True),
    Rules(players=5, deck=52, throw_in=ThrowIn.NEIGHBORS),
    Rules(players=6, deck=36, teams=True),
]


def positions(rules: Rules, seed: int, every: int = 7) -> list[State]:
    """Copies of one heuristic game every few actions, from the deal to the end."""
    state, out = State(rules, seed), []
    rng = random.Random(seed)
    while not state.is_over:
        if len(state.history) % every == 0:
            out.append(state.copy())
        turn = state.turn()
        assert turn is not None
        seats = list(turn.seats)
        rng.shuffle(seats)
        action = next(a for s in seats if (a := state_policy(state, s)) is not None)
        state.apply(action)
    return out


def masks(text: str) -> int:
    return mask_of(Card.parse(t) for t in cards(text))


def taken_game() -> State:
    """Seat 1 takes 7S and 7D from seat 0."""
    state = game(
        ["6S 7S 7D 10S JS QS", "7C 8C 9C 10C JC QC"],
        trump="6H",
        stock="8D 9D 10D JD QD KD",
    )
    play(state, "0 a 7S", "1 take", "0 t 7D", "0 pass")
    return state


def test_tracker_knows_the_cards_a_player_took() -> None:
    state = taken_game()
    tracker = Tracker.from_view(state.view(0))
    assert tracker.known[1] == masks("7S 7D")
    assert not tracker.hidden & masks("7S 7D")
    assert tracker.slots[1] == state.hands[1].bit_count() - 2
    assert tracker.possible(1) & masks("7S 7D") == masks("7S 7D")


def test_tracker_forgets_a_taken_card_once_it_is_played_again() -> None:
    state = taken_game()
    play(state, "0 a 6S", "1 d 7S>6S")
    tracker = Tracker.from_view(state.view(0))
    assert tracker.known[1] == masks("7D")
    assert tracker.gone & masks("6S 7S") == masks("6S 7S")


def test_tracker_knows_the_shown_lowest_trump() -> None:
    rules = Rules(players=3, deck=36)
    seed = next(s for s in range(100) if State(rules, s).shown is not None)
    state = State(rules, seed)
    shown = state.shown
    assert shown is not None
    for seat in range(3):
        tracker = Tracker.from_view(state.view(seat))
        assert tracker.known[state.attacker] >> shown & 1
        assert not tracker.hidden >> shown & 1
        assert tracker.trump_in_stock and not tracker.hidden >> state.trump_card & 1


@pytest.mark.parametrize("players,deck", [(4, 24), (6, 36)])
def test_tracker_after_the_whole_deck_was_dealt(players: int, deck: int) -> None:
    state = State(Rules(players=players, deck=deck), seed=3)
    holder = players - 1
    for seat in range(players - 1):
        tracker = Tracker.from_view(state.view(seat))
        assert not tracker.trump_in_stock and tracker.stock_hidden == 0
        assert tracker.known[holder] >> state.trump_card & 1
        assert tracker.hidden.bit_count() == sum(tracker.slots)
        for s in range(players):
            if s != seat:
                assert tracker.possible(s) & state.hands[s] == state.hands[s]


@pytest.mark.parametrize("rules", RULES, ids=str)
def test_every_sampled_deal_agrees_with_the_public_facts(rules: Rules) -> None:
    rng = random.Random(1)
    deck = deck_mask(rules.deck)
    for state in positions(rules, seed=5):
        for seat in range(rules.players):
            view = state.view(seat)
            tracker = Tracker.from_view(view)
            for _ in range(5):
                hands, stock = sample_hands(tracker, rng)
                assert hands[seat] == state.hands[seat]
                total = tracker.gone
                for s, h in enumerate(hands):
                    assert h.bit_count() == view.hand_sizes[s]
                    assert h & tracker.known[s] == tracker.known[s]
                    assert not total & h
                    total |= h
                assert len(stock) == view.stock_size
                if stock:
                    assert stock[0] == state.trump_card
                for c in stock:
                    assert not total >> c & 1
                    total |= 1 << c
                assert total == deck


@pytest.mark.parametrize("rules", RULES, ids=str)
def test_a_position_rebuilt_from_a_view_and_the_true_cards_is_the_same(rules: Rules) -> None:
    for state in positions(rules, seed=9, every=5):
        seat = turn_of(state).seats[0]
        copy = build_state(state.view(seat), state.hands[:], state.stock[:])
        for name in FIELDS:
            if name in ("history", "auto", "seed", "known"):
                continue
            assert getattr(copy, name) == getattr(state, name), name
        assert [k & h for k, h in zip(copy.known, copy.hands, strict=True)] == [
            k & h for k, h in zip(state.known, state.hands, strict=True)
        ]
        for s in range(rules.players):
            assert copy.legal_actions(s) == state.legal_actions(s)


def test_with_two_players_and_only_the_trump_card_left_every_card_is_certain() -> None:
    for state in positions(Rules(players=2, deck=36), seed=4, every=1):
        tracker = Tracker.from_view(state.view(0))
        assert tracker.certain == (len(state.stock) <= 1)
        if tracker.certain:
            assert sample_hands(tracker, random.Random(0))[0] == state.hands
