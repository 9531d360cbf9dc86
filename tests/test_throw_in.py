"""Throwing in (RULES §4 Throw-in, «Бито»): ranks, rights, order and the end of a bout."""

from __future__ import annotations

import pytest

from engine import BoutEnded
from tests.helpers import act, game, hand, legal, of_type, play, refused, turn_of

STOCK = "QD KD AD QS KS AS QC KC AC"


def test_throw_in_ranks_come_from_attack_and_defence_cards() -> None:
    state = game(["7S JS", "9S 10D 8H", "7C 9C QS"], trump="6H", stock=STOCK)
    act(state, "0 a 7S")
    assert legal(state, 2) == {"t 7C"}
    refused(state, "2 t 9C", "no card of the rank of 9C")
    act(state, "1 d 9S>7S")
    assert legal(state, 2) == {"t 7C", "t 9C", "done"}
    refused(state, "2 t QS", "no card of the rank of QS")
    act(state, "2 t 9C")
    assert [str(a) for a, _ in state.table] == ["7S", "9C"]
    assert hand(state, 2) == {"7C", "QS"}


def test_the_defender_does_not_throw_in() -> None:
    state = game(["7S 8S", "7C 9S 8C"], trump="6H", stock=STOCK)
    act(state, "0 a 7S")
    refused(state, "1 t 7C", "the defender does not throw in")


@pytest.mark.parametrize("players", [4, 5])
def test_throw_in_all_lets_everyone_but_the_defender(players: int) -> None:
    hands = ["7S 8S", "9S 10S AS", "7C 8C", "7D 8D", "7H 8H"][:players]
    state = game(hands, trump="6C", stock=STOCK, throw_in="all")
    act(state, "0 a 7S")
    assert state.view(None).throwers == tuple(s for s in range(players) if s != 1)
    own_seven = {2: "t 7C", 3: "t 7D", 4: "t 7H"}
    for seat in range(2, players):
        assert legal(state, seat) == {own_seven[seat]}
    act(state, f"{players - 1} {own_seven[players - 1]}")


@pytest.mark.parametrize("players", [4, 5])
def test_throw_in_neighbors_only_left_and_right_of_the_defender(players: int) -> None:
    hands = ["7S 8S", "9S 10S AS", "7D 8C", "7H 8D", "8H 9H"][:players]
    state = game(hands, trump="6C", stock=STOCK, throw_in="neighbors")
    act(state, "0 a 7S")
    assert state.view(None).throwers == (0, 2)
    assert legal(state, 2) == {"t 7D"}
    assert legal(state, 3) == set()
    refused(state, "3 t 7H", "seat 3 may not throw in against seat 1")
    act(state, "2 t 7D")


def test_throw_in_neighbors_with_three_is_everyone() -> None:
    state = game(["7S 8S", "9S 10S AS", "7C 8C"], trump="6H", stock=STOCK, throw_in="neighbors")
    act(state, "0 a 7S")
    assert state.view(None).throwers == (0, 2)
    act(state, "2 t 7C")


def test_throw_in_with_all_is_not_limited_to_neighbors() -> None:
    state = game(["7S 8S", "9S 10S AS", "8C 9C", "7D 8D"], trump="6H", stock=STOCK)
    act(state, "0 a 7S")
    act(state, "3 t 7D")  # seat 3 sits right of the attacker, not next to the defender
    assert len(state.table) == 2


def test_first_come_first_served() -> None:
    # The defender holds two cards: two attack cards at most. Seat 3 is quicker than
    # the attacker and seat 2, and nobody has priority.
    state = game(["7S 8S", "9S 10S", "7C 8C", "7D 8D"], trump="6H", stock=STOCK)
    act(state, "0 a 7S")
    act(state, "3 t 7D")
    refused(state, "2 t 7C", "most attack cards: 2")
    assert legal(state, 2) == legal(state, 0) == set()


def test_done_only_when_every_attack_card_is_beaten() -> None:
    state = game(["7S 7C 8S", "9S 9C 10S"], trump="6H", stock=STOCK)
    act(state, "0 a 7S 7C")
    refused(state, "0 done", "only when every attack card is beaten")
    act(state, "1 d 9S>7S")
    refused(state, "0 done", "only when every attack card is beaten")
    act(state, "1 d 9C>7C")
    assert "done" in legal(state, 0)


