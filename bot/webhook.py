"""Webhook mode: Telegram POSTs each update to a local aiohttp server.

aiogram's ``SimpleRequestHandler`` checks the secret header of every request
(401 without the right one) and answers at once, handling the update in the
background. The local route is the public URL's path; a reverse proxy in front
terminates HTTPS.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from aiogram import Bot, Dispatcher
from aiogram.exceptions import TelegramAPIError
from aiogram.webhook.aiohttp_server import SimpleRequestHandler
from aiohttp import web

from .config import Config

log = logging.getLogger(__name__)

SET_WAIT = 60.0  # seconds the start waits for setWebhook (it goes on trying after)
AGAIN = (5.0, 15.0, 30.0, 60.0)  # seconds between the tries of a setWebhook that failed


class _Handler(SimpleRequestHandler):
    def verify_secret(self, telegram_secret_token: str, bot: Bot) -> bool:
        if super().verify_secret(telegram_secret_token, bot):
            return True
        log.warning("webhook: refused a request without the right secret token")
        return False


@asynccontextmanager
async def listening(config: Config, dp: Dispatcher, bot: Bot) -> AsyncIterator[int]:
    """Serve the webhook route, then point Telegram at it; yields the local port."""
    assert config.webhook_url is not None
    handler = _Handler(dp, bot, secret_token=config.webhook_secret)
    server = web.Application()
    # The route only, not handler.register(): the App closes the bot's session itself.
    server.router.add_post(config.webhook_path, handler.handle)
    runner = web.AppRunner(server, access_log=None)
    await runner.setup()
    try:
        await web.TCPSite(runner, config.webhook_host, config.webhook_port).start()
        port = int(runner.addresses[0][1])
        log.info("listening on %s:%s%s", config.webhook_host, port, config.webhook_path)
        setting = asyncio.create_task(pointed(config, dp, bot), name="set-webhook")
        try:
            await asyncio.wait({setting}, timeout=SET_WAIT)  # set, or trying on meanwhile
            yield port
        finally:
            setting.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await setting
    finally:
        await runner.cleanup()


async def pointed(config: Config, dp: Dispatcher, bot: Bot) -> None:
    """Point Telegram at the webhook, trying until it is done: the route serves meanwhile
    (Telegram may still have it from the last start)."""
    assert config.webhook_url is not None
    for failures in itertools.count():
        try:
            await bot.set_webhook(
                config.webhook_url,
                secret_token=config.webhook_secret,
                allowed_updates=dp.resolve_used_update_types(),
            )
        except TelegramAPIError as e:
            delay = AGAIN[min(failures, len(AGAIN) - 1)]
            log.warning("webhook not set (setWebhook failed: %s): again in %s s", e, delay)
            await asyncio.sleep(delay)
            continue
        log.info("webhook %s set", config.webhook_url)
        return
