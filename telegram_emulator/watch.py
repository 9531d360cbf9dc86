"""Looking at the fake server's state and waiting for it to change; mixed into
:class:`FakeTelegram` (on top of the users and chats of :class:`UserActions`)."""

from __future__ import annotations

import asyncio
import inspect
import time
from collections.abc import Callable
from contextlib import suppress
from typing import Any

from telegram_emulator.model import Call, ChatRef, FakeMessage, PressHandle
from telegram_emulator.users import UserActions


class Watching(UserActions):
    calls: list[Call]
    _pending: list[dict[str, Any]]
    _changed: asyncio.Event | None
    api_get_my_commands: Callable[[dict[str, Any]], list[dict[str, Any]]]

    # --- looking at the state --------------------------------------------------

    def messages(self, chat: ChatRef, *, include_deleted: bool = False) -> list[FakeMessage]:
        return [m for m in self.chat(chat).all_messages if include_deleted or not m.deleted]

    def latest_message(self, chat: ChatRef, *, from_bot: bool | None = True) -> FakeMessage | None:
        """The newest message (by default the newest one the bot sent)."""
        for message in reversed(self.messages(chat)):
            if from_bot is None or (message.from_user is self.bot_user) == from_bot:
                return message
        return None

    def keyboard(self, message: FakeMessage) -> list[list[tuple[str, str | None]]]:
        return message.keyboard

    def calls_to(
        self, method: str | None = None, chat: ChatRef | None = None, *, status: int | None = None
    ) -> list[Call]:
        chat_id = None if chat is None else self._chat_id(chat)
        return [
            call
            for call in self.calls
            if (method is None or call.method == method)
            and (chat_id is None or call.chat_id == chat_id)
            and (status is None or call.status == status)
        ]

    def count(
        self, method: str | None = None, chat: ChatRef | None = None, *, status: int | None = None
    ) -> int:
        return len(self.calls_to(method, chat, status=status))

    @property
    def too_many_requests_sent(self) -> int:
        """All 429 answers: injected ones and those from enforced rate limits."""
        return self.count(status=429)

    @property
    def pending_updates(self) -> list[dict[str, Any]]:
        """Queued updates the bot has not confirmed yet (by a later ``offset``)."""
        return list(self._pending)

    def unanswered_callbacks(self) -> list[PressHandle]:
        return [h for h in self.callbacks.values() if not h.answered]

    def commands(
        self, scope: dict[str, Any] | None = None, language_code: str = ""
    ) -> list[dict[str, Any]]:
        return self.api_get_my_commands({"scope": scope, "language_code": language_code})

    # --- waiting ---------------------------------------------------------------

    async def wait_for(
        self, predicate: Callable[[], Any], timeout: float = 5.0, *, what: str = ""
    ) -> Any:
        """Wait until ``predicate()`` (sync or async) is truthy and return its value."""
        assert self._changed is not None, "server not started"
        deadline = time.monotonic() + timeout
        while True:
            self._changed.clear()
            value = predicate()
            if inspect.isawaitable(value):
                value = await value
            if value:
                return value
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                recent = [
                    (c.method, c.chat_id, c.status) for c in self.calls if c.method != "getUpdates"
                ][-8:]
                raise AssertionError(
                    f"timed out after {timeout}s waiting for {what or predicate}; "
                    f"recent calls: {recent}"
                )
            with suppress(TimeoutError):
                await asyncio.wait_for(self._changed.wait(), min(remaining, 0.02))

    async def wait_for_message(
        self,
        chat: ChatRef,
        predicate: Callable[[FakeMessage], Any] | None = None,
        timeout: float = 5.0,
    ) -> FakeMessage:
        """The newest bot message in ``chat`` satisfying ``predicate`` (any if None)."""

        def find() -> FakeMessage | None:
            for message in reversed(self.messages(chat)):
                if message.from_user is self.bot_user and (predicate is None or predicate(message)):
                    return message
            return None

        result: FakeMessage = await self.wait_for(find, timeout, what=f"a message in {chat}")
        return result

    async def wait_for_call(
        self, method: str, chat: ChatRef | None = None, *, count: int = 1, timeout: float = 5.0
    ) -> Call:
        """The ``count``-th finished call to ``method`` (in ``chat``)."""

        def find() -> Call | None:
            done = [c for c in self.calls_to(method, chat) if c.status]
            return done[count - 1] if len(done) >= count else None

        result: Call = await self.wait_for(find, timeout, what=f"{count} x {method}")
        return result

    async def wait_quiet(self, quiet: float = 0.1, timeout: float = 5.0) -> None:
        """Wait until all updates are confirmed and no call came for ``quiet`` seconds."""

        def idle() -> bool:
            busy = [c for c in self.calls if c.method != "getUpdates"]
            last = max((c.time for c in busy), default=0.0)
            unfinished = any(c.status == 0 for c in busy)
            return not self._pending and not unfinished and time.monotonic() - last >= quiet

        await self.wait_for(idle, timeout, what="the bot to go quiet")
