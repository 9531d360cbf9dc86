"""The position of one game and the rules that move it on (RULES §4-8).

Hands, the table and the discard are bit masks of cards (see ``cards``), so
the hot path of ``legal_actions`` and ``apply`` is integer arithmetic.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, NamedTuple

from .actions import (
    BACK,
    BEAT,
    BEATS,
    DONE,
    OPEN,
    OPENINGS,
    PASS,
    QUIT,
    SUBSETS_UP_TO,
    TAKE,
    THROW,
    THROWS,
    TRANSFER,
    TRANSFERS,
    WORDS,
    Action,
    IllegalAction,
)
from .cards import CARDS, RANK_MASK, SUIT_MASK, Card, cards_of, lowest
from .deal import HAND_SIZE, deal, first_attacker
from .events import BoutEnded, Drew, Event, GameOver, Idle, Left, Outcome, Played
from .rules import Rules, ThrowIn

if TYPE_CHECKING:
    from .view import View

MISSES_TO_IDLE = 2  # attack/defence timeouts in a row that hand a seat to a bot
_DEFENCE = (BEAT, TRANSFER, TAKE)


class Turn(NamedTuple):
    """Who the game waits for and with which clock (RULES §8).

    ``kind`` is ``"attack"`` (open a bout), ``"defend"`` or ``"throw"`` (the
    throwers decide whether to add cards after everything is beaten or after
    «Беру»). While the defender defends, throwers may also add cards, but
    nobody waits for them.
    """

    kind: str
    seats: tuple[int, ...]


def beat_masks(trump: int) -> tuple[int, ...]:
    """For every card, the mask of the cards that beat it."""
    out = []
    for c in range(52):
        rank, suit = c >> 2, c & 3
        higher = SUIT_MASK[suit] & ~((1 << (4 * rank + 4)) - 1)
        out.append(higher if suit == trump else higher | SUIT_MASK[trump])
    return tuple(out)


_BEATS = tuple(beat_masks(t) for t in range(4))


class State:
    """One game: the deal, the bout in progress, the places, the action log."""

    __slots__ = (
        "att",
        "attacker",
        "auto",
        "beats",
        "bito_seen",
        "cap",
        "cover",
        "defender",
        "dfn",
        "discard",
        "hands",
        "history",
        "known",
        "limit",
        "missed",
        "n",
        "opener",
        "outcome",
        "place",
        "rules",
        "said",
        "seed",
        "shown",
        "stock",
        "taking",
        "throwers",
        "trump",
        "trump_card",
        "unbeaten",
    )
    rules: Rules
    seed: int
    n: int
    hands: list[int]  # one mask per seat
    stock: list[int]  # drawn from the end; stock[0] is the face-up trump card
    trump_card: Card
    trump: int
    beats: tuple[int, ...]  # per card: the mask of cards that beat it
    discard: int
    known: list[int]  # per seat: cards shown to be in that hand (intersect with hands)
    shown: Card | None  # the lowest trump shown at the opening
    place: list[int]  # 0 while in the game
    missed: list[int]
    bito_seen: bool  # a bout has ended in «Бито»: the cap is 6 from now on
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

    def __init__(self, rules: Rules, seed: int) -> None:
        """A new game dealt from ``seed``."""
        d = deal(rules, seed)
        self._setup(rules, seed, d.hands, d.stock, d.trump_card)
        if d.trump_holder is not None:
            self.known[d.trump_holder] |= 1 << d.trump_card
        opener, shown = first_attacker(self.hands, self.trump)
        if shown is not None:
            self.shown = CARDS[shown]
            self.known[opener] |= 1 << shown
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
        self.hands = hands
        self.stock = stock
        self.trump_card = CARDS[trump_card]
        self.trump = trump_card & 3
        self.beats = _BEATS[self.trump]
        self.discard = 0
        self.known = [0] * n
        self.shown = None
        self.place = [0] * n
        self.missed = [0] * n
        self.bito_seen = False
        self.history = []
        self.auto = []
        self.outcome: Outcome | None = None

    # ----------------------------------------------------------------- bouts

    def _start_bout(self, opener: int) -> None:
        self.opener = self.attacker = opener
        self.defender = d = self._next_opponent(opener)
        self.cap = 6 if self.bito_seen or not self.rules.first_bout_cap_5 else 5
        self.limit = min(self.cap, self.hands[d].bit_count())
        self.att = []
        self.dfn = []
        self.unbeaten = 0
        self.cover = 0
        self.taking = False
        self.said = 0
        self.throwers = self._throw_rights(d)

    def _next_active(self, seat: int) -> int:
        n, place = self.n, self.place
        s = (seat + 1) % n
        while place[s]:
            s = (s + 1) % n
        return s

    def _next_opponent(self, seat: int) -> int:
        """The next player clockwise still in the game, passing over partners."""
        rules, n, place = self.rules, self.n, self.place
        team = rules.team(seat)
        s = (seat + 1) % n
        while place[s] or rules.team(s) == team:
            s = (s + 1) % n
            if s == seat:
                raise RuntimeError("no opponent left")
        return s

    def _throw_rights(self, d: int) -> int:
        """Bit mask of the seats that may throw in against defender ``d``."""
        rules, n, place = self.rules, self.n, self.place
        if rules.throw_in is ThrowIn.NEIGHBORS:
            left = self._next_active(d)
            right = d
            for _ in range(n):
                right = (right - 1) % n
                if not place[right]:
                    break
            seats: Iterable[int] = {left, right}
        else:
            seats = range(n)
        team = rules.team(d)
        mask = 0
        for s in seats:
            if s != d and not place[s] and rules.team(s) != team:
                mask |= 1 << s
        return mask

    def _waiting(self) -> tuple[int, ...]:
        """Throwers who hold cards and have not said «Бито»/«Пас» yet."""
        free = self.throwers & ~self.said
        hands = self.hands
        return tuple(s for s in range(self.n) if free >> s & 1 and hands[s])

    def _anyone_waiting(self) -> bool:
        free = self.throwers & ~self.said
        hands = self.hands
        while free:
            low = free & -free
            if hands[low.bit_length() - 1]:
                return True
            free ^= low
        return False

    def _settle(self, events: list[Event]) -> None:
        """End the bout if nothing more can happen in it (RULES §4)."""
        if self.taking:
            if len(self.att) >= self.limit or not self._anyone_waiting():
                self._end_bout(events, taken=True)
        elif not self.unbeaten and (
            len(self.att) >= self.limit
            or not self.hands[self.defender]
            or not self._anyone_waiting()
        ):
            self._end_bout(events, taken=False)

    def _end_bout(self, events: list[Event], *, taken: bool) -> None:
        d = self.defender
        table = 0
        for c in self.att:
            table |= 1 << c
        for c in self.dfn:
            if c >= 0:
                table |= 1 << c
        if taken:
            self.hands[d] |= table
            self.known[d] |= table
        else:
            self.discard |= table
            self.bito_seen = True
        events.append(BoutEnded(taken, d, cards_of(table)))
        self.att = []
        self.dfn = []
        self._draw(events)
        if self._leave(events):
            return
        if taken or self.place[d]:
            self._start_bout(self._next_active(d))
        else:
            self._start_bout(d)

    def _draw(self, events: list[Event]) -> None:
        """Opener first, then clockwise, the defender last; the trump card last of all."""
        stock = self.stock
        if not stock:
            return
        d, n, hands, place = self.defender, self.n, self.hands, self.place
        order = [s for s in range(self.opener, self.opener + n) if s % n != d]
        order.append(d)
        for s in order:
            s %= n
            need = HAND_SIZE - hands[s].bit_count()
            if need <= 0 or place[s]:
                continue
            got = min(need, len(stock))
            for _ in range(got):
                hands[s] |= 1 << stock.pop()
            trump_drawn = not stock
            if trump_drawn:  # the face-up trump card: everyone sees who takes it
                self.known[s] |= 1 << self.trump_card
            events.append(Drew(s, got, trump_drawn))
            if trump_drawn:
                return

    def _leave(self, events: list[Event]) -> bool:
        """Players without cards leave once the stock is empty. True if the game ended."""
        if self.stock:
            return False
        place = self.place
        rank = 1 + sum(1 for p in place if p)
        for s in range(self.n):
            if not place[s] and not self.hands[s]:
                place[s] = rank
                events.append(Left(s, rank))
        active = [s for s in range(self.n) if not place[s]]
        if self.rules.teams:
            finished = {t for t in (0, 1) if all(place[s] for s in range(t, self.n, 2))}
            if not finished:
                return False
            fools = () if len(finished) == 2 else tuple(range(1 - finished.pop(), self.n, 2))
        elif len(active) > 1:
            return False
        else:
            fools = tuple(active)
        self._finish(events, fools, surrendered=None)
        return True

    def _finish(self, events: list[Event], fools: tuple[int, ...], surrendered: int | None) -> None:
        place = self.place
        rank = 1 + sum(1 for p in place if p)
        rest = [s for s in range(self.n) if not place[s] and s not in fools]
        for s in rest:
            place[s] = rank
        rank += len(rest)
        for s in range(self.n):
            if not place[s]:
                place[s] = rank
        self.outcome = Outcome(fools, tuple(place), not fools, surrendered)
        self.att, self.dfn, self.unbeaten, self.said, self.throwers = [], [], 0, 0, 0
        events.append(GameOver(self.outcome))

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

    def timeout_actions(self) -> list[Action]:
        """The automatic moves when the current turn's time runs out (RULES §8)."""
        turn = self.turn()
        if turn is None:
            return []
        if turn.kind == "attack":
            hand = self.hands[self.attacker]
            plain = hand & ~SUIT_MASK[self.trump]
            return [Action(self.attacker, OPEN, (lowest(plain or hand),))]
        if turn.kind == "defend":
            return [Action(self.defender, TAKE)]
        word = PASS if self.taking else DONE
        return [Action(s, word) for s in turn.seats]

    def idle(self, seat: int) -> bool:
        """True when the seat should be played by a bot (two missed moves)."""
        return self.missed[seat] >= MISSES_TO_IDLE

    def legal_actions(self, seat: int) -> list[Action]:
        """The moves of play ``seat`` may make now (several seats may act at once).

        Not listed, because they are always there: «Сдаться» (``quit``) for any
        seat in the game, and ``back`` while the seat is idle (see ``idle``).
        """
        if self.outcome is not None or self.place[seat]:
            return []
        out: list[Action] = []
        hand = self.hands[seat]
        if not self.att:
            if seat == self.attacker:
                openings, upto, limit = OPENINGS[seat], SUBSETS_UP_TO, self.limit
                while hand:
                    rank = ((hand & -hand).bit_length() - 1) >> 2
                    suits = hand >> (4 * rank) & 15
                    hand &= ~RANK_MASK[rank]
                    out.extend(openings[rank][suits][: upto[suits][limit]])
        elif seat == self.defender:
            if not self.taking and self.unbeaten:
                beats, dfn, by_target = self.beats, self.dfn, BEATS[seat]
                for i, c in enumerate(self.att):
                    if dfn[i] < 0:
                        row = by_target[c]
                        m = hand & beats[c]
                        while m:
                            low = m & -m
                            out.append(row[low.bit_length() - 1])
                            m ^= low
                if self._transfer_target() is not None:
                    row = TRANSFERS[seat]
                    m = hand & RANK_MASK[self.att[0] >> 2]
                    while m:
                        low = m & -m
                        out.append(row[low.bit_length() - 1])
                        m ^= low
                out.append(WORDS[TAKE][seat])
        elif self.throwers >> seat & 1 and hand and not self.said >> seat & 1:
            if len(self.att) < self.limit:
                row = THROWS[seat]
                m = hand & self.cover
                while m:
                    low = m & -m
                    out.append(row[low.bit_length() - 1])
                    m ^= low
            if self.taking:
                out.append(WORDS[PASS][seat])
            elif not self.unbeaten:
                out.append(WORDS[DONE][seat])
        return out

    def _transfer_target(self) -> int | None:
        """The seat a transfer would pass the bout to, if a transfer is allowed now."""
        if not self.rules.transfer or self.taking or self.unbeaten != len(self.att):
            return None
        count = len(self.att) + 1
        if count > self.cap:
            return None
        target = self._next_opponent(self.defender)
        if self.hands[target].bit_count() < count:
            return None
        return target

    # -------------------------------------------------------------- moves

    def apply(self, action: Action, *, auto: bool = False) -> list[Event]:
        """Make a move; returns what happened. Raises ``IllegalAction`` and changes
        nothing when the move is not allowed. ``auto`` marks a move made by a
        timeout or by a bot standing in for an absent player."""
        if self.outcome is not None:
            raise IllegalAction("the game is over")
        seat, kind = action.seat, action.kind
        if not 0 <= seat < self.n:
            raise IllegalAction(f"there is no seat {seat}")
        if self.place[seat]:
            raise IllegalAction(f"seat {seat} has left the game")
        counts = auto and (kind == OPEN or (seat == self.defender and kind in _DEFENCE))
        events: list[Event] = [Played(action, auto)]
        handler = _HANDLERS.get(kind)
        if handler is None:
            raise IllegalAction(f"unknown action kind {kind!r}")
        handler(self, action, events)
        self.history.append(action)
        self.auto.append(auto)
        if counts:
            self.missed[seat] += 1
            if self.missed[seat] == MISSES_TO_IDLE:
                events.insert(1, Idle(seat))
        elif not auto and kind != BACK:
            self.missed[seat] = 0
        return events

    def _hand_card(self, action: Action, index: int = 0) -> int:
        if len(action.cards) <= index:
            raise IllegalAction(f"{action.text!r} names no card")
        c = action.cards[index]
        if not self.hands[action.seat] >> c & 1:
            raise IllegalAction(f"seat {action.seat} does not hold {c}")
        return c

    def _do_open(self, action: Action, events: list[Event]) -> None:
        seat = action.seat
        if self.att:
            raise IllegalAction("the bout is already open: throw in instead")
        if seat != self.attacker:
            raise IllegalAction(f"seat {self.attacker} opens this bout, not seat {seat}")
        cards = action.cards
        if not cards:
            raise IllegalAction("an attack needs at least one card")
        rank = cards[0] >> 2
        mask = 0
        for i, c in enumerate(cards):
            self._hand_card(action, i)
            if c >> 2 != rank:
                raise IllegalAction("an opening may combine only cards of one rank")
            mask |= 1 << c
        if mask.bit_count() != len(cards):
            raise IllegalAction("the same card twice")
        if len(cards) > self.limit:
            raise IllegalAction(f"at most {self.limit} cards may attack in this bout")
        self.hands[seat] &= ~mask
        self.att = list(cards)
        self.dfn = [-1] * len(cards)
        self.unbeaten = len(cards)
        self.cover = RANK_MASK[rank]

    def _do_throw(self, action: Action, events: list[Event]) -> None:
        seat = action.seat
        self._check_thrower(seat)
        c = self._hand_card(action)
        if not self.cover >> c & 1:
            raise IllegalAction(f"no card of the rank of {c} is on the table")
        if len(self.att) >= self.limit:
            raise IllegalAction(f"the table already has the most attack cards: {self.limit}")
        self.hands[seat] &= ~(1 << c)
        self.att.append(c)
        self.dfn.append(-1)
        self.unbeaten += 1
        self.said = 0
        self._settle(events)

    def _check_thrower(self, seat: int) -> None:
        if not self.att:
            raise IllegalAction("the bout is not open yet")
        if seat == self.defender:
            raise IllegalAction("the defender does not throw in")
        if not self.throwers >> seat & 1:
            raise IllegalAction(f"seat {seat} may not throw in against seat {self.defender}")
        if self.said >> seat & 1:
            raise IllegalAction(f"seat {seat} has already said it adds nothing more")

    def _check_defender(self, seat: int) -> None:
        if seat != self.defender or not self.att:
            raise IllegalAction(f"only the defender, seat {self.defender}, may do that now")
        if self.taking:
            raise IllegalAction("the defender has already said «Беру»")

    def _do_beat(self, action: Action, events: list[Event]) -> None:
        self._check_defender(action.seat)
        c = self._hand_card(action)
        target = action.target
        if target is None or target not in self.att:
            raise IllegalAction(f"{target} is not an attack card on the table")
        i = self.att.index(target)
        if self.dfn[i] >= 0:
            raise IllegalAction(f"{target} is already beaten")
        if not self.beats[target] >> c & 1:
            raise IllegalAction(f"{c} does not beat {target}")
        self.hands[action.seat] &= ~(1 << c)
        self.dfn[i] = c
        self.unbeaten -= 1
        self.cover |= RANK_MASK[c >> 2]
        self._settle(events)

    def _do_transfer(self, action: Action, events: list[Event]) -> None:
        seat = action.seat
        self._check_defender(seat)
        if not self.rules.transfer:
            raise IllegalAction("transfers are played only in perevodnoy")
        c = self._hand_card(action)
        if c >> 2 != self.att[0] >> 2:
            raise IllegalAction(f"a transfer needs a card of the attack's rank, not {c}")
        if self.unbeaten != len(self.att):
            raise IllegalAction("no transfer once a card has been beaten")
        target = self._transfer_target()
        if target is None:
            raise IllegalAction(
                "the next player must hold as many cards as there will be on the table, "
                f"and the bout may have at most {self.cap} attack cards"
            )
        self.hands[seat] &= ~(1 << c)
        self.att.append(c)
        self.dfn.append(-1)
        self.unbeaten += 1
        self.attacker, self.defender = seat, target
        self.limit = min(self.cap, self.hands[target].bit_count())
        self.throwers = self._throw_rights(target)
        self.said = 0

    def _do_take(self, action: Action, events: list[Event]) -> None:
        self._check_defender(action.seat)
        if not self.unbeaten:
            raise IllegalAction("everything is beaten: there is nothing to take")
        self.taking = True
        self.said = 0
        self._settle(events)

    def _do_done(self, action: Action, events: list[Event]) -> None:
        seat = action.seat
        self._check_thrower(seat)
        if not self.hands[seat]:
            raise IllegalAction("a player without cards has nothing to decide")
        if action.kind == PASS and not self.taking:
            raise IllegalAction("«Пас» is for after «Беру»; say «Бито» when all is beaten")
        if action.kind == DONE:
            if self.taking:
                raise IllegalAction("the defender takes: say «Пас», not «Бито»")
            if self.unbeaten:
                raise IllegalAction("«Бито» only when every attack card is beaten")
        self.said |= 1 << seat
        self._settle(events)

    def _do_quit(self, action: Action, events: list[Event]) -> None:
        seat = action.seat
        team = self.rules.team(seat)
        fools = tuple(s for s in range(self.n) if self.rules.team(s) == team)
        self._finish(events, fools, surrendered=seat)

    def _do_back(self, action: Action, events: list[Event]) -> None:
        if self.missed[action.seat] < MISSES_TO_IDLE:
            raise IllegalAction("this seat is not played by a bot")
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


_HANDLERS = {
    OPEN: State._do_open,
    THROW: State._do_throw,
    BEAT: State._do_beat,
    TRANSFER: State._do_transfer,
    TAKE: State._do_take,
    DONE: State._do_done,
    PASS: State._do_done,
    QUIT: State._do_quit,
    BACK: State._do_back,
}
