"""Fixtures shared by the suites: the backend a storage or service test runs on, the
lobbies over it, and the end-to-end tests' fake Telegram."""

from __future__ import annotations

import asyncio
import contextlib
import faulthandler
import gc
import os
import sys
import threading
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from pathlib import Path

import pytest
from aiogram import Bot
from aiogram.client.session.aiohttp import AiohttpSession
from aiogram.client.telegram import TelegramAPIServer

from service.tables import Tables
from telegram_emulator import TOKEN, FakeTelegram
from tests import backends
from tests.service_helpers import open_tables


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "sqlite_only: a test about SQLite itself")


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "backend" in metafunc.fixturenames:
        only = metafunc.definition.get_closest_marker("sqlite_only") is not None
        metafunc.parametrize(
            "backend", ["sqlite"] if only else ["sqlite", "postgres"], indirect=True
        )


# seconds after which a test that has not ended prints its threads and asyncio tasks
HANG = float(os.environ.get("DURAK_TEST_HANG", "300"))


@pytest.fixture(autouse=True)
def tasks_printed_on_a_hang(request: pytest.FixtureRequest) -> Iterator[None]:
    """A test still running after ``HANG`` seconds prints (past pytest's capture) every
    thread's stack and, through its running event loop (it runs the dump as soon as it
    is idle), every task with its stack: what a hang waits for. The test goes on."""
    timer = threading.Timer(HANG, _hung, (request.config, request.node.nodeid))
    timer.daemon = True
    timer.start()
    try:
        yield
    finally:
        timer.cancel()


def _hung(config: pytest.Config, test: str) -> None:
    loops = [o for o in gc.get_objects() if isinstance(o, asyncio.AbstractEventLoop)]
    running = [loop for loop in loops if loop.is_running()]
    for loop in running:
        loop.call_soon_threadsafe(_print_hang, config, test, loop)
    if not running:
        _print_hang(config, test, None)


def _print_hang(config: pytest.Config, test: str, loop: asyncio.AbstractEventLoop | None) -> None:
    capture = config.pluginmanager.getplugin("capturemanager")
    with capture.global_and_fixture_disabled() if capture else contextlib.nullcontext():
        out = sys.stderr
        print(f"\n=== {test} still running after {HANG:.0f} s: threads ===", file=out)
        faulthandler.dump_traceback(out)
        tasks = asyncio.all_tasks(loop) if loop is not None else set()
        print(f"=== {test}: {len(tasks)} asyncio tasks ===", file=out)
        for task in tasks:
            print(f"--- {task!r}", file=out)
            task.print_stack(file=out)
        out.flush()


@pytest.fixture
async def backend(request: pytest.FixtureRequest) -> AsyncIterator[str]:
    if request.param == "sqlite":
        yield "sqlite"
        return
    async with postgres_databases() as databases:
        backends.current.append(databases)
        try:
            yield "postgres"
        finally:
            backends.current.remove(databases)


@pytest.fixture
async def pg_databases() -> AsyncIterator[backends.PgDatabases]:
    """Fresh databases on the test server, for tests about PostgreSQL itself."""
    async with postgres_databases() as databases:
        yield databases


@asynccontextmanager
async def postgres_databases() -> AsyncIterator[backends.PgDatabases]:
    if not backends.PG_URL:
        if backends.REQUIRE_PG:
            pytest.fail("DURAK_REQUIRE_PG is set but DURAK_TEST_PG names no server")
        pytest.skip("PostgreSQL: set DURAK_TEST_PG=postgresql://user:password@host/db")
    databases = backends.PgDatabases(backends.PG_URL)
    try:
        yield databases
    finally:
        await databases.drop_all()


@pytest.fixture
async def tables(tmp_path: Path, backend: str) -> AsyncIterator[Tables]:
    """The lobbies on the test's backend, Аня, Борис and Вика known (service_helpers)."""
    tables = await open_tables(tmp_path / "t.sqlite3")
    yield tables
    await tables.db.close()


@pytest.fixture
async def tg() -> AsyncIterator[FakeTelegram]:
    """The Bot API emulator, running for the test, with a token aiogram accepts; an
    end-to-end test adds its people and starts the bot on it (``e2e_helpers.running_bot``)."""
    async with FakeTelegram(token=TOKEN) as fake:
        yield fake


@pytest.fixture
async def server() -> AsyncIterator[FakeTelegram]:
    """The Bot API emulator on its own, for its own suites (``test_fake_*``)."""
    async with FakeTelegram() as fake:
        yield fake


@pytest.fixture
async def bot(server: FakeTelegram) -> AsyncIterator[Bot]:
    """An aiogram bot talking to ``server`` (a suite may draw its own instead)."""
    session = AiohttpSession(api=TelegramAPIServer.from_base(server.base_url))
    bot = Bot(token="42:TEST", session=session)
    yield bot
    await bot.session.close()
