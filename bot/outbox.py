"""Every outgoing message goes through here, paced by Telegram's real limits.

Each chat has a queue and a worker, so a slow group never delays a hand. A message
that should show the newest state of something is queued with a render callback
(``show``): the text and keyboard are asked for only when the chat's slot has come,
so what is sent is the newest state, and an edit that would show what the chat
already shows is not sent. A second edit of a message that still waits replaces the
waiting one.

Pacing: per chat a token bucket (one call per ``per_chat`` seconds, ``chat_burst`` at
once after a quiet spell), per group one call every 60 / ``group_per_minute``
seconds, evenly spaced, and a global rate that adapts: it starts at ``per_second``,
grows while calls wait for it and no 429 comes, and halves when one does (the chat
that got it waits ``retry_after``). Calls are counted from when they end, so the
outbox is never ahead of Telegram's count. ``answerCallbackQuery`` is not sent here:
Telegram does not limit it. An ephemeral message (``ephemeral``) has a queue of its own
per group and receiver, paced like a private chat: Telegram does not say that such
messages count against the group's limits (a 429 would still be waited out).

Every call is safe: a 429 waits and retries, a network error, a timeout, a 5xx or a
reply that is not JSON is retried with back-off, anything else is dropped with a log
line; no exception ends a worker. A chat's worker ends after ``idle`` quiet seconds
and is made again when the chat gets a message.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import time
from collections.abc import Callable

from aiogram import Bot
from aiogram.exceptions import (
    TelegramAPIError,
    TelegramBadRequest,
    TelegramEntityTooLarge,
    TelegramForbiddenError,
    TelegramMigrateToChat,
    TelegramRetryAfter,
)
from aiogram.methods import DeleteMessage
from aiogram.types import Message, ReplyParameters

from .ephemeral_calls import ephemeral_call
from .keyboard import Keyboard
from .outbox_jobs import (
    MEMORY,
    TRANSIENT,
    Blocked,
    ChatQueue,
    Job,
    Render,
    Rendered,
    gone_message,
    remember,
    seen,
    why,
)
from .outgoing import EditKeyboard, EditText, Posted, SendText
from .pacing import WORTH_A_WAIT, Limits, Rate

__all__ = ["Blocked", "Limits", "Outbox", "Render", "Rendered"]
log = logging.getLogger(__name__)


class Outbox:
    def __init__(
        self,
        bot: Bot,
        limits: Limits | None = None,
        *,
        on_blocked: Blocked | None = None,
    ) -> None:
        self.bot = bot
        self.limits = limits or Limits()
        self.on_blocked = on_blocked
        self.rate = Rate(self.limits.per_second, self.limits.max_per_second)
        self.retries = 0  # 429s received
        self.failures = 0  # calls that failed otherwise (retried or dropped)
        self.skipped = 0  # edits not sent: the chat already showed that
        self._chats: dict[int | tuple[int, int], ChatQueue] = {}
        self._pending = 0  # jobs queued or being sent
        self._sending: dict[int | tuple[int, int], Job] = {}  # chat -> its job under way
        self._busy_since = -math.inf  # see ``assume_busy``
        self._drained = asyncio.Event()
        self._drained.set()

    # --- what the bot asks for --------------------------------------------------

    def send(
        self,
        chat_id: int,
        text: str,
        markup: Keyboard | None = None,
        *,
        thread_id: int | None = None,
        reply_to: int | None = None,
    ) -> asyncio.Future[Posted | None]:
        """Queue a new message; the future gives it as sent (``Posted``; None if it failed).
        Needs no awaiting: a handler's reply can be queued and left to the outbox."""
        job = Job(chat_id, None, text, markup, thread_id=thread_id, reply_to=reply_to)
        return self._put(job)

    def reply(
        self,
        message: Message,
        text: str,
        markup: Keyboard | None = None,
        *,
        quote: bool = False,
    ) -> asyncio.Future[Posted | None]:
        """What ``message.answer(text)`` does (``quote``: ``message.reply(text)``), paced:
        into the message's chat and topic."""
        thread = message.message_thread_id if message.is_topic_message else None
        to = message.message_id if quote else None
        return self.send(message.chat.id, text, markup, thread_id=thread, reply_to=to)

    def edit(
        self,
        chat_id: int,
        message_id: int,
        text: str | None,
        markup: Keyboard | None = None,
    ) -> asyncio.Future[Posted | None]:
        """Queue an edit (``text`` None: of the keyboard only); replaces a waiting edit
        of the same message."""
        job = self._waiting(chat_id, message_id)
        if job is not None:
            job.text = text if text is not None else job.text
            job.markup, job.render = markup, None
            return job.done
        return self._put(Job(chat_id, message_id, text, markup))

    def show(
        self, chat_id: int, message_id: int | None, render: Render
    ) -> asyncio.Future[Posted | None]:
        """The message (None: a new one) should show what ``render()`` gives when its
        turn comes; replaces a waiting edit of the same message."""
        job = self._waiting(chat_id, message_id) if message_id is not None else None
        if job is not None:
            job.render = render
            return job.done
        return self._put(Job(chat_id, message_id, None, None, render))

    def ephemeral(
        self,
        chat_id: int,
        receiver: int,
        message_id: int | None,
        render: Render,
        *,
        query: str | None = None,
    ) -> asyncio.Future[Posted | None]:
        """``show`` for an ephemeral message to ``receiver`` (``message_id``: its ephemeral
        id; None: a new one, answering the press ``query`` if given)."""
        job = self._waiting(chat_id, message_id, receiver) if message_id is not None else None
        if job is not None:
            job.render = render
            return job.done
        return self._put(
            Job(chat_id, message_id, None, None, render, receiver=receiver, query=query)
        )

    def delete_ephemeral(
        self, chat_id: int, receiver: int, message_id: int
    ) -> asyncio.Future[Posted | None]:
        return self._put(Job(chat_id, message_id, None, None, delete=True, receiver=receiver))

    def delete(self, chat_id: int, message_id: int) -> asyncio.Future[Posted | None]:
        """Queue the deletion of a message: paced like the chat's other calls, and after
        every other call queued for the chat."""
        return self._put(Job(chat_id, message_id, None, None, delete=True))

    def assume_busy(self) -> None:
        """Another process may have just sent to any chat (the last holder of the sending
        lease, ``bot.delivery.holder``): pace every chat as if it had just used up its burst,
        and every group as if it had just been sent to, so that the two processes'
        calls together keep Telegram's limits."""
        self._busy_since = time.monotonic()
        for chat in self._chats.values():
            self._busy(chat)

    def _busy(self, chat: ChatQueue) -> None:
        since = self._busy_since
        chat.next = max(chat.next, since + max(self.limits.chat_burst, 1) * self.limits.per_chat)
        if chat.id < 0 and chat.receiver is None:
            chat.group_next = max(chat.group_next, since + 60.0 / self.limits.group_per_minute)

    async def drain(self) -> None:
        """Wait until every queued job has been sent (used at shutdown and in tests)."""
        while self._pending:
            await self._drained.wait()

    async def quiet(self, chats: Callable[[int], bool]) -> None:
        """Wait until no call to the chats ``chats`` picks is queued or under way (their
        shard goes to another process: ``bot.delivery.shared``)."""
        while waits := [
            j.done for k, c in self._chats.items() if chats(c.id)
            for j in (*c.queue, *filter(None, [self._sending.get(k)]))
        ]:  # fmt: skip
            await asyncio.wait(waits)
            await asyncio.sleep(0.01)  # (a job's future its caller cancelled is done early)

    @property
    def pending(self) -> int:
        """Messages queued or being sent, in every chat."""
        return self._pending

    @property
    def workers(self) -> int:
        """Chats with a worker (each ends after ``Limits.idle`` quiet seconds)."""
        return len(self._chats)

    async def close(self) -> None:
        tasks = [c.worker for c in self._chats.values() if c.worker is not None]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task
        for chat in self._chats.values():
            for job in chat.queue:
                self._finish(job, None)
        self._chats.clear()

    # --- queues and workers -------------------------------------------------------

    def _waiting(self, chat_id: int, message_id: int, receiver: int | None = None) -> Job | None:
        chat = self._chats.get(chat_id if receiver is None else (chat_id, receiver))
        for job in chat.queue if chat else ():
            if job.message_id == message_id and not job.delete:
                return job
        return None

    def _put(self, job: Job) -> asyncio.Future[Posted | None]:
        key = job.chat_id if job.receiver is None else (job.chat_id, job.receiver)
        chat = self._chats.get(key)
        if chat is None:
            chat = self._chats[key] = ChatQueue(job.chat_id, job.receiver)
            self._busy(chat)  # (a chat met just after ``assume_busy``: as busy)
        chat.queue.append(job)
        chat.wake.set()
        if chat.worker is None:
            chat.worker = asyncio.create_task(self._work(chat), name=f"outbox-{chat.id}")
        self._pending += 1
        self._drained.clear()
        return job.done

    def _finish(self, job: Job, result: Posted | None) -> None:
        if not job.done.done():
            job.done.set_result(result)
        self._pending -= 1
        if self._pending == 0:
            self._drained.set()

    async def _work(self, chat: ChatQueue) -> None:
        while True:
            if not chat.queue:
                chat.wake.clear()
                with contextlib.suppress(TimeoutError):
                    async with asyncio.timeout(self.limits.idle):
                        await chat.wake.wait()
                if not chat.queue and time.monotonic() >= max(
                    chat.next, chat.group_next, chat.hold
                ):
                    del self._chats[chat.key]  # quiet, and its pacing has nothing to remember
                    return
                continue
            # A deletion (a notice no longer needed) waits for the chat's other calls.
            job = next((j for j in chat.queue if not j.delete), chat.queue[0])
            chat.queue.remove(job)
            result = None
            self._sending[chat.key] = job
            try:
                result = await self._run(chat, job)
            except Exception:  # a bug (in a render, say): this job is lost, not the chat
                log.exception("chat %s: a message was dropped", chat.id)
            finally:
                del self._sending[chat.key]
                self._finish(job, result)

    # --- pacing -----------------------------------------------------------------

    def _ready(self, chat: ChatQueue) -> float:
        """When the chat may get its next call."""
        tolerance = (max(self.limits.chat_burst, 1) - 1) * self.limits.per_chat
        return max(chat.next - tolerance, chat.group_next, chat.hold)

    def _spent(self, chat: ChatQueue) -> None:
        """A call to the chat ended: charge its bucket (and the group's spacing)."""
        now = time.monotonic()
        chat.next = max(chat.next, now) + self.limits.per_chat
        if chat.id < 0 and chat.receiver is None:
            chat.group_next = now + 60.0 / self.limits.group_per_minute

    # --- one job ------------------------------------------------------------------

    async def _run(self, chat: ChatQueue, job: Job) -> Posted | None:
        """Wait for the slot, render, call; retry what may succeed on another try."""
        for attempt in range(self.limits.attempts):
            while (wait := self._ready(chat) - time.monotonic()) > 0:
                await asyncio.sleep(wait)
            content = self._fresh(chat, job)
            if content is None:
                return None
            if (wait := self.rate.reserve()) > WORTH_A_WAIT:
                await asyncio.sleep(wait)
                if job.render is not None and (content := self._fresh(chat, job)) is None:
                    return None
            text, markup = content
            try:
                return await self._call(chat, job, text, markup)
            except TelegramRetryAfter as e:
                self.retries += 1
                chat.hold = time.monotonic() + e.retry_after
                self.rate.cut(e.retry_after)
                log.warning("chat %s: 429, retrying after %s s", chat.id, e.retry_after)
            except TelegramMigrateToChat as e:
                # The group became a supergroup: its migration update moves the table.
                log.info("chat %s moved to %s", chat.id, e.migrate_to_chat_id)
                return None
            except TelegramBadRequest as e:
                if "message is not modified" in e.message and job.message_id is not None:
                    if text is not None:
                        remember(chat.shown, self._target(chat, job.message_id), seen(text, markup))
                    return None
                gone = gone_message(e.message) and chat.receiver is None  # (an ephemeral one: no)
                if text is not None and job.message_id is not None and gone:
                    return await self._replace(chat, job, text, markup)
                log.warning("chat %s: %s", chat.id, why(e))
                return None
            except TelegramForbiddenError:
                log.info("chat %s does not accept messages from the bot", chat.id)
                if self.on_blocked is not None and chat.id > 0:
                    await self.on_blocked(chat.id)
                return None
            except TelegramEntityTooLarge as e:
                log.warning("chat %s: %s", chat.id, why(e))
                return None
            except TRANSIENT as e:
                self.failures += 1
                pause = self.limits.backoff * 2**attempt
                log.warning(
                    "chat %s: %s (try %s), again in %.1f s", chat.id, why(e), attempt + 1, pause
                )
                await asyncio.sleep(pause)
            except TelegramAPIError as e:  # 401, 404, 409...: another try would fail too
                self.failures += 1
                log.warning("chat %s: %s", chat.id, why(e))
                return None
        log.warning("chat %s: given up after %s tries", chat.id, self.limits.attempts)
        return None

    def _target(self, chat: ChatQueue, message_id: int) -> int:
        """The message now standing for ``message_id`` (it may have been sent anew)."""
        for _ in range(MEMORY):  # a chain, never a cycle (see _call), but be safe
            if message_id not in chat.moved:
                break
            message_id = chat.moved[message_id]
        return message_id

    def _fresh(self, chat: ChatQueue, job: Job) -> tuple[str | None, Keyboard | None] | None:
        """What to send now; None when there is nothing to send (or it is shown already)."""
        content = job.content()
        if content is None:
            return None
        message_id = job.message_id
        if message_id is not None and chat.shown.get(self._target(chat, message_id)) == seen(
            *content
        ):
            self.skipped += 1
            return None
        return content

    async def _call(
        self, chat: ChatQueue, job: Job, text: str | None, markup: Keyboard | None
    ) -> Posted | None:
        timeout = math.ceil(self.limits.timeout)  # the session's own, so no task per call
        try:
            if chat.receiver is not None:  # an ephemeral message
                if job.message_id is not None:
                    chat.shown.pop(job.message_id, None)
                sent = await ephemeral_call(
                    self.bot, chat.id, chat.receiver, job.message_id, text, markup,
                    query=job.query, delete=job.delete, timeout=timeout,
                )  # fmt: skip
                if sent is not None and sent.ephemeral_message_id and text is not None:
                    remember(chat.shown, sent.ephemeral_message_id, seen(text, markup))
                return sent
            if job.delete:
                assert job.message_id is not None
                target = self._target(chat, job.message_id)
                chat.shown.pop(target, None)
                await self.bot(DeleteMessage(chat_id=chat.id, message_id=target), timeout)
                return None
            if job.message_id is None:
                assert text is not None, "a new message needs a text"
                quoted = None
                if job.reply_to is not None:
                    quoted = ReplyParameters(
                        message_id=job.reply_to, allow_sending_without_reply=True
                    )
                send = SendText(
                    chat_id=chat.id, text=text, reply_markup=markup,
                    message_thread_id=job.thread_id, reply_parameters=quoted,
                )  # fmt: skip
                posted = await self.bot(send, request_timeout=timeout)
                remember(chat.shown, posted.message_id, seen(text, markup))
                chat.moved.pop(posted.message_id, None)  # that id is a live message now
                return posted
            target = self._target(chat, job.message_id)
            chat.shown.pop(target, None)  # unknown until Telegram answers
            if text is None:
                edit: EditKeyboard | EditText = EditKeyboard(
                    chat_id=chat.id, message_id=target, reply_markup=markup
                )
            else:
                edit = EditText(chat_id=chat.id, message_id=target, text=text, reply_markup=markup)
            result = await self.bot(edit, request_timeout=timeout)
            if text is not None:
                remember(chat.shown, target, seen(text, markup))
            return result if isinstance(result, Posted) else None
        finally:
            self._spent(chat)

    async def _replace(
        self, chat: ChatQueue, job: Job, text: str, markup: Keyboard | None
    ) -> Posted | None:
        """The message can no longer be edited: send a new one and remember it."""
        assert job.message_id is not None
        old = self._target(chat, job.message_id)
        new = await self._run(chat, Job(chat.id, None, text, markup))
        if new is None:
            return None
        if old != new.message_id:
            remember(chat.moved, old, new.message_id)
        return new
