"""The bot's web server: the one place its aiohttp application is built, from the route
sets it serves (the operators' endpoints, the Mini App; the webhook adds its route).

It is served on the webhook's server (``bot.webhook.listening``), and on a server of its
own when ``DURAK_METRICS_PORT`` is set (``Site``: a polling bot has no other).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Protocol

from aiohttp import web

log = logging.getLogger(__name__)


class Routes(Protocol):
    def add_routes(self, server: web.Application) -> None: ...


def application(parts: Sequence[Routes]) -> web.Application:
    """A server with every part's routes."""
    server = web.Application()
    for part in parts:
        part.add_routes(server)
    return server


class Site:
    """``parts`` served at ``address`` (port 0: any free one) between ``open`` and
    ``close``."""

    def __init__(self, parts: Sequence[Routes], address: tuple[str, int]) -> None:
        self.parts = parts
        self.address = address
        self.port: int | None = None  # where it serves, once open
        self._runner: web.AppRunner | None = None

    async def open(self) -> None:
        host, port = self.address
        self._runner = web.AppRunner(application(self.parts), access_log=None)
        await self._runner.setup()
        await web.TCPSite(self._runner, host, port).start()
        self.port = int(self._runner.addresses[0][1])
        log.info("web server on %s:%s", host, self.port)

    async def close(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None
