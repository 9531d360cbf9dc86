"""Playouts: a sampled position played to the end by one policy for every seat.

Compiled with the engine (``engine.build.BOTS``): the bots spend their budget here.
"""

from __future__ import annotations

from collections.abc import Callable

from ..actions import Action
from ..state import State
from .endgame import DRAW, WIN, grade
from .heuristic import state_policy
from .policy import club_policy

Policy = Callable[[State, int], Action | None]
POLICIES: dict[str, Policy] = {"novice": state_policy, "club": club_policy}


def playout(
    state: State, seat: int, max_steps: int, policy: Policy = state_policy, draw: float = 0.5
) -> float:
    """Play to the end with ``policy`` for every seat: 1 if ``seat``'s team wins,
    ``draw`` for a draw, 0 if it is the fool."""
    steps = 0
    novice = policy is state_policy  # called directly when compiled
    while state.outcome is None:
        turn = state.turn()
        action = None
        if turn is not None:
            for s in turn.seats:
                action = state_policy(state, s) if novice else policy(state, s)
                if action is not None:
                    break
        steps += 1
        if action is None or steps > max_steps:
            return draw
        state.play(action)  # listed by legal_actions: no check needed
    value = grade(state, state.partners[seat])
    return draw if value == DRAW else value / WIN
