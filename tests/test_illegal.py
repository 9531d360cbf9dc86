"""Refused moves: a specific IllegalAction with a reason, and nothing changes."""

from __future__ import annotations

import pytest

from engine import Action, Card, IllegalAction
from tests.helpers import act, game, play, refused

STOCK = "QD KD AD QS KS AS"


def test_illegal_action_is_a_value_error() -> None:
    assert issubclass(IllegalAction, ValueError)


@pytest.mark.parametrize(
    ("logged", "reason"),
    [
        ("5 a 7S", "there is no seat 5"),
        ("1 a 8S", "seat 0 opens this bout, not seat 1"),
        ("0 a 10C", "seat 0 does not hold 10C"),
        ("0 a 7S 8S", "one rank"),
        ("0 t 7S", "not open"),
        ("0 done", "not open"),
        ("1 take", "not open yet"),
        ("1 d 8S>7S", "not open yet"),
    ],
)
def test_refused_before_the_first_card(logged: str, reason: str) -> None:
    state = game(["7S 8S 7C", "9S 10S JC"], trump="6H", stock=STOCK)
    refused(state, logged, reason)
    assert state.history == []


@pytest.mark.parametrize(
    ("logged", "reason"),
    [
        ("0 a 7C", "already open"),
        ("1 d 10C>7S", "10C does not beat 7S"),
        ("1 d 9S>7C", "7C is not an attack card"),
        ("1 x 7D", "only in perevodnoy"),
        ("0 done", "every attack card is beaten"),
        ("0 pass", "after «Беру»"),
        ("0 t 8D", "does not hold 8D|no card of the rank"),
        ("2 t 9D", "no card of the rank of 9D"),
        ("1 t 7D", "the defender does not throw in"),
        ("1 back", "not played by a bot"),
    ],
)
def test_refused_during_a_bout_changes_nothing(logged: str, reason: str) -> None:
    state = game(["7S 7C 9C", "9S 10C 7D", "8D 9D"], trump="6H", stock=STOCK)
    act(state, "0 a 7S")
    refused(state, logged, reason)
    assert [str(a) for a in state.history] == ["0 a 7S"]


def test_unknown_action_kind_is_refused() -> None:
    state = game(["7S 8S", "9S 10S"], stock=STOCK)
    before = state.to_dict()
    with pytest.raises(IllegalAction, match="unknown action kind 'z'"):
        state.apply(Action(0, "z"))
    assert state.to_dict() == before


def test_the_same_card_twice_in_an_opening_is_refused() -> None:
    state = game(["7S 8S", "9S 10S"], stock=STOCK)
    before = state.to_dict()
    with pytest.raises(IllegalAction, match="same card twice"):
        state.apply(Action(0, "a", (Card.parse("7S"), Card.parse("7S"))))
    assert state.to_dict() == before


def test_refusal_after_a_take_changes_nothing() -> None:
    state = game(["7S 7C 9C", "9S 10C 7D", "8D 9D"], trump="6H", stock=STOCK)
    play(state, "0 a 7S", "1 take")
    refused(state, "0 done", "say «Пас», not «Бито»")
    refused(state, "1 d 9S>7S", "already said «Беру»")
    refused(state, "2 t 9D", "no card of the rank of 9D")
    act(state, "0 pass")
    refused(state, "0 t 7C", "already said it adds nothing more")


def test_refusal_after_the_game_is_over() -> None:
    state = game(["7S", "8S"])
    play(state, "0 a 7S", "1 d 8S>7S")
    assert state.is_over
    refused(state, "0 quit", "the game is over")
    refused(state, "1 a 8S", "the game is over")


def test_throw_in_action_with_two_cards_is_refused() -> None:
    state = game(["7S 7C 9D JD", "8S 8C AS", "10S JS QS KS"], stock=STOCK)
    act(state, "0 a 7S")
    before = state.to_dict()
    with pytest.raises(IllegalAction):
        state.apply(Action(0, "t", (Card.parse("7C"), Card.parse("9D"))))
    assert state.to_dict() == before
