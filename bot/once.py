"""Each update acts once, however often Telegram sends it (``storage.handling``).

Asked by ``bot.intake`` for every update: one whose handling changed something already
(its process died before answering it, or Telegram did not wait for the answer) is not
handled again; a press among them is answered without a word, as a made move is (the
first answer, if it was given, stands: Telegram refuses a second). Any other is handled
inside ``handling``, so that its change records it; one that another process handled
meanwhile stops at its change (``AlreadyHandled``) and is treated the same way.

Where this process is the database's only one, an update newer than every one recorded
or begun here cannot have been handled: it is not looked up (Telegram's ids grow).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any

from aiogram.exceptions import TelegramAPIError
from aiogram.types import Update

from storage.db import Database
from storage.handled import HandledRepo
from storage.handling import Handled

log = logging.getLogger(__name__)

MARK = "handled"  # the workflow data's key of a ``Handled`` given with the update (webhook)
FORGET_EVERY = 60.0  # seconds between two deletions of the old rows


class Once:
    def __init__(self, db: Database) -> None:
        self.handling = db.handling.of  # around a handling: its first change records it
        self.handled_updates = HandledRepo(db)
        self.repeats = 0  # updates sent again and not handled again
        self._alone = not db.shared  # no other process records updates
        self._newest: int | None = None  # (alone) the newest update recorded or begun
        self._forgetting: asyncio.Task[None] | None = None

    @staticmethod
    def handled(update: Update, data: dict[str, Any]) -> Handled:
        """The update's handling: the webhook's (it waits for it), or a new one."""
        given = data.get(MARK)
        return given if isinstance(given, Handled) else Handled(update.update_id)

    async def seen(self, update_id: int) -> bool:
        """Whether the update was handled already (its change committed)."""
        return await self._maybe_seen(update_id) and await self.handled_updates.seen(update_id)

    async def _maybe_seen(self, update_id: int) -> bool:
        """Whether the update may have been handled (False: it is newer than any)."""
        if not self._alone:
            return True
        if self._newest is None:
            newest = await self.handled_updates.newest()
            self._newest = newest if self._newest is None else self._newest  # (asked twice)
        newer = update_id > self._newest
        self._newest = max(self._newest, update_id)
        return not newer

    async def again(self, update: Update, handled: Handled) -> None:
        """An update handled already: its handling is done, a press answered silently."""
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
                gone = await self.handled_updates.forget()
                log.debug("%s handled updates forgotten", gone)
            except Exception as e:  # (the database down, say): next time
                log.warning("handled updates not forgotten: %s", e)
            await asyncio.sleep(FORGET_EVERY)
