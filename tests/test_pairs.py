"""Pairs and teams of three (RULES §7). Trump is hearts; stocks are empty unless said."""

from __future__ import annotations

from typing import Any

from engine import GameOver, Left, State
from tests.helpers import act, game, legal, of_type, outcome_of, play, refused


def pairs(hands: list[str], **kw: Any) -> State:
    return game(hands, teams=True, **kw)


def test_partners_sit_opposite_and_attack_goes_to_an_opponent() -> None:
    state = pairs(["7S 9D", "8S 10S", "7C JD", "6C QC"], stock="KS AS")
    assert (state.attacker, state.defender) == (0, 1)
    state = pairs(["7S 9D", "8S 10S", "7C JD", "6C QC"], stock="KS AS", opener=3)
    assert (state.attacker, state.defender) == (3, 0)


def test_defenders_partner_may_not_throw_in() -> None:
    state = pairs(["7S 9D", "8S 10S", "7C JD", "7D QC"], stock="KS AS")
    act(state, "0 a 7S")
    assert state.view(None).throwers == (0, 2)
    assert legal(state, 3) == set()
    refused(state, "3 t 7D", "seat 3 may not throw in against seat 1")
    act(state, "2 t 7C")  # the attacker's partner may


def test_attack_passes_over_a_partner() -> None:
    state = pairs(["7S 9D 10D", "8S", "JC QC", "6S"])
    events = play(state, "0 a 7S", "1 d 8S>7S")
    assert of_type(events, Left) == [Left(1, 1)]
    assert (state.attacker, state.defender) == (2, 3)
    play(state, "2 a JC", "3 take")  # seat 3 held one card: the take completes at once
    # Seat 0 opens; seat 1 has left and seat 2 is a partner: seat 3 defends.
    assert (state.attacker, state.defender) == (0, 3)


def test_partners_never_transfer_to_each_other() -> None:
    state = pairs(["QC 9S KD 10S", "7S 9C 9D", "8S", "10C JC"], opener=1, mode="perevodnoy")
    assert (state.attacker, state.defender) == (1, 2)
    events = play(state, "1 a 7S", "2 d 8S>7S")
    assert of_type(events, Left) == [Left(2, 1)]
    assert (state.attacker, state.defender) == (3, 0)
    play(state, "3 a 10C", "0 d QC>10C", "1 done", "3 done")
    assert (state.attacker, state.defender) == (0, 1)
    act(state, "0 a 9S")
    assert {"x 9C", "x 9D"} <= legal(state, 1)
    act(state, "1 x 9C")
    # Seat 2 has left and seat 3 is seat 1's partner: the bout goes to seat 0.
    assert (state.attacker, state.defender) == (1, 0)
    assert state.view(None).throwers == (1, 3)


def test_losing_team_are_all_fools_even_one_who_left() -> None:
    state = pairs(["7S", "8S", "7C", "9C 10D"])
    events = play(state, "0 a 7S", "1 d 8S>7S")
    assert of_type(events, Left) == [Left(0, 1), Left(1, 1)]
    assert not state.is_over  # seats 2 and 3 still hold cards
    assert (state.attacker, state.defender) == (2, 3)
    events = play(state, "2 a 7C", "3 d 9C>7C")
    assert of_type(events, Left) == [Left(2, 3)]
    outcome = of_type(events, GameOver)[0].outcome
    assert outcome.fools == (1, 3)
    assert outcome.winners == (0, 2)
    assert not outcome.draw


def test_pairs_draw_when_both_teams_finish_in_the_same_bout() -> None:
    state = pairs(["7S", "8S", "7C", "9C"])
    play(state, "0 a 7S", "1 d 8S>7S", "2 a 7C")
    events = act(state, "3 d 9C>7C")
    assert of_type(events, Left) == [Left(2, 3), Left(3, 3)]
    outcome = outcome_of(state)
    assert outcome.draw is True
    assert outcome.fools == ()
    assert outcome.winners == (0, 1, 2, 3)


def test_pairs_game_goes_on_while_each_team_has_a_player() -> None:
    state = pairs(["7S", "8S", "7C JD", "9C 10D"])
    play(state, "0 a 7S", "1 d 8S>7S")
    assert state.place == [1, 1, 0, 0]
    assert not state.is_over


def test_surrender_in_pairs_makes_the_whole_team_fools() -> None:
    state = pairs(["7S 9D", "8S 10S", "7C JD", "6C QC"], stock="KS AS")
    act(state, "0 a 7S")
    act(state, "3 quit")
    assert outcome_of(state).fools == (1, 3)
    assert outcome_of(state).surrendered == 3
    assert outcome_of(state).winners == (0, 2)


def test_teams_of_three_defenders_partners_do_not_throw_in() -> None:
    hands = ["7S 9D", "8S 10S", "7C JD", "7D QC", "7H KD", "6C 6D"]
    state = game(hands, players=6, teams=True, trump="AH", stock="KS AS")
    act(state, "0 a 7S")
    assert state.view(None).throwers == (0, 2, 4)
    refused(state, "3 t 7D", "seat 3 may not throw in against seat 1")
    act(state, "4 t 7H")


def test_teams_of_three_attack_passes_over_partners() -> None:
    hands = ["7S 9D", "8S", "10C JD", "6C", "QC KD", "6D"]
    state = game(hands, players=6, teams=True)
    play(state, "0 a 7S", "1 d 8S>7S")
    assert state.place[1] == 1
    assert (state.attacker, state.defender) == (2, 3)
    play(state, "2 a 10C", "3 take")
    assert (state.attacker, state.defender) == (4, 5)
    play(state, "4 a QC", "5 take")
    # Seat 0 opens: seat 1 has left, seat 2 is a partner, so seat 3 defends.
    assert (state.attacker, state.defender) == (0, 3)


def test_teams_of_three_losing_team_all_fools() -> None:
    hands = ["7S", "8S", "7C", "8C", "7D", "8D 9D"]
    state = game(hands, players=6, teams=True)
    play(state, "0 a 7S", "1 d 8S>7S")
    assert (state.attacker, state.defender) == (2, 3)
    play(state, "2 a 7C", "3 d 8C>7C")
    assert (state.attacker, state.defender) == (4, 5)
    events = play(state, "4 a 7D", "5 d 8D>7D")
    assert of_type(events, Left) == [Left(4, 5)]
    assert outcome_of(state).fools == (1, 3, 5)
    assert outcome_of(state).winners == (0, 2, 4)
