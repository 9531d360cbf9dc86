"""Every outgoing message goes through here: Telegram's limits, coalesced edits,
retries after 429, and "message is not modified" taken as success.

Each chat has its own queue and worker, so a slow group never delays a hand.
An edit of a message that already waits in the queue replaces the waiting
text: only the newest state of a message is ever sent.

Limits are counted from when a call ends (Telegram counts it somewhere between
sending and answering), so the outbox is never ahead of Telegram's count. A group
gets one message every 60 / ``group_per_minute`` seconds: evenly spaced, never a
burst of twenty and then a frozen table. Slots under the global limit go in the
order they were asked for, except that private chats (the hands, which the game
waits for) get two for each one a group gets while both wait.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import deque
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field

from aiogram import Bot
from aiogram.exceptions import (
    TelegramAPIError,
    TelegramBadRequest,
    TelegramForbiddenError,
    TelegramMigrateToChat,
    TelegramNetworkError,
    TelegramRetryAfter,
)
from aiogram.types import InlineKeyboardMarkup, Message

log = logging.getLogger(__name__)

Replaced = Callable[[int, int, int], Awaitable[None]]  # chat, old message id, new message id
Blocked = Callable[[int], Awaitable[None]]  # a private chat whose user blocked the bot


@dataclass(frozen=True)
class Limits:
    per_chat: float = 1.0  # seconds between two messages to one chat
    group_per_minute: int = 20
    per_second: int = 30  # in all


@dataclass
class _Job:
    chat_id: int
    text: str | None  # None: edit the keyboard only
    markup: InlineKeyboardMarkup | None
    message_id: int | None = None  # None: send a new message
    done: asyncio.Future[Message | None] = field(default_factory=asyncio.Future)


class Outbox:
    def __init__(
        self,
        bot: Bot,
        limits: Limits | None = None,
        *,
        on_replaced: Replaced | None = None,
        on_blocked: Blocked | None = None,
    ) -> None:
        self.bot = bot
        self.limits = limits or Limits()
        self.on_replaced = on_replaced
        self.on_blocked = on_blocked
        self._queues: dict[int, deque[_Job]] = {}
        self._wake: dict[int, asyncio.Event] = {}
        self._workers: dict[int, asyncio.Task[None]] = {}
        self._last: dict[int, float] = {}  # when the chat's last call ended
        self._ended: deque[float] = deque()  # when recent calls ended, for the global limit
        self._in_flight = 0
        self._waiting: tuple[deque[asyncio.Future[None]], ...] = (deque(), deque())
        self._turn = 0
        self._timer: asyncio.TimerHandle | None = None
        self.retries = 0  # 429s received

    def send(
        self, chat_id: int, text: str, markup: InlineKeyboardMarkup | None = None
    ) -> asyncio.Future[Message | None]:
        """Queue a new message; the future gives the sent message (None if it failed)."""
        return self._put(_Job(chat_id, text, markup))

    def edit(
        self,
        chat_id: int,
        message_id: int,
        text: str | None,
        markup: InlineKeyboardMarkup | None = None,
    ) -> asyncio.Future[Message | None]:
        """Queue an edit (``text`` None: of the keyboard only); replaces a waiting edit
        of the same message."""
        for job in self._queues.get(chat_id, ()):
            if job.message_id == message_id:
                job.text, job.markup = text if text is not None else job.text, markup
                return job.done
        return self._put(_Job(chat_id, text, markup, message_id))

    async def drain(self) -> None:
        """Wait until every queued job has been sent (used at shutdown and in tests)."""
        while any(self._queues.values()):
            await asyncio.sleep(0.01)

    async def close(self) -> None:
        for task in self._workers.values():
            task.cancel()
        for task in self._workers.values():
            with contextlib.suppress(asyncio.CancelledError):
                await task
        self._workers.clear()
        if self._timer is not None:
            self._timer.cancel()

    def _put(self, job: _Job) -> asyncio.Future[Message | None]:
        chat = job.chat_id
        self._queues.setdefault(chat, deque()).append(job)
        self._wake.setdefault(chat, asyncio.Event()).set()
        if chat not in self._workers or self._workers[chat].done():
            self._workers[chat] = asyncio.create_task(self._work(chat), name=f"outbox-{chat}")
        return job.done

    async def _work(self, chat: int) -> None:
        queue = self._queues[chat]
        while True:
            if not queue:
                self._wake[chat].clear()
                await self._wake[chat].wait()
                continue
            job = queue[0]  # stays queued while sent, so edits of it coalesce until then
            text, markup = job.text, job.markup
            result = await self._call(job, text, markup)
            if job.text == text and job.markup is markup:
                queue.popleft()
                if not job.done.done():
                    job.done.set_result(result)

    @contextlib.asynccontextmanager
    async def _slot(self, chat: int) -> AsyncIterator[None]:
        """Room for one call to ``chat`` under the per-chat, per-group and global limits."""
        interval = self.limits.per_chat
        if chat < 0:
            interval = max(interval, 60.0 / self.limits.group_per_minute)
        wait = self._last.get(chat, -interval) + interval - time.monotonic()
        await asyncio.sleep(max(0.0, wait))
        granted = asyncio.get_running_loop().create_future()
        self._waiting[chat < 0].append(granted)
        self._grant()
        await granted
        try:
            yield
        finally:
            self._in_flight -= 1
            self._last[chat] = ended = time.monotonic()
            self._ended.append(ended)
            self._grant()

    def _grant(self) -> None:
        """Hand out the free global slots: two to private chats, then one to a group."""
        now = time.monotonic()
        while self._ended and now - self._ended[0] >= 1.0:
            self._ended.popleft()
        private, group = self._waiting
        while (private or group) and len(self._ended) + self._in_flight < self.limits.per_second:
            first = private if (self._turn % 3 < 2 and private) or not group else group
            granted = first.popleft()
            self._turn += 1
            if not granted.done():  # its worker may have been cancelled
                granted.set_result(None)
                self._in_flight += 1
        if (private or group) and self._ended and self._timer is None:
            self._timer = asyncio.get_running_loop().call_later(
                1.0 - (now - self._ended[0]), self._retimed
            )

    def _retimed(self) -> None:
        self._timer = None
        self._grant()

    async def _call(
        self, job: _Job, text: str | None, markup: InlineKeyboardMarkup | None
    ) -> Message | None:
        for _ in range(5):
            try:
                if job.message_id is None:
                    assert text is not None, "a new message needs a text"
                    async with self._slot(job.chat_id):
                        return await self.bot.send_message(job.chat_id, text, reply_markup=markup)
                async with self._slot(job.chat_id):
                    if text is None:
                        result = await self.bot.edit_message_reply_markup(
                            chat_id=job.chat_id, message_id=job.message_id, reply_markup=markup
                        )
                    else:
                        result = await self.bot.edit_message_text(
                            text=text,
                            chat_id=job.chat_id,
                            message_id=job.message_id,
                            reply_markup=markup,
                        )
                return result if isinstance(result, Message) else None
            except TelegramRetryAfter as e:
                self.retries += 1
                log.warning("429 for chat %s: retrying after %s s", job.chat_id, e.retry_after)
                await asyncio.sleep(e.retry_after)
            except TelegramMigrateToChat as e:
                # The group became a supergroup: its migration update moves the table.
                log.info("chat %s moved to %s", job.chat_id, e.migrate_to_chat_id)
                return None
            except TelegramBadRequest as e:
                if "message is not modified" in e.message:
                    return None
                if text is not None and job.message_id is not None and _gone(e.message):
                    return await self._replace(job, text, markup)
                log.warning("chat %s: %s", job.chat_id, e.message)
                return None
            except TelegramForbiddenError:
                log.info("chat %s does not accept messages from the bot", job.chat_id)
                if self.on_blocked is not None and job.chat_id > 0:
                    await self.on_blocked(job.chat_id)
                return None
            except TelegramNetworkError as e:
                log.warning("network error for chat %s: %s", job.chat_id, e)
                await asyncio.sleep(1.0)
            except TelegramAPIError as e:  # anything else: drop this call, keep the worker
                log.warning("chat %s: %s", job.chat_id, e.message)
                return None
        return None

    async def _replace(
        self, job: _Job, text: str, markup: InlineKeyboardMarkup | None
    ) -> Message | None:
        """The message can no longer be edited: send a new one and remember it."""
        old = job.message_id
        assert old is not None
        async with self._slot(job.chat_id):
            message = await self.bot.send_message(job.chat_id, text, reply_markup=markup)
        if self.on_replaced is not None:
            await self.on_replaced(job.chat_id, old, message.message_id)
        return message


def _gone(description: str) -> bool:
    return any(
        s in description
        for s in ("message to edit not found", "message can't be edited", "MESSAGE_ID_INVALID")
    )
