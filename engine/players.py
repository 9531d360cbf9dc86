"""Simple computer players that decide from a seat's view only.

``choose`` returns the action to make now, or ``None`` to wait (a thrower
who does not want to add a card while the defender is still defending).
The real bots of several strengths come in their own module.
"""

from __future__ import annotations

import random
from typing import Protocol

from .actions import BEAT, DONE, OPEN, PASS, TAKE, THROW, TRANSFER, Action
from .view import View


class Player(Protocol):
    def choose(self, view: View) -> Action | None: ...


class RandomPlayer:
    """Any legal move, uniformly; never waits when it may act."""

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: View) -> Action | None:
        return self.rng.choice(view.legal) if view.legal else None


class GreedyPlayer:
    """Plays the cheapest card that does the job and keeps trumps.

    Opens with its lowest rank (non-trumps first), beats each card with the
    cheapest card, takes when some card cannot be beaten, transfers with a
    non-trump, throws in low non-trumps, and says «Бито»/«Пас» otherwise.
    """

    def choose(self, view: View) -> Action | None:
        legal = view.legal
        if not legal:
            return None
        trump = view.trump

        def cost(card: int) -> int:
            # Non-trumps by rank, then trumps above every non-trump.
            return (card >> 2) + (13 if card & 3 == trump else 0)

        by_kind: dict[str, list[Action]] = {}
        for a in legal:
            by_kind.setdefault(a.kind, []).append(a)
        if OPEN in by_kind:
            low = min(cost(c) for a in by_kind[OPEN] for c in a.cards)
            same = [a for a in by_kind[OPEN] if all(cost(c) == low for c in a.cards)]
            return max(same, key=lambda a: len(a.cards)) if same else by_kind[OPEN][0]
        if view.seat == view.defender and (BEAT in by_kind or TAKE in by_kind):
            return self._defend(view, by_kind)
        throws = [a for a in by_kind.get(THROW, []) if a.cards[0] & 3 != trump]
        if throws:
            return min(throws, key=lambda a: cost(a.cards[0]))
        for word in (DONE, PASS):
            if word in by_kind:
                return by_kind[word][0]
        return None

    @staticmethod
    def _defend(view: View, by_kind: dict[str, list[Action]]) -> Action:
        trump = view.trump
        transfers = [a for a in by_kind.get(TRANSFER, []) if a.cards[0] & 3 != trump]
        if transfers:
            return transfers[0]
        unbeaten = [att for att, dfn in view.table if dfn is None]
        beats = by_kind.get(BEAT, [])
        for target in unbeaten:
            options = [a for a in beats if a.target == target]
            if not options:
                return by_kind[TAKE][0]
        # Beat the card whose cheapest answer is the cheapest first.
        return min(beats, key=lambda a: ((a.cards[0] & 3 == trump), a.cards[0] >> 2))
