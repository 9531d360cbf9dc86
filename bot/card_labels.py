"""Cards as players read them: the suit in its colour emoji form, so red (♥️ ♦️) and
black (♠️ ♣️) differ at a glance on buttons and in texts alike."""

from __future__ import annotations

import unicodedata

from engine import Card, View
from engine.cards import NO_TRUMP, SUIT_SYMBOLS

from .i18n import t

VS16 = "\ufe0f"  # after a suit symbol: its emoji (coloured) presentation
ROW_WIDTH = 28  # characters a keyboard row shows on a 360-px phone without cutting a label


def card_label(card: Card, lang: str) -> str:
    """«7♠️», «10♥️», «Д♦️» (Russian) or «Q♦️» (English)."""
    return card.label(lang) + VS16


def width(text: str) -> int:
    """Characters as a phone draws them: an emoji (a suit in colour, 🤫) counts two."""
    out = 0
    for i, ch in enumerate(text):
        if ch != VS16:
            coloured = text[i + 1 : i + 2] == VS16
            out += 2 if coloured or unicodedata.east_asian_width(ch) == "W" else 1
    return out


def trump_words(lang: str, view: View, card: str, plain: str) -> str:
    """The trump as the table and the hands say it: ``plain`` (a text id taking the
    turned ``card``) when the turned card's suit is trump, else the trump suit and, apart,
    the card turned (fixed ♦), or that there is none."""
    if view.trump == NO_TRUMP:
        return t(lang, "table.no_trump", card=card)
    if view.trump != view.trump_card.suit:
        return t(lang, "table.fixed_trump", suit=SUIT_SYMBOLS[view.trump] + VS16, card=card)
    return t(lang, plain, card=card)
