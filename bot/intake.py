"""What every update passes once on its way in: the dispatcher's one outer middleware.

An update is counted by kind, and a press's arrival noted for the timing of its answer
(``bot.traffic``); held in hand while it is handled, so that a shutdown lets it finish
(``bot.inflight``); and acted on once, however often Telegram sends it (``bot.once``).
The ids of the table and game an update is about are put in its log lines further in,
where they are known (the hand's and the lobby's middlewares; ``bot.logs.ChatScope``).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from aiogram import BaseMiddleware
from aiogram.types import TelegramObject, Update

from storage.handling import AlreadyHandled

from .inflight import InFlight
from .once import Once
from .traffic import Arrivals

Handler = Callable[[TelegramObject, dict[str, Any]], Awaitable[Any]]


class Intake(BaseMiddleware):
    def __init__(self, arrivals: Arrivals, in_flight: InFlight, once: Once) -> None:
        self.arrivals, self.in_flight, self.once = arrivals, in_flight, once

    async def __call__(self, handler: Handler, event: TelegramObject, data: dict[str, Any]) -> Any:
        assert isinstance(event, Update)
        handled = self.once.handled(event, data)
        with self.arrivals.came(event), self.in_flight:
            if await self.once.seen(event.update_id):
                return await self.once.again(event, handled)
            try:
                with self.once.handling(handled):
                    return await handler(event, data)
            except AlreadyHandled:
                return await self.once.again(event, handled)
