"""Beating attack cards (RULES §4 Defence). Trump is hearts throughout."""

from __future__ import annotations

import pytest

from engine import State
from tests.helpers import act, game, hand, legal, play, refused


def attacked(card: str, defender: str) -> State:
    """Seat 0 attacks seat 1 with ``card``; seat 1 holds ``defender``."""
    state = game([f"{card} KC KD", defender], trump="6H", stock="QC QD")
    act(state, f"0 a {card}")
    return state


@pytest.mark.parametrize(("attack", "beater"), [("7S", "8S"), ("7S", "AS"), ("10D", "JD")])
def test_higher_card_of_the_same_suit_beats(attack: str, beater: str) -> None:
    state = attacked(attack, f"{beater} 9C")
    act(state, f"1 d {beater}>{attack}")
    assert [(str(a), str(b)) for a, b in state.table] == [(attack, beater)]
    assert beater not in hand(state, 1)


@pytest.mark.parametrize(("attack", "beater"), [("8S", "7S"), ("8S", "6S"), ("JD", "10D")])
def test_lower_card_of_the_same_suit_does_not_beat(attack: str, beater: str) -> None:
    state = attacked(attack, f"{beater} 9C")
    refused(state, f"1 d {beater}>{attack}", f"{beater} does not beat {attack}")


@pytest.mark.parametrize(("attack", "beater"), [("AS", "6H"), ("7D", "7H"), ("KC", "9H")])
def test_any_trump_beats_a_non_trump(attack: str, beater: str) -> None:
    state = game([f"{attack} QS", f"{beater} 8C"], trump="10H")
    act(state, f"0 a {attack}")
    act(state, f"1 d {beater}>{attack}")
    assert str(state.table[0][1]) == beater


def test_trump_is_beaten_only_by_a_higher_trump() -> None:
    state = attacked("8H", "7H AS 8S 9H")
    refused(state, "1 d 7H>8H", "7H does not beat 8H")
    refused(state, "1 d AS>8H", "AS does not beat 8H")
    refused(state, "1 d 8S>8H", "8S does not beat 8H")
    assert legal(state, 1) == {"d 9H>8H", "take"}
    act(state, "1 d 9H>8H")


@pytest.mark.parametrize("beater", ["7C", "7D"])
def test_equal_rank_of_another_suit_never_beats(beater: str) -> None:
    state = attacked("7S", f"{beater} 6S")
    refused(state, f"1 d {beater}>7S", f"{beater} does not beat 7S")
    assert legal(state, 1) == {"take"}


def test_other_plain_suit_never_beats() -> None:
    state = attacked("7S", "AC KD QC")
    refused(state, "1 d AC>7S", "AC does not beat 7S")
    assert legal(state, 1) == {"take"}


def test_legal_defences_are_exactly_the_beating_cards() -> None:
    state = attacked("9S", "7S 10S 9C 6H AH 9D")
    assert legal(state, 1) == {"d 10S>9S", "d 6H>9S", "d AH>9S", "take"}


def test_cards_may_be_beaten_in_any_order() -> None:
    state = game(["7S 7C 7D", "8S 8C 8D 10C"], trump="6H", stock="QH")
    act(state, "0 a 7S 7C 7D")
    act(state, "1 d 8D>7D")
    act(state, "1 d 8S>7S")
    assert [(str(a), b and str(b)) for a, b in state.table] == [
        ("7S", "8S"),
        ("7C", None),
        ("7D", "8D"),
    ]
    assert legal(state, 1) == {"d 8C>7C", "d 10C>7C", "take"}


def test_each_attack_card_is_beaten_once() -> None:
    state = game(["7S 7C", "8S 9S 8C"], trump="6H", stock="QH")
    play(state, "0 a 7S 7C", "1 d 8S>7S")
    refused(state, "1 d 9S>7S", "7S is already beaten")


def test_beating_a_card_not_on_the_table_is_refused() -> None:
    state = attacked("7S", "8S 9C 10C")
    refused(state, "1 d 10C>9C", "9C is not an attack card on the table")


def test_beating_with_a_card_not_held_is_refused() -> None:
    state = attacked("7S", "8S 9C")
    refused(state, "1 d AS>7S", "seat 1 does not hold AS")


def test_only_the_defender_beats() -> None:
    state = game(["7S 8S", "6C 9C", "9S 10S"], trump="6H", stock="QH")
    act(state, "0 a 7S")
    refused(state, "2 d 9S>7S", "only the defender, seat 1")
    refused(state, "0 d 8S>7S", "only the defender, seat 1")


def test_a_beaten_defence_opens_its_rank_for_throw_ins() -> None:
    state = game(["7S 9C JS", "9S 10D"], trump="6H", stock="QH")
    act(state, "0 a 7S")
    assert legal(state, 0) == set()  # nothing of rank 7 to add
    act(state, "1 d 9S>7S")
    assert legal(state, 0) == {"t 9C", "done"}
