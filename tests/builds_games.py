"""Prints what one build of the engine does with fixed seeds (run by tests/test_builds.py).

    python -m tests.builds_games          # the build the environment selects

One JSON line per game: the build, the log, snapshots along the way, the events,
the refusals of bad moves, a rebuilt view's position and a pickled copy's snapshot.
"""

from __future__ import annotations

import json
import pickle
import random
import sys

import engine
from engine import Action, IllegalAction, Mode, Rules, State, ThrowIn
from engine.bots.world import build_state
from engine.rules import ThrowOrder

RULES = (
    Rules(players=2, deck=36),
    Rules(players=3, deck=24, cheating=True),
    Rules(players=4, deck=36, mode=Mode.PEREVODNOY, transfer_by_trump_show=True, pogony=True),
    Rules(
        players=4, deck=52, teams=True, throw_in=ThrowIn.NEIGHBORS, throw_in_order=ThrowOrder.CIRCLE
    ),
    Rules(players=6, deck=52, mode=Mode.PEREVODNOY, last_cards_evenly=True, no_trump=True),
)


def game(rules: Rules, seed: int) -> dict[str, object]:
    state = State(rules, seed)
    rng = random.Random(seed)
    snapshots, events, refusals = [], [], []
    while state.outcome is None:
        moves = state.all_legal_actions() + state.cheat_actions(state.defender)
        action = moves[rng.randrange(len(moves))]
        if rng.random() < 0.5:
            events.append(repr(state.apply(action)))
        else:
            state.play(action)
        if rng.random() < 0.1:
            try:  # a plain int for a card, perhaps nobody's: both builds refuse alike
                card = rng.randrange(60)
                state.apply(Action(rng.randrange(rules.players), "t", (card,)))  # type: ignore[arg-type]  # an int: refused
            except IllegalAction as e:
                refusals.append(str(e))
        if rng.random() < 0.05:
            snapshots.append(state.to_dict())
            seat = state.defender
            rebuilt = build_state(state.view(seat), state.hands[:], state.stock[:])
            snapshots.append(rebuilt.to_dict())
            state = pickle.loads(pickle.dumps(state)).copy()
    view = pickle.loads(pickle.dumps(state.view(0)))
    return {
        "compiled": engine.COMPILED,
        "log": [str(a) for a in state.history],
        "end": state.to_dict(),
        "view": repr(view),
        "snapshots": snapshots,
        "events": events,
        "refusals": refusals,
    }


def main() -> int:
    for rules in RULES:
        for seed in range(int(sys.argv[1]) if len(sys.argv) > 1 else 40):
            print(json.dumps(game(rules, seed), sort_keys=True))
    return 0


if __name__ == "__main__":
    sys.exit(main())