def test_pass_is_only_after_take() -> None:
    state = game(["7S 8S", "9S 9C 10S"], trump="6H", stock=STOCK)
    play(state, "0 a 7S", "1 d 9S>7S")
    refused(state, "0 pass", "«Пас» is for after «Беру»")


def test_a_thrower_who_said_done_may_not_throw_in() -> None:
    state = game(["7S 9D", "8S JC AC", "7C 10C"], trump="6H", stock=STOCK)
    play(state, "0 a 7S", "1 d 8S>7S", "2 done")
    refused(state, "2 t 7C", "seat 2 has already said it adds nothing more")
    assert legal(state, 2) == set()


def test_new_card_cancels_every_bito_said() -> None:
    state = game(["7S 8D 9D", "8S 9S JC AC", "7C 10C JD"], trump="6H", stock=STOCK)
    play(state, "0 a 7S", "1 d 9S>7S", "0 done")
    assert state.view(None).said == (0,)
    act(state, "2 t 7C")
    assert state.view(None).said == ()
    act(state, "1 d JC>7C")
    assert "done" in legal(state, 0)
    events = act(state, "0 done")
    assert not of_type(events, BoutEnded)  # seat 2 must decide again too
    events = act(state, "2 done")
    assert of_type(events, BoutEnded) == [BoutEnded(False, 1, state.view(None).discard)]


def test_new_card_cancels_every_pass_said() -> None:
    state = game(["7S 8D 9D", "8S 9S JC AC", "7C 10C JD"], trump="6H", stock=STOCK)
    play(state, "0 a 7S", "1 take", "0 pass")
    assert state.view(None).said == (0,)
    act(state, "2 t 7C")
    assert state.view(None).said == ()
    assert "pass" in legal(state, 0)
    assert not of_type(act(state, "2 pass"), BoutEnded)
    assert of_type(act(state, "0 pass"), BoutEnded)


def test_bito_ends_when_every_thrower_said_done() -> None:
    state = game(["7S 8D", "8S 9S JC AC", "7C 10C"], trump="6H", stock=STOCK)
    play(state, "0 a 7S", "1 d 8S>7S")
    assert turn_of(state).kind == "throw" and turn_of(state).seats == (0, 2)
    assert not of_type(act(state, "0 done"), BoutEnded)
    assert turn_of(state).seats == (2,)
    ended = of_type(act(state, "2 done"), BoutEnded)
    assert len(ended) == 1 and not ended[0].taken
    assert {str(c) for c in state.view(None).discard} == {"7S", "8S"}


def test_bout_ends_at_once_when_the_limit_is_reached() -> None:
    # Cap 5 (first bout); the attacker still holds QC, whose rank is on the table.
    state = game(["7C 7D 7H 8H 9H QC", "8C 9D 10H JH QH KH"], trump="AS", stock="6S 6C 6D 6H")
    play(state, "0 a 7C 7D 7H", "1 d 8C>7C", "1 d 9D>7D", "1 d 10H>7H")
    play(state, "0 t 8H", "1 d JH>8H", "0 t 9H")
    events = act(state, "1 d QH>9H")
    ended = of_type(events, BoutEnded)
    assert len(ended) == 1 and not ended[0].taken
    assert len(ended[0].cards) == 10
    assert state.table == []
    assert (state.attacker, state.defender) == (1, 0)


def test_bout_ends_at_once_when_the_defender_has_no_cards() -> None:
    # (With a defender of two cards the limit is two as well: both end the bout.)
    state = game(["7S 7C 8S 8C", "9S 9C"], trump="6H", stock=STOCK)
    play(state, "0 a 7S 7C", "1 d 9S>7S")
    events = act(state, "1 d 9C>7C")
    assert of_type(events, BoutEnded) == [BoutEnded(False, 1, tuple(state.view(None).discard))]


def test_thrower_without_cards_is_not_waited_for() -> None:
    state = game(["7S 8D", "8S 8C JC AC", "7C"], trump="6H", stock=STOCK)
    play(state, "0 a 7S", "2 t 7C", "1 d 8S>7S", "1 d 8C>7C")
    assert turn_of(state).seats == (0,)
    assert of_type(act(state, "0 done"), BoutEnded)


def test_bout_ends_at_once_when_nobody_can_add() -> None:
    state = game(["7S", "8S 9S JC AC"], trump="6H", stock=STOCK)
    act(state, "0 a 7S")
    assert of_type(act(state, "1 d 8S>7S"), BoutEnded)
