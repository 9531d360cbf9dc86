"""What the outbox queues and remembers (``bot.outbox``): a job (one call to make), a
chat's queue with its pacing and memory, and the pure helpers about replies."""

from __future__ import annotations

import asyncio
import hashlib
import re
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TypeVar

from aiogram.exceptions import (
    ClientDecodeError,
    TelegramAPIError,
    TelegramNetworkError,
    TelegramServerError,
)
from aiogram.methods import AnswerCallbackQuery, GetChatMember, GetUpdates, Response

from .keyboard import Keyboard
from .outgoing import EditKeyboard, EditText, Posted, SendText

Rendered = tuple[str, Keyboard | None]
Render = Callable[[], Rendered | None]  # None: nothing to show (any more)
Blocked = Callable[[int], Awaitable[None]]  # a private chat whose user blocked the bot
MEMORY = 16  # messages per chat whose content is remembered
TOKEN_IN_URL = re.compile(r"/bot[^/\s]+/")
T = TypeVar("T")
# Worth another try: the call may not have reached Telegram, or Telegram had a hiccup.
TRANSIENT = (TelegramNetworkError, TelegramServerError, ClientDecodeError, TimeoutError, OSError)

# aiogram reads every reply into ``Response[<the method's result type>]``; pydantic keeps
# such classes only weakly, so a garbage collection drops them and the next reply builds
# one again (3-4 ms each: a quarter of the bot's CPU under load). Keep the busy ones.
_RESPONSES = tuple(
    Response[m.__returning__]  # type: ignore[name-defined]
    for m in (SendText, EditText, EditKeyboard, AnswerCallbackQuery, GetUpdates, GetChatMember)
)  # fmt: skip


@dataclass(eq=False)
class Job:
    chat_id: int
    message_id: int | None  # None: send a new message
    text: str | None  # None with no render: edit the keyboard only
    markup: Keyboard | None
    render: Render | None = None
    thread_id: int | None = None  # a new message: into this topic of a forum
    reply_to: int | None = None  # a new message: as a reply to this one
    delete: bool = False  # delete the message instead
    receiver: int | None = None  # an ephemeral message to this member of the group
    query: str | None = None  # a new ephemeral message: the press it answers
    done: asyncio.Future[Posted | None] = field(default_factory=asyncio.Future)

    def content(self) -> tuple[str | None, Keyboard | None] | None:
        if self.render is None:
            return self.text, self.markup
        return self.render()


@dataclass(eq=False)
class ChatQueue:
    """A chat's queue, pacing and memory of what its messages show."""

    id: int
    receiver: int | None = None  # the queue of the ephemeral messages to this member
    queue: deque[Job] = field(default_factory=deque)
    wake: asyncio.Event = field(default_factory=asyncio.Event)
    worker: asyncio.Task[None] | None = None
    next: float = 0.0  # the token bucket's theoretical arrival time
    group_next: float = 0.0  # a group: when its next call may start
    hold: float = 0.0  # a 429's retry_after: no call before this
    shown: dict[int, bytes] = field(default_factory=dict)  # message id -> seen(its content)
    moved: dict[int, int] = field(default_factory=dict)  # lost message id -> its successor

    @property
    def key(self) -> int | tuple[int, int]:
        return self.id if self.receiver is None else (self.id, self.receiver)


def seen(text: str | None, markup: Keyboard | None) -> bytes:
    """What a message shows, as a 16-byte digest: no work for the garbage collector,
    unlike a kept keyboard (a few dozen objects that would live into its oldest generation
    and make its full collections, which stop the loop, come more often), and small: a
    chat remembers ``MEMORY`` messages, a private one a hand per game, and the hand's text
    and keys took ~560 bytes (at 1,000 tables up to 27 MB once every chat had 16)."""
    rows = markup.rows if markup else ()
    keys = "\x1e".join("\x1d".join(f"{b.text}\x1f{b.data}" for b in row) for row in rows)
    return hashlib.blake2b(f"{text}\x1c{keys}".encode(), digest_size=16).digest()


def remember(memory: dict[int, T], message_id: int, value: T) -> None:
    """Note what a message shows (or where it went); a chat keeps its last few."""
    memory.pop(message_id, None)
    memory[message_id] = value
    while len(memory) > MEMORY:
        del memory[next(iter(memory))]


def gone_message(description: str) -> bool:
    return any(
        s in description
        for s in ("message to edit not found", "message can't be edited", "MESSAGE_ID_INVALID")
    )


def why(error: Exception) -> str:
    """The error in a few words; never the bot's token (an aiohttp error names the URL,
    which carries it, also inside aiogram's TelegramNetworkError)."""
    text = (
        error.message if isinstance(error, TelegramAPIError) else f"{type(error).__name__}: {error}"
    )
    return TOKEN_IN_URL.sub("/bot<hidden>/", text)[:200]
