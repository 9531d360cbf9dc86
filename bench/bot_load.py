"""The real bot under load: N group tables of simulated people pressing the buttons of
their private hand keyboards, through a fake Telegram that enforces Telegram's limits.

    python -m bench.bot_load [--tables 200 1000] [--seconds 300] [--think 3] [--jitter 0.33]

Two processes, as in production, where Telegram is not on the bot's machine: the bot
(real Dispatcher and polling loop, SQLite file, service, presenter, outbox with the
production ``Limits``) in this one, and in a child process the fake Bot API server on
127.0.0.1 with the people. The server answers 429 above Telegram's per-chat limit (1 a
second, a burst of 3) and per-group limit (20 a minute); there is no global one. The
players started the bot before (they are in the database). Opening the tables, joining
and dealing come first, with the limits lifted on both sides, and are not measured.
Then the tables join in one by one over ``--ramp`` seconds; each player waits for their
keyboard to change, thinks (``--think`` ± ``--jitter``) and presses what a simple player
would; the creator presses «Ещё партию» when a game ends. The bot's Telegram calls are
watched by a request middleware: what each keyboard showed and when it was shown.
"""

from __future__ import annotations

import argparse
import asyncio
import bisect
import gc
import multiprocessing
import os
import random
import sys
import tempfile
import time
from collections import Counter, defaultdict
from collections.abc import Sequence
from contextlib import suppress
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

from bench.service_speed import percentile
from bot.app import App
from bot.callbacks import LobbyCb
from bot.config import Config
from bot.outbox import Limits
from service import Update
from storage.repos import UserRepo
from tests.e2e_helpers import TOKEN, choose, hand_message
from tests.fakes import FakeChat, FakeMessage, FakeTelegram, FakeUser, RateLimits

TELEGRAM = RateLimits(per_chat=(1, 1.0), chat_burst=3, per_group=(20, 60.0), total=None)
RELAXED = Limits(per_chat=0.0, group_per_minute=10**6, per_second=10**6)
SENDS = ("SendMessage", "EditMessageText", "EditMessageReplyMarkup")
MADE = "(move made)"


@dataclass(frozen=True)
class Load:
    tables: int
    players: int
    seconds: float
    think: tuple[float, float]  # uniform between these, in seconds
    ramp: float

    def users(self, table: int) -> list[int]:
        return [10_000 + self.players * table + j for j in range(self.players)]


# --- the world (the child process): the fake Bot API server and the people ----------


class LoadTelegram(FakeTelegram):
    """The fake server, noting when each callback query is handed out and answered,
    and waking the people watching a chat when a bot message in it changes."""

    def __init__(self) -> None:
        super().__init__(token=TOKEN, callback_timeout=30.0)
        self.handed: dict[str, float] = {}
        self.answered: dict[str, float] = {}
        self._watchers: dict[int, list[asyncio.Event]] = defaultdict(list)

    def watch(self, *chats: FakeChat) -> asyncio.Event:
        event = asyncio.Event()
        for chat in chats:
            self._watchers[chat.id].append(event)
        return event

    def wake_all(self) -> None:
        for events in self._watchers.values():
            for event in events:
                event.set()

    def _wake(self, result: dict[str, Any]) -> dict[str, Any]:
        for event in self._watchers.get(result["chat"]["id"], ()):
            event.set()
        return result

    async def _get_updates(self, params: dict[str, Any]) -> list[dict[str, Any]]:
        batch = await super()._get_updates(params)
        for update in batch:
            if "callback_query" in update:
                self.handed.setdefault(update["callback_query"]["id"], time.monotonic())
        return batch

    def api_answer_callback_query(self, params: dict[str, Any]) -> bool:
        self.answered.setdefault(str(params.get("callback_query_id")), time.monotonic())
        return super().api_answer_callback_query(params)

    def api_send_message(self, params: dict[str, Any]) -> dict[str, Any]:
        return self._wake(super().api_send_message(params))

    def api_edit_message_text(self, params: dict[str, Any]) -> dict[str, Any]:
        return self._wake(super().api_edit_message_text(params))


