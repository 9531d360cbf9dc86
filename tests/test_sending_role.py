"""Two bot processes (two Apps) on one PostgreSQL database in webhook mode: every update
goes to the one that does not hold the sending lease, so it makes every move, yet only
the holder edits the hands and the table; when the holder stops, the other takes the
lease, shows every running game again and plays on."""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import AsyncIterator, Callable
from contextlib import AsyncExitStack, asynccontextmanager
from dataclasses import replace
from typing import Any

from bot import webhook
from bot.app import App
from bot.config import Config
from bot.delivery import Shared
from tests.backends import PgDatabases
from tests.e2e_helpers import (
    TOKEN,
    choose,
    game_over,
    open_table,
    play_round,
    seat_everyone,
    two_friends,
)
from tests.fakes import FakeTelegram, hand_message
from tests.test_webhook import free_port

SECRET = "shared_Webhook-secret"
URL = "https://durak.example.org/tg"


class Calls:
    """A session middleware: the hands and table messages one App sent or edited (the
    lobby and answers to commands too go out from the holder: ``tests.test_multi_relay``)."""

    def __init__(self) -> None:
        self.shown: Counter[str] = Counter()

    async def __call__(self, make_request: Any, bot: Any, method: Any) -> Any:
        if type(method).__name__ == "AnswerCallbackQuery":  # a press's answer: where it came
            return await make_request(bot, method)  # (its text may be «Какую карту побить?»)
        rows = getattr(getattr(method, "reply_markup", None), "inline_keyboard", None) or []
        data = rows[0][0].callback_data or "" if rows and rows[0] else ""
        if "Какую карту побить" in (getattr(method, "text", None) or ""):
            self.shown["target choice"] += 1  # a page: drawn by the holder too (bot.hand_pages)
        elif data.split(":")[0] in ("c", "m", "p"):  # a hand's buttons
            self.shown["hand"] += 1
        elif type(method).__name__ == "EditMessageText" and data[:2] in ("", "e:"):  # the table
            self.shown["table"] += 1
        return await make_request(bot, method)


class Process:
    """One bot process: an App serving its webhook route, and the calls it made."""

    def __init__(self, app: App, calls: Calls, address: str, stack: AsyncExitStack) -> None:
        self.app, self.calls, self.address, self.stack = app, calls, address, stack

    async def stop(self) -> None:
        await self.stack.aclose()


async def start_process(tg: FakeTelegram, url: str) -> Process:
    port = free_port()
    config = Config.from_env(
        {
            "BOT_TOKEN": TOKEN,
            "DURAK_DB": url,
            "BOT_API_BASE": tg.base_url,
            "DURAK_WEBHOOK_URL": URL,
            "DURAK_WEBHOOK_PORT": str(port),
            "DURAK_WEBHOOK_SECRET": SECRET,
        }
    )
    limits = replace(config.limits, per_chat=0.0, group_per_minute=10**6)
    app = await App.create(replace(config, limits=limits, bot_pause=(0.0, 0.0)))
    assert isinstance(app.delivery, Shared)
    app.delivery.holder.period = 0.05
    calls = Calls()
    app.bot.session.middleware(calls)
    stack = AsyncExitStack()
    await app.start()
    stack.push_async_callback(app.stop)
    await stack.enter_async_context(webhook.listening(app.config, app.dp, app.bot))
    return Process(app, calls, f"http://127.0.0.1:{port}/tg", stack)


@asynccontextmanager
async def delivering(
    tg: FakeTelegram, address: Callable[[dict[str, Any]], str]
) -> AsyncIterator[None]:
    """Telegram (through a proxy) POSTing each update, one at a time, to ``address(it)``."""

    async def run() -> None:
        while True:
            if tg.pending_updates:
                await tg.deliver_to_webhook(address(tg.pending_updates[0]), limit=1)
            await asyncio.sleep(0.01)

    task = asyncio.create_task(run())
    try:
        yield
    finally:
        task.cancel()


async def settled(*apps: App) -> None:
    for _ in range(2):  # a move made in one reaches the other through the follower
        for app in apps:
            await app.service.idle()
            await app.presenter.idle()
            await app.outbox.drain()
        await asyncio.sleep(0.2)


