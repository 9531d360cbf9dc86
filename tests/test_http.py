"""bot.http: the Bot API's calls over kept-alive connections, against real servers on
this machine: aiohttp's (as the Bot API emulator), and raw sockets that answer as a
server or a proxy may (chunks, to the end of the connection, closed early, not HTTP),
and a TLS one with a certificate made for the test."""

from __future__ import annotations

import asyncio
import json
import ssl
import subprocess
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path

import pytest
from aiohttp import web
from yarl import URL

from bot import http
from bot.http import Answer, HttpClient, HttpError


class Raw:
    """A server on a socket that answers each request as ``answer`` says; it counts the
    connections made to it and keeps the requests' bodies."""

    def __init__(
        self,
        answer: Callable[[bytes], list[bytes]],
        *,
        close: bool = False,
        before: Callable[[bytes], Awaitable[None]] | None = None,
    ) -> None:
        self.answer, self.close, self.before = answer, close, before
        self.connections = 0
        self.closed = 0  # connections the client closed
        self.bodies: list[bytes] = []
        self.answers: list[Answer] = []  # (what the client made of them)

    async def handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.connections += 1
        try:
            while True:
                head = await reader.readuntil(b"\r\n\r\n")
                length = next(
                    int(line.split(b":")[1])
                    for line in head.split(b"\r\n")
                    if line.lower().startswith(b"content-length:")
                )
                body = await reader.readexactly(length)
                self.bodies.append(body)
                if self.before is not None:
                    await self.before(body)
                for piece in self.answer(body):
                    writer.write(piece)
                    await writer.drain()
                if self.close:
                    break
        except (asyncio.IncompleteReadError, ConnectionError):
            self.closed += 1
        writer.close()