@dataclass
class Table:
    group: FakeChat
    users: list[FakeUser]


@dataclass
class Presses:
    """What the people saw of their presses during the measured window."""

    handed_to_answer: list[float] = field(default_factory=list)
    press_to_answer: list[float] = field(default_factory=list)
    answers: Counter[str] = field(default_factory=Counter)
    unanswered: int = 0
    measuring: bool = False


def again_button(tg: FakeTelegram, group: FakeChat) -> tuple[FakeMessage, str] | None:
    message = tg.latest_message(group)
    if message is None:
        return None
    for data in message.button_data():
        if data.startswith("l:") and LobbyCb.unpack(data).op == "again":
            return message, data
    return None


async def wait_change(event: asyncio.Event, timeout: float) -> None:
    with suppress(TimeoutError):
        await asyncio.wait_for(event.wait(), timeout)


async def person(
    tg: LoadTelegram, table: Table, user: FakeUser, p: Presses, load: Load, stop: asyncio.Event
) -> None:
    """Wait for a change, think, press; after each press wait for the next change."""
    creator = user is table.users[0]
    changed = tg.watch(tg.private(user), *([table.group] if creator else []))
    rng = random.Random(user.id)
    while not stop.is_set():
        changed.clear()
        message = hand_message(tg, user)
        if (message is None or choose(tg, message) is None) and not (
            creator and again_button(tg, table.group)
        ):
            await wait_change(changed, 5.0)
            continue
        await asyncio.sleep(rng.uniform(*load.think))
        if stop.is_set():
            return
        message = hand_message(tg, user)  # the keyboard may have changed meanwhile
        data = choose(tg, message) if message else None
        if data is None:
            found = again_button(tg, table.group) if creator else None
            if found is None:
                continue
            message, data = found
        assert message is not None
        changed.clear()
        handle = await tg.press(user, message, data)
        try:
            answer = await handle.wait_answer(30.0)
        except AssertionError:
            p.unanswered += 1
            continue
        if p.measuring:
            handed, answered = tg.handed[handle.query_id], tg.answered[handle.query_id]
            p.handed_to_answer.append(answered - handed)
            p.press_to_answer.append(answered - handle.pressed_at)
            p.answers[answer.text or MADE] += 1
        await wait_change(changed, 5.0)


async def until(tg: LoadTelegram, chat: FakeChat, found: Any, timeout: float = 300.0) -> Any:
    changed = tg.watch(chat)
    deadline = time.monotonic() + timeout
    while not (value := found()):
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting in chat {chat.id}")
        changed.clear()
        await wait_change(changed, 1.0)
    return value


def lobby_button(table: int, op: str, arg: str = "") -> str:
    return LobbyCb.model_validate({"table": table, "op": op, "arg": arg}).pack()


async def set_up(tg: LoadTelegram, table: Table) -> None:
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
        await press(creator, lobby_button(table_id, "set", "seats+"))
    for user in table.users:
        answer = await press(user, lobby_button(table_id, "join"))
        assert answer == "Вы за столом!", answer
    for user in table.users:
        await until(tg, tg.private(user), lambda u=user: hand_message(tg, u))


async def world(conn: Connection, load: Load) -> None:
    """Serve the bot and play; told by the bot when to set up, play and end."""
    tg = LoadTelegram()
    async with tg:
        world = []
        for i in range(load.tables):
            users = [tg.add_user(u, f"Игрок {u}", started=True) for u in load.users(i)]
            world.append(Table(tg.add_group(-1_000_000 - i, f"Стол {i}", members=users), users))
        conn.send(tg.base_url)
        await asyncio.to_thread(conn.recv)  # the bot polls
        await asyncio.gather(*(set_up(tg, t) for t in world))
        conn.send("set up")
        await asyncio.to_thread(conn.recv)  # the bot plays with its production limits
        tg.enforce_rate_limits(TELEGRAM)
        presses, stop = Presses(measuring=True), asyncio.Event()
        cpu = time.process_time()

        async def plays(table: Table, delay: float) -> None:
            await asyncio.sleep(delay)
            await asyncio.gather(*(person(tg, table, u, presses, load, stop) for u in table.users))

        tasks = [plays(t, load.ramp * i / len(world)) for i, t in enumerate(world)]
        runs = asyncio.gather(*tasks)
        await asyncio.sleep(load.seconds)
        stop.set()
        tg.wake_all()
        await runs
        conn.send((presses, tg.rate_limited, time.process_time() - cpu))
        await asyncio.to_thread(conn.recv)  # the bot has sent everything


