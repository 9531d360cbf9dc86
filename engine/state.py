"""The position of one game (RULES §4-8): the deal, the bout, ``apply`` and ``play``.
The moves themselves are in ``moves``, the end of a bout in ``ending``, the bout's
bookkeeping in ``bout``; all of them take the game's fields (a ``Board``) and never
import this module.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from . import legal
from .actions import BACK, BEAT, OPEN, SHOW, TAKE, TRANSFER, Action, as_cards
from .board import Board
from .bout import start_bout
from .cards import CARDS
from .deal import Deal, deal, first_attacker
from .ending import DROPPED, fast_event
from .events import Event, Idle, Played
from .legal import MISSES_TO_IDLE, Turn, check
from .moves import MOVES
from .position import Bout, Position
from .rules import Rules, SeriesOpener
from .serialize import state_from_dict, state_to_dict
from .view import View, make_view

_DEFENCE = (BEAT, TRANSFER, SHOW, TAKE)


class State(Board):
    """One game: the deal, the bout in progress, the places, the action log."""

    __slots__ = ()

    def __init__(
        self,
        rules: Rules,
        seed: int,
        *,
        last_fool: int | None = None,
        pogony_ranks: Sequence[int] | None = None,
        position: Position | None = None,
    ) -> None:
        """A new game dealt from ``seed``. The table's series goes on with ``last_fool``,
        the fool of its last game (None after a draw), attacked first under
        ``series_opener = under_fool``, and ``pogony_ranks``, each seat's rank of
        «погоны» (the deck's lowest by default; it grows with every award).

        With ``position`` the game is that position instead of a deal (``seed`` is
        only recorded); its lists are copied. Every ``State`` is built here."""
        if position is None:
            position = opening(rules, deal(rules, seed), last_fool, pogony_ranks)
        elif last_fool is not None or pogony_ranks is not None:
            raise ValueError("a position carries its own last_fool and pogony_ranks")
        super().__init__(rules, seed, position)
        if position.bout is None:
            start_bout(self, position.opener)

    @classmethod
    def scripted(
        cls,
        rules: Rules,
        hands: list[Iterable[int]],
        trump_card: int,
        stock: Iterable[int] = (),
        *,
        opener: int = 0,
        seed: int = 0,
    ) -> State:
        """A game from explicit hands: ``stock`` lists the cards in draw order and
        the face-up ``trump_card`` is drawn after them (omit it from ``stock``;
        with an empty stock it is only the trump indicator)."""
        masks = [sum(1 << c for c in h) for h in hands]
        order = list(stock)
        pile = [trump_card, *reversed(order)] if order else []
        return cls(rules, seed, position=Position(masks, pile, trump_card, opener))

    def position(self) -> Position:
        """The position as plain values: ``State(rules, seed, position=...)`` rebuilds it."""
        bout = Bout(
            self.attacker,
            self.defender,
            self.cap,
            self.limit,
            self.att,
            self.dfn,
            self.taking,
            self.said,
            self.throwers,
            self.spoke,
            self.token,
            self.shows,
            self.cheats,
            self.barred,
            self.bout_attacks,
            self.closing,
        )
        return Position(
            self.hands,
            self.stock,
            self.trump_card,
            self.opener,
            self.known,
            self.shown,
            self.discard,
            self.place,
            self.missed,
            self.bito_seen,
            self.bouts,
            self.last_fool,
            self.pogony_ranks,
            self.pogony_awards,
            self.history,
            self.auto,
            self.outcome,
            bout,
        )

    # ------------------------------------------------------------ questions

    def turn(self) -> Turn | None:
        return legal.turn_of(self)

    def view(self, seat: int | None = None) -> View:
        """What ``seat`` may know; ``None`` gives the spectators' view."""
        return make_view(self, seat)

    def idle(self, seat: int) -> bool:
        """True when the seat should be played by a bot (two missed moves)."""
        return self.missed[seat] >= MISSES_TO_IDLE

    # Listed in ``legal`` beside the checks that ``apply`` makes.
    def legal_actions(self, seat: int) -> list[Action]:
        return legal.legal_actions(self, seat)

    def cheat_actions(self, seat: int) -> list[Action]:
        return legal.cheat_actions(self, seat)

    def all_legal_actions(self) -> list[Action]:
        return legal.all_legal_actions(self)

    def timeout_actions(self) -> list[Action]:
        return legal.timeout_actions(self)

    # -------------------------------------------------------------- moves

    def apply(self, action: Action, *, auto: bool = False) -> list[Event]:
        """Make a move; returns what happened. Raises ``IllegalAction`` and changes
        nothing when the move is not allowed. ``auto`` marks a move made by a
        timeout or by a bot standing in for an absent player."""
        action = as_cards(action)
        check(self, action)  # from here on the action is legal
        seat, kind = action.seat, action.kind
        counts = auto and (kind == OPEN or (seat == self.defender and kind in _DEFENCE))
        events: list[Event] = [fast_event(Played, (action, auto))]
        MOVES[kind](self, action, events)
        self.history.append(action)
        self.auto.append(auto)
        if counts:
            self.missed[seat] += 1
            if self.missed[seat] == MISSES_TO_IDLE:
                events.insert(1, Idle(seat))
        elif not auto and kind != BACK:
            self.missed[seat] = 0
        return events

    def play(self, action: Action) -> None:
        """``apply`` without the check and the events, for simulations: ``action``
        must come from ``legal_actions`` of this very position (else the state is
        corrupt). The log and the missed-move counts are kept as ``apply`` keeps them."""
        MOVES[action.kind](self, action, DROPPED)
        if DROPPED:
            DROPPED.clear()
        self.history.append(action)
        self.auto.append(False)
        self.missed[action.seat] = 0

    # -------------------------------------------------------- copy, compare

    def copy(self) -> State:
        return State(self.rules, self.seed, position=self.position())

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as its position (a compiled State has no slots that pickle could read)."""
        return (_from_position, (self.rules, self.seed, self.position()))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, State):
            return NotImplemented
        return self.to_dict() == other.to_dict()

    __hash__ = None  # type: ignore[assignment]

    def to_dict(self) -> dict[str, Any]:
        return state_to_dict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> State:
        """A snapshot of ``to_dict`` back; raises ``SnapshotError`` saying what is wrong."""
        return state_from_dict(data, _from_position)


def _from_position(rules: Rules, seed: int, position: Position) -> State:
    return State(rules, seed, position=position)


def opening(
    rules: Rules,
    d: Deal,
    last_fool: int | None = None,
    pogony_ranks: Sequence[int] | None = None,
) -> Position:
    """The position of a new game after the deal ``d``: who opens, what was shown
    (``last_fool`` and ``pogony_ranks`` as for ``State``)."""
    n = rules.players
    if pogony_ranks is not None and (
        len(pogony_ranks) != n or not all(0 <= r <= 12 for r in pogony_ranks)
    ):
        raise ValueError(f"pogony_ranks needs a rank 0-12 per seat: {pogony_ranks!r}")
    known = [0] * n
    if d.trump_holder is not None:
        known[d.trump_holder] |= 1 << d.trump_card
    ranks = None if pogony_ranks is None else tuple(pogony_ranks)
    if last_fool is not None and rules.series_opener is SeriesOpener.UNDER_FOOL:
        opener = (last_fool - 1) % n  # the fool's right neighbour
        return Position(
            d.hands, d.stock, d.trump_card, opener, known, last_fool=last_fool, pogony_ranks=ranks
        )
    opener, shown = first_attacker(d.hands, rules.trump_suit(d.trump_card))
    if shown is not None:
        known[opener] |= 1 << shown
    elif d.random_opener is not None:
        opener = d.random_opener
    shown_card = None if shown is None else CARDS[shown]
    return Position(d.hands, d.stock, d.trump_card, opener, known, shown_card, pogony_ranks=ranks)


def replay(
    rules: Rules,
    seed: int,
    log: Iterable[Action | str | tuple[Action | str, bool]],
    *,
    last_fool: int | None = None,
    pogony_ranks: Sequence[int] | None = None,
) -> State:
    """Rebuild a game from its deal and its action log (the series as for ``State``).

    Log entries are actions, logged texts (``"1 d 9H>7H"``) or ``(action, auto)``.
    """
    s = State(rules, seed, last_fool=last_fool, pogony_ranks=pogony_ranks)
    for entry in log:
        auto = False
        if isinstance(entry, tuple) and not isinstance(entry, Action):
            entry, auto = entry
        action = Action.parse(entry) if isinstance(entry, str) else entry
        s.apply(action, auto=auto)
    return s
