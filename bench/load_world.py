"""What the two bot benchmarks (``bench.bot_load``, ``bench.bot_tables``) share: the
two processes, the fake Telegram and the simulated people in the child, the running bot
in the parent, and a few ways of printing figures.

Each bench brings its own load (who sits at which table), the way a table is opened,
what a press notes, what it watches on the bot and what it prints. The child gets its
work as a fork, so what it runs need not pickle; what it sends back does.
"""

from __future__ import annotations

import asyncio
import bisect
import contextlib
import gc
import itertools
import json
import multiprocessing
import random
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import AsyncIterator, Awaitable, Callable, Coroutine, Mapping, Sequence
from contextlib import asynccontextmanager, suppress
from dataclasses import dataclass
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any, Protocol, TypeVar

from aiohttp import ClientSession, TCPConnector

from bench.playing import choose, hand_message
from bot import webhook
from bot.app import App
from bot.callbacks import LobbyCb
from bot.config import Config
from bot.outbox import Limits
from bot.polling import Polling
from service import Update
from storage.repos import UserRepo
from telegram_emulator import (
    TOKEN,
    FakeChat,
    FakeMessage,
    FakeTelegram,
    FakeUser,
    PressHandle,
    RateLimits,
)

TELEGRAM = RateLimits(per_chat=(1, 1.0), chat_burst=3, per_group=(20, 60.0), total=None)
RELAXED = Limits(per_chat=0.0, group_per_minute=10**6, per_second=10**6)
MADE = "(move made)"
WEBHOOK_SECRET = "bench-webhook-secret"
FORGET = 30.0  # seconds between the world's drops of what only tests read

T = TypeVar("T")


@dataclass(frozen=True)
class Pace:
    """How the people play: for how long, how long each thinks, how fast tables join in."""

    seconds: float  # of measured play
    think: tuple[float, float]  # uniform between these, in seconds
    ramp: float  # seconds over which the tables join in
    webhook: bool = False  # updates POSTed to the bot (else it long-polls)


class Load(Protocol):
    """A bench's load (a ``Pace`` with its tables): who sits at each, and any computers."""

    @property
    def tables(self) -> int: ...
    @property
    def seconds(self) -> float: ...
    @property
    def think(self) -> tuple[float, float]: ...
    @property
    def ramp(self) -> float: ...
    @property
    def webhook(self) -> bool: ...
    def users(self, table: int) -> list[int]: ...
    def bots(self, table: int) -> bool: ...


def run_apart(
    world: Callable[[Connection], Coroutine[Any, Any, None]],
    bot: Callable[[Connection, Path], Coroutine[Any, Any, T]],
    db: str,
) -> T:
    """The world in a forked child, the bot here on a SQLite file in a temp dir."""
    context = multiprocessing.get_context("fork")
    ours, theirs = context.Pipe()
    child = context.Process(target=_serve, args=(world, theirs), daemon=True)
    child.start()
    theirs.close()  # so that the bot's recv fails (EOFError) when the world dies
    try:
        with tempfile.TemporaryDirectory() as tmp:
            figures = asyncio.run(bot(ours, Path(tmp) / db))
        child.join(30)
    finally:
        if child.is_alive():
            child.kill()
    return figures


def _serve(world: Callable[[Connection], Coroutine[Any, Any, None]], conn: Connection) -> None:
    asyncio.run(world(conn))


# --- the world (the child process): the fake Bot API server and the people ----------


class WorldTelegram(FakeTelegram):
    """The fake server, noting when each callback query is handed out and answered,
    and waking the people watching a chat when a bot message in it changes."""

    def __init__(self) -> None:
        super().__init__(token=TOKEN, callback_timeout=30.0)
        self.handed: dict[str, float] = {}
        self.answered: dict[str, float] = {}
        self.acknowledged: dict[str, float] = {}  # webhook: when the bot answered its POST
        self._watchers: dict[int, list[asyncio.Event]] = defaultdict(list)

    def forget(self) -> None:
        """Drops what only tests read back: every call but the last setWebhook, every
        update, each message's earlier versions. Kept through a long run, they grew the
        world to gigabytes, and its full collections then stalled it for seconds."""
        self.calls[:] = self.calls_to("setWebhook")[-1:]
        self.updates.clear()
        self.dropped_updates.clear()
        for chat in self.chats.values():
            for message in chat.all_messages:
                message.history.clear()

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

    def api_edit_message_reply_markup(self, params: dict[str, Any]) -> dict[str, Any]:
        return self._wake(super().api_edit_message_reply_markup(params))