def world_process(conn: Connection, load: Load) -> None:
    asyncio.run(world(conn, load))


# --- the bot (this process): what it committed and what it sent, and when ----------


@dataclass
class Watch:
    """Commits (from the service) and calls (from a request middleware on the bot)."""

    app: Any
    commits: dict[tuple[int, int], float] = field(default_factory=dict)  # (game, v) -> when
    last: set[tuple[int, int]] = field(default_factory=set)  # the finished games' versions
    games: dict[int, int] = field(default_factory=dict)  # group chat -> its game now
    hands: dict[tuple[int, int], list[tuple[float, int]]] = field(default_factory=dict)
    tables: dict[int, list[tuple[float, int]]] = field(default_factory=dict)  # game -> shown
    summaries: dict[int, float] = field(default_factory=dict)  # game -> when its result came
    calls: Counter[tuple[str, str]] = field(default_factory=Counter)  # (method, chat kind)
    limited: int = 0
    actions: int = 0
    automatic: int = 0
    finished: int = 0
    started: int = 0
    measuring: bool = False

    def on_update(self, app: App, update: Update) -> None:
        key = (update.game_id, update.version)
        self.commits[key] = time.monotonic()
        live = app.service.live(update.game_id)
        if live is not None:
            self.games[live.chat_id] = update.game_id
        if self.measuring:
            self.actions += len(update.actions)
            self.automatic += sum(1 for _, auto in update.actions if auto)
            self.started += update.version == 0
        if update.state.is_over:
            self.last.add(key)
            self.finished += self.measuring

    async def __call__(self, make_request: Any, bot: Any, method: Any) -> Any:
        name = type(method).__name__
        chat: int = getattr(method, "chat_id", None) or 0
        if name == "GetUpdates" or not self.measuring:
            return await make_request(bot, method)
        if name == "AnswerCallbackQuery":
            kind = "answer"
        else:
            kind = "other" if not chat else "group" if chat < 0 else "private"
        game = self.games.get(chat) if kind == "group" else None
        live = self.app.service.live(game) if game is not None else None
        version = len(live.state.history) if live else None  # what is being rendered
        self.calls[(name, kind)] += 1
        try:
            result = await make_request(bot, method)
        except Exception as e:
            self.limited += "retry after" in str(e).lower()
            raise
        now = time.monotonic()
        data = [
            b.callback_data or ""
            for row in getattr(getattr(method, "reply_markup", None), "inline_keyboard", None) or ()
            for b in row
        ]
        if kind == "private":
            for parts in (d.split(":") for d in data[:1]):
                if parts[0] in ("c", "m") and len(parts) >= 3:
                    self.hands.setdefault((int(parts[1]), chat), []).append((now, int(parts[2])))
        elif name == "EditMessageText" and game is not None and version is not None:
            self.tables.setdefault(game, []).append((now, version))
        elif name == "SendMessage" and game is not None and any(":again" in d for d in data):
            self.summaries.setdefault(game, now)
        return result


def freshness(commits: Any, shown: dict[Any, list[tuple[float, int]]], users: Any) -> list[float]:
    """For each commit, the time until every watched message showed it (or newer)."""
    firsts: dict[Any, tuple[list[int], list[float]]] = {}
    for key, seen in shown.items():
        tops, times, top = [], [], -1
        for when, version in sorted(seen):
            if version > top:
                top = version
                tops.append(version)
                times.append(when)
        firsts[key] = (tops, times)
    out = []
    for (game, version), committed in commits:
        waits = []
        for key in users(game):
            tops, times = firsts.get(key, ([], []))
            i = bisect.bisect_left(tops, version)
            if i < len(tops):
                waits.append(times[i] - committed)
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


