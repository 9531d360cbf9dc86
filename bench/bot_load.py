"""The real bot under load: N group tables of simulated people pressing the buttons of
their private hand keyboards, through a fake Telegram that enforces Telegram's limits.

    python -m bench.bot_load [--tables 200 1000] [--seconds 300] [--think 3] [--jitter 0.33]
                            [--webhook] [--trace-memory [--trace-after 120]] [--no-freshness]

Two processes, as in production, where Telegram is not on the bot's machine: the bot
(real Dispatcher and long poll, or with ``--webhook`` its webhook server, to which the
fake POSTs each update on as many connections as the bot asked for, as Telegram does;
SQLite file, service, presenter, outbox with the production ``Limits``) in this one, and
in a child process the fake Bot API server on 127.0.0.1 with the people. The server
answers 429 above Telegram's per-chat limit (1 a second, a burst of 3) and per-group
limit (20 a minute); there is no global one. The players started the bot before (they
are in the database). Opening the tables, joining and dealing come first, with the
limits lifted on both sides, and are not measured. Then the tables join in one by one
over ``--ramp`` seconds; each player waits for their keyboard to change, thinks
(``--think`` ± ``--jitter``) and presses what a simple player would; the creator presses
«Ещё партию» when a game ends. The bot's Telegram calls are watched by a request
middleware: what each keyboard showed and when it was shown.
The two processes, the fake server and the people are ``bench.load_world``'s.
``--trace-memory``: what grew in the bot's process from ``--trace-after`` seconds of play
to the end, by allocation site, and the bot's containers and caches (``bench.memory_trace``).
``--no-freshness``: the bench draws no hand to learn what each shows, so the bot's CPU is
its own (the bench's drawings cost it CPU, and spare it some it would spend itself).
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import os
import sys
import time
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import partial
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

from bench import load_world
from bench.load_world import MADE, TELEGRAM, FirstShown, Pace, Table, WorldTelegram, lobby_button
from bench.memory_trace import MemoryTrace
from bench.playing import hand_message
from bot.app import App
from bot.callbacks import LobbyCb
from bot.keyboard import Keyboard
from bot.outbox import Limits
from bot.webhook import CONNECTIONS
from service import Update
from storage.handled import HandledRepo
from storage.handling import KEEP
from telegram_emulator import FakeChat, FakeUser, PressHandle

# What this benchmark's own records take in the bot's process (tracemalloc, 200k each):
COMMIT = 200  # bytes an entry of Watch.commits takes
SHOWN = 120  # bytes an entry of the lists of what a hand or table showed takes
SENDS = ("sendMessage", "editMessageText", "editMessageReplyMarkup")


@dataclass(frozen=True, kw_only=True)
class Load(Pace):
    tables: int
    players: int

    def users(self, table: int) -> list[int]:
        return [10_000 + self.players * table + j for j in range(self.players)]

    def bots(self, table: int) -> bool:
        return False  # people only


# --- the world (the child process): how a table opens, what a press notes ----------


@dataclass
class Presses:
    """What the people saw of their presses during the measured window."""

    handed_to_answer: list[float] = field(default_factory=list)
    press_to_answer: list[float] = field(default_factory=list)
    answers: Counter[str] = field(default_factory=Counter)
    unanswered: int = 0
    noted: list[tuple[str, float]] = field(default_factory=list)  # (query, handed out)
    acknowledged: dict[str, float] = field(default_factory=dict)  # webhook: query -> its 200

    def held(self) -> list[float]:
        """Webhook: how long each press's POST waited for its 200 (handed out -> 200)."""
        return [self.acknowledged[q] - h for q, h in self.noted if q in self.acknowledged]


async def until(tg: WorldTelegram, chat: FakeChat, found: Any, timeout: float = 300.0) -> Any:
    changed = tg.watch(chat)
    deadline = time.monotonic() + timeout
    while not (value := found()):
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting in chat {chat.id}")
        changed.clear()
        await load_world.wait_change(changed, 1.0)
    return value


