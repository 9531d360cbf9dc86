"""The handlers' own filters, all coroutines: where a message comes from, what it says,
whose presses a router takes.

aiogram runs a filter that is not a coroutine in a thread (``asyncio.to_thread``) at
each check, and a magic filter (``F.chat.type == "private"``) is a plain callable: a
text said in a group took a dozen such trips on its way through the commands'
handlers. ``Magic`` resolves the same magic filter in place.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from aiogram import F
from aiogram.filters import Filter
from aiogram.filters.callback_data import CallbackData
from aiogram.types import CallbackQuery, TelegramObject
from aiogram.utils.magic_filter import MagicFilter


class Magic(Filter):
    """A magic filter, awaited where it is checked."""

    def __init__(self, magic: MagicFilter) -> None:
        self.magic = magic

    async def __call__(self, event: TelegramObject) -> Any:
        return self.magic.resolve(event)


PRIVATE = Magic(F.chat.type == "private")
GROUPS = Magic(F.chat.type.in_({"group", "supergroup"}))
MIGRATED = Magic(F.migrate_to_chat_id)


def said(*words: str) -> Magic:
    """A text that is one of ``words``, in any case."""
    return Magic(F.text.lower().in_({word.lower() for word in words}))


def presses_of(*kinds: type[CallbackData]) -> Callable[[CallbackQuery], Awaitable[bool]]:
    """A router's filter: the press's data is of one of ``kinds`` by its prefix, so that
    a press of another kind passes the router without being unpacked by each of its
    handlers' filters in turn (40 µs for the lobby's eleven)."""
    heads = tuple(f"{kind.__prefix__}{kind.__separator__}" for kind in kinds)

    async def of(query: CallbackQuery) -> bool:
        return query.data is not None and query.data.startswith(heads)

    return of
