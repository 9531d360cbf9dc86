"""Tables with computer players beside tables of people only (issue 11's figures).

    python -m bench.bot_tables [--bot-tables 20] [--people-tables 100] [--seconds 30] [--pairs 1]
        [--hold S] [--no-baseline]

Two processes, as in production, where Telegram is not on the bot's machine: the real
bot in this one (Dispatcher and polling loop, SQLite file in a temp dir, the service
with a real ``Thinker`` whose worker processes decide for «Мастер», the outbox with
the production ``Limits``), and in a child the fake Bot API server and the people (in
one process their CPU would slow the bot's event loop). The server answers 429 above
Telegram's per-chat (1 a second, a burst of 3) and per-group (20 a minute) limits;
there is no global one. A bot table is one person and two «Мастер» bots, a people
table two people. Opening the tables and dealing, with the limits lifted, are not
measured; then the tables join in over ``--ramp`` seconds; each person waits for
their keyboard to change, thinks (uniform in ``--think``) and presses what a simple
player would; a table's creator presses «Ещё партию». A second run plays the people
tables alone: the baseline of the ratio. ``--pairs N`` plays N such pairs, in turns
(beside and alone, then alone and beside, ...), and prints the median and the range of
their ratios, of all pairs and of those whose runs the host stole under 1% of the cores'
time from (with two pairs or more): on a shared virtual machine other guests' load
comes and goes by the minute, and runs with 8-11% steal time had p99s of 82-108 ms where
runs with under 0.5% had 18-21 ms, with the bots beside and without them alike. A last
run seats people where the computers sat (each bot table three people): the same tables
and games, so the ratio against it shows what the computers' way of moving costs the
other tables, apart from the load that as many more tables of people would bring.
``--hold S`` stops the worker processes every other S seconds of the runs beside
(``bench.holds``): the people tables' presses while the computers think and while they
are held meet the same host, seconds apart, which two runs minutes apart seldom do.

press -> answer: until the server got answerCallbackQuery. press -> next person's
keyboard: from a press that made a move to the first later version at which the game
waits for a person, until each of them has a hand keyboard of that version or newer
(at a bot table it includes the bots' pauses and thinking). CPU: the bot process and
its worker processes (from /proc) over wall time. CLOCK_MONOTONIC is system-wide, so
both processes' times compare. The two processes, the fake server and the people are
``bench.load_world``'s.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import math
import os
import statistics
import sys
import time
from collections import defaultdict
from collections.abc import Sequence
from contextlib import suppress
from dataclasses import dataclass, field, replace
from functools import partial
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

from bench import load_world
from bench.holds import MARGIN, Holds, compare
from bench.host import loadavg, steal
from bench.load_world import MADE, TELEGRAM, FirstShown, Pace, Table, WorldTelegram, ms
from bot.app import App
from bot.callbacks import LobbyCb
from bot.config import Config
from bot.keyboard import Keyboard
from bot.outbox import Limits
from service import Update
from service.thinking import TIMEOUT
from telegram_emulator import TOKEN, FakeUser, PressHandle

TARGET_P99_MS = 100
TARGETS = f"targets: press -> answer p99 under {TARGET_P99_MS} ms at both kinds of table"
QUIET = 20.0  # seconds without a commit that make a table count as stalled
QUIET_HOST = 0.01  # a run's steal time under this share of the cores' time


@dataclass(frozen=True, kw_only=True)
class Load(Pace):
    bot_tables: int
    people_tables: int
    stand_ins: bool = False  # people in the computers' seats: a bot table is 3 people

    @property
    def tables(self) -> int:
        return self.bot_tables + self.people_tables

    def bots(self, table: int) -> bool:
        return table < self.bot_tables

    def users(self, table: int) -> list[int]:
        people = (3 if self.stand_ins else 1) if self.bots(table) else 2
        return [10_000 + 3 * table + j for j in range(people)]


@dataclass(frozen=True)
class Press:
    """One press of the measured window, as the person saw it."""

    bots: bool  # at a table with computer players
    user: int
    data: str
    pressed: float
    answered: float | None  # None: not answered in 30 s
    answer: str


# --- the world (the child process): how a table opens, what a press notes ----------


async def set_up(tg: WorldTelegram, table: Table) -> None:
    """Open the table; a bot table has three seats, two of them for «Мастер» bots when
    only one person sits there; the people sit down."""
    creator = table.users[0]
    await tg.send_text(creator, table.group, "/durak")
    lobby = await tg.wait_for_message(table.group, lambda m: "Стол для игры" in (m.text or ""), 60)
    table_id = next(LobbyCb.unpack(d).table for d in lobby.button_data() if d.startswith("l:"))

    async def press(user: FakeUser, op: str, arg: str = "") -> str | None:
        """Press a button of the lobby once the lobby shows it (after the last press)."""
        data = load_world.lobby_button(table_id, op, arg)
        message = await tg.wait_for_message(table.group, lambda m: data in m.button_data(), 60)
        return (await (await tg.press(user, message, data)).wait_answer(60)).text

    computers = 3 - len(table.users) if table.bots else 0
    if computers:
        await press(creator, "bots", "expert")  # the bots' button goes round the levels
        await press(creator, "bots", "master")
    if table.bots:
        await press(creator, "set", "seats")
    for user in table.users:
        answer = await press(user, "join")
        assert answer == "Вы за столом!", answer
    for _ in range(computers):
        await press(creator, "bot")
    for user in table.users:
        await tg.wait_for_message(tg.private(user), lambda m: bool(m.keyboard), 60)


async def world(conn: Connection, load: Load) -> None:
    """The people of ``load`` play (``bench.load_world.world``), noting their presses."""
    presses: list[Press] = []

    def note(tg: WorldTelegram, table: Table, handle: PressHandle) -> None:
        answer, when = handle.answer, tg.answered.get(handle.query_id)
        text = "" if answer is None else answer.text or MADE
        presses.append(
            Press(table.bots, handle.user.id, handle.data, handle.pressed_at, when, text)
        )

    await load_world.world(conn, load, set_up, note, presses, shuffle=True)


# --- the bot (this process): what it committed and what each hand showed, and when --


@dataclass(frozen=True)
class Commit:
    when: float
    chat: int
    actor: int | None  # the user whose move it was (None: a computer's)
    auto: bool
    waiting: tuple[int, ...]  # the people the game waits for now
    over: bool


@dataclass
class Watch:
    app: App
    commits: dict[tuple[int, int], Commit] = field(default_factory=dict)  # (game, version)
    hands: dict[tuple[int, int], list[tuple[float, int]]] = field(default_factory=dict)
    measuring: bool = False  # commits are noted (hands always: the last moves are seen)

    def on_update(self, update: Update) -> None:
        live = self.app.service.live(update.game_id)
        if live is None or not self.measuring:
            return
        seats, turn = live.seats, update.state.turn()
        human = [s.user_id if s.human else None for s in seats]
        action, auto = update.actions[0] if update.actions else (None, False)
        actor = human[action.seat] if action is not None else None
        waiting = tuple(u for s in (turn.seats if turn else ()) if (u := human[s]) is not None)
        when, over = time.monotonic(), update.state.is_over
        key = (update.game_id, update.version)
        self.commits[key] = Commit(when, live.chat_id, actor, auto, waiting, over)

    async def __call__(self, make_request: Any, bot: Any, method: Any) -> Any:
        """Notes the game version drawn on each hand keyboard once it is sent (the
        outbox renders a message just before its call)."""
        chat = getattr(method, "chat_id", None)
        markup = getattr(method, "reply_markup", None)
        game = version = None
        if isinstance(chat, int) and chat > 0 and isinstance(markup, Keyboard):
            for row in markup.rows:
                parts = (row[0].data or "").split(":") if row else []
                if parts and parts[0] in ("c", "m", "p", "f") and len(parts) >= 3:
                    live = self.app.service.live(game := int(parts[1]))
                    version = len(live.state.history) if live else None
                    break
        result = await make_request(bot, method)
        if isinstance(chat, int) and game is not None and version is not None:
            self.hands.setdefault((game, chat), []).append((time.monotonic(), version))
        return result

    def made_by(self, game: int, user: int, pressed: float) -> int | None:
        """The version of the first move of ``user`` in ``game`` committed after ``pressed``."""
        mine = [
            (c.when, v)
            for (g, v), c in self.commits.items()
            if g == game and c.actor == user and c.when >= pressed
        ]
        return min(mine)[1] if mine else None


def worker_pids(app: App) -> list[int]:
    """The worker processes now (from the executor's own table)."""
    pool = getattr(app.service.autoplay.thinker, "_pool", None)
    return list(getattr(pool, "_processes", None) or {})


def workers_cpu(app: App) -> dict[int, float]:
    """User + system CPU seconds of each worker process now (from /proc)."""
    out = {}
    for pid in worker_pids(app):
        with suppress(OSError):  # a worker that is gone
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            out[pid] = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return out


async def bot_side(conn: Connection, db: Path, load: Load, args: Any) -> dict[str, Any]:
    async with load_world.running_bot(conn, db, load, Watch, bot_pause=args.pause) as (app, watch):
        thinker = app.service.autoplay.thinker
        assert thinker is not None, "the bench needs the real worker processes"
        if load.bot_tables:  # the workers start now, not at a measured decision
            await asyncio.get_running_loop().run_in_executor(thinker._executor(), os.getpid)
        await load_world.open_tables(conn, app)
        workers: dict[int, tuple[float, float]] = {}  # pid -> CPU first and last seen

        def sample() -> None:
            for pid, now in workers_cpu(app).items():
                workers[pid] = (workers.get(pid, (now, now))[0], now)

        sample()
        decisions, replaced = app.service.autoplay.decisions, thinker.replaced
        thinker.seconds.clear()
        watch.measuring = True
        began, cpu, load_start, stolen = time.monotonic(), time.process_time(), loadavg(), steal()
        holds = None
        if args.hold and load.bot_tables and not load.stand_ins:
            holds = Holds(partial(worker_pids, app), args.hold, after=load.ramp)
        holding = asyncio.create_task(holds.run()) if holds else None
        try:
            stalls, ended = await load_world.play(conn, 20, sample)
        finally:
            if holding is not None:  # the workers are let go, whatever happened
                holding.cancel()
                with suppress(asyncio.CancelledError):
                    await holding
        sample()
        presses, fake_limited, world_cpu = ended
        elapsed, cpu = time.monotonic() - began, time.process_time() - cpu
        figures = {
            "watch": watch, "presses": presses, "seconds": elapsed, "cpu": cpu,
            "workers": sum(b - a for a, b in workers.values()), "processes": len(workers),
            "world_cpu": world_cpu, "stalls": stalls, "fake_limited": fake_limited,
            "decisions": app.service.autoplay.decisions - decisions,
            "replaced": thinker.replaced - replaced, "load": (load_start, loadavg()),
            "thought": list(thinker.seconds),
            "steal": steal() - stolen,
            "end": began + elapsed,
            "holds": holds,
        }  # fmt: skip
        watch.measuring = False
        await app.service.stop()  # no more timeouts or computer moves: only what is due
        await app.presenter.idle()
        with suppress(TimeoutError):  # the last keyboards are shown, or the run ends
            await asyncio.wait_for(app.outbox.drain(), args.drain)
    return figures


# --- the figures ---------------------------------------------------------------------


def press_to_answer(presses: list[Press], bots: bool) -> list[float]:
    return [p.answered - p.pressed for p in presses if p.bots == bots and p.answered is not None]


def next_keyboard(w: Watch, presses: list[Press], bots: bool) -> tuple[list[float], int]:
    """For each move made by a press: the time until the people the game next waits for
    see it on their keyboards. Also the number of such moves never shown by the end."""
    firsts, out, unseen = FirstShown(w.hands), [], 0
    for p in presses:
        parts = p.data.split(":")
        if p.bots != bots or p.answer != MADE or parts[0] not in ("c", "m"):
            continue
        game = int(parts[1])
        version = w.made_by(game, p.user, p.pressed)
        made = w.commits.get((game, version)) if version is not None else None
        if version is None or made is None or made.auto:
            continue  # a card tap that opened a choice of target, or a stale press
        while (step := w.commits.get((game, version))) is not None and not step.waiting:
            if step.over:
                break
            version += 1
        if step is None or step.over:
            continue  # the game ended, or the run did before a person's turn
        seen = [firsts.at((game, user), version) for user in step.waiting]
        if None in seen:
            unseen += 1
        else:
            out.append(max(when - p.pressed for when in seen if when is not None))
    return out, unseen


def report(f: dict[str, Any], load: Load) -> None:
    w: Watch = f["watch"]
    presses: list[Press] = f["presses"]
    seconds, cores = f["seconds"], os.cpu_count() or 1
    start, end = f["load"]
    print(
        f"  {seconds:.0f} s of play; load average {start} at the start, {end} at the end;"
        f" the host's steal time {f['steal']} of the cores' time"
    )
    first = "3-people (the bots' seats)" if load.stand_ins else "bot"

    def bot_kind(c: Commit) -> bool:
        return load.bots(load_world.table_at(c.chat))

    kinds = ((True, first, load.bot_tables), (False, "people", load.people_tables))
    for bots, name, count in (kind for kind in kinds if kind[2]):
        mine = [p for p in presses if p.bots == bots]
        refused = sum(1 for p in mine if p.answered is not None and p.answer != MADE)
        unanswered = sum(1 for p in mine if p.answered is None)
        games = [(v, c) for (_, v), c in w.commits.items() if bot_kind(c) == bots]
        moves = sum(c.actor is None for v, c in games if v)  # version 0: a deal, no move
        finished = sum(c.over for _, c in games)
        shown, unseen = next_keyboard(w, presses, bots)
        print(
            f"  {name} tables ({count}): {len(mine)} presses ({refused} refused, {unanswered}"
            f" unanswered), {moves} computer moves, {finished} games finished"
            f"\n    press -> answer  {ms(press_to_answer(presses, bots), (0.5, 0.99))}"
            f"\n    press -> next person's keyboard current  {ms(shown, (0.5, 0.95))}"
            + (f"; {unseen} moves not shown by the end" if unseen else "")
        )
    bot, workers, world = (f[k] / seconds for k in ("cpu", "workers", "world_cpu"))
    print(
        f"  computer decisions: {f['decisions']}, {f['decisions'] / seconds:.1f} per second;"
        f" worker pools replaced: {f['replaced']}"
        f"\n    time in a worker  {load_world.ms(f['thought'], (0.5, 0.95))}"
        f"{' (the holds included)' if f['holds'] else ''}"
        f"\n  CPU: bot process {100 * bot:.0f}% of a core, its {f['processes']} worker processes"
        f" {100 * workers:.0f}%: {100 * (bot + workers) / cores:.0f}% of the {cores} cores;"
        f" fake Telegram and people (child process) {100 * world:.0f}% of a core"
    )
    print(f"  {load_world.stall_figures(f['stalls'])}; 429 responses {f['fake_limited']}")
    if (holds := f["holds"]) is not None:
        print(
            f"  people tables' press -> answer, the computers held every other {holds.seconds:g} s:"
        )
        answered = [
            (p.pressed, p.answered) for p in presses if not p.bots and p.answered is not None
        ]
        print(compare(holds, answered))
    if seconds > QUIET + load.ramp:
        latest: dict[int, float] = defaultdict(float)
        for c in w.commits.values():
            latest[c.chat] = max(latest[c.chat], c.when)
        stalled = load.tables - sum(1 for t in latest.values() if t > f["end"] - QUIET)
        print(f"  stalled tables (no commit in the last {QUIET:.0f} s): {stalled}")


def run(load: Load, args: Any) -> dict[str, Any]:
    bot = partial(bot_side, load=load, args=args)
    figures = load_world.run_apart(partial(world, load=load), bot, "tables.sqlite3")
    report(figures, load)
    return figures


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="bench.bot_tables")
    parser.add_argument("--bot-tables", type=int, default=20, help="1 person + 2 «Мастер»")
    parser.add_argument("--people-tables", type=int, default=100, help="2 people")
    parser.add_argument("--seconds", type=float, default=30.0, help="measured play per run")
    parser.add_argument("--think", type=float, nargs=2, default=[0.5, 1.5], help="LOW HIGH s")
    parser.add_argument("--pause", type=float, nargs=2, help="LOW HIGH s between bot moves")
    parser.add_argument("--ramp", type=float, help="seconds over which the tables join in")
    parser.add_argument("--drain", type=float, default=30.0, help="seconds to send the rest")
    parser.add_argument(
        "--hold", type=float, help="hold the thinking every other S seconds (bench.holds)"
    )
    parser.add_argument("--no-baseline", action="store_true", help="skip the people-only run")
    parser.add_argument(
        "--pairs", type=int, default=1, help="runs beside and alone, in turns (ABBA)"
    )
    args = parser.parse_args(argv)
    if args.pairs < 1:
        parser.error("--pairs: at least 1")
    if args.hold is not None and not MARGIN < args.hold < TIMEOUT / 2:
        parser.error(f"--hold: more than {MARGIN} s and less than {TIMEOUT / 2:g} s")
    ramp = min(10.0, args.seconds / 4) if args.ramp is None else args.ramp
    think = (args.think[0], args.think[1])
    production = Config(token=TOKEN, db_path="")
    args.pause = production.bot_pause if args.pause is None else (args.pause[0], args.pause[1])
    print(
        f"{os.cpu_count()} cores, Python {sys.version.split()[0]}; load average {loadavg()}"
        f"\npeople think {think[0]:.2f}-{think[1]:.2f} s; computer moves {args.pause[0]:.2f}-"
        f"{args.pause[1]:.2f} s apart, {production.bot_workers} worker processes;"
        f" bot {Limits()}; fake Telegram {TELEGRAM}"
    )
    beside = Load(
        bot_tables=args.bot_tables, people_tables=args.people_tables,
        seconds=args.seconds, think=think, ramp=ramp,
    )  # fmt: skip
    runs = {
        "beside": f": {args.bot_tables} tables of 1 person + 2 «Мастер» beside"
        f" {args.people_tables} tables of 2 people (tables join in over {ramp:.0f} s)",
        "alone": f" (baseline): the {args.people_tables} tables of 2 people alone",
    }
    loads = {"beside": beside, "alone": replace(beside, bot_tables=0)}
    number = itertools.count(1)
    if args.no_baseline or not args.people_tables or not args.bot_tables:
        print(f"run {next(number)}{runs['beside']}")
        run(beside, args)
        print(TARGETS)
        return 0
    pairs: list[tuple[dict[str, Any], dict[str, Any]]] = []
    for pair in range(args.pairs):
        figures: dict[str, dict[str, Any]] = {}
        # in turns, ABBA: a drift of the host's speed over the runs weighs on both alike
        for kind in ("beside", "alone") if pair % 2 == 0 else ("alone", "beside"):
            print(f"run {next(number)}{runs[kind]}")
            figures[kind] = run(loads[kind], args)
        pairs.append((figures["beside"], figures["alone"]))
    print(TARGETS)
    for with_bots, baseline in pairs:
        print(ratios(with_bots, baseline, "alone", "(target ≈ 1)"))
    if len(pairs) > 1:
        print(f"{summary(pairs, 'pairs')} (the ratios' medians and ranges)")
        quiet = [
            pair
            for pair in pairs
            if all(f["steal"].known and f["steal"].share < QUIET_HOST for f in pair)
        ]
        print(summary(quiet, f"pairs in which the host stole under {QUIET_HOST:.0%} of the time"))
    seats = f"{args.bot_tables} tables of 3 people beside"
    print(f"run {next(number)}: people in the bots' seats: {seats}")
    seated = run(replace(beside, stand_ins=True), args)
    print(ratios(pairs[-1][0], seated, "beside people in their seats", ""))
    return 0


