"""What passes in and out, counted for Prometheus (``bot.metrics`` says what else is
in a process's registry): every update as it comes in (``Arrivals``, for ``bot.intake``),
every try of a Bot API call (``Calls``, for ``bot.session``), and each press timed from
its update's arrival to its ``answerCallbackQuery``.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any

from aiogram.exceptions import TelegramBadRequest, TelegramRetryAfter
from aiogram.methods import AnswerCallbackQuery, TelegramMethod
from aiogram.types import Update
from prometheus_client import CollectorRegistry, Counter, Histogram

from .calls import TOO_OLD

# seconds from a press's update to its answer (Telegram gives up on it after 15)
ANSWER_BUCKETS = (0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 4.0, 8.0, 15.0)


@dataclass
class Press:
    """The press the current update carries: its query, when it came (monotonic)."""

    query_id: str
    came: float
    answered: bool = False


# Set by ``Arrivals`` for the update's handling (its task and what that awaits), read by
# ``Calls``. A task started from a handler inherits it: the query's id tells its own
# answer from a later one's.
_PRESS: ContextVar[Press | None] = ContextVar("durak_press", default=None)


class Arrivals:
    """Counts the updates by kind, and notes when a press came in."""

    def __init__(self, registry: CollectorRegistry) -> None:
        self.updates = Counter(
            "durak_updates",
            "Updates handled, by kind (callback_query: button presses; message: commands"
            " and other messages)",
            ["kind"],
            registry=registry,
        )

    @contextmanager
    def came(self, update: Update) -> Iterator[None]:
        """The update is handled inside (and counted once it is)."""
        query = update.callback_query
        token = _PRESS.set(Press(query.id, time.monotonic()) if query is not None else None)
        try:
            yield
        finally:
            _PRESS.reset(token)
            self.updates.labels(_kind(update)).inc()


def _kind(update: Update) -> str:
    try:
        return update.event_type
    except LookupError:  # (aiogram's UpdateTypeLookupError: a kind it does not know)
        return "other"


class Calls:
    """Counts the calls by method and result (each try: ``bot.session``), and times the
    answers to presses."""

    def __init__(self, registry: CollectorRegistry) -> None:
        self.calls = Counter(
            "durak_api_calls",
            "Bot API calls, by method and result (ok, 429, error; reply: given in a"
            " webhook's answer); each try counts",
            ["method", "result"],
            registry=registry,
        )
        self.answers = Histogram(
            "durak_press_answer_seconds",
            "Seconds from a press's update reaching the bot to its answerCallbackQuery",
            buckets=ANSWER_BUCKETS,
            registry=registry,
        )

    def made(self, method: TelegramMethod[Any], result: str = "ok") -> None:
        self.calls.labels(method.__api_method__, result).inc()
        self._answered(method)

    def failed(self, method: TelegramMethod[Any], error: BaseException) -> None:
        """(Any error: a timeout cancels the try.)"""
        result = "429" if isinstance(error, TelegramRetryAfter) else "error"
        self.calls.labels(method.__api_method__, result).inc()
        if isinstance(error, TelegramBadRequest) and TOO_OLD in error.message:
            self._answered(method)  # an answer too late (or a second one): timed too

    def _answered(self, method: TelegramMethod[Any]) -> None:
        press = _PRESS.get()
        if (
            isinstance(method, AnswerCallbackQuery)
            and press is not None
            and press.query_id == method.callback_query_id
            and not press.answered
        ):
            press.answered = True
            self.answers.observe(time.monotonic() - press.came)
