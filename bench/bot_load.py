"""The real bot under load: N group tables of simulated people pressing the buttons of
their private hand keyboards, through a fake Telegram that enforces Telegram's limits.

    python -m bench.bot_load [--tables 50 200] [--seconds 45] [--think 1.0] [--gc-freeze]

The bot runs as in production (real Dispatcher and polling loop, SQLite file, service,
presenter, outbox with the production ``Limits``) against the fake Bot API server on
127.0.0.1, which answers 429 above about 1 message/s per chat, 20 a minute per group and
30/s in all. Players have started the bot before (they are in the database). Opening the
tables, joining and dealing come first, with the limits lifted on both sides, and are not
measured. Then the tables join in one by one over ``--ramp`` seconds; each player waits
for their keyboard to change, thinks (``--think`` ± ``--jitter``) and presses what a
simple player would; the creator presses «Ещё партию» when a game ends. Printed: press ->
answer times, Telegram calls and edits per action (group and private chats apart), the
lag of the hand keyboards behind the game, the 429s received, event loop stalls. The fake
server and the people share the bot's process: their CPU and objects count against it.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import os
import random
import statistics
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Sequence
from contextlib import suppress
from dataclasses import dataclass, field
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
from tests.fakes import FakeChat, FakeMessage, FakeTelegram, FakeUser, RateLimits, run_polling

EDITS = ("editMessageText", "editMessageReplyMarkup")
MADE = "(move made)"


class LoadTelegram(FakeTelegram):
    """The fake server, noting when each callback query is handed out and answered,
    and waking the simulated people watching a chat when a bot message in it changes."""

    def __init__(self) -> None:
        super().__init__(token=TOKEN, rate_limits=RateLimits(), callback_timeout=30.0)
        self.handed: dict[str, float] = {}
        self.answered: dict[str, float] = {}
        self._watchers: dict[int, list[asyncio.Event]] = {}

    def wake_all(self) -> None:
        for events in self._watchers.values():
            for event in events:
                event.set()

    def watch(self, *chats: FakeChat) -> asyncio.Event:
        event = asyncio.Event()
        for chat in chats:
            self._watchers.setdefault(chat.id, []).append(event)
        return event

    def _wake(self, result: dict[str, Any]) -> dict[str, Any]:
        for event in self._watchers.get(result["chat"]["id"], ()):
            event.set()
        return result

    async def _get_updates(self, params: dict[str, Any]) -> list[dict[str, Any]]:
        batch = await super()._get_updates(params)
        moment = time.monotonic()
        for update in batch:
            if "callback_query" in update:
                self.handed.setdefault(update["callback_query"]["id"], moment)
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


@dataclass(frozen=True)
class Load:
    """One run's settings."""

    tables: int
    players: int
    seconds: float
    think: tuple[float, float]  # uniform between these, in seconds
    ramp: float
    freeze: bool = False


@dataclass
class Table:
    group: FakeChat
    users: list[FakeUser]


@dataclass
class Tally:
    """What the simulated people and the service saw during the measured window."""

    handed_to_answer: list[float] = field(default_factory=list)
    press_to_answer: list[float] = field(default_factory=list)
    answers: Counter[str] = field(default_factory=Counter)
    unanswered: int = 0
    actions: int = 0
    automatic: int = 0
    games_over: int = 0
    committed: dict[tuple[int, int], float] = field(default_factory=dict)  # (game, version)
    measuring: bool = False

    def on_update(self, update: Update) -> None:
        self.committed[(update.game_id, update.version)] = time.monotonic()
        if self.measuring:
            self.actions += len(update.actions)
            self.automatic += sum(1 for _, auto in update.actions if auto)
            self.games_over += update.state.is_over


def again_button(tg: FakeTelegram, group: FakeChat) -> tuple[FakeMessage, str] | None:
    message = tg.latest_message(group)
    for data in message.button_data() if message else ():
        if data.startswith("l:") and LobbyCb.unpack(data).op == "again":
            return message, data
    return None


async def wait_change(event: asyncio.Event, timeout: float) -> None:
    with suppress(TimeoutError):
        await asyncio.wait_for(event.wait(), timeout)


