"""Latency of one move through the game service (apply + commit) with many games at once,
and the database size per finished game.

    python -m bench.service_speed [--games 100] [--think 1.0] [--postgres URL] [--processes 2]

Players think (a random pause, 1 s on average: several times quicker than people) and
then press; a second run without pauses shows the saturated throughput. With
``--postgres`` (a server whose user may create databases) the same runs follow on a
fresh PostgreSQL database, for a comparison in one process; then the saturated run
again with the games shared out over ``--processes`` bot processes on one database,
each following the others' steps (``GameService.follow``) as in webhook mode.
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import os
import random
import statistics
import tempfile
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import asyncpg

from bench.service_setup import humans, new_table, next_move
from engine import Action, Rules, State
from service import FakeClock, GameService, Refused
from storage.connect import open_database

RULES = Rules(players=2, deck=36)


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def play(service: GameService, game: int, latencies: list[float], think: float) -> None:
    rng = random.Random(game)
    while (live := service.live(game)) is not None and not live.state.is_over:
        if think:
            await asyncio.sleep(rng.expovariate(1 / think))
        state = live.state
        seat, text = next_move(state)
        started = time.perf_counter()
        try:
            await service.act(game, Action.from_text(seat, text), len(state.history))
        except Refused as e:  # a word was said for a player with nothing to add meanwhile
            if e.reason != "stale":
                raise
            await asyncio.sleep(0)
            continue
        latencies.append(time.perf_counter() - started)


def engine_only(seeds: Sequence[int]) -> list[float]:
    """The same games in the engine alone: the baseline."""
    times = []
    for seed in seeds:
        state = State(RULES, seed)
        while not state.is_over:
            seat, text = next_move(state)
            started = time.perf_counter()
            trial = state.copy()
            trial.apply(Action.from_text(seat, text))
            state = trial
            times.append(time.perf_counter() - started)
    return times


async def create(service: GameService, games: int) -> list[int]:
    ids = []
    for seed in range(games):
        table = await new_table(service, chat=-1000 - seed)
        ids.append((await service.create_game(table, RULES, humans(2), seed)).game_id)
    return ids


async def run(games: int, target: str, think: float) -> list[float]:
    db = await open_database(target)
    service = GameService(db, clock=FakeClock())
    ids = await create(service, games)
    latencies: list[float] = []
    started = time.perf_counter()
    await asyncio.gather(*(play(service, g, latencies, think) for g in ids))
    wall = time.perf_counter() - started
    size = await db.stored_bytes()
    await db.close()
    ms = [x * 1000 for x in latencies]
    pace = f"think time {think * 1000:.0f} ms mean" if think else "no think time (saturated)"
    print(f"{games} concurrent 2-player games, {pace}: {len(ms)} moves in {wall:.1f} s")
    print(
        f"  apply + commit   p50 {statistics.median(ms):6.2f} ms"
        f"   p99 {percentile(ms, 0.99):6.2f} ms   max {max(ms):6.2f} ms"
    )
    print(f"  moves per second {len(ms) / wall:8.0f}")
    print(f"  database         {size / games / 1024:6.1f} KB per finished game ({size} bytes)")
    return ms


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="bench.service_speed")
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--think", type=float, default=1.0, help="mean seconds between moves")
    parser.add_argument("--postgres", metavar="URL", help="also on a PostgreSQL server")
    parser.add_argument(
        "--processes", type=int, default=2, help="bot processes of the shared run (PostgreSQL)"
    )
    args = parser.parse_args(argv)
    print(f"{os.cpu_count()} cores")
    base = [x * 1000 for x in engine_only(range(args.games))]
    print(
        f"engine only (baseline, same moves): p50 {statistics.median(base):.3f} ms,"
        f" p99 {percentile(base, 0.99):.3f} ms"
    )
    backends = ["sqlite"] + (["postgres"] if args.postgres else [])
    for backend in backends:
        print(f"on {backend}:")
        for think in (args.think, 0.0):
            if backend == "sqlite":
                with tempfile.TemporaryDirectory() as tmp:
                    ms = asyncio.run(run(args.games, str(Path(tmp) / "bench.sqlite3"), think))
            else:
                ms = asyncio.run(on_postgres(args.postgres, args.games, think))
            ratio = statistics.median(ms) / statistics.median(base)
            print(f"  ratio p50        {ratio:6.0f} x baseline")
    if args.postgres and args.processes > 1:
        asyncio.run(on_postgres(args.postgres, args.games, 0.0, processes=args.processes))
    return 0


def share(target: str, ids: list[int]) -> tuple[list[float], float, float]:
    """One bot process's part: its games played without pauses, following the others."""
    return asyncio.run(_share(target, ids))


async def _share(target: str, ids: list[int]) -> tuple[list[float], float, float]:
    db = await open_database(target, shared=True)
    service = GameService(db, clock=FakeClock())
    for game in ids:
        await service.catch_up(game)
    service.follow()
    latencies: list[float] = []
    started = time.time()
    await asyncio.gather(*(play(service, g, latencies, 0.0) for g in ids))
    ended = time.time()
    await service.stop()
    await db.close()
    return latencies, started, ended


async def processes_run(target: str, games: int, processes: int) -> None:
    db = await open_database(target)
    ids = await create(GameService(db, clock=FakeClock()), games)
    await db.close()
    parts = [ids[i::processes] for i in range(processes)]
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(processes, mp_context=context) as pool:
        loop = asyncio.get_running_loop()
        done = await asyncio.gather(*(loop.run_in_executor(pool, share, target, p) for p in parts))
    ms = [x * 1000 for part, _, _ in done for x in part]
    wall = max(e for _, _, e in done) - min(s for _, s, _ in done)
    print(f"{games} games shared out over {processes} processes, no think time: {len(ms)} moves")
    print(
        f"  apply + commit   p50 {statistics.median(ms):6.2f} ms"
        f"   p99 {percentile(ms, 0.99):6.2f} ms   max {max(ms):6.2f} ms"
    )
    print(f"  moves per second {len(ms) / wall:8.0f} (all processes)")


async def on_postgres(server: str, games: int, think: float, *, processes: int = 1) -> list[float]:
    """``run`` (or ``processes_run``) on a database of its own on ``server``, dropped
    afterwards."""
    name = f"durak_bench_{os.getpid()}"
    admin = await asyncpg.connect(server)
    try:
        await admin.execute(f'DROP DATABASE IF EXISTS "{name}"')
        await admin.execute(f'CREATE DATABASE "{name}"')
        target = urlunsplit(urlsplit(server)._replace(path=f"/{name}"))
        try:
            if processes > 1:
                await processes_run(target, games, processes)
                return []
            return await run(games, target, think)
        finally:
            await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    finally:
        await admin.close()


if __name__ == "__main__":
    raise SystemExit(main())
