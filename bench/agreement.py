"""How much a bot's middle-game choice depends on its seed: the noise of sampling.

    python -m bench.agreement --level master --positions 40 --seeds 5

Takes positions with 10-24 cards in the stock from 2-player 36-card games of
«Новичок», where the bot has at least two candidate moves, and asks the bot
with several seeds (the clock off, so the work budget alone stops it). Prints
in how many positions every seed chose the same move, and the mean share of
seeds that agree with the most common choice.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import replace

from engine import Action, Rules, State, View
from engine.bots import BUDGETS, MonteCarloBot
from engine.bots.heuristic import state_policy
from engine.bots.pimc import candidates


def positions(count: int) -> Iterator[View]:
    """Views of the seat to move, one every few moves of heuristic games."""
    rules = Rules(players=2, deck=36)
    found, deal = 0, 0
    while found < count:
        state = State(rules, 90_000 + deal)
        deal += 1
        while state.outcome is None and found < count:
            turn = state.turn()
            assert turn is not None
            seat = turn.seats[0]
            view = state.view(seat)
            middle = 10 <= len(state.stock) <= 24 and len(state.history) % 5 == 0
            if middle and len(candidates(view)) > 1:
                found += 1
                yield view
            action = state_policy(state, seat)
            assert action is not None
            state.play(action)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--level", default="master", choices=["expert", "master"])
    parser.add_argument("--positions", type=int, default=40)
    parser.add_argument("--seeds", type=int, default=5)
    parser.add_argument("--scale", type=float, default=1.0, help="budget multiplier")
    parser.add_argument("--worlds", type=int, help="the cap on sampled deals (before --scale)")
    args = parser.parse_args(argv)
    base = BUDGETS[args.level]
    assert base.actions is not None
    budget = replace(
        base,
        worlds=round((args.worlds or base.worlds) * args.scale),
        actions=round(base.actions * args.scale),
        seconds=None,
    )
    unanimous, shares, work = 0, [], []
    for view in positions(args.positions):
        choices: Counter[Action | None] = Counter()
        for seed in range(args.seeds):
            bot = MonteCarloBot(args.level, budget, seed=seed)
            choices[bot.choose(view)] += 1
            work.append((bot.last_worlds, bot.last_actions))
        top = choices.most_common(1)[0][1]
        unanimous += top == args.seeds
        shares.append(top / args.seeds)
    print(f"{args.level}, {budget}; {args.positions} positions, {args.seeds} seeds")
    print(f"  every seed agreed in {unanimous} of {args.positions} positions")
    print(f"  mean share agreeing with the commonest choice {sum(shares) / len(shares):.0%}")
    deals, actions = (sum(x) / len(work) for x in zip(*work, strict=True))
    print(f"  a decision sampled {deals:.0f} deals, {actions:,.0f} actions on average")
    return 0


if __name__ == "__main__":
    sys.exit(main())
