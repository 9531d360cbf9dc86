"""The moves of the players (RULES §4, §6, §9), as functions of a ``Board``.

``State.apply`` runs ``check`` first, so these trust that the action is allowed.
"""

from __future__ import annotations

from collections.abc import Callable

from .actions import (
    ACCUSE,
    BACK,
    BEAT,
    DONE,
    OPEN,
    PASS,
    QUIT,
    SHOW,
    TAKE,
    THROW,
    TRANSFER,
    Action,
)
from .board import Board
from .bout import next_opponent, throw_rights
from .cards import RANK_MASK
from .ending import end_bout, finish, settle
from .events import Accused, Event


def open_bout(state: Board, action: Action, events: list[Event]) -> None:
    cards = action.cards
    mask = 0
    for c in cards:
        mask |= 1 << c
    state.hands[action.seat] &= ~mask
    if state.rules.pogony:
        state.bout_attacks[action.seat] |= mask
    state.att = list(cards)
    state.dfn = [-1] * len(cards)
    state.unbeaten = len(cards)
    state.cover = RANK_MASK[cards[0] >> 2]


def throw_in(state: Board, action: Action, events: list[Event]) -> None:
    seat, c = action.seat, action.cards[0]
    if seat == state.attacker:
        state.spoke = True
    state.hands[seat] &= ~(1 << c)
    if state.rules.pogony:
        state.bout_attacks[seat] |= 1 << c
    state.att.append(c)
    state.dfn.append(-1)
    state.unbeaten += 1
    state.said = 0
    settle(state, events)


def beat(state: Board, action: Action, events: list[Event]) -> None:
    c, target = action.cards[0], action.target
    # A card that does not beat is accepted only with the option ``cheating``.
    if not state.beats[target] >> c & 1:  # type: ignore[index]
        state.cheats |= 1 << action.seat
    state.hands[action.seat] &= ~(1 << c)
    state.dfn[state.att.index(target)] = c  # type: ignore[arg-type]
    state.unbeaten -= 1
    state.cover |= RANK_MASK[c >> 2]
    settle(state, events, beaten=True)


def transfer(state: Board, action: Action, events: list[Event]) -> None:
    seat, c = action.seat, action.cards[0]
    if c >> 2 != state.att[0] >> 2:  # accepted only with the option ``cheating``
        state.cheats |= 1 << seat
        state.cover |= RANK_MASK[c >> 2]
    target = next_opponent(state, state.defender)
    state.hands[seat] &= ~(1 << c)
    state.att.append(c)
    state.dfn.append(-1)
    state.unbeaten += 1
    pass_bout(state, seat, target)


def show(state: Board, action: Action, events: list[Event]) -> None:
    seat, c = action.seat, action.cards[0]
    state.known[seat] |= 1 << c  # shown to everyone, kept in hand
    state.shows |= 1 << c
    pass_bout(state, seat, next_opponent(state, state.defender))


def pass_bout(state: Board, seat: int, target: int) -> None:
    """After a transfer: ``seat`` attacks, ``target`` defends every card on the table."""
    state.attacker, state.defender = seat, target
    state.limit = min(state.cap, state.hands[target].bit_count())
    state.throwers = throw_rights(state, target)
    state.said = 0
    state.spoke = False
    state.token = (target + 1) % state.n


def take(state: Board, action: Action, events: list[Event]) -> None:
    state.taking = True
    state.said = 0
    if state.rules.no_throw_in_after_take:
        state.throwers = 0
    settle(state, events)


def done(state: Board, action: Action, events: list[Event]) -> None:
    seat = action.seat
    state.said |= 1 << seat
    if seat == state.attacker:
        state.spoke = True
    state.token = (seat + 1) % state.n  # circle: the right passes on
    settle(state, events)


def quit_game(state: Board, action: Action, events: list[Event]) -> None:
    team = state.partners[action.seat]
    fools = tuple(s for s in range(state.n) if team >> s & 1)
    finish(state, events, fools, surrendered=action.seat)


def accuse(state: Board, action: Action, events: list[Event]) -> None:
    accuser, accused = action.seat, action.accused
    assert accused is not None
    exposed = bool(state.cheats >> accused & 1)
    events.append(Accused(accuser, accused, exposed))
    if exposed:  # the cheater takes every card on the table
        state.defender = accused
        end_bout(state, events, taken=True)
    else:
        state.barred[accuser] |= 1 << accused


def back(state: Board, action: Action, events: list[Event]) -> None:
    state.missed[action.seat] = 0


MOVES: dict[str, Callable[[Board, Action, list[Event]], None]] = {
    OPEN: open_bout,
    THROW: throw_in,
    BEAT: beat,
    TRANSFER: transfer,
    SHOW: show,
    TAKE: take,
    DONE: done,
    PASS: done,
    QUIT: quit_game,
    ACCUSE: accuse,
    BACK: back,
}