async def set_up(tg: WorldTelegram, table: Table) -> None:
    """Open the table, take the seats and wait for every hand."""
    creator = table.users[0]
    await tg.send_text(creator, table.group, "/durak")

    def lobby() -> int | None:
        message = tg.latest_message(table.group)
        for data in message.button_data() if message else ():
            if data.startswith("l:") and LobbyCb.unpack(data).op == "join":
                return LobbyCb.unpack(data).table
        return None

    table_id = await until(tg, table.group, lobby)

    async def press(user: FakeUser, data: str) -> str | None:
        message = tg.latest_message(table.group)
        assert message is not None
        return (await (await tg.press(user, message, data)).wait_answer(60)).text

    for _ in table.users[2:]:
        await press(creator, lobby_button(table_id, "set", "seats"))  # one more seat
    for user in table.users:
        answer = await press(user, lobby_button(table_id, "join"))
        assert answer == "Вы за столом!", answer
    for user in table.users:
        await until(tg, tg.private(user), lambda u=user: hand_message(tg, u))


async def world(conn: Connection, load: Load) -> None:
    """The people of ``load`` play (``bench.load_world.world``), noting their presses."""
    presses = Presses()

    def note(tg: WorldTelegram, table: Table, handle: PressHandle) -> None:
        if handle.answer is None:
            presses.unanswered += 1
            return
        handed, answered = tg.handed[handle.query_id], tg.answered[handle.query_id]
        presses.handed_to_answer.append(answered - handed)
        presses.press_to_answer.append(answered - handle.pressed_at)
        presses.noted.append((handle.query_id, handed))
        presses.acknowledged = tg.acknowledged  # (filled in until the end of the play)
        presses.answers[handle.answer.text or MADE] += 1

    await load_world.world(conn, load, set_up, note, presses, shuffle=False)


# --- the bot (this process): what it committed and what it sent, and when ----------


@dataclass
class Watch:
    """Commits (from the service) and calls (from a request middleware on the bot)."""

    app: App
    commits: dict[tuple[int, int], float] = field(default_factory=dict)  # (game, v) -> when
    last: set[tuple[int, int]] = field(default_factory=set)  # the finished games' versions
    games: dict[int, int] = field(default_factory=dict)  # group chat -> its game now
    hands: dict[tuple[int, int], list[tuple[float, int]]] = field(default_factory=dict)
    keys: dict[tuple[int, int], str] = field(default_factory=dict)  # (game, user) -> shown key
    tables: dict[int, list[tuple[float, int]]] = field(default_factory=dict)  # game -> shown
    summaries: dict[int, float] = field(default_factory=dict)  # game -> when its result came
    calls: Counter[tuple[str, str]] = field(default_factory=Counter)  # (method, chat kind)
    limited: int = 0
    actions: int = 0
    automatic: int = 0
    finished: int = 0
    started: int = 0
    measuring: bool = False
    draws: bool = True  # False: no hand drawn here, the hands' freshness not measured

    def on_update(self, update: Update) -> None:
        key = (update.game_id, update.version)
        self.commits[key] = time.monotonic()
        live = self.app.service.live(update.game_id)
        if live is not None:
            self.games[live.chat_id] = update.game_id
        if live is not None and self.draws:
            now = time.monotonic()
            for user in (s.user_id for s in live.seats if s.human and s.user_id is not None):
                hand = (update.game_id, user)
                drawn = self.app.presenter.hand_key(*hand)
                if drawn is not None and drawn == self.keys.get(hand):  # the move left it so
                    self.hands.setdefault(hand, []).append((now, update.version))
        if self.measuring:
            self.actions += len(update.actions)
            self.automatic += sum(1 for _, auto in update.actions if auto)
            self.started += update.version == 0
        if update.state.is_over:
            self.last.add(key)
            self.finished += self.measuring

    async def __call__(self, make_request: Any, bot: Any, method: Any) -> Any:
        name = method.__api_method__
        chat: int = getattr(method, "chat_id", None) or 0
        markup = getattr(method, "reply_markup", None)
        rows = markup.rows if isinstance(markup, Keyboard) else ()
        if name == "getUpdates":
            return await make_request(bot, method)
        if not self.measuring:  # only what each hand shows (a hand may stay so for long)
            result = await make_request(bot, method)
            first = (rows[0][0].data or "").split(":") if rows and rows[0] else [""]
            if chat > 0 and first[0] in ("c", "m", "p"):
                self.keys[(int(first[1]), chat)] = first[-1]
            return result
        if name == "answerCallbackQuery":
            kind = "answer"
        else:
            kind = "other" if not chat else "group" if chat < 0 else "private"
        data = [b.data or "" for row in rows for b in row]
        first = data[0].split(":") if data else [""]
        hand = int(first[1]) if first[0] in ("c", "m", "p") else None  # a hand: its game
        game = self.games.get(chat) if kind == "group" else hand
        live = self.app.service.live(game) if game is not None else None
        version = len(live.state.history) if live else None  # what is being rendered
        self.calls[(name, kind)] += 1
        try:
            result = await make_request(bot, method)
        except Exception as e:
            self.limited += "retry after" in str(e).lower()
            raise
        now = time.monotonic()
        if kind == "private" and hand is not None and version is not None and self.draws:
            sent = self.keys[(hand, chat)] = data[0].rsplit(":", 1)[-1]
            if live is not None and self.app.presenter.hand_key(hand, chat) == sent:
                version = len(live.state.history)  # the moves meanwhile left it so
            self.hands.setdefault((hand, chat), []).append((now, version))
        elif name == "editMessageText" and game is not None and version is not None:
            self.tables.setdefault(game, []).append((now, version))
        elif name == "sendMessage" and game is not None and any(":again" in d for d in data):
            self.summaries.setdefault(game, now)
        return result


