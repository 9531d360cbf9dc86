"""Every outgoing message goes through here: Telegram's limits, coalesced edits,
retries after 429, and "message is not modified" taken as success.

Each chat has its own queue and worker, so a slow group never delays a hand.
An edit of a message that already waits in the queue replaces the waiting
text: only the newest state of a message is ever sent.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from aiogram import Bot
from aiogram.exceptions import (
    TelegramBadRequest,
    TelegramForbiddenError,
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
    text: str
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
        self._sent: deque[float] = deque()  # times of recent calls, for the global limit
        self._group_sent: dict[int, deque[float]] = {}
        self.retries = 0  # 429s received

    def send(
        self, chat_id: int, text: str, markup: InlineKeyboardMarkup | None = None
    ) -> asyncio.Future[Message | None]:
        """Queue a new message; the future gives the sent message (None if it failed)."""
        return self._put(_Job(chat_id, text, markup))

    def edit(
        self, chat_id: int, message_id: int, text: str, markup: InlineKeyboardMarkup | None = None
    ) -> asyncio.Future[Message | None]:
        """Queue an edit; replaces a waiting edit of the same message."""
        for job in self._queues.get(chat_id, ()):
            if job.message_id == message_id:
                job.text, job.markup = text, markup
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

    def _put(self, job: _Job) -> asyncio.Future[Message | None]:
        chat = job.chat_id
        self._queues.setdefault(chat, deque()).append(job)
        self._wake.setdefault(chat, asyncio.Event()).set()
        if chat not in self._workers or self._workers[chat].done():
            self._workers[chat] = asyncio.create_task(self._work(chat), name=f"outbox-{chat}")
        return job.done

    async def _work(self, chat: int) -> None:
        queue = self._queues[chat]
        last = 0.0
        while True:
            if not queue:
                self._wake[chat].clear()
                await self._wake[chat].wait()
                continue
            await asyncio.sleep(max(0.0, last + self.limits.per_chat - time.monotonic()))
            await self._global_slot(chat)
            job = queue[0]  # stays queued while sent, so edits of it coalesce until then
            text, markup = job.text, job.markup
            result = await self._call(job, text, markup)
            last = time.monotonic()
            if job.text == text and job.markup is markup:
                queue.popleft()
                if not job.done.done():
                    job.done.set_result(result)

    async def _global_slot(self, chat: int) -> None:
        """Wait for room under the global and per-group limits."""
        while True:
            now = time.monotonic()
            while self._sent and now - self._sent[0] > 1.0:
                self._sent.popleft()
            group = self._group_sent.setdefault(chat, deque())
            while group and now - group[0] > 60.0:
                group.popleft()
            wait = 0.0
            if len(self._sent) >= self.limits.per_second:
                wait = 1.0 - (now - self._sent[0])
            if chat < 0 and len(group) >= self.limits.group_per_minute:
                wait = max(wait, 60.0 - (now - group[0]))
            if wait <= 0:
                self._sent.append(now)
                if chat < 0:
                    group.append(now)
                return
            await asyncio.sleep(wait)

    async def _call(
        self, job: _Job, text: str, markup: InlineKeyboardMarkup | None
    ) -> Message | None:
        for _ in range(5):
            try:
                if job.message_id is None:
                    return await self.bot.send_message(job.chat_id, text, reply_markup=markup)
                result = await self.bot.edit_message_text(
                    text=text, chat_id=job.chat_id, message_id=job.message_id, reply_markup=markup
                )
                return result if isinstance(result, Message) else None
            except TelegramRetryAfter as e:
                self.retries += 1
                log.warning("429 for chat %s: retrying after %s s", job.chat_id, e.retry_after)
                await asyncio.sleep(e.retry_after)
            except TelegramBadRequest as e:
                if "message is not modified" in e.message:
                    return None
                if job.message_id is not None and _gone(e.message):
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
        return None

    async def _replace(
        self, job: _Job, text: str, markup: InlineKeyboardMarkup | None
    ) -> Message | None:
        """The message can no longer be edited: send a new one and remember it."""
        old = job.message_id
        assert old is not None
        message = await self.bot.send_message(job.chat_id, text, reply_markup=markup)
        if self.on_replaced is not None:
            await self.on_replaced(job.chat_id, old, message.message_id)
        return message


def _gone(description: str) -> bool:
    return any(
        s in description
        for s in ("message to edit not found", "message can't be edited", "MESSAGE_ID_INVALID")
    )
