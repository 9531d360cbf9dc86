"""Timers and absent players (RULES §8): whose turn, timeout moves, handing a seat to a bot."""

from __future__ import annotations

import pytest

from engine import Action, Card, Idle, State, Turn
from tests.helpers import act, game, of_type, play, refused

STOCK = "6S 6C 6D 7S 7C 7D 8S 8C 8D 9S 9C 9D 10S 10C 10D"


def test_turn_kinds_and_seats() -> None:
    state = game(["JS QS", "KS AS JD", "QC KC"], trump="6H", stock=STOCK)
    assert state.turn() == Turn("attack", (0,))
    act(state, "0 a JS")
    assert state.turn() == Turn("defend", (1,))
    act(state, "1 d KS>JS")
    assert state.turn() == Turn("throw", (0, 2))
    act(state, "0 done")
    assert state.turn() == Turn("throw", (2,))
    act(state, "2 done")
    assert state.turn() == Turn("attack", (1,))
    turn = state.turn()
    assert type(turn) is Turn and (turn.kind, turn.seats) == ("attack", (1,))  # not a bare tuple


def test_turn_after_take_waits_for_throwers() -> None:
    state = game(["JS QS", "KD AD JD", "QC KC"], trump="6H", stock=STOCK)
    play(state, "0 a JS", "1 take")
    assert state.turn() == Turn("throw", (0, 2))


@pytest.mark.parametrize(
    ("cards", "expected"),
    [
        ("6H 8S 7C 9D", "7C"),  # lowest non-trump, even with a lower trump in hand
        ("7D 7C 9S", "7C"),  # tie broken by suit: ♣ before ♦
        ("8H 8S 8D", "8S"),  # ♠ first
        ("9H 7H QH", "7H"),  # only trumps: the lowest trump
    ],
)
def test_timeout_opens_with_the_lowest_non_trump(cards: str, expected: str) -> None:
    state = game([cards, "JS QS KS"], trump="AH", stock=STOCK)
    assert state.timeout_actions() == [Action(0, "a", (Card.parse(expected),))]


def test_timeout_of_the_defender_takes() -> None:
    state = game(["7S 8S", "9S 10C JC"], trump="6H", stock=STOCK)
    act(state, "0 a 7S")
    assert state.timeout_actions() == [Action(1, "take")]


def test_timeout_of_throwers_says_done_or_pass() -> None:
    state = game(["7S 8S", "9S 10C JC", "QS KS"], trump="6H", stock=STOCK)
    play(state, "0 a 7S", "1 d 9S>7S")
    assert state.timeout_actions() == [Action(0, "done"), Action(2, "done")]
    state = game(["7S 8S", "9S 10C JC", "QS KS"], trump="6H", stock=STOCK)
    play(state, "0 a 7S", "1 take")
    assert state.timeout_actions() == [Action(0, "pass"), Action(2, "pass")]


def test_timeout_moves_apply_and_end_the_bout() -> None:
    state = game(["7S 8S", "9S 10C JC", "QS KS"], trump="6H", stock=STOCK)
    play(state, "0 a 7S", "1 take")
    for action in state.timeout_actions():
        state.apply(action, auto=True)
    assert (state.attacker, state.defender) == (2, 0)
    assert state.hands[1] >> Card.parse("7S") & 1


def two_player() -> State:
    return game(["JS QS KS AS 9D", "JC QC KC AC 10H"], trump="6H", stock=STOCK)


def test_two_automatic_defences_in_a_row_hand_the_seat_to_a_bot() -> None:
    state = two_player()
    act(state, "0 a JS")
    events = act(state, "1 take", auto=True)
    assert not of_type(events, Idle) and not state.idle(1)
    assert state.view(None).missed == (0, 1)
    act(state, "0 pass")
    act(state, "0 a QS")
    events = act(state, "1 take", auto=True)
    assert of_type(events, Idle) == [Idle(1)]
    assert state.idle(1)


def test_two_automatic_openings_in_a_row_hand_the_seat_to_a_bot() -> None:
    state = two_player()
    state.apply(state.timeout_actions()[0], auto=True)
    assert not state.idle(0)
    act(state, "1 take")
    act(state, "0 pass", auto=True)  # a throw-in timeout: neither counts nor resets
    assert state.view(None).missed == (1, 0)
    events = state.apply(state.timeout_actions()[0], auto=True)
    assert of_type(events, Idle) == [Idle(0)]
    assert state.idle(0)


def test_throw_in_timeouts_do_not_count() -> None:
    state = game(["JS QS KS", "JD QD AD KH", "JC QC KC"], trump="6H", stock=STOCK)
    play(state, "0 a JS", "1 d KH>JS")
    act(state, "0 done", auto=True)
    act(state, "2 done", auto=True)
    assert state.view(None).missed == (0, 0, 0)
    play(state, "1 a JD", "2 take")
    act(state, "0 pass", auto=True)
    act(state, "1 pass", auto=True)
    assert state.view(None).missed == (0, 0, 0)
    assert not any(state.idle(s) for s in range(3))


def test_own_move_resets_the_count() -> None:
    state = two_player()
    act(state, "0 a JS")
    act(state, "1 take", auto=True)
    act(state, "0 pass")
    act(state, "0 a QS")
    act(state, "1 d 10H>QS")  # the player is back: the count starts again
    assert state.view(None).missed == (0, 0)
    act(state, "0 done")
    act(state, "1 a JC")
    act(state, "0 take")
    act(state, "1 pass")
    act(state, "1 a QC", auto=True)
    assert state.view(None).missed == (0, 1)
    assert not state.idle(1)


def test_own_throw_in_move_also_resets_the_count() -> None:
    state = game(["JS QS KS", "JD QD AD KH", "JC QC KC"], trump="6H", stock=STOCK)
    act(state, "0 a JS", auto=True)
    assert state.view(None).missed == (1, 0, 0)
    act(state, "1 d KH>JS")
    act(state, "0 t KS")
    assert state.view(None).missed == (0, 0, 0)


def test_back_gives_control_back() -> None:
    state = two_player()
    play(state, "0 a JS")
    act(state, "1 take", auto=True)
    act(state, "0 pass")
    act(state, "0 a QS")
    act(state, "1 take", auto=True)
    assert state.idle(1)
    before = state.to_dict()
    events = act(state, "1 back")
    assert not state.idle(1)
    assert state.view(None).missed == (0, 0)
    # «back» is not a move of play: the bout is where it was.
    after = state.to_dict()
    for key in ("hands", "attack", "defence", "taking", "said", "attacker", "defender"):
        assert after[key] == before[key]
    assert not of_type(events, Idle)


def test_back_refused_when_no_bot_plays_the_seat() -> None:
    state = two_player()
    refused(state, "0 back", "not played by a bot")
    act(state, "0 a JS", auto=True)
    refused(state, "0 back", "not played by a bot")


def test_bot_moves_after_idle_do_not_announce_idle_again() -> None:
    state = two_player()
    for card in ("JS", "QS", "KS"):
        act(state, f"0 a {card}")
        events = act(state, "1 take", auto=True)
        assert bool(of_type(events, Idle)) == (card == "QS")
        act(state, "0 pass")
    assert state.idle(1)
