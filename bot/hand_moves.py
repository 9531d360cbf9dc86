"""Which moves a hand's buttons make: pure functions of the player's view, shared by
the drawing of the hand (``bot.render_hand``) and the reading of a tap (``bot.taps``)."""

from __future__ import annotations

from collections.abc import Sequence

from engine import Action, Card, View
from engine.actions import BEAT, OPEN, THROW


def is_tap(a: Action) -> bool:
    """A move that a tap on its card makes: a single-card opening, a throw-in or a beat."""
    return a.kind in (THROW, BEAT) or (a.kind == OPEN and len(a.cards) == 1)


def tap_kinds(view: View) -> dict[Card, str]:
    """The cards that a tap can play now, with the kind of move it makes."""
    return {a.cards[0]: a.kind for a in view.legal if is_tap(a)}


def markable(view: View) -> set[Card]:
    """The cards that may open a bout together with others of their rank."""
    return {c for a in view.legal if a.kind == OPEN and len(a.cards) > 1 for c in a.cards}


def opening(view: View, cards: Sequence[Card]) -> Action | None:
    """The legal opening with exactly these cards, if there is one."""
    wanted = set(cards)
    for a in view.legal:
        if a.kind == OPEN and set(a.cards) == wanted:
            return a
    return None
