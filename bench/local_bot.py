"""The real bot polling the Bot API emulator from this process, for the benchmarks that
drive it (``bench.press_path``, ``bench.ephemeral_load``, ``bench.miniapp_push``)."""

from __future__ import annotations

import asyncio
import contextlib
import tempfile
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from bot.app import App
from bot.config import Config
from bot.outbox import Limits
from bot.polling import Polling
from telegram_emulator import TOKEN


@contextlib.asynccontextmanager
async def polling_bot(api_base: str, limits: Limits, **more: Any) -> AsyncIterator[App]:
    """The bot with a fresh SQLite file, polling the emulator at ``api_base`` until the
    block ends; ``more``: other settings (``Config``'s fields)."""
    with tempfile.TemporaryDirectory() as folder:
        config = Config(
            token=TOKEN, db_path=str(Path(folder) / "db.sqlite3"), api_base=api_base,
            limits=limits, bot_pause=(0.0, 0.0), **more,
        )  # fmt: skip
        app = await App.create(config)
        await app.start()
        polling = asyncio.create_task(Polling(app.dp, app.bot).run(), name="polling")
        try:
            yield app
        finally:
            polling.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await polling
            await app.stop()


async def settle(app: App) -> None:
    """Until every committed step has been drawn and sent."""
    await app.service.idle()
    await app.delivery.drawn()
    await app.presenter.idle()
    await app.outbox.drain()