async def person(
    tg: LoadTelegram,
    table: Table,
    user: FakeUser,
    tally: Tally,
    think: tuple[float, float],
    stop: asyncio.Event,
) -> None:
    """Wait for a change, think, press; after each press wait for the next change."""
    creator = user is table.users[0]
    changed = tg.watch(tg.private(user), *([table.group] if creator else []))
    rng = random.Random(user.id)
    while not stop.is_set():
        changed.clear()
        message = hand_message(tg, user)
        wanted = choose(tg, message) if message else None
        if wanted is None and not (creator and again_button(tg, table.group)):
            await wait_change(changed, 5.0)
            continue
        await asyncio.sleep(rng.uniform(*think))
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
            tally.unanswered += 1
            continue
        if tally.measuring:
            handed, answered = tg.handed[handle.query_id], tg.answered[handle.query_id]
            tally.handed_to_answer.append(answered - handed)
            tally.press_to_answer.append(answered - handle.pressed_at)
            tally.answers[answer.text or MADE] += 1
        await wait_change(changed, 5.0)


async def table_plays(
    tg: LoadTelegram, table: Table, delay: float, tally: Tally, think: Any, stop: asyncio.Event
) -> None:
    await asyncio.sleep(delay)
    await asyncio.gather(*(person(tg, table, u, tally, think, stop) for u in table.users))


async def until(tg: LoadTelegram, chat: FakeChat, found: Any, timeout: float = 120.0) -> Any:
    changed = tg.watch(chat)
    deadline = time.monotonic() + timeout
    while not (value := found()):
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting in chat {chat.id}")
        changed.clear()
        await wait_change(changed, 1.0)
    return value


async def set_up(tg: LoadTelegram, table: Table) -> None:
    """Open the table, take the seats and wait for every hand."""
    creator = table.users[0]
    await tg.send_text(creator, table.group, "/durak")

    def lobby() -> tuple[FakeMessage, int] | None:
        message = tg.latest_message(table.group)
        for data in message.button_data() if message else ():
            if data.startswith("l:") and LobbyCb.unpack(data).op == "join":
                return message, LobbyCb.unpack(data).table
        return None

    _, table_id = await until(tg, table.group, lobby)
    for _ in table.users[2:]:
        data = LobbyCb(table=table_id, op="set", arg="seats+").pack()
        await (await tg.press(creator, tg.latest_message(table.group), data)).wait_answer(60.0)
    for user in table.users:
        data = LobbyCb(table=table_id, op="join").pack()
        answer = await (await tg.press(user, tg.latest_message(table.group), data)).wait_answer(60)
        assert answer.text == "Вы за столом!", answer
    for user in table.users:
        await until(tg, tg.private(user), lambda u=user: hand_message(tg, u))


@dataclass
class Figures:
    tally: Tally
    calls: list[Any]
    seconds: float
    cpu: float
    setup: float
    retries: int
    stalls: list[float]
    full_gcs: list[float]  # pauses of the collections of the oldest generation


RELAXED = Limits(per_chat=0.0, group_per_minute=10**6, per_second=10**6)


class FullCollections:
    """Times the garbage collections of the oldest generation while it is entered."""

    def __init__(self) -> None:
        self.pauses: list[float] = []
        self._started = 0.0

    def __enter__(self) -> list[float]:
        gc.callbacks.append(self._note)
        return self.pauses

    def __exit__(self, *exc: object) -> None:
        gc.callbacks.remove(self._note)

    def _note(self, phase: str, info: dict[str, int]) -> None:
        if info["generation"] != 2:
            return
        if phase == "start":
            self._started = time.perf_counter()
        else:
            self.pauses.append(time.perf_counter() - self._started)


async def watch_loop(stalls: list[float], stop: asyncio.Event) -> None:
    """How late the event loop wakes a 10 ms sleep: its stalls delay every answer."""
    while not stop.is_set():
        before = time.monotonic()
        await asyncio.sleep(0.01)
        stalls.append(time.monotonic() - before - 0.01)