def ratio(beside: dict[str, Any], base: dict[str, Any]) -> tuple[float, float]:
    """The people tables' press -> answer p50 and p99 in ``beside`` over those in ``base``."""
    with_, without = (press_to_answer(f["presses"], False) for f in (beside, base))
    return load_world.p50_p99_ratios(with_, without)


def ratios(beside: dict[str, Any], base: dict[str, Any], name: str, target: str) -> str:
    p50, p99 = ratio(beside, base)
    return (
        f"people tables' press -> answer with the bot tables beside them / {name}:"
        f" p50 x{p50:.2f}, p99 x{p99:.2f}{f' {target}' if target else ''}; the host's steal time"
        f" {beside['steal']} / {base['steal']}"
    )


def summary(pairs: list[tuple[dict[str, Any], dict[str, Any]]], which: str) -> str:
    """The ratios' medians and ranges (a pair whose run had no press of people is left
    out: its ratio is not a number)."""
    found = [r for pair in pairs if not math.isnan(sum(r := ratio(*pair)))]
    if not found:
        return f"no {which}"
    p50s, p99s = zip(*found, strict=True)
    return (
        f"over the {len(found)} {which}: p50 x{statistics.median(p50s):.2f}"
        f" (x{min(p50s):.2f}-{max(p50s):.2f}), p99 x{statistics.median(p99s):.2f}"
        f" (x{min(p99s):.2f}-{max(p99s):.2f})"
    )


if __name__ == "__main__":
    raise SystemExit(main())
