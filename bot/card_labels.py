"""Cards as players read them: the suit in its colour emoji form, so red (♥️ ♦️) and
black (♠️ ♣️) differ at a glance on buttons and in texts alike."""

from __future__ import annotations

from collections.abc import Sequence

from engine import Card

VS16 = "\ufe0f"  # after a suit symbol: its emoji (coloured) presentation


def card_label(card: Card, lang: str) -> str:
    """«7♠️», «10♥️», «Д♦️» (Russian) or «Q♦️» (English)."""
    return card.label(lang) + VS16


def cards_label(cards: Sequence[Card], lang: str) -> str:
    return " ".join(card_label(c, lang) for c in cards)