@dataclass
class Table:
    bots: bool  # computer players sit here too
    group: FakeChat
    users: list[FakeUser]  # the people; the first opened the table


SetUp = Callable[[WorldTelegram, Table], Awaitable[None]]
Note = Callable[[WorldTelegram, Table, PressHandle], None]  # a press, answered or not


def group_id(table: int) -> int:
    """The group chat of the ``table``-th table (``table_at`` inverts it)."""
    return -1_000_000 - table


def table_at(chat: int) -> int:
    return -1_000_000 - chat


def lobby_button(table: int, op: str, arg: str = "") -> str:
    return LobbyCb.model_validate({"table": table, "op": op, "arg": arg}).pack()


def again_button(tg: FakeTelegram, group: FakeChat) -> tuple[FakeMessage, str] | None:
    message = tg.latest_message(group)
    if message is None:
        return None
    for data in message.button_data():
        if data.startswith("l:") and LobbyCb.unpack(data).op == "again":
            return message, data
    return None


def pick(tg: FakeTelegram, table: Table, user: FakeUser) -> tuple[FakeMessage, str] | None:
    """What the person would press now: a sensible move, else (the creator) «Ещё партию»."""
    message = hand_message(tg, user)
    data = choose(tg, message) if message else None
    if message is not None and data is not None:
        return message, data
    return again_button(tg, table.group) if user is table.users[0] else None


async def wait_change(event: asyncio.Event, timeout: float) -> None:
    with suppress(TimeoutError):
        await asyncio.wait_for(event.wait(), timeout)


async def person(
    tg: WorldTelegram,
    table: Table,
    user: FakeUser,
    think: tuple[float, float],
    stop: asyncio.Event,
    note: Note,
) -> None:
    """Wait for a change, think, press; after each press wait for the next change."""
    changed = tg.watch(tg.private(user), *([table.group] if user is table.users[0] else []))
    rng = random.Random(user.id)
    while not stop.is_set():
        changed.clear()
        if pick(tg, table, user) is None:
            await wait_change(changed, 5.0)
            continue
        await asyncio.sleep(rng.uniform(*think))
        found = pick(tg, table, user)  # the keyboard may have changed meanwhile
        if stop.is_set() or found is None:
            continue
        message, data = found
        changed.clear()
        handle = await tg.press(user, message, data)
        with suppress(AssertionError):  # not answered in 30 s: the note counts it
            await handle.wait_answer(30.0)
        note(tg, table, handle)
        await wait_change(changed, 5.0)


async def world(
    conn: Connection, load: Load, set_up: SetUp, note: Note, presses: object, *, shuffle: bool
) -> None:
    """Serve the bot and play; told by the bot when to set up, play and end. Sends back
    ``presses`` (what ``note`` filled), the 429s and the CPU of the measured window."""
    tg = WorldTelegram()
    async with tg:
        tables = []
        for i in range(load.tables):
            users = [tg.add_user(u, f"Игрок {u}", started=True) for u in load.users(i)]
            group = tg.add_group(group_id(i), f"Стол {i}", members=users)
            tables.append(Table(load.bots(i), group, users))
        conn.send(tg.base_url)
        # the bot polls (None), or the URLs of its processes' webhooks
        addresses = await asyncio.to_thread(conn.recv)
        pushing = asyncio.create_task(push_updates(tg, addresses)) if addresses else None
        await asyncio.gather(*(set_up(tg, t) for t in tables))
        conn.send("set up")
        await asyncio.to_thread(conn.recv)  # the bot plays with its production limits
        # The world's own full collections (of every message and call it keeps) took
        # 0.2-0.3 s, holding back every press and answer at once: the set-up is frozen.
        gc.collect()
        gc.freeze()
        tg.enforce_rate_limits(TELEGRAM)
        stop = asyncio.Event()
        cpu = time.process_time()

        async def plays(table: Table, delay: float) -> None:
            await asyncio.sleep(delay)
            people = (person(tg, table, u, load.think, stop, note) for u in table.users)
            await asyncio.gather(*people)

        order = list(range(len(tables)))
        if shuffle:
            random.Random(0).shuffle(order)  # all kinds of table join in all through the ramp
        runs = asyncio.gather(
            *(plays(tables[i], load.ramp * k / len(tables)) for k, i in enumerate(order))
        )
        end = time.monotonic() + load.seconds
        while (left := end - time.monotonic()) > 0:
            await asyncio.sleep(min(FORGET, left))
            tg.forget()
        stop.set()
        tg.wake_all()
        await runs
        conn.send((presses, tg.rate_limited, time.process_time() - cpu))
        await asyncio.to_thread(conn.recv)  # the bot has sent everything
        if pushing is not None:
            pushing.cancel()
            with suppress(asyncio.CancelledError):
                await pushing  # (an error it met shows here)