def rss_mb() -> float:
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


async def bot_side(conn: Connection, load: Load, db: Path) -> dict[str, Any]:
    base = conn.recv()
    app = await App.create(Config(token=TOKEN, db_path=str(db), api_base=base))
    watch = Watch(app=app)
    app.bot.session.middleware(watch)
    async with app.db.tx() as c:  # they pressed Start in the private chat long ago
        for user in (u for i in range(load.tables) for u in load.users(i)):
            await UserRepo.upsert(c, user, f"Игрок {user}")
            await UserRepo.set_can_message(c, user, True)
    notify = app.service.notify
    assert notify is not None

    async def observed(update: Update) -> None:
        watch.on_update(app, update)
        await notify(update)

    app.service.notify = observed
    await app.start()
    polling = asyncio.create_task(app.dp.start_polling(app.bot, handle_signals=False))
    try:
        conn.send("polling")
        app.outbox.limits = RELAXED
        await asyncio.to_thread(conn.recv)  # set up
        await app.presenter.idle()
        await app.outbox.drain()
        app.outbox.limits = app.config.limits
        assert app.outbox.limits == Limits(), "the bot must play with production limits"
        watch.measuring, began, cpu = True, time.monotonic(), time.process_time()
        memory, stalls, collections = [rss_mb()], [], FullCollections()
        conn.send("go")
        ended = asyncio.create_task(asyncio.to_thread(conn.recv))
        while not ended.done():
            before = time.monotonic()
            await asyncio.sleep(0.05)
            stalls.append(time.monotonic() - before - 0.05)
            if len(stalls) % 200 == 0:  # every 10 s
                memory.append(rss_mb())
        presses, fake_limited, world_cpu = ended.result()
        collections.close()
        elapsed, cpu = time.monotonic() - began, time.process_time() - cpu
        stopping = getattr(app.service, "stop", None)  # no more timeouts: only what is due
        await (stopping() if stopping else app.service.timers.stop())
        await app.presenter.idle()
        await asyncio.wait_for(app.outbox.drain(), 120)
        watch.measuring = False
        figures = {
            "watch": watch, "presses": presses, "seconds": elapsed, "cpu": cpu,
            "world_cpu": world_cpu, "stalls": stalls, "memory": memory, "gc": collections.pauses,
            "fake_limited": fake_limited, "rate": app.outbox.rate.rate,
            "workers": app.outbox.workers, "shown": len(app.presenter._games),
            "records": len(watch.commits) + sum(map(len, [*watch.hands.values()])),
            "stuck": stuck(app, watch, began + elapsed),
        }  # fmt: skip
        await app.dp.stop_polling()
        await asyncio.wait_for(polling, 10)
        conn.send("done")
    finally:
        if not polling.done():
            polling.cancel()
        await app.stop()
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
    if not values:
        return "none"
    parts = [f"p{round(q * 100)} {1000 * percentile(values, q):7.0f} ms" for q in qs]
    return "   ".join(parts) + f"   max {1000 * max(values):7.0f} ms   ({len(values)})"


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
    print(f"  press -> answer (pressed, incl. waiting for a poll)  {ms(p.press_to_answer)}")
    per = {k: sum(n for (m, kind), n in w.calls.items() if kind == k) for k in ("group", "private")}
    answers = sum(n for (m, kind), n in w.calls.items() if kind == "answer")
    print(
        f"  Telegram calls per action: group {per['group'] / actions:.2f},"
        f" private {per['private'] / actions:.2f}, answerCallbackQuery {answers / actions:.2f}"
        f" (not paced); in all {(sum(per.values()) + answers) / actions:.2f}"
    )
    for kind in ("group", "private"):
        mix = ", ".join(f"{m} {n}" for (m, k), n in sorted(w.calls.items()) if k == kind)
        print(f"    {kind:8s}{mix}")
    edits = {
        k: sum(n for (m, kind), n in w.calls.items() if kind == k and m != SENDS[0]) for k in per
    }
    print(
        f"  edits per action: group {edits['group'] / actions:.2f},"
        f" private {edits['private'] / actions:.2f} (every move changes each hand's keyboard)"
    )
    moves = [(k, t) for k, t in w.commits.items() if k not in w.last and k[1] > 0]
    seats: dict[int, list[tuple[int, int]]] = defaultdict(list)
    for game, user in w.hands:
        seats[game].append((game, user))
    hand = freshness(moves, w.hands, lambda g: seats[g])
    table = freshness(moves, w.tables, lambda g: [g])
    print(f"  hand freshness (commit -> every hand shows it)  {ms(hand, (0.5, 0.95, 0.99))}")
    print(f"  group table freshness (commit -> the table shows it)  {ms(table, (0.5, 0.95, 0.99))}")
    last = {g: t for (g, _), t in w.commits.items() if (g, _) in w.last}
    results = [w.summaries[g] - t for g, t in last.items() if g in w.summaries]
    print(f"  last move -> summary in the group  {ms(results)}")
    print(
        f"  429 responses: {w.limited} (target 0; the server counted {f['fake_limited']});"
        f" global rate at the end {f['rate']:.0f} calls/s"
    )
    stalls = sorted(f["stalls"]) or [0.0]
    memory = f["memory"]
    print(
        f"  CPU: bot {100 * f['cpu'] / seconds:.0f}% of a core, fake Telegram and people"
        f" {100 * f['world_cpu'] / seconds:.0f}%; event loop stalls p99"
        f" {1000 * percentile(stalls, 0.99):.0f} ms, max {1000 * stalls[-1]:.0f} ms; full garbage"
        f" collections {len(f['gc'])}, longest {1000 * max(f['gc'], default=0):.0f} ms"
    )
    print(
        f"  memory (bot RSS, every 10 s): {' '.join(f'{m:.0f}' for m in memory)} MB (with this"
        f" benchmark's own {f['records']} records of commits and calls, ~100 B each)"
    )
    print(
        f"  after the drain: {f['workers']} chat workers (each ends after {Limits().idle:.0f} quiet"
        f" seconds), {f['shown']} games held by the presenter (one per table)"
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="bench.bot_load")
    parser.add_argument("--tables", type=int, nargs="+", default=[50])
    parser.add_argument("--players", type=int, default=2, help="people per table")
    parser.add_argument("--seconds", type=float, default=30.0, help="measured play per run")
    parser.add_argument("--think", type=float, default=3.0, help="mean seconds before a press")
    parser.add_argument("--jitter", type=float, default=0.33, help="think time ± this share")
    parser.add_argument("--ramp", type=float, help="seconds over which the tables join in")
    args = parser.parse_args(argv)
    ramp = min(10.0, args.seconds / 4) if args.ramp is None else args.ramp
    think = (args.think * (1 - args.jitter), args.think * (1 + args.jitter))
    print(f"{os.cpu_count()} cores, Python {sys.version.split()[0]}")
    print(
        f"think {think[0]:.2f}-{think[1]:.2f} s, {args.seconds:.0f} s of play per run (tables"
        f" join in over the first {ramp:.0f} s); bot {Limits()}; fake Telegram {TELEGRAM}"
    )
    context = multiprocessing.get_context("fork")
    for tables in args.tables:
        load = Load(tables, args.players, args.seconds, think, ramp)
        ours, theirs = context.Pipe()
        child = context.Process(target=world_process, args=(theirs, load), daemon=True)
        child.start()
        with tempfile.TemporaryDirectory() as tmp:
            figures = asyncio.run(bot_side(ours, load, Path(tmp) / "load.sqlite3"))
        child.join(30)
        report(figures, load)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
