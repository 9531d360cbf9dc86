"""Random-playout speed of the engine.

    python -m bench.engine_speed [--games N] [--repeat R]

Two ways through a random game, each step picking one action uniformly (with a
seeded ``random.Random``) from the moves of every seat:

- simulation: ``all_legal_actions()`` + ``play(action)``, the path the bots'
  playouts take (no check, no events);
- checked: ``legal_actions(seat)`` for every seat + ``apply(action)``, the path
  of the game service (every move checked, events returned).

Figures are medians over the repeats; the machine's noise shows in the spread.
The baseline, measured in the same process, is the cost of dealing alone
(``State(rules, seed)``), so the ratios to it are less sensitive to the machine.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
from collections.abc import Callable, Sequence
from time import perf_counter, perf_counter_ns

from engine import Mode, Rules, State

TARGET_GAMES_PER_SECOND = 2000  # 2-player 36-card podkidnoy, one core

CONFIGS = (
    ("2p 36 podkidnoy", Rules(players=2, deck=36, mode=Mode.PODKIDNOY)),
    ("4p 36 perevodnoy", Rules(players=4, deck=36, mode=Mode.PEREVODNOY)),
)


def simulation_playout(rules: Rules, seed: int) -> int:
    """One random game on the simulation path; returns its number of actions."""
    state = State(rules, seed)
    pick = random.Random(seed).random
    steps = 0
    while state.outcome is None:
        actions = state.all_legal_actions()
        state.play(actions[int(pick() * len(actions))])
        steps += 1
    return steps


def checked_playout(rules: Rules, seed: int) -> int:
    """One random game on the checked path; returns its number of actions."""
    state = State(rules, seed)
    pick = random.Random(seed).random
    seats = range(rules.players)
    steps = 0
    while state.outcome is None:
        actions = []
        for seat in seats:
            actions += state.legal_actions(seat)
        state.apply(actions[int(pick() * len(actions))])
        steps += 1
    return steps


def timed_steps(rules: Rules, seed: int) -> list[int]:
    """Nanoseconds of every checked step (listing for all seats + apply) of one game."""
    state = State(rules, seed)
    pick = random.Random(seed).random
    seats = range(rules.players)
    times = []
    while state.outcome is None:
        start = perf_counter_ns()
        actions = []
        for seat in seats:
            actions += state.legal_actions(seat)
        state.apply(actions[int(pick() * len(actions))])
        times.append(perf_counter_ns() - start)
    return times


def deals_per_second(rules: Rules, games: int) -> float:
    start = perf_counter()
    for seed in range(games):
        State(rules, seed)
    return games / (perf_counter() - start)


def rates(playout: Callable[[Rules, int], int], rules: Rules, games: int) -> tuple[float, float]:
    """Games and actions per second of ``games`` playouts."""
    start = perf_counter()
    actions = sum(playout(rules, seed) for seed in range(games))
    elapsed = perf_counter() - start
    return games / elapsed, actions / elapsed


def measure(rules: Rules, games: int, repeat: int) -> dict[str, float]:
    sim, sim_actions, checked, deal_rates, step_ns = [], [], [], [], []
    for _ in range(repeat):
        deal_rates.append(deals_per_second(rules, games))
        games_s, actions_s = rates(simulation_playout, rules, games)
        sim.append(games_s)
        sim_actions.append(actions_s)
        checked.append(rates(checked_playout, rules, games)[0])
    for seed in range(max(1, games // 10)):
        step_ns += timed_steps(rules, seed)
    games_s = statistics.median(sim)
    deals_s = statistics.median(deal_rates)
    return {
        "games_s": games_s,
        "games_min": min(sim),
        "games_max": max(sim),
        "actions_s": statistics.median(sim_actions),
        "actions_per_game": statistics.median(sim_actions) / games_s,
        "checked_s": statistics.median(checked),
        "checked_min": min(checked),
        "checked_max": max(checked),
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
            f"  simulation   {r['games_s']:9.0f} games/s  (min {r['games_min']:.0f}, "
            f"max {r['games_max']:.0f}; all_legal_actions + play)"
        )
        print(
            f"               {r['actions_s']:9.0f} actions/s, {r['actions_per_game']:.1f} per game"
        )
        print(
            f"  checked      {r['checked_s']:9.0f} games/s  (min {r['checked_min']:.0f}, "
            f"max {r['checked_max']:.0f}; legal_actions per seat + apply)"
        )
        print(f"  one step     {r['step_us']:9.2f} µs  (one checked step, all seats)")
        print(f"  baseline     {r['deals_s']:9.0f} deals/s  (State(rules, seed) alone)")
        print(f"  ratio        {r['vs_deal']:9.3f} simulated games per deal")
        if rules.players == 2 and rules.deck == 36 and not rules.transfer:
            ratio = r["games_s"] / TARGET_GAMES_PER_SECOND
            print(f"  target       {ratio:9.2f} x {TARGET_GAMES_PER_SECOND} games/s (simulation)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