async def push_updates(tg: WorldTelegram, addresses: Sequence[str]) -> None:
    """Telegram's side of a webhook: each update POSTed as soon as it is queued, on as
    many connections at once as setWebhook's ``max_connections`` (Telegram's default: 40);
    one that fails is POSTed again, with a line on stderr. A call the bot's answer names
    is carried out. With several ``addresses`` (processes) they take the updates in
    turn, as a round-robin proxy in front of them would hand them out."""
    changed = asyncio.Event()
    tg.listeners.add(changed)
    headers = {"X-Telegram-Bot-Api-Secret-Token": WEBHOOK_SECRET}
    allowed, most = tg.webhook_params()
    connections = asyncio.Semaphore(most)
    connector = TCPConnector(limit=most)
    turns = itertools.cycle(addresses)
    async with ClientSession(connector=connector, headers=headers) as session:

        async def post(update: dict[str, Any], address: str) -> None:
            async with connections:  # handed out when a connection takes it
                if "callback_query" in update:
                    tg.handed.setdefault(update["callback_query"]["id"], time.monotonic())
                while True:
                    try:
                        async with session.post(address, json=update) as response:
                            if response.status == 200:
                                answer = await response.read()
                                break
                            failed: object = f"HTTP {response.status}"
                    except Exception as e:  # (aiohttp's total timeout is no ClientError)
                        failed = repr(e)
                    print(f"webhook: update {update['update_id']}: {failed}", file=sys.stderr)
                    await asyncio.sleep(0.1)
                if "callback_query" in update:
                    tg.acknowledged[update["callback_query"]["id"]] = time.monotonic()
                await tg.carry_out(json.loads(answer or b"{}"))

        async with asyncio.TaskGroup() as posting:  # cancelled with this task
            while True:
                await changed.wait()
                changed.clear()
                for update in tg.take_pending(allowed):
                    posting.create_task(post(update, next(turns)))


# --- the bot (this process) ----------------------------------------------------------


class Watch(Protocol):
    """A bench's watch on the bot: each commit, and each Telegram call (a middleware)."""

    def on_update(self, update: Update) -> None: ...
    async def __call__(self, make_request: Any, bot: Any, method: Any) -> Any: ...


W = TypeVar("W", bound=Watch)


@asynccontextmanager
async def running_bot(
    conn: Connection, db: str | Path, load: Load, watch: Callable[[App], W], **settings: Any
) -> AsyncIterator[tuple[App, W]]:
    """The real bot polling the world's server (or serving its webhook), its people known
    to it, ``watch`` told of every commit and call; on a clean exit it stops receiving and
    tells the world "done"."""
    if load.webhook:  # the address Telegram is given; the bot listens on a free port
        settings |= {"webhook_url": "https://bench.invalid/telegram", "webhook_port": 0}
        settings |= {"webhook_secret": WEBHOOK_SECRET}
    config = Config(token=TOKEN, db_path=str(db), api_base=conn.recv(), **settings)
    app = await App.create(config)
    watching = watch(app)
    app.bot.session.middleware(watching)
    async with app.db.tx() as c:  # they pressed Start in the private chat long ago
        for user in (u for i in range(load.tables) for u in load.users(i)):
            await UserRepo.upsert(c, user, f"Игрок {user}")
            await UserRepo.set_can_message(c, user, True)
    shown = app.presenter.on_update

    async def observed(update: Update) -> None:  # each committed step, as it is shown
        watching.on_update(update)
        await shown(update)

    app.presenter.on_update = observed  # type: ignore[method-assign]
    await app.start()
    try:
        async with receiving(app, conn):
            yield app, watching
        conn.send("done")
    finally:
        await app.stop()


