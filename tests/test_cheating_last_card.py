"""Option ``cheating`` (RULES §9): a beat that ends the bout leaves it open for
«Антимухлёж» for one throw-in clock, so a cheat on the last card can be caught."""

from __future__ import annotations

from typing import Any

from engine import Accused, BoutEnded, GameOver, State, Turn
from tests.helpers import act, game, hand, legal, outcome_of, play, refused


def last_card(**kw: Any) -> State:
    """Issue 13's deal: 3 players, trump ♥, no stock; seat 1 holds one card."""
    return game(["7S", "6C", "9H KS"], trump="6H", cheating=True, **kw)


def test_a_cheat_with_the_defenders_last_card_can_still_be_caught() -> None:
    state = last_card()
    events = play(state, "0 a 7S", "1 d 6C>7S")  # 6♣ does not beat 7♠
    assert not any(isinstance(e, BoutEnded | GameOver) for e in events)
    assert state.outcome is None and state.closing
    assert state.turn() == Turn("throw", (0, 2))  # on the throw-in clock
    assert legal(state, 2) == {"done", "accuse 0", "accuse 1"}
    events = act(state, "2 accuse 1")
    assert Accused(2, 1, True) in events
    assert hand(state, 1) == {"7S", "6C"}  # the cheater takes the table
    assert state.place[0] == 1 and state.outcome is None  # seat 0 is out; 1 and 2 play on
    assert not state.closing and state.attacker == 2


def test_when_nobody_accuses_the_bout_ends_once_everyone_has_said_bito() -> None:
    state = last_card()
    play(state, "0 a 7S", "1 d 6C>7S", "0 done")
    assert state.outcome is None and state.turn() == Turn("throw", (2,))
    events = act(state, "2 done")
    assert any(isinstance(e, BoutEnded) and not e.taken for e in events)
    assert state.outcome is not None and outcome_of(state).fools == (2,)


def test_the_throw_in_clock_ends_the_open_bout() -> None:
    state = last_card()
    play(state, "0 a 7S", "1 d 6C>7S")
    timeouts = state.timeout_actions()
    assert [str(a) for a in timeouts] == ["0 done", "2 done"]
    for action in timeouts:
        state.apply(action, auto=True)
    assert state.outcome is not None and outcome_of(state).fools == (2,)
    assert state.missed == [0, 0, 0]  # the throw-in clock does not count as a missed move


def test_a_wrong_accusation_in_the_open_bout_keeps_it_open() -> None:
    state = last_card()
    play(state, "0 a 7S", "1 d 6C>7S")
    assert Accused(2, 0, False) in act(state, "2 accuse 0")
    assert state.closing and legal(state, 2) == {"done", "accuse 1"}
    assert Accused(2, 1, True) in act(state, "2 accuse 1")


def test_an_honest_last_beat_opens_the_same_window() -> None:
    """The window does not give a cheat away: an honest beat gets it too."""
    honest = game(["7S", "8S", "9H KS"], trump="6H", cheating=True)
    play(honest, "0 a 7S", "1 d 8S>7S")
    assert honest.closing and honest.turn() == Turn("throw", (0, 2))
    assert Accused(2, 1, False) in act(honest, "2 accuse 1")
    cheat = last_card()
    play(cheat, "0 a 7S", "1 d 6C>7S")
    assert honest.view(2).turn == cheat.view(2).turn
    assert honest.view(2).closing and cheat.view(2).closing


def test_a_cheat_on_a_thrown_in_card_that_reaches_the_limit_opens_the_window_too() -> None:
    state = game(["7S 7C", "8S 6C", "9H KS"], trump="6H", cheating=True)
    assert state.limit == 2  # the defender's two cards
    play(state, "0 a 7S", "1 d 8S>7S", "0 t 7C")
    assert not state.closing  # a card to beat: the bout goes on as always
    play(state, "1 d 6C>7C")
    assert state.closing and state.turn() == Turn("throw", (0, 2))
    assert Accused(2, 1, True) in act(state, "2 accuse 1")


def test_nothing_more_is_thrown_in_while_the_bout_is_open() -> None:
    state = game(["7S 7C", "6C", "9H KS 7D"], trump="6H", cheating=True)
    play(state, "0 a 7S", "1 d 6C>7S")  # seat 1 has no card left
    refused(state, "2 t 7D", "only «Антимухлёж» or «Бито» now")
    refused(state, "1 done", "seat 1 has nothing to say")
    assert state.cheat_actions(1) == [] and state.view(2).may_throw == ()


def test_without_the_option_the_last_beat_ends_the_bout_at_once() -> None:
    state = game(["7S", "8S", "9H KS"], trump="6H")
    events = play(state, "0 a 7S", "1 d 8S>7S")
    assert any(isinstance(e, GameOver) for e in events) and not state.closing


def test_the_open_bout_survives_a_snapshot() -> None:
    state = last_card()
    play(state, "0 a 7S", "1 d 6C>7S")
    restored = State.from_dict(state.to_dict())
    assert restored == state and restored.closing
    act(restored, "2 accuse 1")
    assert hand(restored, 1) == {"7S", "6C"}