async def play(tg: LoadTelegram, app: App, world: list[Table], tally: Tally, load: Load) -> Figures:
    """The measured window: the tables join in one by one over ``load.ramp`` seconds (as if
    their games had begun at different times) and play until ``load.seconds`` have passed;
    then what their moves caused is sent (the move timers are stopped, so nothing else
    is) and counted."""
    first_call, retries = len(tg.calls), app.outbox.retries
    stop = asyncio.Event()
    stalls: list[float] = []
    tally.measuring = True
    began, cpu = time.monotonic(), time.process_time()
    tables = [
        asyncio.create_task(table_plays(tg, t, load.ramp * i / len(world), tally, load.think, stop))
        for i, t in enumerate(world)
    ]
    monitor = asyncio.create_task(watch_loop(stalls, stop))
    with FullCollections() as full_gcs:
        await asyncio.sleep(load.seconds)
        stop.set()
        tg.wake_all()
        await asyncio.gather(*tables, monitor)
    elapsed, cpu = time.monotonic() - began, time.process_time() - cpu
    await app.service.timers.stop()
    tally.measuring = False
    await app.presenter.idle()
    await asyncio.wait_for(app.outbox.drain(), 120)
    calls = [c for c in tg.calls[first_call:] if c.method != "getUpdates"]
    return Figures(tally, calls, elapsed, cpu, 0.0, app.outbox.retries - retries, stalls, full_gcs)


async def run(load: Load, db: Path) -> Figures:
    async with LoadTelegram() as tg:
        world = []
        for i in range(load.tables):
            users = [
                tg.add_user(10_000 + load.players * i + j, f"Игрок {i}.{j}", started=True)
                for j in range(load.players)
            ]
            world.append(Table(tg.add_group(-1_000_000 - i, f"Стол {i}", members=users), users))
        app = await App.create(Config(token=TOKEN, db_path=str(db), api_base=tg.base_url))
        async with app.db.tx() as c:  # they pressed Start in the private chat long ago
            for user in tg.users.values():
                await UserRepo.upsert(c, user.id, user.first_name)
                await UserRepo.set_can_message(c, user.id, True)
        tally = Tally()
        notify = app.service.notify
        assert notify is not None

        async def observed(update: Update) -> None:
            tally.on_update(update)
            await notify(update)

        app.service.notify = observed
        await app.start()
        try:
            async with run_polling(app.dp, app.bot, tg):
                started = time.monotonic()  # setup: no limits on either side, not measured
                app.outbox.limits = RELAXED
                tg.disable_rate_limits()
                await asyncio.gather(*(set_up(tg, t) for t in world))
                await app.presenter.idle()
                await asyncio.wait_for(app.outbox.drain(), 120)
                setup = time.monotonic() - started
                app.outbox.limits = app.config.limits
                assert app.outbox.limits == Limits(), "the bot must play with production limits"
                tg.enforce_rate_limits(RateLimits())
                if load.freeze:  # what gc.freeze() at the bot's start-up would give
                    gc.collect()
                    gc.freeze()
                figures = await play(tg, app, world, tally, load)
                gc.unfreeze()
        finally:
            await app.stop()
        figures.setup = setup
        return figures


def version_of(call: Any) -> tuple[int, int] | None:
    """(game, version) of a hand keyboard, from its callback data (``c:game:v:card``)."""
    for data in keyboard_data(call):
        parts = data.split(":")
        if parts[0] in ("c", "m") and len(parts) >= 3:
            return int(parts[1]), int(parts[2])
    return None


def keyboard_data(call: Any) -> list[str]:
    markup = call.params.get("reply_markup") or {}
    rows = markup.get("inline_keyboard", []) if isinstance(markup, dict) else []
    return [str(b.get("callback_data", "")) for row in rows for b in row]


def ms(values: list[float]) -> str:
    if not values:
        return "no presses"
    xs = [v * 1000 for v in values]
    return (
        f"p50 {statistics.median(xs):7.1f} ms   p99 {percentile(xs, 0.99):7.1f} ms"
        f"   max {max(xs):7.1f} ms"
    )


def picking(call: Any) -> bool:
    """A «which card to beat?» keyboard (it has a ``card=-`` button): a second look at
    one version, drawn on a press, not by a move."""
    return any(d.endswith(":-") for d in keyboard_data(call))


