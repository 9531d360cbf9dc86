"""Starting the sandbox: the emulator, the people and their group, the web page, and the
real bot (the same ``App`` as in production) pointed at the emulator."""

from __future__ import annotations

import asyncio
import math
import os
import socket
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, replace

from aiohttp import web

from bot.app import App
from bot.config import Config, Options
from bot.miniapp import MiniApp
from telegram_emulator import TOKEN, FakeTelegram, RateLimits

from .web import make_app
from .world import APP_NAME, BOT_USERNAME, populate


@dataclass(frozen=True)
class Sandbox:
    tg: FakeTelegram
    app: App  # not started: ``await app.run()`` receives updates until cancelled
    url: str  # the page


def telegram_limits(config: Config) -> RateLimits:
    """The emulator answers 429 where the bot's own pacing (DURAK_CHAT_INTERVAL,
    DURAK_CHAT_BURST, DURAK_GROUP_PER_MINUTE; Telegram's limits by default) says it never
    sends."""
    limits = config.limits
    return RateLimits(
        per_chat=(1, limits.per_chat),
        chat_burst=limits.chat_burst,
        per_group=(limits.group_per_minute, 60.0),
        total=None,
    )


@asynccontextmanager
async def sandbox(config: Config, port: int, host: str = "127.0.0.1") -> AsyncIterator[Sandbox]:
    """The emulator and the page on ``host:port`` (0: any free port), and the bot's App,
    whose Mini App the page's server serves too (``/app``: the table message's button
    opens it in a panel, signed with the emulator's token)."""
    tg = FakeTelegram(TOKEN, bot_username=BOT_USERNAME, rate_limits=telegram_limits(config))
    await tg.start()
    populate(tg)
    listening = socket.create_server((host, port))  # the port first: the bot links to it
    bound = int(listening.getsockname()[1])
    base = f"http://{host}:{bound}"
    bot_config = replace(
        config, token=TOKEN, api_base=tg.base_url, webhook_url=None,
        miniapp_url=f"{base}/app", miniapp_link=f"https://t.me/{BOT_USERNAME}/{APP_NAME}",
    )  # fmt: skip
    runner: web.AppRunner | None = None
    try:
        app = await App.create(bot_config)
        pages = [r for r in app.routes if isinstance(r, MiniApp)]
        runner = web.AppRunner(make_app(tg, pages), access_log=None, shutdown_timeout=1.0)
        await runner.setup()
        await web.SockSite(runner, listening).start()
        yield Sandbox(tg, app, f"{base}/")
    finally:
        if runner is not None:
            await runner.cleanup()
        listening.close()
        await tg.stop()


def environment(options: Options, scratch: str) -> dict[str, str]:
    """The environment's settings, with the emulator's token and no webhook or Bot API
    server of its own; the database in ``scratch`` unless ``--db`` names one."""
    env = {k: v for k, v in os.environ.items() if k not in ("DURAK_WEBHOOK_URL", "BOT_API_BASE")}
    env.update(BOT_TOKEN=TOKEN, DURAK_DB=options.db or os.path.join(scratch, "durak.sqlite3"))
    return env


async def play(config: Config, port: int) -> None:
    """``python -m bot --sandbox``: the sandbox until cancelled; its page's address is
    printed once the bot asks for updates (printed, not logged: DURAK_LOG_LEVEL=WARNING
    silences the logs, not the one line a person needs)."""
    async with sandbox(config, port) as box:

        async def announce() -> None:
            await box.tg.wait_for(lambda: box.tg.count("getUpdates"), math.inf)
            print(f"sandbox: open {box.url} in a browser (Ctrl+C stops it)", flush=True)

        ready = asyncio.create_task(announce())
        try:
            await box.app.run()
        finally:
            ready.cancel()
