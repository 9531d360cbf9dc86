"""Leaving, the fool, the draw, places and surrender (RULES §6). Trump is hearts."""

from __future__ import annotations

from engine import BoutEnded, GameOver, Left, Outcome
from tests.helpers import act, game, legal, of_type, outcome_of, play, refused, turn_of


def test_leaving_only_at_the_end_of_a_bout() -> None:
    state = game(["7S", "8S 9C 10S", "7C JD"])
    events = act(state, "0 a 7S")
    assert state.hands[0] == 0
    assert not of_type(events, Left)
    assert state.place[0] == 0 and 0 in state.view(None).in_game
    events = play(state, "2 t 7C", "1 d 8S>7S", "1 d 9C>7C")
    assert not of_type(events, Left)  # seat 2 still holds JD and may add it
    events = act(state, "2 done")
    assert of_type(events, Left) == [Left(0, 1)]
    assert not state.is_over
    assert (state.attacker, state.defender) == (1, 2)


def test_the_last_bout_is_played_to_the_end() -> None:
    state = game(["7S", "8S 9C 10S", "7C"])
    play(state, "0 a 7S", "2 t 7C")
    # Only seat 1 holds cards, but the cards on the table still have to be beaten.
    assert not state.is_over
    assert turn_of(state).kind == "defend" and turn_of(state).seats == (1,)
    act(state, "1 d 8S>7S")
    assert not state.is_over
    events = act(state, "1 d 9C>7C")
    assert of_type(events, Left) == [Left(0, 1), Left(2, 1)]
    assert of_type(events, GameOver) == [GameOver(Outcome((1,), (1, 3, 1)))]


def test_players_leaving_in_the_same_bout_share_a_place() -> None:
    state = game(["7S", "8S 9C 10S", "7C"])
    play(state, "0 a 7S", "2 t 7C", "1 d 8S>7S", "1 d 9C>7C")
    assert outcome_of(state).places[0] == outcome_of(state).places[2] == 1
    assert outcome_of(state).places[1] == 3
    assert outcome_of(state).winners == (0, 2)


def test_the_last_player_who_cannot_beat_takes_and_is_the_fool() -> None:
    state = game(["7S", "6S 9C"])
    act(state, "0 a 7S")
    assert legal(state, 1) == {"take"}
    events = act(state, "1 take")
    assert of_type(events, BoutEnded)[0].taken
    assert state.is_over
    assert outcome_of(state).fools == (1,)
    assert outcome_of(state).draw is False
    assert outcome_of(state).places == (1, 2)


def test_places_follow_the_order_of_leaving() -> None:
    state = game(["7S 9D", "8S", "JC QC"])
    events = play(state, "0 a 7S", "1 d 8S>7S")
    assert of_type(events, Left) == [Left(1, 1)]
    # The defender left: the next player on their left opens, against seat 0.
    assert (state.attacker, state.defender) == (2, 0)
    play(state, "2 a JC", "0 take")  # seat 0 held one card: the limit is one
    assert (state.attacker, state.defender) == (2, 0)
    events = play(state, "2 a QC", "0 take")
    assert of_type(events, Left) == [Left(2, 2)]
    assert state.outcome == Outcome(fools=(0,), places=(3, 1, 2))


def test_two_player_draw_when_the_last_card_is_beaten_by_the_last_card() -> None:
    state = game(["7S", "8S"])
    act(state, "0 a 7S")
    events = act(state, "1 d 8S>7S")
    assert of_type(events, Left) == [Left(0, 1), Left(1, 1)]
    outcome = outcome_of(state)
    assert outcome.draw is True
    assert outcome.fools == ()
    assert outcome.winners == (0, 1)
    assert outcome.places == (1, 1)


def test_no_draw_while_the_stock_has_cards() -> None:
    state = game(["7S", "8S"], stock="9S 10S JS QS KS AS 9C 10C JC QC", trump="AH")
    events = play(state, "0 a 7S", "1 d 8S>7S")
    assert not of_type(events, Left)
    assert not state.is_over
    assert state.hands[0].bit_count() == 6 and state.hands[1].bit_count() == 5


def test_defender_with_cards_left_is_the_fool_when_the_attacker_runs_out() -> None:
    state = game(["7S", "8S 10C"])
    act(state, "0 a 7S")
    act(state, "1 d 8S>7S")
    assert state.outcome == Outcome(fools=(1,), places=(1, 2))


def test_surrender_makes_the_surrenderer_the_fool_and_ends_the_game() -> None:
    state = game(["7S 9D", "8S 10C", "JC QC"], stock="AS KS", trump="AD")
    act(state, "0 a 7S")
    assert "quit" not in legal(state, 2)  # always available, so not listed
    events = act(state, "2 quit")
    assert of_type(events, GameOver) == [GameOver(outcome_of(state))]
    assert state.is_over
    assert outcome_of(state).fools == (2,)
    assert outcome_of(state).surrendered == 2
    assert outcome_of(state).places == (1, 1, 3)
    assert state.turn() is None
    assert state.timeout_actions() == []
    assert legal(state, 0) == legal(state, 1) == set()
    refused(state, "1 d 8S>7S", "the game is over")


def test_surrender_of_the_attacker_before_any_card() -> None:
    state = game(["7S 9D", "8S 10C"], stock="AS KS")
    act(state, "0 quit")
    assert state.outcome == Outcome(fools=(0,), places=(2, 1), surrendered=0)


def test_a_player_who_left_cannot_act() -> None:
    state = game(["7S 9D", "8S", "JC QC"])
    play(state, "0 a 7S", "1 d 8S>7S")
    refused(state, "1 quit", "seat 1 has left the game")
    assert legal(state, 1) == set()
