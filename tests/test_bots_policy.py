"""The club playout policy's rules of thumb, and what a draw is worth."""

from __future__ import annotations

from engine import State
from engine.bots.pimc import playout
from engine.bots.policy import club_policy
from tests.helpers import game, play

STOCK = "6S 6C 6D 7S 7C 7D 8S 8C 8D 9S"  # ten cards: a long stock


def move(state: State, seat: int) -> str:
    action = club_policy(state, seat)
    assert action is not None
    return action.text


def test_opens_with_a_low_pair_rather_than_a_lower_single_card() -> None:
    state = game(["6C 8S 8D KH", "JS QS KS AS"], trump="6H", stock=STOCK)
    assert move(state, 0) in ("a 8S 8D", "a 8D 8S")


def test_with_the_stock_gone_opens_what_the_defender_cannot_beat() -> None:
    state = game(["6C AD", "7C 8C"], trump="6H")
    assert move(state, 0) == "a AD"


def test_takes_low_cards_rather_than_spend_a_high_trump_while_the_stock_is_long() -> None:
    state = game(["7S 6C 9C JC", "KH 8D 9D 10D"], trump="6H", stock=STOCK)
    play(state, "0 a 7S")
    assert move(state, 1) == "take"


def test_beats_with_a_high_trump_once_the_stock_is_short() -> None:
    state = game(["7S 6C 9C JC", "KH 8D 9D 10D"], trump="6H", stock="QC")
    play(state, "0 a 7S")
    assert move(state, 1) == "d KH>7S"


def test_transfers_with_a_plain_card() -> None:
    state = game(["7S 6C", "7D 9D", "8C 9C"], trump="6H", stock=STOCK, mode="perevodnoy")
    play(state, "0 a 7S")
    assert move(state, 1) == "x 7D"


def test_throws_in_a_trump_the_defender_cannot_beat_once_the_stock_is_gone() -> None:
    state = game(["7S 7H 10C", "8S 9C"], trump="6H")
    play(state, "0 a 7S", "1 d 8S>7S")
    assert move(state, 0) == "t 7H"


def test_keeps_its_trumps_from_a_beaten_table_while_the_stock_is_long() -> None:
    state = game(["7S 7H 10C", "8S 9C AC"], trump="6H", stock=STOCK)
    play(state, "0 a 7S", "1 d 8S>7S")
    assert move(state, 0) == "done"


def test_a_drawn_playout_is_worth_what_the_budget_says() -> None:
    state = game(["9S 9C", "10S 10C"], trump="7H")
    play(state, "0 a 9S 9C")  # both beaten with the last cards: a draw
    assert playout(state.copy(), 0, 100, club_policy, 0.5) == 0.5
    assert playout(state.copy(), 0, 100, club_policy, 1.0) == 1.0
