"""Drawing after a bout (RULES §5): opener first, clockwise, defender last, trump card last."""

from __future__ import annotations

from engine import Drew
from tests.helpers import cards, game, hand, of_type, play

# Fourteen cards in draw order; the face-up AH lies under them.
STOCK = "6D 7D 8D 6H 7H 8H 9H 10H JH QH KH 10S JS QS"


def test_draw_order_opener_then_clockwise_defender_last() -> None:
    state = game(
        ["6S 7S 8S", "6C 7C 8C", "9D 10D JD", "QD KD 9S"], trump="AH", stock=STOCK, opener=2
    )
    assert state.defender == 3
    events = play(state, "2 a 9D", "3 d QD>9D", "2 done", "0 done", "1 done")
    assert of_type(events, Drew) == [
        Drew(2, 4, False),
        Drew(0, 3, False),
        Drew(1, 3, False),
        Drew(3, 4, False),
    ]
    assert hand(state, 2) == cards("10D JD 6D 7D 8D 6H")
    assert hand(state, 0) == cards("6S 7S 8S 7H 8H 9H")
    assert hand(state, 1) == cards("6C 7C 8C 10H JH QH")
    assert hand(state, 3) == cards("KD 9S KH 10S JS QS")
    assert state.view(None).stock_size == 1  # only the face-up trump card is left
    assert state.stock == [state.trump_card]


def test_draw_order_after_a_transfer_ends_with_the_final_defender() -> None:
    state = game(["7S 9D", "7C JD", "10S JC QS KS"], trump="AH", stock=STOCK, mode="perevodnoy")
    events = play(state, "0 a 7S", "1 x 7C", "2 d 10S>7S", "2 d JC>7C", "0 done", "1 done")
    # Without the transfer the order would be 0, 2, 1: now 2 is the defender, last.
    assert [(d.seat, d.number) for d in of_type(events, Drew)] == [(0, 5), (1, 5), (2, 4)]
    assert hand(state, 0) == cards("9D 6D 7D 8D 6H 7H")
    assert hand(state, 2) == cards("QS KS KH 10S JS QS")


def test_players_with_six_or_more_cards_do_not_draw() -> None:
    state = game(["7S 9D", "8S 10H JH QH KH AH"], trump="AS", stock=STOCK)
    events = play(state, "0 a 7S", "1 take", "0 pass")
    assert [d.seat for d in of_type(events, Drew)] == [0]
    assert state.hands[1].bit_count() == 7


def test_face_up_trump_card_is_drawn_last_and_its_drawer_is_public() -> None:
    state = game(["7S 9D JD QD KD AD", "8S 10C QC 6C 7C 9C"], trump="AH", stock="QS")
    assert state.view(None).stock_size == 2
    events = play(state, "0 a 7S", "1 d 8S>7S", "0 done")
    assert of_type(events, Drew) == [Drew(0, 1, False), Drew(1, 1, True)]
    assert "QS" in hand(state, 0)
    assert "AH" in hand(state, 1)
    for viewer in [None, 0, 1]:
        view = state.view(viewer)
        assert view.stock_size == 0
        assert [str(c) for c in view.known[1]] == ["AH"]
        assert view.known[0] == ()


def test_short_stock_goes_to_the_first_in_order() -> None:
    # Seat 0 opens and needs two: it takes QS and the face-up trump; seat 2 gets none.
    state = game(["7S 9D 8C 8D 10D 10S", "8S 10C QC JS", "7D JD KD AD AC"], trump="AH", stock="QS")
    play(state, "0 a 7S", "1 d 8S>7S", "0 t 8C", "1 d QC>8C", "0 done", "2 done")
    assert hand(state, 0) >= cards("QS AH")
    assert [str(c) for c in state.view(2).known[0]] == ["AH"]
    assert state.hands[2].bit_count() == 5
    assert state.view(None).stock_size == 0


def test_no_drawing_once_the_stock_is_empty() -> None:
    state = game(["7S 9D JD", "8S 10C QC", "9C 10D"], trump="AH")
    events = play(state, "0 a 7S", "1 d 8S>7S", "0 done", "2 done")
    assert of_type(events, Drew) == []
    assert state.hands[0].bit_count() == 2 and state.hands[1].bit_count() == 2
