"""Cards as small ints and card sets as bit masks.

A card is ``rank * 4 + suit``: rank 0..12 stands for 2..A, suit 0..3 for
♠ ♣ ♦ ♥ (the tie-break order of RULES §3). So the lowest set bit of a mask is
the lowest card, ties broken by suit, and one rank is four adjacent bits.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from .card import CARDS as CARDS
from .card import EN_RANKS as EN_RANKS
from .card import RANKS as RANKS
from .card import RU_RANKS as RU_RANKS
from .card import SUIT_SYMBOLS as SUIT_SYMBOLS
from .card import SUITS as SUITS
from .card import Card as Card

# Lowest rank of each deck size: 24 cards are 9..A, 36 are 6..A, 52 are 2..A.
DECK_LOW_RANK = {24: 7, 36: 4, 52: 0}

RANK_MASK = tuple(0xF << (4 * r) for r in range(13))
NO_TRUMP = 4  # the trump "suit" of a game without trumps: no card has it
# SUIT_MASK[suit]: the cards of a suit; SUIT_MASK[NO_TRUMP] is empty.
SUIT_MASK = (*(sum(1 << (4 * r + s) for r in range(13)) for s in range(4)), 0)
SPADES = 0


def beat_masks(trump: int, spades_by_spades: bool = False) -> tuple[int, ...]:
    """For every card, the mask of the cards that beat it when ``trump`` is the trump
    suit (or ``NO_TRUMP``); with ``spades_by_spades`` a spade yields to higher spades only."""
    out = []
    for c in range(52):
        rank, suit = c >> 2, c & 3
        higher = SUIT_MASK[suit] & ~((1 << (4 * rank + 4)) - 1)
        alone = suit == trump or (spades_by_spades and suit == SPADES)
        out.append(higher if alone else higher | SUIT_MASK[trump])
    return tuple(out)


# BEAT_MASKS[spades_by_spades][trump][card], trump 0-3 or NO_TRUMP.
BEAT_MASKS = tuple(tuple(beat_masks(t, sbs) for t in range(5)) for sbs in (False, True))


def deck_mask(size: int) -> int:
    """All cards of a 24, 36 or 52 card deck."""
    return ((1 << 52) - 1) & ~((1 << (4 * DECK_LOW_RANK[size])) - 1)


def deck_cards(size: int) -> list[Card]:
    return list(CARDS[4 * DECK_LOW_RANK[size] :])


def mask_of(cards: Iterable[int]) -> int:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def iter_mask(mask: int) -> Iterator[Card]:
    """Cards of a mask, lowest first."""
    while mask:
        low = mask & -mask
        yield CARDS[low.bit_length() - 1]
        mask ^= low


def cards_of(mask: int) -> tuple[Card, ...]:
    """Cards of a mask, lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(CARDS[low.bit_length() - 1])
        mask ^= low
    return tuple(out)


def lowest(mask: int) -> Card:
    return CARDS[(mask & -mask).bit_length() - 1]


def parse_cards(text: str | Iterable[str]) -> list[Card]:
    """``"7S 10H"`` or ``["7S", "10H"]`` -> cards."""
    items = text.split() if isinstance(text, str) else list(text)
    return [Card.parse(t) for t in items]


def sort_for_hand(cards: Iterable[Card], trump: int | None) -> list[Card]:
    """By suit (♠ ♣ ♦ ♥), then rank, with trumps last: the order of a hand."""
    return sorted(cards, key=lambda c: (c.suit == trump, c.suit, c.rank))
