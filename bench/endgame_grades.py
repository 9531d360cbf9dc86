"""How often a bot gives value away in fully known endgames, graded by exact search.

    python -m bench.endgame_grades --level master --deals 100
    python -m bench.endgame_grades --level master --deals 100 --endgame 0   # no solver

Plays 2-player games of the bot against «Новичок» (each deal both ways). At every
decision of the bot whose view leaves one possible deal (two players, empty
stock), an exact search values every legal move; the decision gives value away
when its move is worth less than the best one (a win turned into a draw or a
loss, a draw into a loss). Positions the grader cannot finish within its node
limit are counted apart. Prints the counts with 95% Wilson intervals.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from collections.abc import Sequence
from dataclasses import replace

from engine import Action, Rules, State
from engine.actions import ACCUSE
from engine.bots import BUDGETS, MonteCarloBot, NoviceBot
from engine.bots.endgame import Solver, known_world
from engine.players import Player

from .tournament import wilson

NAMES = ("loss", "draw", "win")


def graded(state: State, seat: int, nodes: int) -> tuple[list[Action], list[int]] | None:
    """Every legal move of ``seat`` with its exact value, if the position is fully known
    to the seat and the grader finishes within ``nodes``."""
    view = state.view(seat)
    world = known_world(view)
    if world is None:
        return None
    moves = [a for a in view.legal if a.kind != ACCUSE]
    values = Solver(world.partners[seat], nodes).values(world, moves)
    return None if values is None else (moves, values)


def play(
    rules: Rules, deal: int, bot_seat: int, bot: MonteCarloBot, nodes: int, tally: Counter[str]
) -> None:
    """One game; the grades of the bot's fully known decisions go into ``tally``."""
    state = State(rules, deal)
    players: list[Player] = [bot if s == bot_seat else NoviceBot() for s in range(rules.players)]
    while state.outcome is None:
        turn = state.turn()
        assert turn is not None
        seat = turn.seats[0]
        view = state.view(seat)
        action = players[seat].choose(view)
        assert action is not None
        if seat == bot_seat and len([a for a in view.legal if a.kind != ACCUSE]) > 1:
            grades = graded(state, seat, nodes)
            if grades is None:
                tally["ungraded" if state.stock == [] else "hidden"] += 1
            else:
                moves, values = grades
                best, got = max(values), values[moves.index(action)]
                tally["graded"] += 1
                tally["sampled"] += bot.last_worlds > 0  # no search, or it gave up
                if got < best:
                    tally[f"{NAMES[best]} -> {NAMES[got]}"] += 1
        state.apply(action)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--level", default="master", choices=["expert", "master"])
    parser.add_argument("--deals", type=int, default=50)
    parser.add_argument("--seed", type=int, default=0, help="the first deal's seed")
    parser.add_argument("--mode", default="podkidnoy", choices=["podkidnoy", "perevodnoy"])
    parser.add_argument("--endgame", type=int, help="the bot's endgame node limit (default)")
    parser.add_argument("--grader-nodes", type=int, default=400_000)
    args = parser.parse_args(argv)
    rules = Rules(players=2, deck=36, mode=args.mode)
    budget = replace(BUDGETS[args.level], seconds=None)  # the clock off: moves by work alone
    if args.endgame is not None:
        budget = replace(budget, endgame=args.endgame)
    tally: Counter[str] = Counter()
    for d in range(args.seed, args.seed + args.deals):
        for seat in range(2):
            bot = MonteCarloBot(args.level, budget, seed=d * 16 + seat)
            play(rules, d, seat, bot, args.grader_nodes, tally)
    n = tally["graded"]
    lost = sum(v for k, v in tally.items() if "->" in k)
    lo, hi = wilson(lost, n)
    print(f"{args.level}, {budget}; {args.deals} deals, both ways, {rules.mode}")
    print(f"  fully known decisions graded {n}, not graded (grader's limit) {tally['ungraded']}")
    print(f"  decided by sampling (no search, or the search gave up) {tally['sampled']}")
    print(f"  value given away {lost} = {lost / max(n, 1):.1%} [{lo:.1%}, {hi:.1%}]")
    for k, v in sorted(tally.items()):
        if "->" in k:
            print(f"    {k}: {v}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
