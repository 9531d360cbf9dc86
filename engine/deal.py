"""Shuffling, dealing and choosing the first attacker (RULES §2-3)."""

from __future__ import annotations

import random
from typing import NamedTuple

from .cards import SUIT_MASK, Card, deck_cards, lowest
from .rules import Opener, Rules

HAND_SIZE = 6
ACE = 12  # the rank of an ace
REDEALS = 1000  # «пересдача»: a bound that a fair shuffle never reaches


class Deal(NamedTuple):
    hands: list[int]  # masks, one per seat
    stock: list[int]  # draw order from the end; stock[0] is the face-up trump card
    trump_card: int
    trump_holder: int | None  # the seat dealt the trump card when the whole deck was dealt
    random_opener: int | None  # drawn only for ``no_trump_opener = random``


def deal(rules: Rules, seed: int) -> Deal:
    """Shuffle with the game's own generator and deal one card at a time from seat 0."""
    rng = random.Random(seed)
    cards = deck_cards(rules.deck)
    n = rules.players
    dealt = HAND_SIZE * n
    for _ in range(REDEALS):
        shuffle(rng, cards)
        hands = [0] * n
        for i in range(dealt):
            hands[i % n] |= 1 << cards[i]
        if not rules.redeal_five_of_suit or not any(map(_five_of_a_suit, hands)):
            break
    opener = rng.randrange(n) if rules.no_trump_opener is Opener.RANDOM else None
    if dealt == len(cards):
        # The whole deck is dealt: the last card shows the trump and stays with its player.
        return Deal(hands, [], cards[-1], (dealt - 1) % n, opener)
    rest = cards[dealt:]  # the face-up card, then the stock in draw order
    if rules.ace_does_not_hold_stock:
        # A turned-up ace goes back into the stock and the next card is turned up.
        while rest[0] >> 2 == ACE and any(c >> 2 != ACE for c in rest):
            ace = rest.pop(0)
            rest.insert(rng.randint(1, len(rest)), ace)
    stock: list[int] = [rest[0], *reversed(rest[1:])]
    return Deal(hands, stock, rest[0], None, opener)


def shuffle(rng: random.Random, cards: list[Card]) -> None:
    """``rng.shuffle(cards)``, the same draws and the same order (a test compares them),
    written out so that the compiled engine runs it natively: deals stay as they were."""
    getrandbits = rng.getrandbits
    for i in range(len(cards) - 1, 0, -1):
        k = BITS[i]  # j in 0..i by rejection, as random's _randbelow(i + 1) draws it
        j = getrandbits(k)
        while j > i:
            j = getrandbits(k)
        cards[i], cards[j] = cards[j], cards[i]


BITS = tuple((i + 1).bit_length() for i in range(64))  # BITS[i]: the bits of i + 1


def _five_of_a_suit(hand: int) -> bool:
    return any((hand & suit).bit_count() >= 5 for suit in SUIT_MASK)


def first_attacker(hands: list[int], trump: int) -> tuple[int, int | None]:
    """The seat that opens the game and the trump it shows (None when nobody has trumps).

    The holder of the lowest trump opens; without trumps, the holder of the
    lowest card, ties broken by suit order ♠ ♣ ♦ ♥.
    """
    trumps = SUIT_MASK[trump]
    best: tuple[int, int] | None = None
    for seat, hand in enumerate(hands):
        if hand & trumps:
            card = lowest(hand & trumps)
            if best is None or card < best[1]:
                best = (seat, card)
    if best is not None:
        return best[0], best[1]
    seat = min((h & -h, s) for s, h in enumerate(hands) if h)[1]
    return seat, None
