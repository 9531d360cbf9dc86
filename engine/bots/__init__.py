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
from .novice import NoviceBot
from .pimc import Budget, MonteCarloBot

# The lobby names, by level.
NAMES = {"novice": "Новичок", "expert": "Опытный", "master": "Мастер"}

# Work limits in simulated actions, so that a decision depends on the seed alone.
# With the compiled engine 40,000 actions took a p95 of 117 ms of CPU a decision,
# so «Мастер» gets three times that (p95 within the 1 s); its cap on deals
# is far enough above them that the actions decide (with 480 deals it stopped at
# 70,000 actions on average, less consistent across seeds). «Опытный» has four
# times its old budget: with it, it beats the club yardstick it lost to (README). Once
# the deal is fully known, the exact endgame search may spend all of them: if it
# runs out, the one possible deal is played out once per candidate. The clock
# limits are a safety net. «Мастер» plays not to be the fool: a draw is worth a win
# to it (on 600 games against «Новичок» it was the fool in 11.2% instead of 14.7%),
# and it searches a tree of its own moves over the sampled deals (``plan``), which
# beat «Опытный»'s flat search head to head (README). Against an opponent whose moves
# do not fit «Новичок»'s style its tree plays him by the club player's rules of thumb or
# the lowest card instead, as far as he does not fit (``mix``; README, session 21).
BUDGETS = {
    "expert": Budget(worlds=96, actions=40_000, seconds=0.5, endgame=40_000),
    "master": Budget(
        worlds=2000,
        actions=120_000,
        seconds=1.0,
        endgame=120_000,
        draw=1.0,
        search="plan",
        mix=("club", "lowest"),
    ),
}


def make_bot(level: str, *, seed: int = 0, budget: Budget | None = None) -> Player:
    """A bot by level: ``novice``, ``expert`` or ``master``."""
    if level == "novice":
        return NoviceBot(seed)
    if level not in BUDGETS:
        raise ValueError(f"bot level is one of {', '.join(NAMES)}, not {level!r}")
    return MonteCarloBot(NAMES[level], budget or BUDGETS[level], seed)


def decide(level: str, view: View, seed: int, share: float = 1.0) -> Action | None:
    """One decision of a ``level`` bot (what the game service's worker processes run),
    with ``share`` of the level's work when others wait (``Thinker.share``), but never
    less than «Опытный»'s whole budget: so «Опытный» always thinks in full, and «Мастер»
    down to a third (where it was not shown worse than «Опытный», README)."""
    least = BUDGETS["expert"].actions or 0
    budget = BUDGETS[level].scaled(share, least) if level in BUDGETS else None
    return make_bot(level, seed=seed, budget=budget).choose(view)


__all__ = ["BUDGETS", "NAMES", "Budget", "MonteCarloBot", "NoviceBot", "decide", "make_bot"]