def report_calls(f: Figures, players: int) -> None:
    actions = max(f.tally.actions, 1)
    group = [c for c in f.calls if isinstance(c.chat_id, int) and c.chat_id < 0]
    private = [c for c in f.calls if isinstance(c.chat_id, int) and c.chat_id > 0]
    answers = sum(c.method == "answerCallbackQuery" for c in f.calls)
    print(
        f"  Telegram calls per action: group {len(group) / actions:.2f},"
        f" private {len(private) / actions:.2f},"
        f" answerCallbackQuery {answers / actions:.2f} (not rate-limited)"
    )
    for name, calls in (("group", group), ("private", private)):
        kinds = Counter(c.method for c in calls)
        print(f"    {name:8s}" + ", ".join(f"{m} {n}" for m, n in sorted(kinds.items())))
    group_edits = sum(c.method in EDITS for c in group)
    hand_edits = [c for c in private if c.method in EDITS and not picking(c)]
    shown = Counter(
        (c.chat_id, c.params.get("message_id"), version_of(c))
        for c in hand_edits
        if c.status == 200
    )
    repeats = sum(n - 1 for key, n in shown.items() if key[2] is not None and n > 1)
    print(
        f"  edits per action: group {group_edits / actions:.2f} (target <= 1);"
        f" private {len(hand_edits) / actions:.2f} (target <= {players}, one per hand: every"
        f" move changes each hand's keyboard), plus {len(private) - len(hand_edits)}"
        f" «which card?» keyboards"
    )
    print(f"  a hand edited twice for one game version: {repeats} times (target 0)")
    lags = [
        c.time - f.tally.committed[key]
        for c in private
        if c.status == 200 and (key := version_of(c)) in f.tally.committed
    ]
    print(f"  hand keyboard lag (commit -> its edit reaches Telegram)  {ms(lags)}")
    limited = sum(c.status == 429 for c in f.calls)
    print(f"  429 responses: {limited} (target 0); outbox retries after a 429: {f.retries}")


def report(f: Figures, tables: int, players: int) -> None:
    t = f.tally
    print(f"{tables} tables x {players} players ({tables * players} people)")
    print(f"  setup (lobbies, joins, deals; limits lifted, not measured) {f.setup:.1f} s")
    refused = sum(n for text, n in t.answers.items() if text != MADE)
    print(
        f"  {f.seconds:.1f} s of play: {sum(t.answers.values())} presses answered"
        f" ({refused} refused), {t.unanswered} unanswered; {t.actions} actions"
        f" ({t.automatic} automatic: timeouts, stand-ins), {t.actions / f.seconds:.1f} actions/s,"
        f" {t.games_over} games finished; CPU {100 * f.cpu / f.seconds:.0f}% of one core"
    )
    for text, n in t.answers.most_common():
        print(f"      {n:6d}  {text}")
    print(f"  press -> answer (handed out -> answerCallbackQuery)  {ms(t.handed_to_answer)}")
    print(f"  press -> answer (pressed, incl. waiting for a poll)  {ms(t.press_to_answer)}")
    report_calls(f, players)
    stalls = sorted(f.stalls) or [0.0]
    print(
        f"  event loop stalls: p99 {1000 * percentile(stalls, 0.99):.0f} ms,"
        f" max {1000 * stalls[-1]:.0f} ms, {sum(x > 0.05 for x in stalls)} over 50 ms;"
        f" full garbage collections {len(f.full_gcs)}, longest"
        f" {1000 * max(f.full_gcs, default=0.0):.0f} ms"
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="bench.bot_load")
    parser.add_argument("--tables", type=int, nargs="+", default=[50, 200])
    parser.add_argument("--players", type=int, default=2, help="people per table")
    parser.add_argument("--seconds", type=float, default=45.0, help="measured play per run")
    parser.add_argument("--think", type=float, default=1.0, help="mean seconds before a press")
    parser.add_argument("--jitter", type=float, default=0.5, help="think time ± this share")
    parser.add_argument("--ramp", type=float, help="seconds over which the tables join in")
    parser.add_argument(
        "--gc-freeze",
        action="store_true",
        help="gc.freeze() the objects alive after setup (aiogram alone brings ~240 000)",
    )
    args = parser.parse_args(argv)
    ramp = min(10.0, args.seconds / 4) if args.ramp is None else args.ramp
    think = (args.think * (1 - args.jitter), args.think * (1 + args.jitter))
    print(f"{os.cpu_count()} cores, Python {sys.version.split()[0]}")
    print(
        f"think {think[0]:.2f}-{think[1]:.2f} s (uniform), {args.seconds:.0f} s of play per run"
        f" (tables join in over the first {ramp:.0f} s);"
        f" bot limits {Limits()}; fake server enforces {RateLimits()};"
        f" gc.freeze() after setup: {'yes' if args.gc_freeze else 'no'}"
    )
    for tables in args.tables:
        load = Load(tables, args.players, args.seconds, think, ramp, args.gc_freeze)
        with tempfile.TemporaryDirectory() as tmp:
            figures = asyncio.run(run(load, Path(tmp) / "load.sqlite3"))
        report(figures, tables, args.players)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
