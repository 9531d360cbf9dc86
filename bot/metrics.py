"""What a process tells Prometheus: ``/metrics`` (``bot.health`` serves it).

Each ``App`` has a registry of its own (tests run several in one process). Two kinds of
metric are in it. What happens on the way in and out is counted where it passes: every
update by the first outer middleware (``Arrivals``), every Bot API call by a session
middleware (``Calls``), which also times each press from its update's arrival to its
``answerCallbackQuery``. What the process holds is read from its owners when Prometheus
asks (``Readings``): moves committed, the outbox's queue and its 429s, games in memory,
the computer players' queue, the updates in hand, whether this process shows the games.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable, Iterable
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any

from aiogram import BaseMiddleware, Bot
from aiogram.client.session.middlewares.base import (
    BaseRequestMiddleware,
    NextRequestMiddlewareType,
)
from aiogram.exceptions import TelegramBadRequest, TelegramRetryAfter
from aiogram.methods import AnswerCallbackQuery, TelegramMethod
from aiogram.types import TelegramObject, Update
from prometheus_client import CollectorRegistry, Counter, Histogram
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric
from prometheus_client.registry import Collector

from service import GameService, LiveGames
from service.thinking import Thinker

from .calls import TOO_OLD
from .delivery import Delivery
from .inflight import InFlight
from .outbox import Outbox

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


class Arrivals(BaseMiddleware):
    """The dispatcher's first outer middleware: counts the updates by kind, and notes
    when a press came in."""

    def __init__(self, registry: CollectorRegistry) -> None:
        self.updates = Counter(
            "durak_updates",
            "Updates handled, by kind (callback_query: button presses; message: commands"
            " and other messages)",
            ["kind"],
            registry=registry,
        )

    async def __call__(
        self,
        handler: Callable[[TelegramObject, dict[str, Any]], Awaitable[Any]],
        event: TelegramObject,
        data: dict[str, Any],
    ) -> Any:
        query = event.callback_query if isinstance(event, Update) else None
        token = _PRESS.set(Press(query.id, time.monotonic()) if query is not None else None)
        try:
            return await handler(event, data)
        finally:
            _PRESS.reset(token)
            self.updates.labels(_kind(event)).inc()


def _kind(event: TelegramObject) -> str:
    if not isinstance(event, Update):
        return "other"
    try:
        return event.event_type
    except LookupError:  # (aiogram's UpdateTypeLookupError: a kind it does not know)
        return "other"


class Calls(BaseRequestMiddleware):
    """A session middleware (inside ``bot.calls.Patience``: each try is a call): counts
    the calls by method and result, and times the answers to presses."""

    def __init__(self, registry: CollectorRegistry) -> None:
        self.calls = Counter(
            "durak_api_calls",
            "Bot API calls, by method and result (ok, 429, error); each try counts",
            ["method", "result"],
            registry=registry,
        )
        self.answers = Histogram(
            "durak_press_answer_seconds",
            "Seconds from a press's update reaching the bot to its answerCallbackQuery",
            buckets=ANSWER_BUCKETS,
            registry=registry,
        )

    async def __call__(
        self,
        make_request: NextRequestMiddlewareType[Any],
        bot: Bot,
        method: TelegramMethod[Any],
    ) -> Any:
        name = method.__api_method__
        try:
            result = await make_request(bot, method)
        except TelegramRetryAfter:
            self.calls.labels(name, "429").inc()
            raise
        except TelegramBadRequest as e:
            self.calls.labels(name, "error").inc()
            if TOO_OLD in e.message:  # an answer too late (or a second one): timed too
                self._answered(method)
            raise
        except BaseException:  # (a timeout cancels the try)
            self.calls.labels(name, "error").inc()
            raise
        self.calls.labels(name, "ok").inc()
        self._answered(method)
        return result

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


class Readings(Collector):
    """What the process's owners hold, read when Prometheus asks (registered here)."""

    def __init__(
        self,
        registry: CollectorRegistry,
        *,
        service: GameService,
        games: LiveGames,
        outbox: Outbox,
        thinker: Thinker,
        inflight: InFlight,
        delivery: Delivery,
    ) -> None:
        self.service, self.games, self.outbox = service, games, outbox
        self.thinker, self.inflight, self.delivery = thinker, inflight, delivery
        registry.register(self)

    def collect(self) -> Iterable[Metric]:
        outbox, thinker = self.outbox, self.thinker
        yield _counter("durak_moves", "Moves committed by this process", self.service.moves)
        yield _gauge("durak_games_in_memory", "Games this process holds", len(self.games))
        yield _gauge("durak_updates_in_hand", "Updates being handled now", self.inflight.count)
        yield _gauge(
            "durak_showing",
            "Shards whose chats this process shows (holds their leases; one alone: all)",
            self.delivery.showing,
        )
        yield _gauge("durak_shards", "Shards the chats fall into", self.delivery.shards)
        yield _gauge("durak_outbox_queued", "Messages queued or being sent", outbox.pending)
        yield _gauge(
            "durak_outbox_chats", "Chats with an outbox worker (kept a few quiet seconds)",
            outbox.workers,
        )  # fmt: skip
        yield _counter("durak_outbox_429", "429s the outbox got (each waited out)", outbox.retries)
        yield _counter(
            "durak_outbox_failures",
            "Outbox calls that failed otherwise (retried, or dropped after the last try)",
            outbox.failures,
        )
        yield _counter(
            "durak_outbox_skipped", "Edits not sent: the chat already showed that", outbox.skipped
        )
        yield _gauge(
            "durak_thinking_queued", "Computer players' decisions waiting for a worker",
            thinker.queued,
        )  # fmt: skip
        yield _gauge("durak_thinking_workers", "Worker processes for them", thinker.workers)
        yield _counter(
            "durak_thinking_replaced",
            "Times the workers were replaced (one died or hung)",
            thinker.replaced,
        )


def _counter(name: str, documentation: str, value: float) -> CounterMetricFamily:
    return CounterMetricFamily(name, documentation, value=value)


def _gauge(name: str, documentation: str, value: float) -> GaugeMetricFamily:
    return GaugeMetricFamily(name, documentation, value=value)
