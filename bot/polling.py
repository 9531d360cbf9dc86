"""Long polling that confirms an update to Telegram only once it is handled.

aiogram's polling asks for the next updates as soon as it has handed the last ones to
their tasks, and that request confirms them to Telegram: a process that dies while
handling one loses it (the player's button spins, and the move may or may not be
made). Here the offset stays at the oldest update still in hand, so Telegram keeps it
until its handling ends, and a process started after a crash is sent it again; one
handled before (its effect committed) is then answered as it was (``bot.once``).

While an update is in hand, Telegram answers at once with it (it is not confirmed), so
the next request waits until one in hand ends or ``AGAIN`` seconds pass; an update
sent again while it is in hand, or after its handling and before a request confirmed
it, is not handled twice. (A request returns at most 100 updates from the oldest in
hand: a bot that gets more than that while one update is slow waits for it; webhook
mode is the one for such a load. One in hand for ``STUCK`` seconds is held no longer.)
"""

from __future__ import annotations

import asyncio
import logging
import time
from asyncio import FIRST_COMPLETED

from aiogram import Bot, Dispatcher
from aiogram.exceptions import TelegramAPIError
from aiogram.types import Update

log = logging.getLogger(__name__)

WAIT = 25  # seconds a request waits for news when nothing is in hand
AGAIN = 0.5  # seconds between requests while an update is in hand
SETTLE = 5.0  # seconds the updates in hand have to end when polling stops
STUCK = 60.0  # seconds after which an update in hand no longer holds the offset back
BACKOFF = (1.0, 2.0, 5.0, 10.0, 30.0)  # seconds before another try after failed requests


class Polling:
    def __init__(self, dp: Dispatcher, bot: Bot, *, wait: int = WAIT) -> None:
        self.dp, self.bot, self.wait = dp, bot, wait
        self._in_hand: dict[int, asyncio.Task[None]] = {}  # update id -> its handling
        self._since: dict[int, float] = {}  # update id -> when its handling began
        self._handled: set[int] = set()  # handled, not yet confirmed
        self._next = 0  # the update id after the newest one received

    async def run(self) -> None:
        """Ask for updates and hand each to the dispatcher, until cancelled."""
        allowed = self.dp.resolve_used_update_types()
        failures = 0
        me = await self.bot.me()
        log.info("polling for updates as @%s", me.username)
        try:
            while True:
                try:
                    updates = await self.bot.get_updates(
                        offset=self._offset(),
                        timeout=0 if self._holding() else self.wait,
                        allowed_updates=allowed,
                        request_timeout=self.wait + 30,
                    )
                except (TelegramAPIError, OSError, TimeoutError) as e:
                    pause = BACKOFF[min(failures, len(BACKOFF) - 1)]
                    failures += 1
                    log.warning("getUpdates failed (%s): again in %.0f s", e, pause)
                    await asyncio.sleep(pause)
                    continue
                if failures:
                    log.info("getUpdates works again after %s failed requests", failures)
                    failures = 0
                for update in updates:
                    self._take(update)
                if self._holding():
                    in_hand = set(self._in_hand.values())
                    await asyncio.wait(in_hand, timeout=AGAIN, return_when=FIRST_COMPLETED)
        finally:
            await self._settle()

    def _take(self, update: Update) -> None:
        uid = update.update_id
        self._next = max(self._next, uid + 1)
        if uid in self._in_hand or uid in self._handled:
            return  # sent again before a request confirmed it
        task = asyncio.create_task(self._handle(update), name=f"update-{uid}")
        self._in_hand[uid] = task
        self._since[uid] = time.monotonic()
        task.add_done_callback(lambda _: self._done(uid))

    def _done(self, uid: int) -> None:
        del self._in_hand[uid], self._since[uid]
        self._handled.add(uid)

    def _holding(self) -> list[int]:
        """The updates in hand that hold the offset back (not stuck)."""
        now = time.monotonic()
        return [uid for uid, since in self._since.items() if now - since < STUCK]

    def _offset(self) -> int | None:
        """The oldest update in hand, else the one after the newest: those before it
        are confirmed by the request."""
        offset = min(self._holding(), default=self._next) or None
        self._handled = {uid for uid in self._handled if offset is None or uid >= offset}
        return offset

    async def _handle(self, update: Update) -> None:
        try:
            await self.dp.feed_update(self.bot, update)
        except Exception:  # (the dispatcher's error handler logs those it is given)
            log.exception("update %s failed", update.update_id)

    async def _settle(self) -> None:
        """Stopping: the updates in hand end first (a while), then those handled are
        confirmed by a request that takes nothing (the next process gets the rest)."""
        if self._in_hand:
            await asyncio.wait(self._in_hand.values(), timeout=SETTLE)
        offset = self._offset()
        if offset is None:
            return
        try:
            await self.bot.get_updates(offset=offset, timeout=0, limit=1, request_timeout=5)
        except (TelegramAPIError, OSError, TimeoutError) as e:
            log.warning("the updates handled last were not confirmed (%s): they come again", e)
