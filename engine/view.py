"""What one seat, or a spectator, may know (RULES §11).

A view holds no hidden card: one's own hand, the public cards (trump card,
table, discard) and the cards publicly known to be in other hands (taken from
the table, the lowest trump shown at the opening, the face-up trump card
once someone holds it).
"""

from __future__ import annotations

from dataclasses import dataclass

from .actions import Action
from .board import Board
from .bout import may_throw
from .cards import Card, cards_of
from .events import Outcome
from .legal import Turn, legal_actions, turn_of
from .rules import Rules


@dataclass(frozen=True)
class View:
    rules: Rules
    seat: int | None  # None for a spectator
    hand: tuple[Card, ...]  # empty for a spectator
    hand_sizes: tuple[int, ...]
    known: tuple[tuple[Card, ...], ...]  # per seat: cards everyone knows it holds
    trump_card: Card
    trump: int  # the trump suit
    stock_size: int
    discard: tuple[Card, ...]  # every discarded card was shown when played
    table: tuple[tuple[Card, Card | None], ...]  # (attack, defence or None)
    opener: int
    attacker: int
    defender: int
    cap: int  # 5 until a bout has ended in «Бито», then 6
    limit: int  # attack cards allowed in this bout: min(cap, defender's hand)
    bouts: int  # bouts ended so far
    taking: bool  # the defender said «Беру»
    said: tuple[int, ...]  # seats that said «Бито»/«Пас» since the last new card
    throwers: tuple[int, ...]  # seats that may throw in against the defender
    may_throw: tuple[int, ...]  # of those, who may add a card or say «Бито»/«Пас» now
    spoke: bool  # attacker_first: the attacker has thrown in or said «Бито»/«Пас»
    token: int  # circle: the right to throw in goes clockwise from this seat
    shows: tuple[Card, ...]  # trumps shown for a transfer in this bout
    barred: tuple[tuple[int, ...], ...]  # per seat: whom it may not accuse in this bout
    shown: Card | None  # the lowest trump shown at the opening
    places: tuple[int, ...]  # 0 while in the game
    missed: tuple[int, ...]  # attack/defence timeouts in a row
    turn: Turn | None
    legal: tuple[Action, ...]  # what this seat may do now
    history: tuple[Action, ...]
    auto: tuple[bool, ...]  # per action: made by a timeout or a stand-in bot
    outcome: Outcome | None
    closing: bool = False  # the bout is beaten and over, open for «Антимухлёж» (cheating)

    @property
    def in_game(self) -> tuple[int, ...]:
        return tuple(s for s, p in enumerate(self.places) if not p)


def make_view(state: Board, seat: int | None = None) -> View:
    """The view of ``seat``; ``None`` gives the public view for spectators."""
    n = state.n
    if seat is not None and not 0 <= seat < n:
        raise ValueError(f"there is no seat {seat}")
    hands = state.hands
    rights = may_throw(state)
    return View(
        rules=state.rules,
        seat=seat,
        hand=cards_of(hands[seat]) if seat is not None else (),
        hand_sizes=tuple(h.bit_count() for h in hands),
        known=tuple(cards_of(k & h) for k, h in zip(state.known, hands, strict=True)),
        trump_card=state.trump_card,
        trump=state.trump,
        stock_size=len(state.stock),
        discard=cards_of(state.discard),
        table=tuple(state.table),
        opener=state.opener,
        attacker=state.attacker,
        defender=state.defender,
        cap=state.cap,
        limit=state.limit,
        bouts=state.bouts,
        taking=state.taking,
        said=tuple(s for s in range(n) if state.said >> s & 1),
        throwers=tuple(s for s in range(n) if state.throwers >> s & 1),
        may_throw=tuple(s for s in range(n) if state.att and rights >> s & 1),
        spoke=state.spoke,
        token=state.token,
        shows=cards_of(state.shows),
        barred=tuple(tuple(x for x in range(n) if b >> x & 1) for b in state.barred),
        shown=state.shown,
        places=tuple(state.place),
        missed=tuple(state.missed),
        turn=turn_of(state),
        legal=tuple(legal_actions(state, seat)) if seat is not None else (),
        history=tuple(state.history),
        auto=tuple(state.auto),
        outcome=state.outcome,
        closing=state.closing,
    )
