"""Several bot processes sharing the chats (issue 38): ``bench.bot_load``'s people and
fake Telegram in front of 1, 2, 3… webhook processes on one PostgreSQL server.

    python -m bench.fleet_load --pg postgresql://user:pass@host/postgres
        [--processes 1 2 3] [--tables 600] [--seconds 120] [--think 3] [--jitter 0.33]

For each number of processes: a new database on the server (dropped at the end); the
fake Bot API server and the people in one child process (``bench.load_world``), each bot
process a child of its own (an App in webhook mode on the database, production limits,
the default 64 shards). The fake POSTs the updates to the processes in turn, as a
round-robin proxy before them would, so a press reaches any process, and the holder of
its chat's shard shows it. The processes first share the shards out evenly, then the
tables are opened (limits lifted) and played as in ``bench.bot_load``.

Printed for each run: actions a second; each process's CPU (a share of a core and
milliseconds per action of the whole fleet), its Telegram calls and its memory; the
PostgreSQL server's CPU per action; hand freshness (commit, in whichever process, to
every hand of the game showing it, on the holder); the press's wait for its answer.
On a 2-core machine the machine saturates whatever the number of processes: the design
shows in the CPU per action summed over the processes, which must not grow with them,
and in the calls, which must split evenly.
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import os
import sys
import time
from collections import Counter
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from functools import partial
from multiprocessing.connection import Connection
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import asyncpg

from bench import bot_load, load_world
from bench.bot_load import Load, Presses, freshness, ms, rss_mb
from bot.app import App
from bot.outbox import Limits
from service import Update
from storage.shards import SHARDS

CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


class FleetWatch(bot_load.Watch):
    """``bot_load``'s watch in one of several processes: a commit is noted where it is
    made (the delivery's news), a move made elsewhere where its game is shown (moved)."""

    def on_update(self, update: Update) -> None:
        """(The presenter's hook: the news already noted it.)"""

    def committed(self, update: Update) -> None:
        super().on_update(update)

    def moved(self, game_id: int) -> None:
        """A move made in another process, now in this one's cache: the hands it left as
        they were show it from now on (as ``on_update`` notes for a move made here)."""
        live = self.app.service.live(game_id)
        if live is None:
            return
        version, now = len(live.state.history), time.monotonic()
        for user in (s.user_id for s in live.seats if s.human and s.user_id is not None):
            drawn = self.app.presenter.hand_key(game_id, user)
            if drawn is not None and drawn == self.keys.get((game_id, user)):
                self.hands.setdefault((game_id, user), []).append((now, version))


def observe(app: App, watch: FleetWatch) -> None:
    """The delivery's news and moves, noted before it shows them."""
    delivery = app.delivery
    news, moved = delivery.news, delivery.moved

    async def noted_news(update: Update) -> None:
        watch.committed(update)
        await news(update)

    def noted_move(game_id: int) -> None:
        moved(game_id)
        watch.moved(game_id)

    delivery.news = noted_news  # type: ignore[method-assign]
    delivery.moved = noted_move  # type: ignore[method-assign]


# --- one bot process -----------------------------------------------------------------


async def bot_process(conn: Connection, dsn: str, load: Load) -> None:
    """One process: serve the webhook, share the shards, play when told; send back what
    it noted and spent."""
    async with load_world.running_bot(conn, dsn, load, FleetWatch) as (app, watch):
        observe(app, watch)
        app.outbox.limits = load_world.RELAXED
        while (asked := await asyncio.to_thread(conn.recv)) == "showing":
            conn.send(app.delivery.showing)
        assert asked == "set up", asked
        await app.presenter.idle()
        await app.outbox.drain()
        app.outbox.limits = app.config.limits
        assert app.outbox.limits == Limits(), "the bot must play with production limits"
        conn.send("ready")
        await asyncio.to_thread(conn.recv)  # go
        watch.measuring, began, cpu = True, time.monotonic(), time.process_time()
        memory: list[float] = []
        ended = asyncio.create_task(asyncio.to_thread(conn.recv))
        while not ended.done():
            memory.append(rss_mb())
            await asyncio.wait({ended}, timeout=10.0)
        seconds, cpu = time.monotonic() - began, time.process_time() - cpu
        showing = app.delivery.showing
        await app.service.stop()
        await app.presenter.idle()
        await asyncio.wait_for(app.outbox.drain(), 120)
        watch.measuring = False
        conn.send(
            {
                "cpu": cpu, "seconds": seconds, "memory": memory, "showing": showing,
                "actions": watch.actions, "automatic": watch.automatic,
                "started": watch.started, "finished": watch.finished,
                "commits": watch.commits, "last": watch.last, "hands": watch.hands,
                "calls": watch.calls, "limited": watch.limited,
            }
        )  # fmt: skip
        await asyncio.to_thread(conn.recv)  # everyone reported: stop


def serve(conn: Connection, dsn: str, load: Load) -> None:
    asyncio.run(bot_process(conn, dsn, load))


# --- the run (this process) ----------------------------------------------------------


@dataclass(frozen=True)
class Run:
    processes: int
    presses: Presses
    world_cpu: float
    fake_limited: int
    database_cpu: float
    reports: list[dict[str, Any]]


def postgres_cpu() -> float:
    """CPU seconds of every PostgreSQL server process on this machine so far."""
    total = 0
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/stat") as stat:
                fields = stat.read().rsplit(")", 1)
        except OSError:
            continue
        if "(postgres" in fields[0] or "(postmaster" in fields[0]:
            rest = fields[1].split()
            total += int(rest[11]) + int(rest[12])  # utime, stime
    return total / CLOCK_TICKS


@contextmanager
def fresh_database(admin: str, name: str) -> Iterator[str]:
    """A new database ``name`` on the server of ``admin`` (a DSN), dropped at the end."""

    async def run(*sql: str) -> None:
        connection = await asyncpg.connect(admin)
        try:
            for statement in sql:
                await connection.execute(statement)
        finally:
            await connection.close()

    async def drop() -> None:
        try:
            await run(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        except asyncpg.InsufficientPrivilegeError:  # an autovacuum worker on it
            await run(f'DROP DATABASE IF EXISTS "{name}"')

    asyncio.run(drop())
    asyncio.run(run(f'CREATE DATABASE "{name}"'))
    try:
        yield urlunsplit(urlsplit(admin)._replace(path=f"/{name}"))
    finally:
        asyncio.run(drop())


def ask_all(conns: Sequence[Connection], message: object, timeout: float = 600.0) -> list[Any]:
    for conn in conns:
        conn.send(message)
    return [receive(conn, timeout) for conn in conns]


def receive(conn: Connection, timeout: float) -> Any:
    if not conn.poll(timeout):
        raise TimeoutError("a child process did not answer")
    return conn.recv()


def run(dsn: str, processes: int, load: Load) -> Run:
    context = multiprocessing.get_context("fork")
    world, world_end = context.Pipe()
    children = [
        context.Process(
            target=load_world._serve, args=(partial(bot_load.world, load=load), world_end)
        )
    ]
    bots = []
    for _ in range(processes):
        ours, theirs = context.Pipe()
        children.append(context.Process(target=serve, args=(theirs, dsn, load)))
        bots.append(ours)
    for child in children:
        child.daemon = True
        child.start()
    try:
        base = receive(world, 60)
        addresses = [a for conn in bots for a in ask_all([conn], base, 120)[0]]  # one by one
        deadline = time.monotonic() + 60
        while (held := ask_all(bots, "showing")) and (
            sum(held) != SHARDS or max(held) - min(held) > 1
        ):
            if time.monotonic() > deadline:
                raise TimeoutError(f"the shards were not shared out evenly: {held}")
            time.sleep(0.5)
        world.send(addresses)
        assert receive(world, 1800) == "set up"
        ask_all(bots, "set up")
        world.send("go")
        for conn in bots:
            conn.send("go")
        database = postgres_cpu()
        presses, fake_limited, world_cpu = receive(world, load.seconds + 600)
        database = postgres_cpu() - database
        reports = ask_all(bots, "end")
        ask_all(bots, "stop")  # each sends "done" as it stops receiving
        for child in children[1:]:
            child.join(60)
        world.send("done")  # (its server served the bots until they stopped)
        children[0].join(60)
    finally:
        for child in children:
            if child.is_alive():
                child.kill()
    return Run(processes, presses, world_cpu, fake_limited, database, reports)


def report(r: Run) -> None:
    seconds = max(f["seconds"] for f in r.reports)
    actions = sum(f["actions"] for f in r.reports)
    per = max(actions, 1)
    cpu = sum(f["cpu"] for f in r.reports)
    print(f"{r.processes} process{'es' if r.processes > 1 else ''}:")
    print(
        f"  {seconds:.0f} s of play: {actions} actions"
        f" ({sum(f['automatic'] for f in r.reports)} automatic), {actions / seconds:.1f}"
        f" actions/s; games {sum(f['started'] for f in r.reports)} started,"
        f" {sum(f['finished'] for f in r.reports)} finished"
    )
    calls = [sum(f["calls"].values()) for f in r.reports]
    for i, f in enumerate(r.reports):
        sent = Counter({k: n for k, n in f["calls"].items() if k[1] != "answer"})
        print(
            f"  process {i + 1}: {f['showing']:2d} shards, CPU {100 * f['cpu'] / seconds:3.0f}%"
            f" of a core, {1000 * f['cpu'] / per:.2f} ms per action of the fleet;"
            f" calls {calls[i]} ({100 * calls[i] / max(sum(calls), 1):.0f}%: {sum(sent.values())}"
            f" sent or edited, {calls[i] - sum(sent.values())} answers);"
            f" RSS max {max(f['memory'], default=0):.0f} MB"
        )
    print(
        f"  CPU per action: the processes together {1000 * cpu / per:.2f} ms,"
        f" PostgreSQL {1000 * r.database_cpu / per:.2f} ms, fake Telegram and people"
        f" {1000 * r.world_cpu / per:.2f} ms"
    )
    commits: dict[tuple[int, int], float] = {}
    hands: dict[tuple[int, int], list[tuple[float, int]]] = {}
    last: set[tuple[int, int]] = set()
    for f in r.reports:
        for key, when in f["commits"].items():
            commits[key] = min(when, commits.get(key, when))
        for key, shown in f["hands"].items():
            hands.setdefault(key, []).extend(shown)
        last |= f["last"]
    seats: dict[int, list[tuple[int, int]]] = {}
    for game, user in hands:
        seats.setdefault(game, []).append((game, user))
    moves = [(k, t) for k, t in commits.items() if k not in last and k[1] > 0]
    fresh = freshness(moves, hands, lambda g: seats.get(g, []))
    print(f"  hand freshness (commit -> every hand shows it)  {ms(fresh, (0.5, 0.95, 0.99))}")
    p = r.presses
    print(f"  press -> answer (handed out -> answerCallbackQuery)  {ms(p.handed_to_answer)}")
    print(f"  press -> its POST answered 200 (handed out -> 200)  {ms(p.held())}")
    limited = sum(f["limited"] for f in r.reports)
    print(
        f"  429 responses: {limited} (the server counted {r.fake_limited});"
        f" presses unanswered {p.unanswered}"
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="bench.fleet_load")
    parser.add_argument("--pg", default=os.environ.get("DURAK_TEST_PG"), help="a server's DSN")
    parser.add_argument("--processes", type=int, nargs="+", default=[1, 2, 3])
    parser.add_argument("--tables", type=int, default=600)
    parser.add_argument("--players", type=int, default=2, help="people per table")
    parser.add_argument("--seconds", type=float, default=120.0, help="measured play per run")
    parser.add_argument("--think", type=float, default=3.0, help="mean seconds before a press")
    parser.add_argument("--jitter", type=float, default=0.33, help="think time ± this share")
    parser.add_argument("--ramp", type=float, help="seconds over which the tables join in")
    args = parser.parse_args(argv)
    if not args.pg:
        parser.error("--pg (or DURAK_TEST_PG) must name a PostgreSQL server")
    ramp = min(10.0, args.seconds / 4) if args.ramp is None else args.ramp
    think = (args.think * (1 - args.jitter), args.think * (1 + args.jitter))
    load = Load(
        tables=args.tables, players=args.players, seconds=args.seconds, think=think,
        ramp=ramp, webhook=True,
    )  # fmt: skip
    print(f"{os.cpu_count()} cores, Python {sys.version.split()[0]}; webhook, PostgreSQL")
    print(
        f"{load.tables} tables x {load.players} people, think {think[0]:.2f}-{think[1]:.2f} s,"
        f" {load.seconds:.0f} s of play per run; {SHARDS} shards"
    )
    for processes in args.processes:
        with fresh_database(args.pg, f"durak_fleet_{os.getpid()}") as dsn:
            report(run(dsn, processes, load))
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
