"""The Bot API's JSON calls over kept-alive HTTP/1.1 connections, with nothing else.

Every call the bot makes is a POST of a JSON body to one server, answered by a JSON
body. aiohttp's client does that through headers as multidicts, a cookie jar, trace
hooks, streams and a response object per call: about three quarters of the CPU a
call took (``bench.telegram_calls``: 212 µs of a call against 51 µs here). This client
writes the request's bytes itself and reads the answer's status and body: a length
given or chunks (RFC 9112), or up to the end of a connection the server closes.

Connections are kept per server (at most ``limit`` open at once) and reused while
the server keeps them; one a server closed, or left idle for ``IDLE`` seconds, is
not used again. A call is never sent twice: a connection that fails, times out or is
abandoned mid-answer is closed and the call raises ``HttpError`` (or ``TimeoutError``),
and the caller's policy (``bot.calls``, the outbox) decides about another try.
"""

from __future__ import annotations

import asyncio
import re
import ssl
from collections import deque
from typing import NamedTuple, Protocol

import certifi
from yarl import URL

IDLE = 15.0  # seconds a connection is kept unused (the server may close it sooner)
MAX_HEAD = 64 * 1024  # bytes of a status line and headers
MAX_BODY = 32 * 2**20  # bytes of an answer (the Bot API's are a few kB, getUpdates' more)
AGENT = b"durak-bot"
EYEBALLS = 0.25  # seconds before the next address of a host is tried too (as aiohttp)
CLOSING = 0.25  # seconds the connections have to close when the client does


class HttpError(Exception):
    """No answer: the connection failed or closed before it, or it was not HTTP."""


class Answer(NamedTuple):
    status: int
    body: bytes


class Origin(NamedTuple):
    host: str
    port: int
    tls: bool


class _Reading:
    """An answer being read: its status, then its body by length, chunks or to the end."""

    __slots__ = ("body", "chunk", "interim", "keep", "length", "status", "to_end", "trailers")

    def __init__(self, interim: int = 0) -> None:
        self.interim = interim  # interim answers (1xx) read before this one
        self.status = 0  # 0: the head is not read yet
        self.length: int | None = None  # bytes of the body (or of the chunk) still to come
        self.chunk = False  # the body comes in chunks
        self.trailers = False  # the last chunk came: its trailers are read
        self.to_end = False  # the body ends when the connection does
        self.keep = True
        self.body = bytearray()


STATUS = re.compile(rb"HTTP/1\.[01] ([1-5][0-9][0-9])(?: .*)?")
CHUNK_SIZE = re.compile(rb"[0-9a-fA-F]{1,8}")  # (a chunk under 4 GB)
MAX_INTERIM = 5  # interim answers (1xx) before the answer


def _head(head: bytes, r: _Reading) -> None:
    """Read the status line and the headers that say how the body comes."""
    lines = head.split(b"\r\n")
    status = STATUS.fullmatch(lines[0])
    if status is None:
        raise HttpError(f"not an HTTP answer: {lines[0][:60]!r}")
    r.status = int(status.group(1))
    r.keep = lines[0].startswith(b"HTTP/1.1")
    lengths = set()
    for line in lines[1:]:
        name, _, value = line.partition(b":")
        name, value = name.strip().lower(), value.strip().lower()
        if name == b"content-length":
            if not value.isdigit() or len(value) > 10:
                raise HttpError(f"bad Content-Length: {value[:20]!r}")
            lengths.add(int(value))
        elif name == b"transfer-encoding":
            r.chunk = value.endswith(b"chunked")
        elif name == b"connection":
            r.keep = r.keep and b"close" not in value
    if len(lengths) > 1:
        raise HttpError(f"Content-Length given as {sorted(lengths)}")
    length = lengths.pop() if lengths else None
    if r.status in (204, 304) or r.status < 200:
        r.length, r.chunk = 0, False  # (no body, whatever the headers say)
    elif r.chunk:
        r.keep = r.keep and length is None  # (both: not to be trusted for another call)
    elif length is not None:
        r.length = length
    else:
        r.to_end, r.keep = True, False
    if (r.length or 0) > MAX_BODY:
        raise HttpError(f"an answer of {r.length} bytes")


