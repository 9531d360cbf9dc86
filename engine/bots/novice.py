"""«Новичок»: the heuristic (``heuristic.decide``) on a seat's view.

A Python class of its own, outside the compiled modules, so that other players
(``bench.club.ClubPlayer``) can subclass it.
"""

from __future__ import annotations

from ..actions import Action
from ..view import View
from .heuristic import catch_cheat, decide, must_act, view_table


class NoviceBot:
    """«Новичок»: the heuristic alone, instant and deterministic."""

    name = "Новичок"

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def choose(self, view: View) -> Action | None:
        if not must_act(view):
            return None
        caught = catch_cheat(view)
        if caught is not None:
            return caught
        return self.decide(view)

    def decide(self, view: View) -> Action | None:
        """The move, once one is due and no cheat is to be caught."""
        att, dfn = view_table(view)
        hand = sum(1 << c for c in view.hand)
        return decide(view.legal, hand, view.trump, att, dfn, view.stock_size)
