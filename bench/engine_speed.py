"""Random-playout speed of the engine's public API.

    python -m bench.engine_speed [--games N] [--repeat R]

A playout step lists ``legal_actions(seat)`` for every seat, picks one action
of their union uniformly with a seeded ``random.Random`` and ``apply``-s it.
Figures are medians over the repeats; the machine's noise shows in the spread.
The baseline, measured in the same process, is the cost of dealing alone
(``State(rules, seed)``), so the ratio to it is less sensitive to the machine.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
from collections.abc import Sequence
from time import perf_counter, perf_counter_ns

from engine import Rules, State

TARGET_GAMES_PER_SECOND = 2000  # 2-player 36-card podkidnoy, one core

CONFIGS = (
    ("2p 36 podkidnoy", Rules(players=2, deck=36, mode="podkidnoy")),
    ("4p 36 perevodnoy", Rules(players=4, deck=36, mode="perevodnoy")),
)


def playout(rules: Rules, seed: int) -> int:
    """Play one game with uniformly random legal actions; returns its number of actions."""
    state = State(rules, seed)
    rng = random.Random(seed)
    seats = range(rules.players)
    steps = 0
    while not state.is_over:
        actions = []
        for seat in seats:
            actions += state.legal_actions(seat)
        state.apply(rng.choice(actions))
        steps += 1
    return steps


def timed_steps(rules: Rules, seed: int) -> list[int]:
    """Nanoseconds of every step (listing for all seats + apply) of one random game."""
    state = State(rules, seed)
    rng = random.Random(seed)
    seats = range(rules.players)
    times = []
    while not state.is_over:
        start = perf_counter_ns()
        actions = []
        for seat in seats:
            actions += state.legal_actions(seat)
        action = rng.choice(actions)
        state.apply(action)
        times.append(perf_counter_ns() - start)
    return times


def deals_per_second(rules: Rules, games: int) -> float:
    start = perf_counter()
    for seed in range(games):
        State(rules, seed)
    return games / (perf_counter() - start)


def measure(rules: Rules, games: int, repeat: int) -> dict[str, float]:
    game_rates, action_rates, deal_rates, step_ns = [], [], [], []
    actions = 0
    for _ in range(repeat):
        deal_rates.append(deals_per_second(rules, games))
        start = perf_counter()
        actions = sum(playout(rules, seed) for seed in range(games))
        elapsed = perf_counter() - start
        game_rates.append(games / elapsed)
        action_rates.append(actions / elapsed)
    for seed in range(max(1, games // 10)):
        step_ns += timed_steps(rules, seed)
    games_s = statistics.median(game_rates)
    deals_s = statistics.median(deal_rates)
    return {
        "games_s": games_s,
        "games_min": min(game_rates),
        "games_max": max(game_rates),
        "actions_s": statistics.median(action_rates),
        "actions_per_game": actions / games,
        "step_us": statistics.median(step_ns) / 1000,
        "deals_s": deals_s,
        "vs_deal": games_s / deals_s,
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.engine_speed", description=__doc__)
    parser.add_argument("--games", type=int, default=500, help="games per repeat (500)")
    parser.add_argument("--repeat", type=int, default=5, help="repeats; medians are shown (5)")
    args = parser.parse_args(argv)
    games, repeat = max(1, args.games), max(1, args.repeat)
    print(f"random playouts: {games} games x {repeat} repeats, medians")
    for name, rules in CONFIGS:
        r = measure(rules, games, repeat)
        print(f"\n{name}")
        print(
            f"  playout      {r['games_s']:9.0f} games/s  (min {r['games_min']:.0f}, "
            f"max {r['games_max']:.0f})"
        )
        print(
            f"               {r['actions_s']:9.0f} actions/s, {r['actions_per_game']:.1f} per game"
        )
        print(f"  one step     {r['step_us']:9.2f} µs  (legal_actions for all seats + apply)")
        print(f"  baseline     {r['deals_s']:9.0f} deals/s  (State(rules, seed) alone)")
        print(f"  ratio        {r['vs_deal']:9.3f} playouts per deal")
        if rules.players == 2 and rules.deck == 36 and not rules.transfer:
            ratio = r["games_s"] / TARGET_GAMES_PER_SECOND
            print(f"  target       {ratio:9.2f} x {TARGET_GAMES_PER_SECOND} games/s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
