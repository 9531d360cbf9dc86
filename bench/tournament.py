"""Bots against bots: win, fool and draw rates with 95% intervals, and decision times.

    durak-tournament --lineup master,novice --deals 200
    durak-tournament --players 4 --mode perevodnoy --lineup master,novice,novice,novice

Every deal is played once per rotation of the lineup over the seats, so each
bot plays every hand of the deal (with two players: each deal twice, hands
swapped) and the luck of the deal cancels out. Levels: ``novice``, ``expert``,
``master`` (engine.bots), ``club`` (the rule-based yardstick, bench.club),
``ismcts`` (the search yardstick, bench.ismcts: ``--ismcts-seconds`` of CPU a
decision, ``--ismcts-iterations`` at most), ``greedy`` and ``random``
(engine.players); ``master/flat``, ``expert/tree`` and the
like give a level another search (``Budget.search``: ``flat``, ``tree``, ``plan``).
Rates are per game a bot of that level sat in; with several bots of one level
every seat counts. Intervals are Wilson score intervals over games, which
treats the rotated games of one deal as independent (a slight understatement).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from collections import defaultdict
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from contextlib import nullcontext
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path

from engine import Rules, State
from engine.bots import BUDGETS, Budget, make_bot
from engine.bots.arena import play_game
from engine.bots.pimc import POLICIES, SEARCHES
from engine.players import GreedyPlayer, Player, RandomPlayer

from .club import ClubPlayer
from .ismcts import Allowance, IsmctsPlayer

LEVELS = ("novice", "expert", "master", "club", "ismcts", "greedy", "random")


@dataclass
class Tally:
    games: int = 0
    fools: int = 0
    draws: int = 0
    times: list[float] = field(default_factory=list)

    def add(self, other: Tally) -> None:
        self.games += other.games
        self.fools += other.fools
        self.draws += other.draws
        self.times += other.times

    @property
    def wins(self) -> int:
        return self.games - self.fools - self.draws


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval of a rate k/n."""
    if n == 0:
        return 0.0, 1.0
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def percentile(sorted_values: Sequence[float], q: float) -> float:
    if not sorted_values:
        return 0.0
    return sorted_values[min(len(sorted_values) - 1, int(q * len(sorted_values)))]


@dataclass(frozen=True)
class Limits:
    """Fields of the bots' budgets that the command line sets (None: the level's own)."""

    seconds: float | None = None
    worlds: int | None = None
    actions: int | None = None
    endgame: int | None = None
    draw: float | None = None
    policy: str | None = None
    lacks: float | None = None
    mix: tuple[str, ...] | None = None
    ismcts_seconds: float | None = None  # the yardstick's CPU a decision (None: 0.2 s)
    ismcts_iterations: int | None = None  # and its cap on iterations

    def allowance(self) -> Allowance:
        """The ISMCTS yardstick's budget: its defaults, with the fields given."""
        a = Allowance()
        return replace(
            a,
            seconds=a.seconds if self.ismcts_seconds is None else self.ismcts_seconds,
            iterations=a.iterations if self.ismcts_iterations is None else self.ismcts_iterations,
        )

    def budget(self, level: str) -> Budget:
        b = BUDGETS[level]
        return replace(
            b,
            seconds=b.seconds if self.seconds is None else self.seconds,
            worlds=b.worlds if self.worlds is None else self.worlds,
            actions=b.actions if self.actions is None else self.actions,
            endgame=b.endgame if self.endgame is None else self.endgame,
            draw=b.draw if self.draw is None else self.draw,
            policy=b.policy if self.policy is None else self.policy,
            lacks=b.lacks if self.lacks is None else self.lacks,
            mix=b.mix if self.mix is None else self.mix,
        )

    def __str__(self) -> str:
        given = [f"{k}={v}" for k, v in vars(self).items() if v is not None]
        return ", ".join(given) or "defaults"


def player(level: str, seed: int, limits: Limits) -> Player:
    """A player of ``level``; ``limits`` replace fields of that level's default budget."""
    if level == "random":
        return RandomPlayer(seed)
    if level == "greedy":
        return GreedyPlayer()
    if level == "club":
        return ClubPlayer(seed)
    if level == "ismcts":
        return IsmctsPlayer(seed, limits.allowance())
    if level == "novice":
        return make_bot(level, seed=seed)
    level, _, search = level.partition("/")
    budget = limits.budget(level)
    return make_bot(level, seed=seed, budget=replace(budget, search=search) if search else budget)


@dataclass(frozen=True)
class Job:
    rules: Rules
    lineup: tuple[str, ...]
    deal: int
    rotations: int
    limits: Limits


@dataclass(frozen=True)
class Game:
    """One finished game, for ``--record``: who sat where, who lost, every move."""

    deal: int
    levels: tuple[str, ...]  # per seat
    fools: tuple[int, ...]
    draw: bool
    moves: tuple[str, ...]  # logged actions, "<seat> <text>"


def play_deal(job: Job) -> tuple[dict[str, Tally], list[Game]]:
    """Every rotation of the lineup on one deal; tallies by level, and the games."""
    n = job.rules.players
    tallies: dict[str, Tally] = defaultdict(Tally)
    games: list[Game] = []
    for r in range(job.rotations):
        levels = [job.lineup[(s + r) % n] for s in range(n)]
        seats = [player(lv, job.deal * 16 + s, job.limits) for s, lv in enumerate(levels)]

        def timed(seat: int, seconds: float, levels: list[str] = levels) -> None:
            tallies[levels[seat]].times.append(seconds)

        state = State(job.rules, job.deal)
        outcome = play_game(state, seats, timed=timed, clock=time.process_time)
        for s, lv in enumerate(levels):
            t = tallies[lv]
            t.games += 1
            t.draws += outcome.draw
            t.fools += s in outcome.fools
        moves = tuple(map(str, state.history))
        games.append(Game(job.deal, tuple(levels), outcome.fools, outcome.draw, moves))
    return dict(tallies), games


