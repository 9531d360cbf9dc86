"""Shuffling, dealing and choosing the first attacker (RULES §2-3)."""

from __future__ import annotations

import random
from typing import NamedTuple

from .cards import SUIT_MASK, deck_cards, lowest
from .rules import Rules

HAND_SIZE = 6


class Deal(NamedTuple):
    hands: list[int]  # masks, one per seat
    stock: list[int]  # draw order from the end; stock[0] is the face-up trump card
    trump_card: int
    trump_holder: int | None  # the seat dealt the trump card when the whole deck was dealt


def deal(rules: Rules, seed: int) -> Deal:
    """Shuffle with the game's own generator and deal one card at a time from seat 0."""
    cards = deck_cards(rules.deck)
    random.Random(seed).shuffle(cards)
    n = rules.players
    dealt = HAND_SIZE * n
    hands = [0] * n
    for i in range(dealt):
        hands[i % n] |= 1 << cards[i]
    if dealt == len(cards):
        # The whole deck is dealt: the last card shows the trump and stays with its player.
        return Deal(hands, [], cards[-1], (dealt - 1) % n)
    trump_card = cards[dealt]
    stock: list[int] = [trump_card, *reversed(cards[dealt + 1 :])]
    return Deal(hands, stock, trump_card, None)


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
