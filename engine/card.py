"""One card, ``rank * 4 + suit`` (see ``cards``), as an ``int`` subclass, and its texts.

Apart from ``cards`` because it stays Python: mypyc compiles no ``int`` subclass as a
native class (its marker for one is not in the standard library), while ``cards``, the
masks of the hot path, is compiled with the core (``engine.build``). Import these from
``engine.cards``, which re-exports them.
"""

from __future__ import annotations

SUITS = "SCDH"
SUIT_SYMBOLS = "♠♣♦♥"
RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
RU_RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "В", "Д", "К", "Т")
EN_RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")


class Card(int):
    """One card; an ``int`` so that it works in masks, sorts and hashes as one."""

    __slots__ = ()

    @property
    def rank(self) -> int:
        return self >> 2

    @property
    def suit(self) -> int:
        return self & 3

    @property
    def bit(self) -> int:
        return 1 << self

    def __str__(self) -> str:
        return RANKS[self >> 2] + SUITS[self & 3]

    def __repr__(self) -> str:
        return f"Card({str(self)!r})"

    def label(self, lang: str = "ru") -> str:
        """``7♠``, ``10♥``, ``Д♦`` (Russian) or ``Q♦`` (English)."""
        ranks = RU_RANKS if lang == "ru" else EN_RANKS
        return ranks[self >> 2] + SUIT_SYMBOLS[self & 3]

    @classmethod
    def parse(cls, text: str) -> Card:
        """``"10S"`` -> the ten of spades. Raises ``ValueError`` on bad text."""
        text = text.strip().upper()
        rank, suit = text[:-1], text[-1:]
        if rank not in RANKS or not suit or suit not in SUITS:
            raise ValueError(f"not a card: {text!r} (expected e.g. 7S, 10H, QD, AC)")
        return CARDS[RANKS.index(rank) * 4 + SUITS.index(suit)]


CARDS: tuple[Card, ...] = tuple(int.__new__(Card, i) for i in range(52))