@asynccontextmanager
async def receiving(app: App, conn: Connection) -> AsyncIterator[None]:
    """The bot's long poll, or its webhook server (whose URL the world is sent)."""
    if app.config.webhook_url:
        async with webhook.listening(app.config, app.dp, app.bot) as port:
            conn.send([f"http://127.0.0.1:{port}{app.config.webhook_path}"])
            yield
        return
    polling = asyncio.create_task(Polling(app.dp, app.bot).run())
    conn.send(None)
    try:
        yield
    finally:
        polling.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await polling


async def open_tables(conn: Connection, app: App) -> None:
    """The world opens its tables with the limits lifted; then the production limits."""
    app.outbox.limits = RELAXED
    await asyncio.to_thread(conn.recv)  # set up
    await app.presenter.idle()
    await app.outbox.drain()
    app.outbox.limits = app.config.limits
    assert app.outbox.limits == Limits(), "the bot must play with production limits"


async def play(conn: Connection, every: int, sample: Callable[[], None]) -> tuple[list[float], Any]:
    """Tell the people to play; until they end, note the event loop's stalls (how much
    later than asked a 50 ms sleep ends) and call ``sample`` every ``every`` of them.
    Returns the stalls and what the world sent back."""
    conn.send("go")
    ended = asyncio.create_task(asyncio.to_thread(conn.recv))
    stalls: list[float] = []
    while not ended.done():
        before = time.monotonic()
        await asyncio.sleep(0.05)
        stalls.append(time.monotonic() - before - 0.05)
        if len(stalls) % every == 0:
            sample()
    return stalls, ended.result()


class FirstShown:
    """When each watched message first showed each game version, or a newer one."""

    def __init__(self, shown: Mapping[Any, list[tuple[float, int]]]) -> None:
        self._firsts: dict[Any, tuple[list[int], list[float]]] = {}
        for key, seen in shown.items():
            tops, times, top = [], [], -1
            for when, version in sorted(seen):
                if version > top:
                    top = version
                    tops.append(version)
                    times.append(when)
            self._firsts[key] = (tops, times)

    def at(self, key: Any, version: int) -> float | None:
        """When message ``key`` first showed ``version`` or newer (None: never)."""
        tops, times = self._firsts.get(key, ([], []))
        i = bisect.bisect_left(tops, version)
        return times[i] if i < len(tops) else None


# --- the figures ---------------------------------------------------------------------


def percentile(values: Sequence[float], q: float) -> float:
    ordered = sorted(values) or [float("nan")]
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def p50_p99_ratios(values: Sequence[float], base: Sequence[float]) -> tuple[float, float]:
    """``values``' p50 and p99 over ``base``'s."""
    p50, p99 = (percentile(values, q) / max(percentile(base, q), 1e-9) for q in (0.5, 0.99))
    return p50, p99


def ms(values: list[float], qs: Sequence[float], width: int = 6, gap: str = "  ") -> str:
    """Percentiles and the maximum in milliseconds, and how many values there were."""
    if not values:
        return "none"
    parts = [f"p{round(q * 100)} {1000 * percentile(values, q):{width}.0f} ms" for q in qs]
    return gap.join(parts) + f"{gap}max {1000 * max(values):{width}.0f} ms{gap}({len(values)})"


def stall_figures(stalls: list[float]) -> str:
    ordered = sorted(stalls) or [0.0]
    return (
        f"event loop stalls p99 {1000 * percentile(ordered, 0.99):.0f} ms,"
        f" max {1000 * ordered[-1]:.0f} ms"
    )
