"""What a press on a hand means: pure functions of the game and the button.

A press comes from a hand drawn with a key (``render_hand.seal``); ``fresh`` says
whether the hand would still be drawn with that key now. From the state, the seat and
the button alone, each function here decides what the press asks for, and the handler
then does just that: a move (an ``Action``, never its text), a page of the hand, or an
answer saying why not. Nothing here reads or writes anything else.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine import Action, Card, MalformedAction, State
from engine.actions import ACCUSE

from .callbacks import PageName, still_meant
from .hand_moves import is_tap, markable
from .hand_pages import Page


@dataclass(frozen=True)
class Play:
    """Make this move, at ``version`` (None: the game's version when it is made, for a
    press whose hand is still drawn as it was pressed)."""

    action: Action
    version: int | None = None


@dataclass(frozen=True)
class ChooseTarget:
    """The card beats several attack cards: ask which."""

    card: Card


@dataclass(frozen=True)
class Show:
    """Show this page of the hand (None: the hand itself)."""

    page: Page | None


@dataclass(frozen=True)
class Stale:
    """The press came from a hand drawn before the game moved on."""


@dataclass(frozen=True)
class NotPlayable:
    """A tap on a card that makes no move now (the answer says why)."""

    card: Card


@dataclass(frozen=True)
class NotMarkable:
    """A card that cannot open together with others of its rank."""

    card: Card


@dataclass(frozen=True)
class NotNow:
    """The button means nothing in the game as it is."""


Tap = Play | ChooseTarget | Show | Stale | NotPlayable | NotMarkable | NotNow


def parse_card(text: str) -> Card | None:
    try:
        return Card.parse(text)
    except ValueError:
        return None


def parse_action(seat: int, text: str) -> Action | None:
    """A move button's action for the presser's seat (None: not an action's text)."""
    try:
        return Action.from_text(seat, text)
    except MalformedAction:
        return None


def card_tap(state: State, seat: int, card: Card, meant: str, *, fresh: bool) -> Tap:
    """A tap on a card of the hand. From a hand no longer drawn as it was pressed it
    counts while it would make the move it meant then (``meant``, see
    ``callbacks.tap_meaning``): an opponent quicker than the edit does not make a tap
    stale; a double tap, or a tap that would now mean another move, is."""
    if not fresh and not meant:  # nothing a tap could play when it was drawn
        return Stale()
    moves = [a for a in state.legal_actions(seat) if a.cards[:1] == (card,) and is_tap(a)]
    if not fresh and (not moves or not all(still_meant(state, a, meant) for a in moves)):
        return Stale()
    if not moves:
        return NotPlayable(card)
    if len(moves) > 1:
        return ChooseTarget(card)
    return Play(moves[0], len(state.history))


def mark_tap(state: State, seat: int, card: Card | None, shown: Page | None) -> Tap:
    """The page that marks cards of one rank for an opening (``card``: mark or unmark
    it; ``shown``: the page the hand shows now)."""
    can = markable(state.view(seat))
    if card is not None and card not in can:
        return NotMarkable(card)
    if not can:
        return NotNow()
    marked = shown.marked if shown is not None and shown.name is PageName.MARK else ()
    if card is not None:
        marked = toggled(marked, card)
    return Show(Page(state.bouts, PageName.MARK, None, marked))


def cheat_tap(state: State, seat: int, card: Card | None) -> Tap:
    """The defender's cheat page (``card``: the targets of that card's cheat)."""
    cheats = state.cheat_actions(seat)
    if not any(card is None or a.cards[0] == card for a in cheats):
        return NotNow()
    return Show(Page(state.bouts, PageName.CHEAT, card))


def accuse_tap(state: State, seat: int) -> Tap:
    """The choice of whom to accuse, while an accusation is a move of the seat."""
    if not any(a.kind == ACCUSE for a in state.legal_actions(seat)):
        return NotNow()
    return Show(Page(state.bouts, PageName.ACCUSE))


def toggled(marked: tuple[Card, ...], card: Card) -> tuple[Card, ...]:
    """The marks after a tap on ``card``: off if it was marked, else on; a card of
    another rank starts the marks again (one opening has one rank)."""
    if card in marked:
        return tuple(c for c in marked if c != card)
    return (*[c for c in marked if c.rank == card.rank], card)
