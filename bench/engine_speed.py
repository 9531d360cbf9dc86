"""Random-playout speed of the engine, its two builds side by side.

    python -m bench.engine_speed [--games N] [--repeat R] [--decisions D] [--build B]

Two ways through a random game, each step picking one action uniformly (with a
seeded ``random.Random``) from the moves of every seat:

- simulation: ``all_legal_actions()`` + ``play(action)``, the path the bots'
  playouts take (no check, no events);
- checked: ``legal_actions(seat)`` for every seat + ``apply(action)``, the path
  of the game service (every move checked, events returned).

And «Мастер» (``engine.bots``) deciding on fixed positions with its action budget
and no clock, so that both builds do the same work: its time per decision, its
playouts and simulated actions per second.

Each build runs in its own child process (``DURAK_PURE_PYTHON=1`` for the pure one,
see ``engine.build``), the builds taking turns ``--repeat`` times; figures are per
CPU second, medians. Each child also times a baseline, a fixed loop of plain Python
that does not touch the engine, so "÷ baseline" figures are less sensitive to the
machine's other load, and the ratio of the builds is taken from them.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
from collections.abc import Callable, Sequence
from time import process_time

import engine
from engine import Mode, Rules, State
from engine.bots import BUDGETS, Budget, MonteCarloBot, pimc
from engine.bots.heuristic import state_policy

TARGET_GAMES_PER_SECOND = 3500  # compiled, 2-player 36-card podkidnoy, one core (issue 16)

CONFIGS = (
    ("2p 36 podkidnoy", Rules(players=2, deck=36, mode=Mode.PODKIDNOY)),
    ("4p 36 perevodnoy", Rules(players=4, deck=36, mode=Mode.PEREVODNOY)),
)
BUILDS = ("pure", "compiled")


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


def baseline(loops: int = 300_000) -> float:
    """Loops per CPU second of plain Python that never touches the engine."""
    start = process_time()
    total = 0
    for i in range(loops):
        total += (i * 7) & 15
    return loops / (process_time() - start)


def rates(playout: Callable[[Rules, int], int], rules: Rules, games: int) -> tuple[float, float]:
    """Games and actions per CPU second of ``games`` playouts."""
    start = process_time()
    actions = sum(playout(rules, seed) for seed in range(games))
    elapsed = process_time() - start
    return games / elapsed, actions / elapsed


def master(decisions: int) -> dict[str, float]:
    """«Мастер» on ``decisions`` fixed positions of 2-player games, budget without clock."""
    budget = Budget(worlds=BUDGETS["master"].worlds, actions=BUDGETS["master"].actions)
    played = [0]
    playout = pimc.playout

    def counted(
        state: State,
        seat: int,
        max_steps: int,
        policy: pimc.Policy = state_policy,
        draw: float = 0.5,
        seats: Sequence[pimc.Policy | None] | None = None,
    ) -> float:
        played[0] += 1
        return playout(state, seat, max_steps, policy, draw, seats)

    pimc.playout = counted  # counts the bot's playouts
    try:
        seconds = actions = 0.0
        for seed in range(decisions):
            state = State(Rules(players=2, deck=36), seed)
            for _ in range(4):  # a few moves in, so that the deal is not certain
                state.play(state.all_legal_actions()[0])
            bot = MonteCarloBot("Мастер", budget, seed)
            start = process_time()
            bot.choose(state.view(state.turn().seats[0]))  # type: ignore[union-attr]
            seconds += process_time() - start
            actions += bot.last_actions
    finally:
        pimc.playout = playout
    return {
        "decision_ms": 1000 * seconds / decisions,
        "playouts_s": played[0] / seconds,
        "actions_s": actions / seconds,
    }


def child(games: int, decisions: int) -> dict[str, float]:
    """Every figure of the build this process runs."""
    out = {"compiled": float(engine.COMPILED), "baseline": baseline()}
    for name, rules in CONFIGS:
        out[f"{name}/simulation"], out[f"{name}/actions"] = rates(simulation_playout, rules, games)
        out[f"{name}/checked"] = rates(checked_playout, rules, games)[0]
    for key, value in master(decisions).items():
        out[f"master/{key}"] = value
    out["baseline"] = statistics.median([out["baseline"], baseline()])
    return out


def run_child(build: str, games: int, decisions: int) -> dict[str, float]:
    env = {k: v for k, v in os.environ.items() if k != "DURAK_PURE_PYTHON"}
    if build == "pure":
        env["DURAK_PURE_PYTHON"] = "1"
    command = [sys.executable, "-m", "bench.engine_speed", "--child"]
    command += ["--games", str(games), "--decisions", str(decisions)]
    done = subprocess.run(command, env=env, capture_output=True, text=True, check=True)
    return dict(json.loads(done.stdout))


LINES = (  # key, label, unit, higher is better
    ("simulation", "simulation", "games/s", True),
    ("actions", "  actions", "actions/s", True),
    ("checked", "checked", "games/s", True),
)
MASTER_LINES = (
    ("master/decision_ms", "decision", "ms", False),
    ("master/playouts_s", "playouts", "/s", True),
    ("master/actions_s", "actions", "/s", True),
)


def report(figures: dict[str, dict[str, float]], builds: Sequence[str]) -> None:
    base = {b: figures[b]["baseline"] for b in builds}
    both = len(builds) == 2
    head = "".join(f"{b:>12}" for b in builds)
    print(f"{'':28}{head}" + ("   compiled ÷ pure (÷ baseline)" if both else ""))

    def line(label: str, key: str, unit: str, higher: bool) -> None:
        values = [figures[b][key] for b in builds]
        text = f"  {label:14}{unit:>12}" + "".join(f"{v:12,.0f}" for v in values)
        if both:
            raw = values[1] / values[0] if higher else values[0] / values[1]
            per = raw * base[builds[0]] / base[builds[1]]  # each figure ÷ its baseline
            text += f"   x{raw:.2f} (x{per:.2f})"
        print(text)

    for name, _rules in CONFIGS:
        print(name)
        for key, label, unit, higher in LINES:
            line(label, f"{name}/{key}", unit, higher)
    print(f"«Мастер», {BUDGETS['master'].actions:,} simulated actions a decision, no clock")
    for key, label, unit, higher in MASTER_LINES:
        line(label, key, unit, higher)
    line("baseline", "baseline", "loops/s", True)
    best = builds[-1]
    games = figures[best][f"{CONFIGS[0][0]}/simulation"]
    print(
        f"target: {best} simulation {games:,.0f} games/s = "
        f"{games / TARGET_GAMES_PER_SECOND:.2f} x {TARGET_GAMES_PER_SECOND} games/s"
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.engine_speed", description=__doc__)
    parser.add_argument("--games", type=int, default=400, help="games per figure (400)")
    parser.add_argument("--repeat", type=int, default=3, help="turns of each build (3)")
    parser.add_argument("--decisions", type=int, default=6, help="«Мастер» decisions (6)")
    parser.add_argument("--build", choices=("both", "this"), default="both")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    games, decisions = max(1, args.games), max(1, args.decisions)
    if args.child:
        print(json.dumps(child(games, decisions)))
        return 0
    if args.build == "this":
        builds = ["compiled" if engine.COMPILED else "pure"]
        runs = {builds[0]: [child(games, decisions) for _ in range(max(1, args.repeat))]}
    else:
        builds = list(BUILDS)
        runs = {b: [] for b in builds}
        for _ in range(max(1, args.repeat)):
            for b in builds:  # taking turns, so that a change of load hits both
                runs[b].append(run_child(b, games, decisions))
        if not all(r["compiled"] for r in runs["compiled"]):
            print("the compiled build is not installed (see README): pure Python only")
            builds = ["pure"]
    figures = {b: {k: statistics.median(r[k] for r in runs[b]) for k in runs[b][0]} for b in builds}
    print(f"random playouts: {games} games a figure, {args.repeat} turns, medians per CPU second")
    report(figures, builds)
    return 0


if __name__ == "__main__":
    sys.exit(main())
