"""The operators' endpoints: ``/metrics`` (Prometheus), ``/healthz`` (the process is
alive: always 200) and ``/readyz`` (200 when it is started and the database answers a
trivial query within ``READY_WAIT`` seconds; 503 with the reason otherwise).

They are routes of the bot's web server (``bot.web``).
"""

from __future__ import annotations

import asyncio
import logging
from enum import StrEnum

from aiohttp import web
from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, generate_latest

from storage.db import Database

log = logging.getLogger(__name__)

READY_WAIT = 1.0  # seconds the database has to answer ``/readyz``'s query


class Phase(StrEnum):
    STARTING = "starting"
    RUNNING = "running"
    STOPPING = "stopping"


class Health:
    """The endpoints' answers; the app says when it has started and when it stops."""

    def __init__(self, db: Database, registry: CollectorRegistry) -> None:
        self.db = db
        self.registry = registry
        self.phase = Phase.STARTING

    def started(self) -> None:
        self.phase = Phase.RUNNING

    def stopping(self) -> None:
        self.phase = Phase.STOPPING

    def add_routes(self, server: web.Application) -> None:
        server.router.add_get("/metrics", self.metrics)
        server.router.add_get("/healthz", self.healthz)
        server.router.add_get("/readyz", self.readyz)

    async def metrics(self, _request: web.Request) -> web.Response:
        body = generate_latest(self.registry)  # (a few dozen series: about 1 ms)
        return web.Response(body=body, headers={"Content-Type": CONTENT_TYPE_LATEST})

    async def healthz(self, _request: web.Request) -> web.Response:
        return web.Response(text="ok\n")

    async def readyz(self, _request: web.Request) -> web.Response:
        reason = await self.unready()
        if reason is None:
            return web.Response(text="ready\n")
        return web.Response(text=f"{reason}\n", status=503)

    async def unready(self) -> str | None:
        """Why the process should get no traffic now; None: it may."""
        if self.phase is not Phase.RUNNING:
            return self.phase.value
        try:
            async with asyncio.timeout(READY_WAIT):
                await self.db.fetch_one("SELECT 1")
        except TimeoutError:
            return f"database: no answer within {READY_WAIT:.0f} s"
        except Exception as e:  # (closed, refused, reset: its kind is enough, and safe)
            return f"database: {type(e).__name__}"
        return None
