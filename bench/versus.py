"""Our engine against jorisperrenet/durak's Python engine on the same work (issue 16).

    python -m bench.versus --joris DIR [--games N] [--repeat R]

``DIR`` is a checkout of https://github.com/jorisperrenet/durak: its ``python_version``
folder is imported from there at run time (none of its code is in this repository).
The work: random 2-player 36-card games, each step one action drawn uniformly from
the legal ones. Theirs: two of its ``Random`` players (its own rules: transfers, also
by showing a trump; the global ``random`` seeded per game, as its code uses it).
Ours: the simulation and the checked path of ``bench.engine_speed``, in podkidnoy and
in perevodnoy.

Each of our builds runs in child processes, the builds taking turns ``--repeat``
times; in every child their engine and ours are timed one after the other, per CPU
second, so their engine is the baseline run in the same process and each ratio is
taken within one child (medians over the turns).
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import random
import statistics
import subprocess
import sys
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path
from time import process_time
from typing import Any

import engine
from bench.engine_speed import checked_playout, simulation_playout
from engine import Mode, Rules

TARGET_RATIO = 6.0  # compiled simulation ÷ theirs, games per second (issue 16)
BUILDS = ("pure", "compiled")
OURS = (  # name, playout, rules
    ("podkidnoy simulation", simulation_playout, Rules(players=2, deck=36, mode=Mode.PODKIDNOY)),
    ("perevodnoy simulation", simulation_playout, Rules(players=2, deck=36, mode=Mode.PEREVODNOY)),
    ("podkidnoy checked", checked_playout, Rules(players=2, deck=36, mode=Mode.PODKIDNOY)),
)
THEIRS = "jorisperrenet/durak"


def their_playout(folder: Path) -> Callable[[int], int]:
    """One random game of their engine; returns its number of actions."""
    sys.path.insert(0, str(folder / "python_version"))
    game_tree: Any = importlib.import_module("main").GameTree
    player: Any = importlib.import_module("players").Random

    def playout(seed: int) -> int:
        random.seed(seed)
        game = game_tree([player("A"), player("B")], True, "A", print_info=False)
        steps = 0
        while not game.is_end_state:
            game.next()
            steps += 1
        return steps

    return playout


def rates(playout: Callable[[int], int], games: int) -> tuple[float, float]:
    """Games and actions per CPU second of ``games`` playouts."""
    start = process_time()
    actions = sum(playout(seed) for seed in range(games))
    elapsed = process_time() - start
    return games / elapsed, actions / elapsed


def ours(playout: Callable[[Rules, int], int], rules: Rules, seed: int) -> int:
    return playout(rules, seed)


def child(folder: Path, games: int) -> dict[str, float]:
    """One turn in this process: theirs, ours, theirs again (the mean is the baseline)."""
    theirs = their_playout(folder)
    first = rates(theirs, games)
    out = {"compiled": float(engine.COMPILED)}
    for name, playout, rules in OURS:
        out[f"{name}/games"], out[f"{name}/actions"] = rates(partial(ours, playout, rules), games)
    second = rates(theirs, games)
    out["theirs/games"] = (first[0] + second[0]) / 2
    out["theirs/actions"] = (first[1] + second[1]) / 2
    return out


def run_child(build: str, folder: Path, games: int) -> dict[str, float]:
    env = {k: v for k, v in os.environ.items() if k != "DURAK_PURE_PYTHON"}
    if build == "pure":
        env["DURAK_PURE_PYTHON"] = "1"
    command = [sys.executable, "-m", "bench.versus", "--child", "--joris", str(folder)]
    command += ["--games", str(games)]
    done = subprocess.run(command, env=env, capture_output=True, text=True, check=True)
    return dict(json.loads(done.stdout))


def report(runs: dict[str, list[dict[str, float]]], builds: Sequence[str]) -> None:
    def median(build: str, key: str, per: str = "") -> float:
        return statistics.median(r[key] / (r[per] if per else 1.0) for r in runs[build])

    print(f"{'games/s (÷ theirs; actions/s ÷ theirs)':42}" + "".join(f"{b:>25}" for b in builds))
    for name, _playout, _rules in OURS:
        text = f"  {name:40}"
        for b in builds:
            games = median(b, f"{name}/games")
            ratio = median(b, f"{name}/games", "theirs/games")
            per_action = median(b, f"{name}/actions", "theirs/actions")
            text += f"{games:8,.0f} (x{ratio:5.2f}; x{per_action:5.2f})"
        print(text)
    theirs = "".join(f"{median(b, 'theirs/games'):8,.0f}{'':17}" for b in builds).rstrip()
    print(f"  {THEIRS + ', Random players':40}{theirs}")
    ours = OURS[0][0]
    steps = {k: median(builds[0], f"{k}/actions", f"{k}/games") for k in ("theirs", ours)}
    print(f"actions a game: theirs {steps['theirs']:.0f}, ours ({ours}) {steps[ours]:.0f}")
    best = builds[-1]
    ratio = median(best, f"{ours}/games", "theirs/games")
    print(
        f"target: {best} {ours} x{ratio:.2f} theirs = "
        f"{ratio / TARGET_RATIO:.2f} x the target of x{TARGET_RATIO:.0f}"
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.versus", description=__doc__)
    parser.add_argument("--joris", type=Path, required=True, help="a checkout of " + THEIRS)
    parser.add_argument("--games", type=int, default=300, help="games per figure (300)")
    parser.add_argument("--repeat", type=int, default=3, help="turns of each build (3)")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    folder, games = args.joris.resolve(), max(1, args.games)
    if not (folder / "python_version" / "main.py").is_file():
        print(
            f"error: {folder} is not a checkout of {THEIRS} (no python_version/main.py); "
            f"git clone https://github.com/{THEIRS}",
            file=sys.stderr,
        )
        return 2
    if args.child:
        print(json.dumps(child(folder, games)))
        return 0
    builds = list(BUILDS)
    runs: dict[str, list[dict[str, float]]] = {b: [] for b in builds}
    for _ in range(max(1, args.repeat)):
        for b in builds:  # taking turns, so that a change of load hits both
            runs[b].append(run_child(b, folder, games))
    if not all(r["compiled"] for r in runs["compiled"]):
        print("the compiled build is not installed (see README): pure Python only")
        builds = ["pure"]
    print(
        f"random 2-player 36-card games: {games} a figure, {args.repeat} turns, "
        "medians per CPU second"
    )
    report(runs, builds)
    return 0


if __name__ == "__main__":
    sys.exit(main())
