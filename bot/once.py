"""Each update acts once, however often Telegram sends it (``storage.handling``).

An outer middleware of every update: one whose handling changed something already (its
process died before answering it, or Telegram did not wait for the answer) is not
handled again; a press among them is answered without a word, as a made move is (the
first answer, if it was given, stands: Telegram refuses a second). Any other is handled
inside ``Handling.of``, so that its change records it; one that another process handled
meanwhile stops at its change (``AlreadyHandled``) and is treated the same way.

Where this process is the database's only one, an update newer than every one recorded
or begun here cannot have been handled: it is not looked up (Telegram's ids grow).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from aiogram import BaseMiddleware
from aiogram.exceptions import TelegramAPIError
from aiogram.types import TelegramObject, Update

from storage.db import Database
from storage.handled import HandledRepo
from storage.handling import AlreadyHandled, Handled, Handling

log = logging.getLogger(__name__)

Handler = Callable[[TelegramObject, dict[str, Any]], Awaitable[Any]]
MARK = "handled"  # the workflow data's key of a ``Handled`` given with the update (webhook)
FORGET_EVERY = 60.0  # seconds between two deletions of the old rows


class Once(BaseMiddleware):
    def __init__(self, db: Database) -> None:
        self.handling: Handling = db.handling
        self.handled = HandledRepo(db)
        self.repeats = 0  # updates sent again and not handled again
        self._alone = not db.shared  # no other process records updates
        self._newest: int | None = None  # (alone) the newest update recorded or begun
        self._forgetting: asyncio.Task[None] | None = None

    async def __call__(self, handler: Handler, event: TelegramObject, data: dict[str, Any]) -> Any:
        assert isinstance(event, Update)
        given = data.get(MARK)
        handled = given if isinstance(given, Handled) else Handled(event.update_id)
        if await self._maybe_seen(event.update_id) and await self.handled.seen(event.update_id):
            return await self._again(event, handled)
        with self.handling.of(handled):
            try:
                return await handler(event, data)
            except AlreadyHandled:
                return await self._again(event, handled)

    async def _maybe_seen(self, update_id: int) -> bool:
        """Whether the update may have been handled (False: it is newer than any)."""
        if not self._alone:
            return True
        if self._newest is None:
            newest = await self.handled.newest()
            self._newest = newest if self._newest is None else self._newest  # (asked twice)
        newer = update_id > self._newest
        self._newest = max(self._newest, update_id)
        return not newer

    async def _again(self, update: Update, handled: Handled) -> None:
        self.repeats += 1
        handled.durable.set()
        log.info("update %s was handled already: not again", update.update_id)
        if update.callback_query is not None:
            with contextlib.suppress(TelegramAPIError):
                await update.callback_query.answer()

    def start(self) -> None:
        """Delete the rows older than an hour, now and every minute."""
        if self._forgetting is None:
            self._forgetting = asyncio.create_task(self._forget(), name="handled-updates")

    async def stop(self) -> None:
        if self._forgetting is not None:
            self._forgetting.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._forgetting
            self._forgetting = None

    async def _forget(self) -> None:
        while True:
            try:
                gone = await self.handled.forget()
                log.debug("%s handled updates forgotten", gone)
            except Exception as e:  # (the database down, say): next time
                log.warning("handled updates not forgotten: %s", e)
            await asyncio.sleep(FORGET_EVERY)