def report(tallies: dict[str, Tally], deals: int, games: int, elapsed: float) -> str:
    lines = [f"{deals} deals, {games} games, {elapsed:.0f} s"]
    for level, t in sorted(tallies.items()):
        g = t.games
        lines.append(f"  {level:7} {g} seat-games")
        for name, k in (("win", t.wins), ("fool", t.fools), ("draw", t.draws)):
            lo, hi = wilson(k, g)
            lines.append(f"    {name:4} {k / g:6.1%}  [{lo:6.1%}, {hi:6.1%}]")
        decided = g - t.draws
        if decided:
            lo, hi = wilson(t.wins, decided)
            lines.append(f"    win of non-drawn {t.wins / decided:6.1%}  [{lo:6.1%}, {hi:6.1%}]")
        ts = sorted(t.times)
        lines.append(
            f"    decision CPU time p50 {percentile(ts, 0.5) * 1000:7.1f} ms  "
            f"p95 {percentile(ts, 0.95) * 1000:7.1f} ms  max {(ts[-1] if ts else 0) * 1000:7.1f} ms"
            f"  ({len(ts)} decisions)"
        )
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="durak-tournament", description=__doc__)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--deck", type=int, default=36)
    parser.add_argument("--mode", default="podkidnoy", choices=["podkidnoy", "perevodnoy"])
    parser.add_argument("--teams", action="store_true")
    parser.add_argument("--lineup", default="master,novice", help="levels, one per seat")
    parser.add_argument("--deals", type=int, default=100)
    parser.add_argument("--seed", type=int, default=0, help="the first deal's seed")
    parser.add_argument("--rotations", type=int, default=0, help="per deal (0: one per seat)")
    parser.add_argument("--seconds", type=float, help="time budget per decision (each level's)")
    parser.add_argument("--worlds", type=int, help="sampled deals per decision (each level's)")
    parser.add_argument("--actions", type=int, help="simulated actions per decision (level's)")
    parser.add_argument("--endgame", type=int, help="endgame search moves per decision (level's)")
    parser.add_argument("--draw", type=float, help="a draw's worth in playouts (level's)")
    parser.add_argument("--policy", choices=sorted(POLICIES), help="playout policy (level's)")
    parser.add_argument(
        "--lacks", type=float, help="weight of a card a player's moves say it lacks (1: unread)"
    )
    parser.add_argument(
        "--mix",
        help="the tree's models of an opponent who does not play like «Новичок», "
        "policies separated by commas ('' for none; level's)",
    )
    parser.add_argument(
        "--ismcts-seconds", type=float, help="CPU seconds a decision of ismcts (0.2)"
    )
    parser.add_argument("--ismcts-iterations", type=int, help="iteration cap of ismcts")
    parser.add_argument(
        "--record", type=Path, help="append every game (seats, fools, moves) as a JSON line"
    )
    parser.add_argument("--jobs", type=int, default=1, help="worker processes")
    parser.add_argument(
        "--progress", type=int, default=0, help="interim report on stderr every N deals"
    )
    args = parser.parse_args(argv)
    rules = Rules(players=args.players, deck=args.deck, mode=args.mode, teams=args.teams)
    lineup = tuple(args.lineup.split(","))
    known = {*LEVELS, *(f"{lv}/{s}" for lv in ("expert", "master") for s in SEARCHES)}
    if len(lineup) != rules.players or not set(lineup) <= known:
        parser.error(
            f"--lineup needs {rules.players} levels from {', '.join(LEVELS)}"
            f" (expert/master also as level/search, search one of {', '.join(SEARCHES)})"
        )
    limits = Limits(
        seconds=args.seconds,
        worlds=args.worlds,
        actions=args.actions,
        endgame=args.endgame,
        draw=args.draw,
        policy=args.policy,
        lacks=args.lacks,
        mix=None if args.mix is None else tuple(m for m in args.mix.split(",") if m),
        ismcts_seconds=args.ismcts_seconds,
        ismcts_iterations=args.ismcts_iterations,
    )
    rotations = args.rotations or rules.players
    jobs = [Job(rules, lineup, args.seed + d, rotations, limits) for d in range(args.deals)]
    start = time.perf_counter()
    total: dict[str, Tally] = defaultdict(Tally)
    with ProcessPoolExecutor(args.jobs) if args.jobs > 1 else nullcontext() as pool:
        results = pool.map(play_deal, jobs) if pool else map(play_deal, jobs)
        for done, (result, games) in enumerate(results, 1):
            for level, t in result.items():
                total[level].add(t)
            if args.record:
                with args.record.open("a", encoding="utf-8") as out:
                    out.writelines(json.dumps(asdict(g), ensure_ascii=False) + "\n" for g in games)
            if args.progress and done % args.progress == 0 and done < args.deals:
                elapsed = time.perf_counter() - start
                print(report(total, done, done * rotations, elapsed), file=sys.stderr, flush=True)
    print(f"{rules.players} players, {rules.deck} cards, {rules.mode}", end="")
    print(", teams" if rules.teams else "", end="")
    print(f"; lineup {','.join(lineup)}; budgets: {limits}")
    print(report(total, args.deals, args.deals * rotations, time.perf_counter() - start))
    return 0


if __name__ == "__main__":
    sys.exit(main())