@asynccontextmanager
async def raw_server(raw: Raw) -> AsyncIterator[URL]:
    server = await asyncio.start_server(raw.handle, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    async with server:
        yield URL(f"http://127.0.0.1:{port}/bot1:x/sendMessage")
        await asyncio.sleep(0.05)  # (the handlers hear the client close its connections)


def by_length(body: bytes) -> list[bytes]:
    answer = b'{"ok":true,"result":' + body + b"}"
    return [b"HTTP/1.1 200 OK\r\nContent-Length: %d\r\n\r\n" % len(answer) + answer]


async def twice(answer: Callable[[bytes], list[bytes]], *, close: bool = False) -> Raw:
    """Two calls to a server that answers so; the server, with its count of connections."""
    raw = Raw(answer, close=close)
    client = HttpClient()
    async with raw_server(raw) as url:
        raw.answers = [await client.post(url, b"{}", 5) for _ in range(2)]
        await client.close()
    return raw


async def test_answers_come_by_length_over_one_kept_connection() -> None:
    raw = Raw(by_length)
    client = HttpClient()
    async with raw_server(raw) as url:
        for n in range(3):
            status, body = await client.post(url, b'{"n":%d}' % n, 5)
            assert status == 200
            assert json.loads(body) == {"ok": True, "result": {"n": n}}
        await client.close()
    assert raw.connections == 1
    assert raw.bodies == [b'{"n":0}', b'{"n":1}', b'{"n":2}']


async def test_a_chunked_answer_is_read_whole_however_it_is_cut() -> None:
    def chunked(body: bytes) -> list[bytes]:
        wire = (
            b"HTTP/1.1 429 Too Many Requests\r\nTransfer-Encoding: chunked\r\n\r\n"
            b'5;ext=1\r\n{"ok"\r\n'
            b'C\r\n:false,"x":1\r\n'
            b"1\r\n}\r\n"
            b"0\r\nX-Trailer: yes\r\n\r\n"
        )
        return [wire[i : i + 1] for i in range(len(wire))]  # byte by byte

    raw = await twice(chunked)
    assert raw.answers == [(429, b'{"ok":false,"x":1}')] * 2
    assert raw.connections == 1  # the chunks ended: the connection was kept


async def test_an_answer_without_a_length_ends_with_its_connection() -> None:
    wire = b"HTTP/1.0 502 Bad Gateway\r\n\r\n<html>bad gateway</html>"
    raw = await twice(lambda body: [wire], close=True)
    assert raw.answers == [(502, b"<html>bad gateway</html>")] * 2
    assert raw.connections == 2


async def test_a_connection_the_server_closes_is_not_used_again() -> None:
    def then_close(body: bytes) -> list[bytes]:
        return [b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}"]

    raw = Raw(then_close, close=True)
    client = HttpClient()
    async with raw_server(raw) as url:
        for _ in range(3):
            assert await client.post(url, b"{}", 5) == (200, b"{}")
            await asyncio.sleep(0.01)  # (the server's close reaches the client)
        await client.close()
    assert raw.connections == 3


async def test_a_connection_closed_while_idle_is_replaced() -> None:
    raw = Raw(by_length, close=True)  # answers, then closes without saying so
    client = HttpClient()
    async with raw_server(raw) as url:
        for n in range(3):
            await asyncio.sleep(0.05)  # (the close reaches the client first)
            assert (await client.post(url, b"%d" % n, 5)).status == 200
        await client.close()
    assert raw.connections == 3


async def test_no_answer_is_an_error_of_its_call_and_the_next_one_is_answered() -> None:
    answers = iter(
        [
            [b"SSH-2.0-OpenSSH\r\n\r\n"],  # not HTTP
            [b'HTTP/1.1 200 OK\r\nContent-Length: 50\r\n\r\n{"ok"'],  # closed mid-body
            [b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n{}"],
        ]
    )
    raw = Raw(lambda body: next(answers), close=True)
    client = HttpClient()
    async with raw_server(raw) as url:
        with pytest.raises(HttpError, match="not an HTTP answer"):
            await client.post(url, b"{}", 5)
        with pytest.raises(HttpError, match="closed before the answer"):
            await client.post(url, b"{}", 5)
        assert await client.post(url, b"{}", 5) == (200, b"{}")
        await client.close()


async def test_a_call_that_times_out_leaves_its_late_answer_behind() -> None:
    async def late_first(body: bytes) -> None:
        if body == b"1":
            await asyncio.sleep(0.3)  # its answer comes after the call gave up

    raw = Raw(by_length, before=late_first)
    client = HttpClient()
    async with raw_server(raw) as url:
        with pytest.raises(TimeoutError):
            await client.post(url, b"1", 0.1)
        assert await client.post(url, b"2", 5) == (200, b'{"ok":true,"result":2}')
        await asyncio.sleep(0.3)
        assert await client.post(url, b"3", 5) == (200, b'{"ok":true,"result":3}')
        await client.close()
    assert raw.connections == 2  # the first one was closed with its call


async def test_the_time_limit_counts_the_wait_for_a_connection() -> None:
    async def slow(body: bytes) -> None:
        await asyncio.sleep(0.5)

    raw = Raw(by_length, before=slow)
    client = HttpClient(limit=1)
    async with raw_server(raw) as url:
        first = asyncio.create_task(client.post(url, b"1", 5))
        await asyncio.sleep(0.05)
        began = asyncio.get_running_loop().time()
        with pytest.raises(TimeoutError):  # (the only connection is the first call's)
            await client.post(url, b"2", 0.1)
        assert asyncio.get_running_loop().time() - began < 0.3
        assert (await first).status == 200
        await client.close()


async def test_interim_and_empty_answers_keep_the_connection() -> None:
    def no_content(body: bytes) -> list[bytes]:
        return [
            b"HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 204 No Content\r\nContent-Length: 9\r\n\r\n"
        ]

    raw = await twice(no_content)
    assert raw.answers == [(204, b"")] * 2
    assert raw.connections == 1


async def test_more_than_was_asked_for_closes_the_connection() -> None:
    raw = await twice(lambda body: [b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n{}HTTP/1.1"])
    assert raw.answers == [(200, b"{}")] * 2
    assert raw.connections == 2


async def test_a_connection_idle_too_long_is_closed_and_replaced(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(http, "IDLE", 0.1)
    raw = Raw(by_length)  # (a server that would keep it open)
    client = HttpClient()
    async with raw_server(raw) as url:
        await client.post(url, b"1", 5)
        await asyncio.sleep(0.2)
        await client.post(url, b"2", 5)
        await asyncio.sleep(0.05)
        assert raw.closed == 1  # the idle one, closed by the client
        await client.close()
    assert raw.connections == 2


async def test_a_closed_client_fails_its_calls_under_way_and_makes_no_more() -> None:
    async def never(body: bytes) -> None:
        await asyncio.sleep(10)

    raw = Raw(by_length, before=never)
    client = HttpClient()
    async with raw_server(raw) as url:
        call = asyncio.create_task(client.post(url, b"1", 5))
        await asyncio.sleep(0.05)
        await client.close()
        with pytest.raises(HttpError, match="closed before the answer: by the client"):
            await call
        with pytest.raises(HttpError, match="the client is closed"):
            await client.post(url, b"2", 5)


@pytest.mark.parametrize(
    "wire",
    [
        b"HTTP/1.1 000 Zero\r\nContent-Length: 2\r\n\r\n{}",  # no such status
        b"HTTP/1.1 200 OK\r\nContent-Length: " + b"9" * 5000 + b"\r\n\r\n",
        b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}",
        b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n0x2\r\n{}\r\n0\r\n\r\n",
        b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n1\r\n{}\r\n0\r\n\r\n",
        b"HTTP/1.1 100 Continue\r\n\r\n" * 7,
    ],
)
async def test_a_broken_answer_is_an_error_of_its_call(wire: bytes) -> None:
    raw = Raw(lambda body: [wire])
    client = HttpClient()
    async with raw_server(raw) as url:
        with pytest.raises(HttpError):
            await client.post(url, b"{}", 5)
        await client.close()


async def test_a_server_out_of_reach_is_an_error() -> None:
    probe = await asyncio.start_server(lambda r, w: None, "127.0.0.1", 0)
    port = probe.sockets[0].getsockname()[1]
    probe.close()
    await probe.wait_closed()
    client = HttpClient()
    with pytest.raises(HttpError, match="cannot connect"):
        await client.post(URL(f"http://127.0.0.1:{port}/bot1:x/getMe"), b"{}", 5)


async def test_calls_at_once_share_at_most_limit_connections() -> None:
    peers: set[int] = set()

    async def echo(request: web.Request) -> web.Response:
        assert request.transport is not None
        peers.add(request.transport.get_extra_info("peername")[1])
        await asyncio.sleep(0.05)
        return web.json_response({"ok": True, "result": await request.json()})

    app = web.Application()
    app.router.add_post("/bot1:x/{method}", echo)
    runner = web.AppRunner(app)
    await runner.setup()
    await web.TCPSite(runner, "127.0.0.1", 0).start()
    port = runner.addresses[0][1]
    client = HttpClient(limit=2)
    try:
        url = URL(f"http://127.0.0.1:{port}/bot1:x/sendMessage")
        answers = await asyncio.gather(*(client.post(url, b"%d" % n, 5) for n in range(6)))
    finally:
        await client.close()
        await runner.cleanup()
    assert [json.loads(a.body)["result"] for a in answers] == list(range(6))
    assert len(peers) == 2


@pytest.fixture(scope="module")
def certificate(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    folder = tmp_path_factory.mktemp("tls")
    cert, key = folder / "cert.pem", folder / "key.pem"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
         "-subj", "/CN=localhost", "-addext", "subjectAltName=DNS:localhost",
         "-keyout", str(key), "-out", str(cert)],
        check=True, capture_output=True,
    )  # fmt: skip
    return cert, key


async def test_https_is_spoken_with_a_trusted_certificate_only(
    certificate: tuple[Path, Path],
) -> None:
    cert, key = certificate
    served = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    served.load_cert_chain(cert, key)
    raw = Raw(by_length)
    server = await asyncio.start_server(raw.handle, "127.0.0.1", 0, ssl=served)
    url = URL(f"https://localhost:{server.sockets[0].getsockname()[1]}/bot1:x/getMe")
    trusting = HttpClient(tls=ssl.create_default_context(cafile=str(cert)))
    stranger = HttpClient()  # certifi's authorities: they never signed it
    async with server:
        for _ in range(2):
            assert await trusting.post(url, b"7", 5) == (200, b'{"ok":true,"result":7}')
        with pytest.raises(HttpError, match="CERTIFICATE_VERIFY_FAILED"):
            await stranger.post(url, b"7", 5)
        by_address = url.with_host("127.0.0.1")  # (the certificate names localhost only)
        with pytest.raises(HttpError, match="CERTIFICATE_VERIFY_FAILED"):
            await trusting.post(by_address, b"7", 5)
        await trusting.close()
        await stranger.close()
        await asyncio.sleep(0.05)
    assert raw.connections == 1  # the trusting client's calls shared one; the other
    # client's never came past the handshake
