"""Play a whole game among computer players, each seeing only its own view.

The seats the game waits for are asked in turn, clockwise from the attacker;
the first that answers moves. A thrower who waits while the defender defends
is not asked (it may still throw in once everything is beaten).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from time import perf_counter

from ..events import Outcome
from ..players import Player
from ..state import State

MAX_ACTIONS = 5000  # far above any real game: reaching it is a bug


def play_game(
    state: State,
    players: Sequence[Player],
    *,
    timed: Callable[[int, float], None] | None = None,
    clock: Callable[[], float] = perf_counter,
    max_actions: int = MAX_ACTIONS,
) -> Outcome:
    """Play ``state`` to the end; ``timed(seat, seconds)`` hears every decision's time
    by ``clock`` (the wall clock, or e.g. ``time.process_time`` for CPU time)."""
    n = state.n
    while state.outcome is None:
        if len(state.history) >= max_actions:
            raise RuntimeError(f"game {state.seed} did not end in {max_actions} actions")
        turn = state.turn()
        assert turn is not None
        order = sorted(turn.seats, key=lambda s: (s - state.attacker) % n)
        for seat in order:
            view = state.view(seat)
            start = clock()
            action = players[seat].choose(view)
            if timed is not None:
                timed(seat, clock() - start)
            if action is not None:
                state.apply(action)
                break
        else:
            raise RuntimeError(f"nobody moved in game {state.seed} at {len(state.history)}")
    return state.outcome
