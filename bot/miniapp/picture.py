"""What the Mini App page draws: a pure function of one seat's ``View`` (or the public
one, for a spectator), the players' names and the seconds left, as JSON-safe records.

Cards go as their text form (``"10S"``); the page draws rank and suit. The moves are
the seat's legal actions with their text form, which the page sends back as it is, with
the version of the picture it took them from; ``cheats`` are the seat's own cheats
(option ``cheating``, sent back marked as one), which no view lists and nobody else sees.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass
from enum import StrEnum
from html import unescape
from typing import Any

from engine import Action, Card, View
from engine.actions import ACCUSE
from engine.cards import sort_for_hand

from ..i18n import t
from ..render import action_words, timed_out
from ..render_cheating import accusation_exposed, cheat_label

LOG = 5  # the last moves the page tells in words


class Role(StrEnum):
    ATTACK = "attack"
    DEFEND = "defend"
    THROW = "throw"
    OUT = "out"
    FOOL = "fool"  # the game is over: the fool
    NONE = "none"


@dataclass(frozen=True)
class Player:
    name: str
    cards: int
    role: Role
    turn: bool  # the game waits for this seat
    me: bool
    label: str  # the role as the page says it («ходит», «отбивается», «вышел»)


@dataclass(frozen=True)
class Move:
    text: str  # the action's text form: what the page sends to make it
    kind: str
    cards: tuple[str, ...]
    target: str | None
    label: str  # what its button says


@dataclass(frozen=True)
class Picture:
    game: int
    version: int
    seat: int | None  # None: a spectator
    trump: str  # the face-up card under the stock
    stock: int
    discard: int
    players: tuple[Player, ...]
    table: tuple[tuple[str, str | None], ...]  # (attack, defence or None)
    hand: tuple[str, ...]
    moves: tuple[Move, ...]
    cheats: tuple[Move, ...]  # the seat's own cheats (option ``cheating``)
    idle: bool  # a computer player plays the seat: «Вернуть управление»
    playing: bool  # the seat is in the game: it may surrender
    log: tuple[str, ...]  # the last moves in words, oldest first
    status: str  # whose turn, or how the game ended
    seconds: int | None  # left for the current move (None: untimed, or over)
    over: bool

    def to_json(self) -> dict[str, Any]:
        return {"type": "table", **asdict(self)}


def picture(
    view: View,
    names: Sequence[str],
    lang: str,
    *,
    game: int,
    seconds: int | None,
    cheats: Sequence[Action] = (),
    idle: bool = False,
) -> Picture:
    """The table as ``view``'s seat sees it, in ``lang``; ``cheats``: that seat's
    (``State.cheat_actions``), ``idle``: a computer player plays it."""
    waiting = set(view.turn.seats) if view.turn is not None and view.outcome is None else set()
    playing = view.seat is not None and view.outcome is None and not view.places[view.seat]
    players = tuple(
        _player(view, seat, name, seat in waiting, lang) for seat, name in enumerate(names)
    )
    return Picture(
        game=game,
        version=len(view.history),
        seat=view.seat,
        trump=str(view.trump_card),
        stock=view.stock_size,
        discard=len(view.discard),
        players=players,
        table=tuple((str(a), None if d is None else str(d)) for a, d in view.table),
        hand=tuple(str(c) for c in sort_for_hand(view.hand, view.trump)),
        moves=tuple(_move(a, names, lang) for a in view.legal),
        cheats=tuple(_cheat(a, lang) for a in cheats),
        idle=idle and playing,
        playing=playing,
        log=last_moves(view, names, lang),
        status=t(lang, "miniapp.idle") if idle and playing else status(view, names, lang),
        seconds=None if view.outcome is not None else seconds,
        over=view.outcome is not None,
    )


def _player(view: View, seat: int, name: str, turn: bool, lang: str) -> Player:
    if view.outcome is not None and seat in view.outcome.fools:
        role = Role.FOOL
    elif view.places[seat]:
        role = Role.OUT
    elif seat == view.defender and view.table:
        role = Role.DEFEND
    elif seat == view.attacker:
        role = Role.ATTACK
    elif seat in view.throwers and view.table:
        role = Role.THROW
    else:
        role = Role.NONE
    label = "" if role is Role.NONE else t(lang, f"miniapp.role-{role}")
    return Player(name, view.hand_sizes[seat], role, turn, seat == view.seat, label)


def _move(action: Action, names: Sequence[str], lang: str) -> Move:
    cards = tuple(str(c) for c in action.cards)
    target = None if action.target is None else str(action.target)
    if action.kind == ACCUSE and action.accused is not None:
        label = t(lang, "miniapp.move-accuse", name=names[action.accused])
    else:
        shown = " ".join(Card.label(c, lang) for c in action.cards)
        on = "" if action.target is None else action.target.label(lang)
        label = t(lang, f"miniapp.move-{action.kind}", cards=shown, target=on)
    return Move(action.text, action.kind, cards, target, label)


def _cheat(action: Action, lang: str) -> Move:
    cards = tuple(str(c) for c in action.cards)
    target = None if action.target is None else str(action.target)
    return Move(action.text, action.kind, cards, target, cheat_label(lang, action))


def last_moves(view: View, names: Sequence[str], lang: str) -> tuple[str, ...]:
    """The last ``LOG`` moves in the table message's words (plain text: the page
    sets it as text, so the names' HTML escapes are undone)."""
    first = max(0, len(view.history) - LOG)
    timeouts = timed_out(view)
    lines = []
    for i in range(first, len(view.history)):
        action = view.history[i]
        exposed = action.kind == ACCUSE and accusation_exposed(view, i)
        lines.append(unescape(action_words(lang, action, names, timeouts[i], exposed)))
    return tuple(lines)


def status(view: View, names: Sequence[str], lang: str) -> str:
    """Whose move it is (or the end of the game), from the seat's side."""
    if view.outcome is not None:
        if view.outcome.draw or not view.outcome.fools:
            return t(lang, "miniapp.over-draw")
        fools = ", ".join(names[s] for s in view.outcome.fools)
        return t(lang, "miniapp.over-fool", name=fools)
    turn = view.turn
    if turn is None:
        return ""
    if view.seat is not None and view.seat in turn.seats:
        return t(lang, f"miniapp.you-{turn.kind}")
    who = ", ".join(names[s] for s in turn.seats)
    return t(lang, f"miniapp.turn-{turn.kind}", name=who, n=len(turn.seats))
