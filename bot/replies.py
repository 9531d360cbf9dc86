"""A press's answer given in the webhook's reply, not by a call of its own.

Telegram carries out one Bot API call named in a webhook's answer (its result is not
told). Where updates come by webhook (``bot.webhook``), the answer to the update's own
press rides there: the session (``bot.session``) hands it to the update's ``Reply``
instead of calling. That spares a call per press, and the answer reaches the player
only with the 200 that ends the update: if the process dies before it, Telegram sends
the update again, and it is answered then. Where updates come by polling there is no
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
        """Whether the call is this reply's: an answer to its press while the request
        waits. The first rides the reply; a later one is dropped, as Telegram refuses
        a second answer (made as a call, it would overtake the first)."""
        if (
            not self._open
            or not isinstance(method, AnswerCallbackQuery)
            or method.callback_query_id != self.query_id
        ):
            return False
        if not self.given.done():
            self.given.set_result(method)
        return True

    def close(self) -> AnswerCallbackQuery | None:
        """The answer given, if any; the calls after this are made."""
        self._open = False
        return self.given.result() if self.given.done() else None


def body(answer: AnswerCallbackQuery) -> dict[str, Any]:
    """The webhook's answer that makes Telegram carry out the call."""
    return {"method": answer.__api_method__, **answer.model_dump(exclude_none=True)}


# The update's reply, set by ``bot.webhook`` for its handling (its task and what that
# awaits), read by the session. A task started from a handler inherits it; it takes
# nothing but the press's own first answer.
REPLY: ContextVar[Reply | None] = ContextVar("durak_reply", default=None)
