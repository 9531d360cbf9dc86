"""The calls to Telegram made outside the outbox (which paces and retries its own): each
is one failed call at worst, never a lost reply or a stopped process.

A bad answer is a failed call already (``bot.session.BadAnswer``); here each of these
calls gets a time limit per try, and those worth it more tries: a press's answer
(the player waits for it; one that cannot be given is assumed given, and the press
stays handled), and what the start needs (``getMe``, the webhook). The others fail at
once and their callers assume them away: no ephemeral hands for now (the probe, asked
again later), no admin (``getChatMember``), no command menu (``setMyCommands``).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from aiogram.exceptions import (
    TelegramAPIError,
    TelegramBadRequest,
    TelegramNetworkError,
    TelegramServerError,
)
from aiogram.methods import (
    AnswerCallbackQuery,
    DeleteWebhook,
    GetChatMember,
    GetMe,
    SetMyCommands,
    SetWebhook,
    TelegramMethod,
)

from .outbox_jobs import why

log = logging.getLogger(__name__)

BACKOFF = (0.3, 1.0, 3.0)  # seconds before the second, third, fourth try
TOO_OLD = "query is too old"  # a press's answer that came too late, or a second one


@dataclass(frozen=True)
class Policy:
    tries: int
    limit: float  # seconds one try may take
    assumed: bool = False  # the last try failed: the call is taken as made (its result True)


POLICIES: dict[type[TelegramMethod[Any]], Policy] = {
    AnswerCallbackQuery: Policy(3, 4.0, assumed=True),  # Telegram waits 15 s for it
    GetMe: Policy(4, 10.0),
    SetWebhook: Policy(4, 10.0),
    DeleteWebhook: Policy(4, 10.0),
    SetMyCommands: Policy(1, 10.0),
    GetChatMember: Policy(1, 5.0),
}


async def patiently(method: TelegramMethod[Any], attempt: Callable[[], Awaitable[Any]]) -> Any:
    """The call (each ``attempt`` one try) as ``POLICIES`` says; the rest as it is."""
    policy = POLICIES.get(type(method))
    if policy is None:
        return await attempt()
    error: TelegramAPIError | None = None
    for tried in range(policy.tries):
        if tried:
            await asyncio.sleep(BACKOFF[min(tried, len(BACKOFF)) - 1])
        try:
            async with asyncio.timeout(policy.limit):
                return await attempt()
        except TimeoutError:
            error = TelegramNetworkError(method, f"no answer within {policy.limit:.0f} s")
        except (TelegramNetworkError, TelegramServerError) as e:
            error = e
        except TelegramBadRequest as e:
            if not (isinstance(method, AnswerCallbackQuery) and TOO_OLD in e.message):
                raise
            if error is None:  # too late: the player saw the button spin out
                log.info("a press was answered too late: %s", why(e))
            return True  # (after a failed try: that one reached Telegram)
    assert error is not None
    if policy.assumed:
        log.warning(
            "%s failed %s times, taken as made: %s",
            method.__api_method__, policy.tries, why(error),
        )  # fmt: skip
        return True
    raise error  # (its caller logs it, and goes on without)
