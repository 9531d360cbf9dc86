"""Several bot processes on one database, as the multi-process suites start them: game
services (``two_services``) or whole Apps serving their webhook routes
(``bot_processes``), each with its own connections, all stopped and closed at the end."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from contextlib import AsyncExitStack, asynccontextmanager
from dataclasses import replace
from pathlib import Path
from typing import Any

from bot import webhook
from bot.app import App
from bot.config import Config
from bot.delivery import Shared
from service import Clock, FakeClock, GameService, Listener
from storage.connect import open_database
from tests.fakes import TOKEN, FakeTelegram, FakeUser, hand_message
from tests.test_webhook import free_port

SECRET = "shared_Webhook-secret"
URL = "https://durak.example.org/tg"


@asynccontextmanager
async def two_services(
    target: str | Path,
    *,
    clock: Clock | None = None,
    listeners: tuple[Listener | None, Listener | None] = (None, None),
    shared: bool = False,
) -> AsyncIterator[tuple[GameService, GameService]]:
    """Two processes' game services on the database ``target`` (as ``open_database``
    takes it, ``shared`` as there): one ``clock`` for both if given (as on one machine),
    else a fake clock each; ``listeners``: each one's."""
    services: list[GameService] = []
    try:
        for listener in listeners:
            db = await open_database(target, shared=shared)
            services.append(GameService(db, clock=clock or FakeClock(), listener=listener))
        yield services[0], services[1]
    finally:
        for service in services:
            await service.stop()
            await service.db.close()


class Process:
    """One bot process: an App on a shared database serving its webhook route at
    ``address``; ``delivery`` is its share of showing the games (``bot.delivery.shared``)."""

    def __init__(self, app: App, address: str, stack: AsyncExitStack) -> None:
        assert isinstance(app.delivery, Shared), "one of several processes"
        self.app, self.delivery, self.address = app, app.delivery, address
        self._stack = stack

    async def stop(self) -> None:
        """Stops the process (again: nothing more)."""
        await self._stack.aclose()


async def start_process(tg: FakeTelegram, url: str, *, shards: int = 1) -> Process:
    """A bot process in webhook mode on the PostgreSQL database ``url``, unpaced, whose
    holder looks at the shards every 50 ms. ``shards``: 1 by default, as before the
    shards: one process (the holder) shows every chat, the others none."""
    port = free_port()
    config = Config.from_env(
        {
            "BOT_TOKEN": TOKEN,
            "DURAK_DB": url,
            "BOT_API_BASE": tg.base_url,
            "DURAK_WEBHOOK_URL": URL,
            "DURAK_WEBHOOK_PORT": str(port),
            "DURAK_WEBHOOK_SECRET": SECRET,
            "DURAK_SHARDS": str(shards),
        }
    )
    limits = replace(config.limits, per_chat=0.0, group_per_minute=10**6)
    app = await App.create(replace(config, limits=limits, bot_pause=(0.0, 0.0)))
    stack = AsyncExitStack()
    try:
        process = Process(app, f"http://127.0.0.1:{port}/tg", stack)
        process.delivery.holder.period = 0.05
        await app.start()
        stack.push_async_callback(app.stop)
        await stack.enter_async_context(webhook.listening(app.config, app.dp, app.bot))
    except BaseException:
        await stack.aclose()
        raise
    return process


@asynccontextmanager
async def bot_processes(
    tg: FakeTelegram, url: str, count: int = 2, *, holder_first: bool = True, shards: int = 1
) -> AsyncIterator[list[Process]]:
    """``count`` bot processes on the database ``url``, each stopped at the end (a test may
    stop one before). ``holder_first``: once one of them holds a shard (with the one
    shard of the default: shows every chat), that one comes first."""
    processes: list[Process] = []
    try:
        for _ in range(count):
            processes.append(await start_process(tg, url, shards=shards))
        if holder_first:
            await tg.wait_for(lambda: any(p.delivery.showing for p in processes))
            processes.sort(key=lambda p: not p.delivery.showing)
        yield processes
    finally:
        for process in processes:
            await process.stop()


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


def hands_current(tg: FakeTelegram, app: App, game: int, users: list[FakeUser]) -> bool:
    """Every hand shows what ``app`` (the holder) would draw now (its key ends each
    callback)."""
    for user in users:
        message = hand_message(tg, user)
        data = [
            d for _, d in (b for row in (message.keyboard if message else []) for b in row) if d
        ]
        if not data or data[0].rsplit(":", 1)[-1] != app.presenter.hand_key(game, user.id):
            return False
    return True
