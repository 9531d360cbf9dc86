"""Cards as players read them: the suit in its colour emoji form, so red (♥️ ♦️) and
black (♠️ ♣️) differ at a glance on buttons and in texts alike."""

from __future__ import annotations

import functools
import unicodedata
from collections.abc import Sequence

from engine import Card, View
from engine.cards import NO_TRUMP, SUIT_SYMBOLS

from .i18n import t

VS16 = "\ufe0f"  # after a suit symbol: its emoji (coloured) presentation
ROW_WIDTH = 28  # characters a keyboard row shows on a 360-px phone without cutting a label
STATUS_WIDTH = 30  # characters of a line of text a 360-px phone shows unwrapped (bold too)


def card_label(card: Card, lang: str) -> str:
    """«7♠️», «10♥️», «Д♦️» (Russian) or «Q♦️» (English)."""
    return card.label(lang) + VS16


EMOJI = (0x1F000, 0x1FAFF)  # pictographs a phone draws as emoji even without VS16 (🕵, 🏳)


@functools.lru_cache(maxsize=4096)  # the same labels and lines, move after move
def width(text: str) -> int:
    """Characters as a phone draws them: an emoji (a suit in colour, 🤫, 🕵) counts two."""
    out = 0
    for i, ch in enumerate(text):
        if ch != VS16:
            coloured = text[i + 1 : i + 2] == VS16
            wide = coloured or unicodedata.east_asian_width(ch) == "W"
            out += 2 if wide or EMOJI[0] <= ord(ch) <= EMOJI[1] else 1
    return out


def fitted(parts: Sequence[str], sep: str, bound: int = STATUS_WIDTH) -> str:
    """``parts`` joined by ``sep`` on one line while it stays within ``bound``, else
    on the next: the phone never breaks a line inside a part."""
    lines: list[str] = []
    for part in parts:
        if lines and width(lines[-1] + sep + part) <= bound:
            lines[-1] += sep + part
        else:
            lines.append(part)
    return "\n".join(lines)


def trump_words(lang: str, view: View, card: str, area: str) -> str:
    """The trump as the table (``area`` "table") or a hand ("hand") says it, with the
    turned ``card``: the card when its suit is trump, else the trump suit and, apart,
    the card turned (fixed ♦), or that there is none."""
    if view.trump == NO_TRUMP:
        return t(lang, f"{area}.no_trump", card=card)
    if view.trump != view.trump_card.suit:
        return t(lang, f"{area}.fixed_trump", suit=SUIT_SYMBOLS[view.trump] + VS16, card=card)
    return t(lang, f"{area}.trump", card=card)
