"""Playouts: a sampled position played to the end by one policy for every seat, or
with some seats (the searching seat's opponents) played by others.

Compiled with the engine (``engine.build.BOTS``): the bots spend their budget here.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ..actions import Action
from ..state import State
from .endgame import DRAW, WIN, grade
from .heuristic import state_policy
from .policy import club_policy, lowest_policy

Policy = Callable[[State, int], Action | None]
POLICIES: dict[str, Policy] = {"novice": state_policy, "club": club_policy, "lowest": lowest_policy}


def playout(
    state: State,
    seat: int,
    max_steps: int,
    policy: Policy = state_policy,
    draw: float = 0.5,
    seats: Sequence[Policy | None] | None = None,
) -> float:
    """Play to the end with ``policy`` for every seat (or, per seat, ``seats``' policy
    where it is not None): 1 if ``seat``'s team wins, ``draw`` for a draw, 0 if it is
    the fool."""
    steps = 0
    novice = policy is state_policy  # called directly when compiled
    while state.outcome is None:
        turn = state.turn()
        action = None
        if turn is not None:
            for s in turn.seats:
                other = None if seats is None else seats[s]
                if other is not None:
                    action = other(state, s)
                elif novice:
                    action = state_policy(state, s)
                else:
                    action = policy(state, s)
                if action is not None:
                    break
        steps += 1
        if action is None or steps > max_steps:
            return draw
        state.play(action)  # listed by legal_actions: no check needed
    value = grade(state, state.partners[seat])
    return draw if value == DRAW else value / WIN
