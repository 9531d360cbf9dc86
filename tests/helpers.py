"""Small helpers for scripted rule tests: games from card strings, moves from text."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TypeVar

import pytest

from engine import Action, Card, IllegalAction, Outcome, Rules, State, Turn
from engine.cards import cards_of, parse_cards
from engine.events import Event


def game(
    hands: list[str],
    *,
    trump: str = "6H",
    stock: str = "",
    opener: int = 0,
    **rules: object,
) -> State:
    """A scripted game: ``game(["7S 8S", "9H 10H"], trump="6H", stock="QS KS")``.

    ``stock`` lists the cards in draw order; the face-up ``trump`` card is drawn
    after them (with an empty stock it only names the trump suit). Remaining
    keyword arguments go to ``Rules``; ``players`` defaults to the number of hands.
    """
    rules.setdefault("players", len(hands))
    return State.scripted(
        Rules(**rules),  # type: ignore[arg-type]  # any Rules field, checked by Rules
        [parse_cards(h) for h in hands],
        Card.parse(trump),
        parse_cards(stock),
        opener=opener,
    )


def act(state: State, logged: str, *, auto: bool = False) -> list[Event]:
    """Apply one logged action such as ``"1 d 9H>7H"``; returns its events."""
    return state.apply(Action.parse(logged), auto=auto)


def play(state: State, *logged: str) -> list[Event]:
    """Apply several logged actions in order; returns all their events."""
    events: list[Event] = []
    for text in logged:
        events.extend(act(state, text))
    return events


def refused(state: State, logged: str, match: str) -> IllegalAction:
    """Assert the action is refused with a message matching ``match``, changing nothing."""
    before = state.to_dict()
    with pytest.raises(IllegalAction, match=match) as info:
        act(state, logged)
    assert state.to_dict() == before
    return info.value


def turn_of(state: State) -> Turn:
    """Whose turn it is in a game the test knows is running."""
    turn = state.turn()
    assert turn is not None, "the game is over"
    return turn


def outcome_of(state: State) -> Outcome:
    """The outcome of a game the test knows is over."""
    assert state.outcome is not None, "the game is not over"
    return state.outcome


def hand(state: State, seat: int) -> set[str]:
    """The cards of one seat as texts, e.g. ``{"7S", "10H"}``."""
    return {str(c) for c in cards_of(state.hands[seat])}


def cards(text: str) -> set[str]:
    """``"7S 10H"`` -> ``{"7S", "10H"}``, to compare with ``hand``."""
    return {str(c) for c in parse_cards(text)}


def legal(state: State, seat: int) -> set[str]:
    """The legal moves of a seat as seat-less texts."""
    return {a.text for a in state.legal_actions(seat)}


E = TypeVar("E", bound=Event)


def of_type(events: Iterable[Event], kind: type[E]) -> list[E]:
    return [e for e in events if isinstance(e, kind)]