class _Connection(asyncio.Protocol):
    """One connection: one request at a time, its answer read as it comes."""

    def __init__(self) -> None:
        self.transport: asyncio.Transport | None = None
        self.closed = False  # closed, or closing: not to be used again
        self.idle_since = 0.0
        self.lost = asyncio.get_running_loop().create_future()  # (done when closed)
        self._by_us = False
        self._buffer = bytearray()
        self._reading: _Reading | None = None
        self._answer: asyncio.Future[Answer] | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport

    def data_received(self, data: bytes) -> None:
        self._buffer += data
        if self._reading is None:  # nothing asked: the server should have said nothing
            self.close()
            return
        try:
            self._read(self._reading)
        except Exception as e:  # (an answer no parser should take)
            self._fail(e if isinstance(e, HttpError) else HttpError(f"bad answer: {e!r}"))

    def eof_received(self) -> bool:
        reading = self._reading
        if reading is not None and reading.to_end and reading.status:
            self._done(reading)
        self.closed = True
        return False  # (the transport closes itself)

    def connection_lost(self, exc: Exception | None) -> None:
        self.closed = True
        if not self.lost.done():
            self.lost.set_result(None)
        r = self._reading
        if not self._by_us and exc is None and r is not None and r.to_end and r.status:
            self._done(r)  # (the end of the body, where no eof came first: TLS)
            return
        by = "the client" if self._by_us else exc or "the server"
        self._fail(HttpError(f"the connection closed before the answer: by {by}"))

    async def exchange(self, request: bytes) -> Answer:
        """Send ``request`` and wait for its whole answer."""
        assert self.transport is not None and self._reading is None
        if self.closed or self.transport.is_closing():
            raise HttpError("the connection closed before the call")
        self._reading = _Reading()
        answer: asyncio.Future[Answer] = asyncio.get_running_loop().create_future()
        self._answer = answer
        self.transport.write(request)
        return await answer

    def close(self) -> None:
        self.closed = self._by_us = True
        if self.transport is not None:
            self.transport.close()

    def _read(self, r: _Reading) -> None:
        buffer = self._buffer
        while not r.status:
            end = buffer.find(b"\r\n\r\n")
            if end > MAX_HEAD or (end < 0 and len(buffer) > MAX_HEAD):
                raise HttpError("an answer's head too long")
            if end < 0:
                return
            _head(bytes(buffer[:end]), r)
            del buffer[: end + 4]
            if r.status < 200:  # an interim answer: the real one follows
                if r.interim >= MAX_INTERIM:
                    raise HttpError(f"{r.interim + 1} interim answers")
                self._reading = r = _Reading(r.interim + 1)
        if r.to_end:
            r.body += buffer
            buffer.clear()
            if len(r.body) > MAX_BODY:
                raise HttpError("an answer too long")
            return
        while True:
            if r.trailers:  # after the last chunk: its trailers (usually none), a blank line
                found = -2 if buffer.startswith(b"\r\n") else buffer.find(b"\r\n\r\n")
                if found == -1:
                    if len(buffer) > MAX_HEAD:
                        raise HttpError("an answer's trailers too long")
                    return
                del buffer[: found + 4]
                self._done(r)
                return
            if r.length is None:  # (a chunk's size line)
                line = buffer.find(b"\r\n")
                if line < 0:
                    if len(buffer) > MAX_HEAD:
                        raise HttpError("a chunk's size line too long")
                    return
                size = bytes(buffer[:line]).split(b";")[0].strip()
                if CHUNK_SIZE.fullmatch(size) is None:
                    raise HttpError(f"bad chunk size: {size[:20]!r}")
                r.length = int(size, 16)
                del buffer[: line + 2]
                if r.length == 0:
                    r.trailers = True
                    continue
                if len(r.body) + r.length > MAX_BODY:
                    raise HttpError("an answer too long")
            need = r.length + (2 if r.chunk else 0)  # (a chunk ends with CRLF)
            if len(buffer) < need:
                return
            if r.chunk and buffer[r.length : need] != b"\r\n":
                raise HttpError("a chunk longer than its size")
            r.body += buffer[: r.length]
            del buffer[:need]
            if not r.chunk:
                self._done(r)
                return
            r.length = None

    def _done(self, r: _Reading) -> None:
        self._reading = None
        if not r.keep or self._buffer:  # (more than was asked for: not to be trusted)
            self.close()
        answer, self._answer = self._answer, None
        if answer is not None and not answer.done():
            answer.set_result(Answer(r.status, bytes(r.body)))

    def _fail(self, error: HttpError) -> None:
        self._reading = None
        self.close()
        answer, self._answer = self._answer, None
        if answer is not None and not answer.done():
            answer.set_exception(error)


