"""Per-seat views (RULES §11): no hidden card of another seat, ever; legal moves included."""

from __future__ import annotations

import pytest

from engine import Rules, State
from engine.cards import cards_of
from engine.rules import Mode
from tests.helpers import act, game, play


def hidden_cards(state: State, seat: int) -> set[int]:
    """The cards in ``seat``'s hand that are not public knowledge."""
    return set(cards_of(state.hands[seat] & ~state.known[seat]))


def assert_no_leak(state: State) -> None:
    for viewer in [None, *range(state.n)]:
        text = repr(state.view(viewer))
        for other in range(state.n):
            if other == viewer:
                continue
            for card in hidden_cards(state, other):
                assert repr(card) not in text, (viewer, other, card)


def assert_views_match_state(state: State) -> None:
    for seat in range(state.n):
        view = state.view(seat)
        assert view.legal == tuple(state.legal_actions(seat))
        assert set(view.hand) == set(cards_of(state.hands[seat]))
        assert view.hand_sizes == tuple(h.bit_count() for h in state.hands)


def test_view_holds_own_hand_and_only_sizes_of_others() -> None:
    state = game(["7S 9D", "8S 10S JC", "7C JD QH KH"], trump="6H", stock="AS KS")
    view = state.view(1)
    assert view.seat == 1
    assert {str(c) for c in view.hand} == {"8S", "10S", "JC"}
    assert view.hand_sizes == (2, 3, 4)
    assert view.stock_size == 3
    assert str(view.trump_card) == "6H"
    assert view.known == ((), (), ())
    assert_no_leak(state)


def test_partners_hand_is_hidden_too() -> None:
    state = game(["7S 9D", "8S 10S", "7C JD", "6C QC"], teams=True, stock="KS AS")
    view = state.view(0)
    assert view.known[2] == ()
    for card in cards_of(state.hands[2]):
        assert repr(card) not in repr(view)
    assert_no_leak(state)


def test_spectator_view_has_no_hand_and_no_moves() -> None:
    state = game(["7S 9D", "8S 10S"], stock="KS AS")
    act(state, "0 a 7S")
    view = state.view(None)
    assert view.seat is None
    assert view.hand == ()
    assert view.legal == ()
    assert [(str(a), d) for a, d in view.table] == [("7S", None)]
    assert_no_leak(state)


def test_view_of_an_unknown_seat_is_refused() -> None:
    state = game(["7S 9D", "8S 10S"], stock="KS AS")
    with pytest.raises(ValueError, match="no seat 2"):
        state.view(2)


def test_legal_in_the_view_matches_legal_actions_through_a_bout() -> None:
    state = game(["7S 7C 9D", "8S 10C JC", "7D 8D QS"], trump="6H", stock="KS AS KC AC")
    # The third attack card reaches the limit (three): the take completes at once.
    steps = ["0 a 7S", "2 t 7D", "1 d 8S>7S", "1 take", "0 t 7C", "2 a 8D"]
    assert_views_match_state(state)
    for step in steps:
        act(state, step)
        assert_views_match_state(state)
        assert_no_leak(state)


def test_public_facts_are_in_every_view() -> None:
    state = game(["7S 7C 9D", "8S 10C JC", "7D 8D QS"], trump="6H", stock="KS")
    play(state, "0 a 7S 7C", "1 d 8S>7S", "1 take", "0 pass", "2 pass")
    for viewer in [None, 0, 1, 2]:
        view = state.view(viewer)
        assert {str(c) for c in view.known[1]} == {"7S", "7C", "8S"}
        assert [str(a) for a in view.history] == [
            "0 a 7S 7C",
            "1 d 8S>7S",
            "1 take",
            "0 pass",
            "2 pass",
        ]
        assert view.places == (0, 0, 0)


def test_views_do_not_leak_in_seeded_games() -> None:
    for players, deck in [(2, 36), (4, 24), (6, 36)]:
        for seed in range(3):
            state = State(Rules(players=players, deck=deck, mode=Mode.PEREVODNOY), seed)
            for _ in range(30):
                if state.is_over:
                    break
                assert_no_leak(state)
                assert_views_match_state(state)
                state.apply(state.timeout_actions()[0], auto=True)
