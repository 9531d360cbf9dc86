"""The bot with its Mini App on a local web server, and pages that talk to it as the
Mini App's script does: a launch signed with the emulator's token, then JSON messages."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from pathlib import Path
from typing import Any

import aiohttp

from bot.app import App
from bot.config import Config
from bot.miniapp import sign
from bot.outbox import Limits
from service import Clock
from tests.e2e_helpers import TOKEN, open_table, seat_everyone, served_bot, two_friends
from tests.fakes import FakeTelegram, FakeUser

FAST = Limits(per_chat=0.0, group_per_minute=10**6, per_second=10**6)
WAIT = 10.0  # seconds a page waits for a message
LINK = "https://t.me/durak_test_bot/table"  # the Mini App's direct link (DURAK_MINIAPP_LINK)


def miniapp_bot(
    tg: FakeTelegram, db: Path, clock: Clock | None = None
) -> AbstractAsyncContextManager[tuple[App, str]]:
    """The bot polling the emulator, its web server (with the Mini App) on a free port:
    the app and the server's base URL."""
    config = Config(
        token=TOKEN, db_path=str(db), api_base=tg.base_url, limits=FAST, bot_pause=(0.0, 0.0),
        metrics_port=0, miniapp_url="https://durak.example.org/app", miniapp_link=LINK,
    )  # fmt: skip
    return served_bot(tg, config, clock)


async def two_playing(tg: FakeTelegram, app: App) -> tuple[FakeUser, FakeUser, str]:
    """Аня and Борис seated at a table of two, their game running: them, the table's
    join token."""
    anna, boris, group = two_friends(tg)
    await open_table(tg, app, group, anna)
    await seat_everyone(tg, app, group, [anna, boris])
    table = await app.tables.get(1)
    return anna, boris, table.join_token


def launch_of(
    user: FakeUser, start: str | None, *, age: float = 30.0, now: float | None = None
) -> str:
    """A launch signed ``age`` seconds before ``now`` (the bot's clock; default the time)."""
    signed = (time.time() if now is None else now) - age
    return sign(
        TOKEN, user_id=user.id, first_name=user.first_name, auth_date=int(signed),
        start_param=start,
    )  # fmt: skip


class Page:
    """One open page's socket: what it was sent, in order."""

    def __init__(self, ws: aiohttp.ClientWebSocketResponse) -> None:
        self.ws = ws

    async def send(self, message: dict[str, Any]) -> None:
        await self.ws.send_json(message)

    async def next(self, kind: str | None = None) -> dict[str, Any]:
        """The next message (of ``kind``, skipping others)."""
        async with asyncio.timeout(WAIT):
            while True:
                message = await self.ws.receive()
                if message.type != aiohttp.WSMsgType.TEXT:
                    raise AssertionError(f"the socket ended: {message.type!r}")
                data: dict[str, Any] = message.json()
                if kind is None or data["type"] == kind:
                    return data

    async def table(self, version: int | None = None) -> dict[str, Any]:
        """The next table pushed (at ``version``, if given)."""
        while True:
            shown = await self.next("table")
            if version is None or shown["version"] == version:
                return shown

    async def move(self, text: str, version: int, seat: int | None) -> None:
        await self.send({"type": "move", "text": text, "version": version, "seat": seat})


@asynccontextmanager
async def page(base: str, init_data: str, start: str | None) -> AsyncIterator[Page]:
    """A page opened with this launch, past its hello."""
    async with aiohttp.ClientSession() as http, http.ws_connect(f"{base}/app/ws") as ws:
        opened = Page(ws)
        await opened.send({"type": "hello", "init_data": init_data, "start": start})
        yield opened
