"""Actions: small immutable values with a compact ASCII text form.

Text forms (the seat is kept apart, so the text fits into callback data)::

    a 7S 7H   open a bout with one or more cards of one rank
    t 7D      throw in one card
    d 9H>7H   defend: beat 7H with 9H
    x 7C      transfer the bout with 7C (perevodnoy)
    s 7H      transfer by showing the trump 7H, which stays in hand (an option)
    take      «Беру»      done   «Бито»      pass   «Пас»
    quit      «Сдаться»   back   «Вернуть управление» after a bot took over
    accuse 2  «Антимухлёж» against seat 2 (option ``cheating``)

A logged action is ``"<seat> <text>"``, e.g. ``"1 d 9H>7H"``.
"""

from __future__ import annotations

from typing import NamedTuple

from .cards import CARDS, Card

OPEN = "a"
THROW = "t"
BEAT = "d"
TRANSFER = "x"
SHOW = "s"
TAKE = "take"
DONE = "done"
PASS = "pass"
QUIT = "quit"
BACK = "back"
ACCUSE = "accuse"

CARD_KINDS = (OPEN, THROW, BEAT, TRANSFER, SHOW)
WORD_KINDS = (TAKE, DONE, PASS, QUIT, BACK)


class IllegalAction(ValueError):
    """An action the rules do not allow now; the message says why."""


class MalformedAction(ValueError):
    """A text that is not an action's text form at all (unknown kind, a bad card, a
    missing part); the message says what was expected."""


class Action(NamedTuple):
    seat: int
    kind: str
    cards: tuple[Card, ...] = ()
    target: Card | None = None  # the attack card a BEAT covers
    accused: int | None = None  # the seat an ACCUSE is made against

    @property
    def text(self) -> str:
        kind = self.kind
        if kind == BEAT and self.cards:
            return f"d {self.cards[0]}>{self.target}"
        if kind == ACCUSE:
            return f"accuse {self.accused}"
        if kind in CARD_KINDS:
            return kind + " " + " ".join(map(str, self.cards))
        return kind

    def __str__(self) -> str:
        return f"{self.seat} {self.text}"

    @classmethod
    def from_text(cls, seat: int, text: str) -> Action:
        """Parse the seat-less text form; raises ``MalformedAction`` when it is not one."""
        kind, _, rest = text.strip().partition(" ")
        rest = rest.strip()
        if kind == ACCUSE:
            if not rest.isdecimal():
                raise MalformedAction(f"an accusation names a seat, e.g. 'accuse 2': {text!r}")
            return cls(seat, ACCUSE, accused=int(rest))
        if kind in WORD_KINDS:
            if rest:
                raise MalformedAction(f"{kind!r} takes no cards: {text!r}")
            return cls(seat, kind)
        if kind == BEAT:
            beater, sep, target = rest.partition(">")
            if not sep:
                raise MalformedAction(f"a defence looks like 'd 9H>7H', not {text!r}")
            return cls(seat, BEAT, (_parsed(beater, text),), _parsed(target, text))
        if kind in (THROW, TRANSFER, SHOW):
            parts = rest.split()
            if len(parts) != 1:
                raise MalformedAction(f"{kind!r} takes exactly one card: {text!r}")
            return cls(seat, kind, (_parsed(parts[0], text),))
        if kind == OPEN:
            cards = tuple(sorted(_parsed(p, text) for p in rest.split()))
            if not cards:
                raise MalformedAction(f"an attack needs at least one card: {text!r}")
            return cls(seat, OPEN, cards)
        raise MalformedAction(f"unknown action {text!r}")

    @classmethod
    def parse(cls, logged: str) -> Action:
        """Parse the logged form ``"<seat> <text>"``; raises ``MalformedAction``."""
        seat, _, text = logged.strip().partition(" ")
        if not seat.isdecimal():
            raise MalformedAction(f"a logged action starts with its seat: {logged!r}")
        return cls.from_text(int(seat), text)


def _parsed(card: str, text: str) -> Card:
    """A card of an action's ``text``."""
    try:
        return Card.parse(card)
    except ValueError as e:
        raise MalformedAction(f"{e} in {text!r}") from None


def as_cards(action: Action) -> Action:
    """``action`` with plain ints (0-51) for cards made ``Card`` values, so that both
    builds take them alike and the log prints them as cards; raises ``IllegalAction``
    for anything else in place of a card."""
    raw: tuple[object, ...] = action  # read untyped: compiled code would demand a Card
    cards, target = raw[2], raw[3]
    assert isinstance(cards, tuple)
    if all(type(c) is Card for c in cards) and (target is None or type(target) is Card):
        return action
    try:
        made = tuple(_card(c) for c in cards)
        return action._replace(cards=made, target=None if target is None else _card(target))
    except (TypeError, IndexError, OverflowError):
        raise IllegalAction(f"not a card in {raw!r}") from None


def _card(value: object) -> Card:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise TypeError(value)
    return CARDS[value]


MAX_SEATS = 6


def _subsets(suits: int) -> list[int]:
    """Non-empty subsets of a 4-bit suit mask, smallest first."""
    subs = []
    sub = suits
    while sub:
        subs.append(sub)
        sub = (sub - 1) & suits
    return sorted(subs, key=lambda m: (m.bit_count(), m))


def _openings(seat: int, rank: int) -> tuple[tuple[Action, ...], ...]:
    return tuple(
        tuple(
            Action(seat, OPEN, tuple(CARDS[4 * rank + s] for s in range(4) if sub >> s & 1))
            for sub in _subsets(suits)
        )
        for suits in range(16)
    )


# Every card action made once, so that listing legal actions allocates nothing.
# OPENINGS[seat][rank][suits] lists the openings with those cards of one rank,
# fewest cards first; BEATS[seat][target][beater] is "d beater>target".
THROWS = tuple(tuple(Action(s, THROW, (c,)) for c in CARDS) for s in range(MAX_SEATS))
TRANSFERS = tuple(tuple(Action(s, TRANSFER, (c,)) for c in CARDS) for s in range(MAX_SEATS))
SHOWS = tuple(tuple(Action(s, SHOW, (c,)) for c in CARDS) for s in range(MAX_SEATS))
BEATS = tuple(
    tuple(tuple(Action(s, BEAT, (b,), t) for b in CARDS) for t in CARDS) for s in range(MAX_SEATS)
)
OPENINGS = tuple(tuple(_openings(s, r) for r in range(13)) for s in range(MAX_SEATS))
# OPENINGS_UP_TO[limit][seat][rank][suits]: those of OPENINGS with at most ``limit`` cards.
OPENINGS_UP_TO = tuple(
    tuple(
        tuple(
            tuple(tuple(o for o in row if len(o.cards) <= limit) for row in rank) for rank in seat
        )
        for seat in OPENINGS
    )
    for limit in range(7)
)
WORDS = {k: tuple(Action(s, k) for s in range(MAX_SEATS)) for k in WORD_KINDS}
# ACCUSES[seat][accused]: «Антимухлёж» of ``seat`` against ``accused``.
ACCUSES = tuple(
    tuple(Action(s, ACCUSE, accused=x) for x in range(MAX_SEATS)) for s in range(MAX_SEATS)
)