def freshness(commits: Any, shown: dict[Any, list[tuple[float, int]]], users: Any) -> list[float]:
    """For each commit, the time until every watched message showed it (or newer)."""
    firsts, out = FirstShown(shown), []
    for (game, version), committed in commits:
        seen = (firsts.at(key, version) for key in users(game))
        waits = [when - committed for when in seen if when is not None]
        if waits:
            out.append(max(waits))
    return out


class FullCollections:
    """Pauses of the garbage collections of the oldest generation (they stop the loop)."""

    def __init__(self) -> None:
        self.pauses: list[float] = []
        self._started = 0.0
        gc.callbacks.append(self._note)

    def close(self) -> None:
        gc.callbacks.remove(self._note)

    def _note(self, phase: str, info: dict[str, int]) -> None:
        if info["generation"] == 2:
            if phase == "start":
                self._started = time.perf_counter()
            else:
                self.pauses.append(time.perf_counter() - self._started)


def records(watch: Watch) -> tuple[int, float]:
    """The benchmark's own records of commits and calls kept so far, and their MB."""
    shown = sum(map(len, [*watch.hands.values(), *watch.tables.values()]))
    return len(watch.commits) + shown, (len(watch.commits) * COMMIT + shown * SHOWN) / 2**20


def memory_figures(memory: list[tuple[float, float]], seconds: float, total: int) -> str:
    """The bot's RSS as sampled, the same less this benchmark's records, and the growth
    of the second half of the run."""
    rss = [m for m, _ in memory]
    net = [m - mine for m, mine in memory]
    half = rss[len(rss) // 2 :], net[len(net) // 2 :]
    minutes = seconds / 2 / 60 if len(rss) > 2 else 0
    slope = [(h[-1] - h[0]) / minutes if minutes else 0.0 for h in half]
    return (
        f"  memory (bot RSS, about every {seconds / max(len(rss), 1):.0f} s):"
        f" {' '.join(f'{m:.0f}' for m in rss)} MB"
        f"\n    less this benchmark's own records ({total} at the end, {COMMIT} B a commit,"
        f" {SHOWN} B a message shown):"
        f" {' '.join(f'{m:.0f}' for m in net)} MB"
        f"\n    growth over the second half: {slope[0]:+.2f} MB/min, {slope[1]:+.2f} MB/min"
        " less the records"
    )


def rss_mb() -> float:
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


async def bot_side(
    conn: Connection,
    db: Path,
    load: Load,
    trace_after: float | None = None,
    draws: bool = True,
) -> dict[str, Any]:
    watch_of = partial(Watch, draws=draws)
    async with load_world.running_bot(conn, db, load, watch_of) as (app, watch):
        await load_world.open_tables(conn, app)
        trace = None if trace_after is None else MemoryTrace(app, trace_after)
        handled = HandledRepo(app.db)
        handled_before = await handled.count()
        watch.measuring, began, cpu = True, time.monotonic(), time.process_time()
        memory: list[tuple[float, float]] = []  # MB: RSS, the benchmark's own records
        collections = FullCollections()

        def sample() -> None:
            memory.append((rss_mb(), records(watch)[1]))
            if trace is not None:
                trace.sample(time.monotonic() - began)

        sample()
        # the memory every 200 ticks of the loop (10 s, later when the loop lags)
        stalls, ended = await load_world.play(conn, 200, sample)
        if trace is not None:
            trace.finish(time.monotonic() - began)
        presses, fake_limited, world_cpu = ended
        collections.close()
        elapsed, cpu = time.monotonic() - began, time.process_time() - cpu
        kept = (handled_before, await handled.count(), await handled.stored_bytes())
        await app.service.stop()  # no more timeouts: only what is due
        await app.presenter.idle()
        await asyncio.wait_for(app.outbox.drain(), 120)
        watch.measuring = False
        figures = {
            "watch": watch, "presses": presses, "seconds": elapsed, "cpu": cpu,
            "world_cpu": world_cpu, "stalls": stalls, "memory": memory, "gc": collections.pauses,
            "fake_limited": fake_limited, "rate": app.outbox.rate.rate,
            "workers": app.outbox.workers, "shown": len(app.presenter._games),
            "records": records(watch)[0], "handled": kept,
            "stuck": stuck(app, watch, began + elapsed),
            "trace": trace.lines() if trace else [],
        }  # fmt: skip
    return figures


def stuck(app: App, watch: Watch, end: float) -> int:
    """Running games with no commit in the last 60 s of play (the move timers play for
    anyone who waits 30 s, so a game with none is stuck)."""
    latest: dict[int, float] = {}
    for (game, _), when in watch.commits.items():
        latest[game] = max(latest.get(game, 0.0), when)
    lives = [(g, app.service.live(g)) for g in set(watch.games.values())]
    running = [g for g, live in lives if live is not None and not live.state.is_over]
    return sum(1 for g in running if latest.get(g, end) < end - 60)


def ms(values: list[float], qs: Sequence[float] = (0.5, 0.99)) -> str:
    return load_world.ms(values, qs, width=7, gap="   ")


def report(f: dict[str, Any], load: Load) -> None:
    w: Watch = f["watch"]
    p: Presses = f["presses"]
    seconds, actions = f["seconds"], max(w.actions, 1)
    print(f"{load.tables} tables x {load.players} players ({load.tables * load.players} people)")
    refused = sum(n for text, n in p.answers.items() if text != MADE)
    print(
        f"  {seconds:.0f} s of play: {w.actions} actions ({w.automatic} automatic),"
        f" {w.actions / seconds:.1f} actions/s; {sum(p.answers.values())} presses answered"
        f" ({refused} refused), {p.unanswered} unanswered"
    )
    print(
        f"  games: {w.started} started, {w.finished} finished, {f['stuck']} stuck"
        " (running, no move for 60 s)"
    )
    for text, n in p.answers.most_common(4):
        print(f"      {n:6d}  {text}")
    print(f"  press -> answer (handed out -> answerCallbackQuery)  {ms(p.handed_to_answer)}")
    print(f"  press -> answer (pressed, incl. waiting for delivery)  {ms(p.press_to_answer)}")
    if load.webhook:
        print(f"  press -> its POST answered 200 (handed out -> 200)  {ms(p.held())}")
    per = {k: sum(n for (m, kind), n in w.calls.items() if kind == k) for k in ("group", "private")}
    answers = sum(n for (m, kind), n in w.calls.items() if kind == "answer")
    print(
        f"  Telegram calls per action: group {per['group'] / actions:.2f},"
        f" private {per['private'] / actions:.2f}, answerCallbackQuery {answers / actions:.2f}"
        f" ({'in the 200s' if load.webhook else 'not paced'});"
        f" in all {(sum(per.values()) + answers) / actions:.2f}"
    )
    for kind in ("group", "private"):
        mix = ", ".join(f"{m} {n}" for (m, k), n in sorted(w.calls.items()) if k == kind)
        print(f"    {kind:8s}{mix}")
    edits = {
        k: sum(n for (m, kind), n in w.calls.items() if kind == k and m != SENDS[0]) for k in per
    }
    print(
        f"  edits per action: group {edits['group'] / actions:.2f},"
        f" private {edits['private'] / actions:.2f} (a hand a move left as it was is not edited)"
    )
    moves = [(k, t) for k, t in w.commits.items() if k not in w.last and k[1] > 0]
    seats: dict[int, list[tuple[int, int]]] = defaultdict(list)
    for game, user in w.hands:
        seats[game].append((game, user))
    hand = freshness(moves, w.hands, lambda g: seats[g])
    table = freshness(moves, w.tables, lambda g: [g])
    fresh = ms(hand, (0.5, 0.95, 0.99)) if w.draws else "not measured (--no-freshness)"
    print(f"  hand freshness (commit -> every hand shows it)  {fresh}")
    print(f"  group table freshness (commit -> the table shows it)  {ms(table, (0.5, 0.95, 0.99))}")
    last = {g: t for (g, _), t in w.commits.items() if (g, _) in w.last}
    results = [w.summaries[g] - t for g, t in last.items() if g in w.summaries]
    print(f"  last move -> summary in the group  {ms(results)}")
    print(
        f"  429 responses: {w.limited} (target 0; the server counted {f['fake_limited']});"
        f" global rate at the end {f['rate']:.0f} calls/s"
    )
    memory, stalls = f["memory"], load_world.stall_figures(f["stalls"])
    print(
        f"  CPU: bot {100 * f['cpu'] / seconds:.0f}% of a core"
        f" ({1000 * f['cpu'] / max(w.actions, 1):.2f} ms per action), fake Telegram and people"
        f" {100 * f['world_cpu'] / seconds:.0f}%; {stalls}; full garbage"
        f" collections {len(f['gc'])}, longest {1000 * max(f['gc'], default=0):.0f} ms"
    )
    print(memory_figures(memory, seconds, f["records"]))
    before, rows, stored = f["handled"]
    rate, per_row = (rows - before) / seconds, stored / max(rows, 1)
    print(
        f"  handled updates kept (storage.handling): {rows} rows, {stored / 1024:.0f} KB"
        f" ({before} from setting up); {rate:.1f} more a second of play: an hour's"
        f" (what is kept) ~{rate * KEEP:.0f} rows, ~{rate * KEEP * per_row / 2**20:.1f} MB"
    )
    print(
        f"  after the drain: {f['workers']} chat workers (each ends after {Limits().idle:.0f} quiet"
        f" seconds), {f['shown']} games held by the presenter (one per table)"
    )
    for line in f["trace"]:
        print(line)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="bench.bot_load")
    parser.add_argument("--tables", type=int, nargs="+", default=[50])
    parser.add_argument("--players", type=int, default=2, help="people per table")
    parser.add_argument("--seconds", type=float, default=30.0, help="measured play per run")
    parser.add_argument("--think", type=float, default=3.0, help="mean seconds before a press")
    parser.add_argument("--jitter", type=float, default=0.33, help="think time ± this share")
    parser.add_argument("--ramp", type=float, help="seconds over which the tables join in")
    parser.add_argument(
        "--webhook", action="store_true", help="updates POSTed to the bot, not long-polled"
    )
    parser.add_argument(
        "--trace-memory", action="store_true",
        help="print what grew in the bot's process (tracemalloc; slows the bot down)",
    )  # fmt: skip
    parser.add_argument(
        "--trace-after", type=float, default=120.0,
        help="seconds of play before the memory trace's baseline",
    )  # fmt: skip
    parser.add_argument(
        "--no-freshness", action="store_true",
        help="draw no hand in the bench to time what each shows (its drawings take the"
        " bot process's CPU, and save the bot some): the bot's CPU alone",
    )  # fmt: skip
    args = parser.parse_args(argv)
    ramp = min(10.0, args.seconds / 4) if args.ramp is None else args.ramp
    think = (args.think * (1 - args.jitter), args.think * (1 + args.jitter))
    how = f"webhook, {CONNECTIONS} connections" if args.webhook else "long polling"
    print(f"{os.cpu_count()} cores, Python {sys.version.split()[0]}; updates by {how}")
    print(
        f"think {think[0]:.2f}-{think[1]:.2f} s, {args.seconds:.0f} s of play per run (tables"
        f" join in over the first {ramp:.0f} s); bot {Limits()}; fake Telegram {TELEGRAM}"
    )
    for tables in args.tables:
        load = Load(
            tables=tables, players=args.players, seconds=args.seconds, think=think, ramp=ramp,
            webhook=args.webhook,
        )  # fmt: skip
        trace_after = args.trace_after if args.trace_memory else None
        bot = partial(bot_side, load=load, trace_after=trace_after, draws=not args.no_freshness)
        figures = load_world.run_apart(partial(world, load=load), bot, "load.sqlite3")
        report(figures, load)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
