"""A bot's long polling against the emulator, for the length of a block."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from telegram_emulator.server import FakeTelegram


@asynccontextmanager
async def run_polling(
    dispatcher: Any, bot: Any, server: FakeTelegram, **kwargs: Any
) -> AsyncIterator[asyncio.Task[None]]:
    """Run ``dispatcher.start_polling(bot)`` until the block ends; waits for the first poll."""
    polls_before = server.count("getUpdates")
    task = asyncio.create_task(dispatcher.start_polling(bot, handle_signals=False, **kwargs))

    def polling() -> bool:
        if task.done():
            task.result()  # re-raise a startup failure
            raise AssertionError("polling ended before the first getUpdates")
        return server.count("getUpdates") > polls_before

    try:
        await server.wait_for(polling, what="the first getUpdates")
        yield task
    finally:
        if not task.done():
            await dispatcher.stop_polling()
        await asyncio.wait_for(task, 5.0)
