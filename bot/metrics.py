"""What a process tells Prometheus: ``/metrics`` (``bot.health`` serves it).

Each ``App`` has a registry of its own (tests run several in one process). Two kinds of
metric are in it. What happens on the way in and out is counted where it passes
(``bot.traffic``: updates, calls, the answers to presses). What the process holds is
read from its owners when Prometheus asks (``Readings``): moves committed, the outbox's
queue and its 429s, games in memory, the computer players' queue, the updates in hand,
whether this process shows the games.
"""

from __future__ import annotations

from collections.abc import Iterable

from prometheus_client import CollectorRegistry
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric
from prometheus_client.registry import Collector

from service import GameService, LiveGames
from service.thinking import Thinker

from .delivery import Delivery
from .inflight import InFlight
from .outbox import Outbox


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