def hands_current(tg: FakeTelegram, app: App, game: int, users: list[Any]) -> bool:
    """Every hand shows what the holder would draw now (its key ends each callback)."""
    for user in users:
        message = hand_message(tg, user)
        data = [
            d for _, d in (b for row in (message.keyboard if message else []) for b in row) if d
        ]
        if not data or data[0].rsplit(":", 1)[-1] != app.presenter.hand_key(game, user.id):
            return False
    return True


async def two_processes(tg: FakeTelegram, url: str) -> list[Process]:
    """Two processes on the database, the one holding the sending lease first."""
    both = [await start_process(tg, url), await start_process(tg, url)]
    try:
        await tg.wait_for(lambda: any(p.app.delivery.holder.held for p in both))
    except BaseException:
        for process in both:
            await process.stop()
        raise
    return both if both[0].app.delivery.holder.held else both[::-1]


@asynccontextmanager
async def both_running(tg: FakeTelegram, url: str) -> AsyncIterator[list[Process]]:
    """``two_processes``, both stopped at the end."""
    both = await two_processes(tg, url)
    try:
        yield both
    finally:
        for process in both:
            await process.stop()


async def test_only_the_lease_holder_shows_the_games_and_another_takes_over(
    pg_databases: PgDatabases,
) -> None:
    url = await pg_databases.target("sending")
    async with FakeTelegram(token=TOKEN) as tg:
        anna, boris, group = two_friends(tg)
        async with both_running(tg, url) as both:
            holder, other = both
            assert not other.app.delivery.holder.held
            async with delivering(tg, lambda _: other.address):  # every update to the other
                await open_table(tg, other.app, group, anna)
                await seat_everyone(tg, other.app, group, [anna, boris])
                game = other.app.service.game_ids()[0]
                for _ in range(6):
                    await play_round(tg, other.app, [anna, boris])
                    await settled(holder.app, other.app)
                assert not other.calls.shown, other.calls.shown  # it moved, never showed
                assert holder.calls.shown["hand"] > 0 and holder.calls.shown["table"] > 0
                await tg.wait_for(lambda: hands_current(tg, holder.app, game, [anna, boris]))

                await holder.stop()  # the holder goes: the other takes the lease
                both.remove(holder)
                await tg.wait_for(lambda: other.app.delivery.holder.held, timeout=5)
                assert other.app.delivery.holder.taken == 1
                await settled(other.app)
                assert other.calls.shown["hand"] > 0  # every running game shown again
                before = other.calls.shown.total()
                for _ in range(4):
                    await play_round(tg, other.app, [anna, boris])
                    await settled(other.app)
                assert other.calls.shown.total() > before
                await tg.wait_for(lambda: hands_current(tg, other.app, game, [anna, boris]))
        assert tg.too_many_requests_sent == 0


async def test_a_word_pressed_where_the_games_are_not_shown_is_made(
    pg_databases: PgDatabases,
) -> None:
    url = await pg_databases.target("words")
    async with FakeTelegram(token=TOKEN) as tg:
        anna, boris, group = two_friends(tg)
        async with both_running(tg, url) as both:
            holder, other = both
            async with delivering(tg, lambda _: other.address):  # every update to the other
                await open_table(tg, other.app, group, anna)
                await seat_everyone(tg, other.app, group, [anna, boris])
                game = other.app.service.game_ids()[0]
                words: list[str | None] = []  # the answers to «Бито», «Беру», «Пас»
                people = [anna, boris]
                for _ in range(60):
                    await settled(holder.app, other.app)
                    if game_over(tg, group):
                        break
                    await tg.wait_for(  # the holder draws every hand, target choices too
                        lambda: hands_current(tg, holder.app, game, people), timeout=15
                    )
                    user, hand, data = next(
                        (u, h, d)
                        for u in people
                        if (h := hand_message(tg, u)) is not None and (d := choose(tg, h))
                    )
                    drawn_there = hands_current(tg, holder.app, game, [user]) and (
                        "Какую карту побить" not in (hand.text or "")  # a page: the holder's
                    )
                    answer = await (await tg.press(user, hand, data))
                    if drawn_there and data.startswith("m:"):
                        words.append(answer.text)
                    if len(words) == 3:
                        break
                # before: «Кнопка устарела» every time (a short game may end before three)
                assert words and all(w is None for w in words), words
