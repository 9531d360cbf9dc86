"""The position of one game (RULES §4-8): the deal, the bout, ``apply`` and ``play``.
The moves themselves are in ``moves``, the end of a bout in ``ending``.

Hands, the table and the discard are bit masks of cards (see ``cards``), so
the hot path of ``legal_actions`` and ``apply`` is integer arithmetic. Seats
are bit masks too (``out``, ``partners``, ``said``, ``throwers``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

from .actions import BACK, BEAT, OPEN, SHOW, TAKE, TRANSFER, Action
from .cards import BEAT_MASKS, CARDS, DECK_LOW_RANK, Card
from .deal import deal, first_attacker
from .ending import CLOCKWISE, DROPPED, end_bout, fast_event
from .events import Event, Idle, Outcome, Played
from .legal import MISSES_TO_IDLE, Turn, check, may_throw
from .legal import all_legal_actions as _all_legal_actions
from .legal import cheat_actions as _cheat_actions
from .legal import legal_actions as _legal_actions
from .legal import timeout_actions as _timeout_actions
from .moves import MOVES
from .rules import Rules, SeriesOpener, ThrowIn, ThrowOrder

if TYPE_CHECKING:
    from .view import View

_DEFENCE = (BEAT, TRANSFER, SHOW, TAKE)


class State:
    """One game: the deal, the bout in progress, the places, the action log."""

    __slots__ = (
        "att",
        "attacker",
        "auto",
        "barred",
        "beats",
        "bito_seen",
        "bout_attacks",
        "bouts",
        "cap",
        "cheating",
        "cheats",
        "cover",
        "defender",
        "dfn",
        "discard",
        "free_order",
        "hands",
        "history",
        "known",
        "last_fool",
        "limit",
        "missed",
        "n",
        "opener",
        "out",
        "outcome",
        "partners",
        "place",
        "pogony_awards",
        "pogony_ranks",
        "rules",
        "said",
        "seed",
        "shown",
        "shows",
        "spoke",
        "stock",
        "taking",
        "throwers",
        "token",
        "transfers",
        "trump",
        "trump_card",
        "unbeaten",
    )
    rules: Rules
    seed: int
    n: int
    partners: tuple[int, ...]  # per seat: its team as a mask of seats (itself included)
    transfers: bool  # perevodnoy
    free_order: bool  # throw_in_order is free: no one waits for anyone to throw in
    last_fool: int | None  # the last game's fool this game opens against (series_opener)
    hands: list[int]  # one mask per seat
    stock: list[int]  # drawn from the end; stock[0] is the face-up trump card
    trump_card: Card
    trump: int
    beats: tuple[int, ...]  # per card: the mask of cards that beat it
    discard: int
    known: list[int]  # per seat: cards shown to be in that hand (intersect with hands)
    shown: Card | None  # the lowest trump shown at the opening
    place: list[int]  # 0 while in the game
    out: int  # the seats with a place, as a mask: all of them once the game is over
    missed: list[int]
    bito_seen: bool  # a bout has ended in «Бито»: the cap is 6 from now on
    bouts: int  # bouts ended so far
    history: list[Action]
    auto: list[bool]
    outcome: Outcome | None
    opener: int
    attacker: int
    defender: int
    cap: int
    limit: int  # min(cap, defender's hand when they became defender)
    att: list[int]
    dfn: list[int]  # the card on each attack card, -1 while unbeaten
    unbeaten: int
    cover: int  # the ranks on the table, as a mask of all their cards
    taking: bool
    said: int  # seats (bits) that said «Бито»/«Пас» since the last new card
    throwers: int  # seats (bits) that may throw in against the defender
    spoke: bool  # the attacker has thrown in or said «Бито»/«Пас» (attacker_first)
    token: int  # circle: the right to throw in goes clockwise from this seat
    shows: int  # trumps shown for a transfer in this bout (transfer_by_trump_show)
    cheating: bool  # option ``cheating``: cheats and «Антимухлёж» are played
    cheats: int  # SECRET: the seats that cheated in this bout (never in a view)
    barred: list[int]  # per seat: whom it may not accuse again in this bout
    # «Погоны» (option ``pogony``): per seat the rank its pogony are made of, the
    # cards each seat attacked with in this bout, and (giver, receiver) pairs so far.
    pogony_ranks: tuple[int, ...]
    bout_attacks: list[int]
    pogony_awards: list[tuple[int, int]]

    def __init__(
        self,
        rules: Rules,
        seed: int,
        *,
        last_fool: int | None = None,
        pogony_ranks: Sequence[int] | None = None,
    ) -> None:
        """A new game dealt from ``seed``. The table's series goes on with ``last_fool``,
        the fool of its last game (None after a draw), attacked first under
        ``series_opener = under_fool``, and ``pogony_ranks``, each seat's rank of
        «погоны» (the deck's lowest by default; it grows with every award)."""
        d = deal(rules, seed)
        self._setup(rules, seed, d.hands, d.stock, d.trump_card)
        if pogony_ranks is not None:
            if len(pogony_ranks) != self.n or not all(0 <= r <= 12 for r in pogony_ranks):
                raise ValueError(f"pogony_ranks needs a rank 0-12 per seat: {pogony_ranks!r}")
            self.pogony_ranks = tuple(pogony_ranks)
        if d.trump_holder is not None:
            self.known[d.trump_holder] |= 1 << d.trump_card
        if last_fool is not None and rules.series_opener is SeriesOpener.UNDER_FOOL:
            self.last_fool = last_fool
            self._start_bout((last_fool - 1) % self.n)  # the fool's right neighbour
            return
        opener, shown = first_attacker(self.hands, self.trump)
        if shown is not None:
            self.shown = CARDS[shown]
            self.known[opener] |= 1 << shown
        elif d.random_opener is not None:
            opener = d.random_opener
        self._start_bout(opener)

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
        self = cls.__new__(cls)
        self._setup(rules, seed, masks, pile, trump_card)
        self._start_bout(opener)
        return self

    def _setup(
        self, rules: Rules, seed: int, hands: list[int], stock: list[int], trump_card: int
    ) -> None:
        n = rules.players
        if len(hands) != n:
            raise ValueError(f"{n} players need {n} hands, got {len(hands)}")
        self.rules = rules
        self.seed = seed
        self.n = n
        teams = [sum(1 << s for s in range(t, n, 2)) for t in (0, 1)]
        self.partners = tuple(teams[s % 2] if rules.teams else 1 << s for s in range(n))
        self.transfers = rules.transfer
        self.free_order = rules.throw_in_order is ThrowOrder.FREE
        self.cheating = rules.cheating
        self.barred = [0] * n
        self.last_fool = None
        self.hands = hands
        self.stock = stock
        self.trump_card = CARDS[trump_card]
        self.trump = rules.trump_suit(trump_card)
        self.beats = BEAT_MASKS[rules.spades_by_spades][self.trump]
        self.discard = 0
        self.known = [0] * n
        self.shown = None
        self.place = [0] * n
        self.out = 0
        self.missed = [0] * n
        self.bito_seen = False
        self.bouts = 0
        self.pogony_ranks = (DECK_LOW_RANK[rules.deck],) * n
        self.bout_attacks = [0] * n
        self.pogony_awards = []
        self.history = []
        self.auto = []
        self.outcome: Outcome | None = None

    # ----------------------------------------------------------------- bouts

    def _start_bout(self, opener: int) -> None:
        self.opener = self.attacker = opener
        self.defender = d = self._next_opponent(opener)
        self.cap = cap = 6 if self.bito_seen or not self.rules.first_bout_cap_5 else 5
        held = self.hands[d].bit_count()
        self.limit = cap if cap < held else held
        self.att = []
        self.dfn = []
        self.unbeaten = 0
        self.cover = 0
        self.taking = False
        self.said = 0
        self.throwers = self._throw_rights(d)
        self.spoke = False
        self.token = (d + 1) % self.n
        self.shows = 0
        self.cheats = 0
        if self.cheating:
            self.barred = [0] * self.n
        if self.rules.pogony:
            self.bout_attacks = [0] * self.n

    def _next_active(self, seat: int) -> int:
        """The next player clockwise still in the game (``seat`` itself if alone)."""
        out = self.out
        for s in CLOCKWISE[self.n][seat][1:]:
            if not out >> s & 1:
                return s
        return seat

    def _next_opponent(self, seat: int) -> int:
        """The next player clockwise still in the game, passing over partners."""
        skip = self.out | self.partners[seat]
        for s in CLOCKWISE[self.n][seat]:
            if not skip >> s & 1:
                return s
        raise RuntimeError("no opponent left")

    def _throw_rights(self, d: int) -> int:
        """Bit mask of the seats that may throw in against defender ``d``."""
        if self.rules.simple:
            return 0
        seats = ((1 << self.n) - 1) & ~self.out & ~self.partners[d]
        if self.rules.throw_in is ThrowIn.NEIGHBORS:
            right = d
            for s in reversed(CLOCKWISE[self.n][d]):
                if not self.out >> s & 1:
                    right = s
                    break
            seats &= 1 << self._next_active(d) | 1 << right
        return seats

    def _waiting(self) -> tuple[int, ...]:
        """Throwers who hold cards, have not said «Бито»/«Пас» yet and have the right now."""
        free = self.throwers & ~self.said if self.free_order else may_throw(self)
        hands = self.hands
        return tuple(s for s in range(self.n) if free >> s & 1 and hands[s])

    def _settle(self, events: list[Event]) -> None:
        """End the bout if nothing more can happen in it (RULES §4)."""
        if self.unbeaten and not self.taking:
            return
        if len(self.att) < self.limit and (self.taking or self.hands[self.defender]):
            free, hands = self.throwers & ~self.said, self.hands
            while free:
                low = free & -free
                if hands[low.bit_length() - 1]:
                    return  # a thrower with cards has not decided yet
                free ^= low
        end_bout(self, events, taken=self.taking)

    # ------------------------------------------------------------ questions

    @property
    def is_over(self) -> bool:
        return self.outcome is not None

    @property
    def table(self) -> list[tuple[Card, Card | None]]:
        return [
            (CARDS[a], CARDS[d] if d >= 0 else None)
            for a, d in zip(self.att, self.dfn, strict=True)
        ]

    def turn(self) -> Turn | None:
        if self.outcome is not None:
            return None
        if not self.att:
            return Turn("attack", (self.attacker,))
        if self.unbeaten and not self.taking:
            return Turn("defend", (self.defender,))
        return Turn("throw", self._waiting())

    def view(self, seat: int | None = None) -> View:
        """What ``seat`` may know; ``None`` gives the spectators' view."""
        from .view import make_view

        return make_view(self, seat)

    def idle(self, seat: int) -> bool:
        """True when the seat should be played by a bot (two missed moves)."""
        return self.missed[seat] >= MISSES_TO_IDLE

    # Made in ``actions`` beside the checks that ``apply`` makes.
    legal_actions = _legal_actions
    cheat_actions = _cheat_actions
    all_legal_actions = _all_legal_actions
    timeout_actions = _timeout_actions

    # -------------------------------------------------------------- moves

    def apply(self, action: Action, *, auto: bool = False) -> list[Event]:
        """Make a move; returns what happened. Raises ``IllegalAction`` and changes
        nothing when the move is not allowed. ``auto`` marks a move made by a
        timeout or by a bot standing in for an absent player."""
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
        new = State.__new__(State)
        for name in State.__slots__:
            setattr(new, name, getattr(self, name))
        new.hands = self.hands[:]
        new.stock = self.stock[:]
        new.known = self.known[:]
        new.place = self.place[:]
        new.missed = self.missed[:]
        new.att = self.att[:]
        new.dfn = self.dfn[:]
        new.history = self.history[:]
        new.auto = self.auto[:]
        new.bout_attacks = self.bout_attacks[:]
        new.barred = self.barred[:]
        new.pogony_awards = self.pogony_awards[:]
        return new

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, State):
            return NotImplemented
        return self.to_dict() == other.to_dict()

    __hash__ = None  # type: ignore[assignment]

    def to_dict(self) -> dict[str, Any]:
        from .serialize import state_to_dict

        return state_to_dict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> State:
        from .serialize import state_from_dict

        return state_from_dict(data)
