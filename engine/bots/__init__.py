"""Computer players of three strengths. They see only their seat's view.

>>> from engine import Rules, State
>>> bot = make_bot("novice")
>>> game = State(Rules(), seed=1)
>>> bot.choose(game.view(game.attacker)) is not None
True
"""

from __future__ import annotations

from ..actions import Action
from ..players import Player
from ..view import View
from .heuristic import NoviceBot
from .pimc import Budget, MonteCarloBot

# The lobby names, by level.
NAMES = {"novice": "Новичок", "expert": "Опытный", "master": "Мастер"}

# Work limits in simulated actions, so that a decision depends on the seed alone:
# about 0.1 s («Опытный») and 0.4 s («Мастер») at the ~95k actions a second of one
# loaded core of a 2-core machine (pure Python; the compiled engine is faster). Once
# the deal is fully known, the exact endgame search may spend all of them: if it runs
# out, the one possible deal is played out once per candidate. The clock limits are
# a safety net only.
BUDGETS = {
    "expert": Budget(worlds=24, actions=10_000, seconds=0.5, endgame=10_000),
    "master": Budget(worlds=160, actions=40_000, seconds=1.0, endgame=40_000),
}


def make_bot(level: str, *, seed: int = 0, budget: Budget | None = None) -> Player:
    """A bot by level: ``novice``, ``expert`` or ``master``."""
    if level == "novice":
        return NoviceBot(seed)
    if level not in BUDGETS:
        raise ValueError(f"bot level is one of {', '.join(NAMES)}, not {level!r}")
    return MonteCarloBot(NAMES[level], budget or BUDGETS[level], seed)


def decide(level: str, view: View, seed: int) -> Action | None:
    """One decision of a ``level`` bot (what the game service's worker processes run)."""
    return make_bot(level, seed=seed).choose(view)


__all__ = ["BUDGETS", "NAMES", "Budget", "MonteCarloBot", "NoviceBot", "decide", "make_bot"]
