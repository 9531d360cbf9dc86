"""Webhook mode: Telegram POSTs each update to a local aiohttp server.

Each request needs the webhook's secret header (401 without the right one), and is
answered 200 only once its update has been handled (its change committed, or refused,
or there was none to make), or once its change is committed and its press answered:
that answer rides the 200 (``bot.replies``). A process that dies holding an update
leaves Telegram without an answer, so Telegram sends it again, to this process once
restarted or to another one; ``bot.once`` sees that it acts once. A handling slower
than ``PATIENCE`` is answered as soon as its change is committed (its press's answer,
if still to come, is then a call of its own); one that has committed nothing after
``LIMIT`` seconds is answered 503, for Telegram to send it again (it still acts once).
The local route is the public URL's path; a reverse proxy in front terminates HTTPS.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import secrets
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from typing import Any

from aiogram import Bot, Dispatcher
from aiogram.exceptions import TelegramAPIError
from aiogram.methods import AnswerCallbackQuery
from aiogram.types import Update
from aiohttp import web
from pydantic import ValidationError

from storage.handling import Handled

from .config import Config
from .once import MARK
from .replies import REPLY, Reply, body
from .session import lean
from .web import Routes, application

log = logging.getLogger(__name__)

SECRET_HEADER = "X-Telegram-Bot-Api-Secret-Token"
PATIENCE = 10.0  # seconds an update is held before its answer, unless it committed
LIMIT = 50.0  # seconds after which an update that committed nothing is given back
SET_WAIT = 60.0  # seconds the start waits for setWebhook (it goes on trying after)
AGAIN = (5.0, 15.0, 30.0, 60.0)  # seconds between the tries of a setWebhook that failed
# Updates Telegram POSTs at once: its most (its default is 40). Each request is held
# until its press is answered, so at a few hundred presses a second 40 were often all
# busy, and a press waited in Telegram's queue longer than the bot took to handle it.
CONNECTIONS = 100


class Receiver:
    """The webhook's route: each update handled (in a task of its own, which an ended
    request does not cancel), then answered."""

    def __init__(
        self,
        dp: Dispatcher,
        bot: Bot,
        secret: str | None,
        *,
        patience: float = PATIENCE,
        limit: float = LIMIT,
    ) -> None:
        self.dp, self.bot, self.secret = dp, bot, secret
        self.patience, self.limit = patience, limit
        self._handling: set[asyncio.Task[Any]] = set()

    async def handle(self, request: web.Request) -> web.Response:
        given = request.headers.get(SECRET_HEADER, "")
        if self.secret and not secrets.compare_digest(given, self.secret):
            log.warning("webhook: refused a request without the right secret token")
            return web.Response(text="Unauthorized", status=401)
        try:
            update = Update.model_validate(lean(await request.json()), context={"bot": self.bot})
        except (ValueError, ValidationError) as e:
            log.warning("webhook: refused a request that is not an update: %s", e)
            return web.Response(text="Bad Request", status=400)
        handled = Handled(update.update_id)
        query = update.callback_query
        reply = None if query is None else Reply(query.id)
        token = REPLY.set(reply)  # (for the handling's task only)
        task = asyncio.create_task(
            self.dp.feed_update(self.bot, update, **{MARK: handled}),
            name=f"update-{update.update_id}",
        )
        REPLY.reset(token)
        self._keep(task)
        waits: set[asyncio.Future[Any]] = {task} if reply is None else {task, reply.given}
        loop = asyncio.get_running_loop()
        given_up = loop.time() + self.limit
        try:
            await asyncio.wait(waits, timeout=self.patience, return_when=asyncio.FIRST_COMPLETED)
            if not task.done() and not handled.durable.is_set():  # (slow, or answered first)
                durable = asyncio.create_task(handled.durable.wait())
                await asyncio.wait(
                    {task, durable},
                    timeout=max(0.0, given_up - loop.time()),
                    return_when=asyncio.FIRST_COMPLETED,
                )
                durable.cancel()
        finally:
            answer = None if reply is None else reply.close()
        if task.done() or handled.durable.is_set():
            return web.json_response({} if answer is None else body(answer))
        if answer is not None:  # given, but the update goes back: the answer as a call
            self._keep(asyncio.create_task(self._call(answer), name="answer"))
        log.warning(
            "update %s: nothing committed in %.0f s, given back", update.update_id, self.limit
        )
        return web.Response(text="Service Unavailable", status=503)

    async def _call(self, answer: AnswerCallbackQuery) -> None:
        with contextlib.suppress(TelegramAPIError):
            await self.bot(answer)

    def _keep(self, task: asyncio.Task[Any]) -> None:
        self._handling.add(task)
        task.add_done_callback(self._done)

    def _done(self, task: asyncio.Task[Any]) -> None:
        self._handling.discard(task)
        if not task.cancelled() and task.exception() is not None:  # (the errors handler
            log.error("%s failed: %r", task.get_name(), task.exception())  # missed it)


@asynccontextmanager
async def listening(
    config: Config,
    dp: Dispatcher,
    bot: Bot,
    *,
    routes: Sequence[Routes] = (),
    patience: float = PATIENCE,
    limit: float = LIMIT,
) -> AsyncIterator[int]:
    """Serve the webhook route (and the bot's other ``routes``), then point Telegram at
    it; yields the local port."""
    assert config.webhook_url is not None
    receiver = Receiver(dp, bot, config.webhook_secret, patience=patience, limit=limit)
    server = application(routes)
    server.router.add_post(config.webhook_path, receiver.handle)
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
                max_connections=CONNECTIONS,
            )
        except TelegramAPIError as e:
            delay = AGAIN[min(failures, len(AGAIN) - 1)]
            log.warning("webhook not set (setWebhook failed: %s): again in %s s", e, delay)
            await asyncio.sleep(delay)
            continue
        log.info("webhook %s set", config.webhook_url)
        return
