"""A cable between the bot and the database server that a test can cut and mend."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from urllib.parse import urlsplit, urlunsplit


class Cable:
    """A TCP connection's stand-in between the bot and the database server, which the
    test can cut (every connection reset, new ones refused) and mend."""

    def __init__(self, host: str, port: int) -> None:
        self.host, self.port = host, port
        self.up = True
        self._open: set[asyncio.StreamWriter] = set()
        self._server: asyncio.Server | None = None

    async def start(self) -> int:
        self._server = await asyncio.start_server(self._client, "127.0.0.1", 0)
        return int(self._server.sockets[0].getsockname()[1])

    async def close(self) -> None:
        self.cut()
        if self._server is not None:
            self._server.close()
            await self._server.wait_closed()

    def cut(self) -> None:
        self.up = False
        for writer in list(self._open):
            writer.transport.abort()
        self._open.clear()

    def mend(self) -> None:
        self.up = True

    async def _client(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        if not self.up:
            writer.transport.abort()
            return
        try:
            up_reader, up_writer = await asyncio.open_connection(self.host, self.port)
        except OSError:
            writer.transport.abort()
            return
        self._open |= {writer, up_writer}
        await asyncio.gather(
            self._pipe(reader, up_writer), self._pipe(up_reader, writer), return_exceptions=True
        )
        for w in (writer, up_writer):
            self._open.discard(w)
            w.transport.abort()

    @staticmethod
    async def _pipe(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        """One way, until that side closes: then the other way's end closes too."""
        try:
            with contextlib.suppress(OSError):
                while data := await reader.read(65536):
                    writer.write(data)
                    await writer.drain()
        finally:
            writer.close()


@asynccontextmanager
async def through_a_cable(url: str) -> AsyncIterator[tuple[Cable, str]]:
    """The database's URL through a cable: the cable, and the URL to give the bot."""
    parts = urlsplit(url)
    cable = Cable(parts.hostname or "127.0.0.1", parts.port or 5432)
    port = await cable.start()
    auth = parts.netloc.rpartition("@")[0]
    try:
        yield cable, urlunsplit(parts._replace(netloc=f"{auth}@127.0.0.1:{port}"))
    finally:
        await cable.close()
