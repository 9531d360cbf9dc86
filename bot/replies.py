"""A press's answer given in the webhook's reply, not by a call of its own.

Telegram carries out one Bot API call named in a webhook's answer (its result is not
told). Where updates come by webhook (``bot.webhook``), the answer to the update's own
press rides there: the session (``bot.session``) hands it to the update's ``Reply``
instead of calling. That spares a call per press, and the answer still reaches the
player only with the 200 that ends the update (a process that dies before it leaves the
update to be sent again and answered then). Where updates come by polling there is no
``Reply``, and the answer is a call as any other.
"""

from __future__ import annotations

import asyncio
from contextvars import ContextVar
from typing import Any

from aiogram.methods import AnswerCallbackQuery, TelegramMethod


class Reply:
    """The webhook's answer to one update with a press (``query_id``), while its
    request waits."""

    def __init__(self, query_id: str) -> None:
        self.query_id = query_id
        self.given: asyncio.Future[AnswerCallbackQuery] = asyncio.Future()
        self._open = True

    def take(self, method: TelegramMethod[Any]) -> bool:
        """Whether the call rides this reply: the press's first answer, while the
        request waits."""
        if (
            not self._open
            or self.given.done()
            or not isinstance(method, AnswerCallbackQuery)
            or method.callback_query_id != self.query_id
        ):
            return False
        self.given.set_result(method)
        return True

    def close(self) -> dict[str, Any]:
        """The webhook's answer (the call given, if any); the calls after it are made."""
        self._open = False
        if not self.given.done():
            return {}
        method = self.given.result()
        return {"method": method.__api_method__, **method.model_dump(exclude_none=True)}


# The update's reply, set by ``bot.webhook`` for its handling (its task and what that
# awaits), read by the session. A task started from a handler inherits it; it takes
# nothing but the press's own first answer.
REPLY: ContextVar[Reply | None] = ContextVar("durak_reply", default=None)