class Poster(Protocol):
    """What posts a call's JSON body: ``HttpClient``, or a benchmark's other client.
    ``post`` raises ``HttpError`` or ``TimeoutError`` when there is no answer."""

    async def post(self, url: URL, body: bytes, timeout: float) -> Answer: ...

    async def close(self) -> None: ...


class HttpClient:
    """POSTs of JSON bodies, over at most ``limit`` connections at once (``tls``: the
    context for ``https`` URLs; by default certifi's authorities, as aiogram's)."""

    def __init__(self, limit: int = 100, tls: ssl.SSLContext | None = None) -> None:
        if limit < 1:
            raise ValueError(f"at least one connection, not {limit}")
        self._slots = asyncio.Semaphore(limit)
        self._tls = tls
        self._idle: dict[Origin, deque[_Connection]] = {}
        self._open: set[_Connection] = set()
        self._heads: dict[URL, tuple[Origin, bytes]] = {}
        self._closed = False

    async def post(self, url: URL, body: bytes, timeout: float) -> Answer:
        """The answer to ``body`` POSTed to ``url``; raises ``HttpError`` (or
        ``TimeoutError`` after ``timeout`` seconds, waiting for a connection included)
        when there is none."""
        origin, head = self._head(url)
        request = head + b"%d\r\n\r\n" % len(body) + body
        async with asyncio.timeout(timeout), self._slots:
            connection = self._reused(origin) or await self._connect(origin)
            try:
                answer = await connection.exchange(request)
            except BaseException:  # (cancelled, timed out: the answer may still come)
                connection.close()
                self._open.discard(connection)
                raise
        if connection.closed:
            self._open.discard(connection)
        else:
            connection.idle_since = asyncio.get_running_loop().time()
            self._idle.setdefault(origin, deque()).append(connection)
        return answer

    async def close(self) -> None:
        """Close every connection (a call under way fails), and wait a moment for them
        to close (a TLS one says goodbye)."""
        self._closed = True
        open_, self._open = self._open, set()
        self._idle.clear()
        for connection in open_:
            connection.close()
        if open_:
            await asyncio.wait([c.lost for c in open_], timeout=CLOSING)

    def _head(self, url: URL) -> tuple[Origin, bytes]:
        """The origin and the request's head up to its length, made once per URL."""
        known = self._heads.get(url)
        if known is None:
            if url.scheme not in ("http", "https") or not url.raw_host:
                raise HttpError(f"not an HTTP URL: {url.scheme}://{url.raw_host}")
            tls = url.scheme == "https"
            port = url.port or (443 if tls else 80)
            host = f"[{url.raw_host}]" if ":" in url.raw_host else url.raw_host  # (IPv6)
            host = host if url.is_default_port() else f"{host}:{port}"
            head = (
                f"POST {url.raw_path_qs} HTTP/1.1\r\nHost: {host}\r\n".encode()
                + b"User-Agent: " + AGENT + b"\r\nContent-Type: application/json\r\n"
                + b"Content-Length: "
            )  # fmt: skip
            known = self._heads[url] = (Origin(url.raw_host, port, tls), head)
        return known

    def _reused(self, origin: Origin) -> _Connection | None:
        """The connection used last that is still open; those idle too long are closed."""
        idle = self._idle.get(origin)
        if not idle:
            return None
        now = asyncio.get_running_loop().time()
        while idle and (idle[0].closed or now - idle[0].idle_since > IDLE):  # the oldest
            self._drop(idle.popleft())
        while idle:
            connection = idle.pop()
            if not connection.closed:
                return connection
            self._drop(connection)
        return None

    def _drop(self, connection: _Connection) -> None:
        connection.close()
        self._open.discard(connection)

    async def _connect(self, origin: Origin) -> _Connection:
        if self._closed:
            raise HttpError("the client is closed")
        loop = asyncio.get_running_loop()
        tls = None
        if origin.tls:
            tls = self._tls = self._tls or ssl.create_default_context(cafile=certifi.where())
        try:
            _, connection = await loop.create_connection(
                _Connection,
                origin.host,
                origin.port,
                ssl=tls,
                server_hostname=origin.host if tls else None,
                happy_eyeballs_delay=EYEBALLS,  # (an address that does not answer: the next)
                interleave=1,
            )
        except (OSError, ssl.SSLError, ValueError) as e:  # (ValueError: a host not to encode)
            raise HttpError(f"cannot connect to {origin.host}:{origin.port}: {e}") from e
        if self._closed:  # (closed while connecting)
            connection.close()
            raise HttpError("the client is closed")
        self._open.add(connection)
        return connection
