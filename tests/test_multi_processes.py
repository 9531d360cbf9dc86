"""Several bot processes on one PostgreSQL database, in webhook mode: they start side by
side (a shared lock), any of them may take any update, and a polling bot (one process
per database) is refused beside them, as they are beside it."""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path

import pytest

from bot.callbacks import LobbyCb, LobbyOp
from storage.connect import open_database
from storage.db import Database, migrations
from storage.lock import Locked
from tests.backends import PgDatabases
from tests.e2e_helpers import TOKEN
from tests.fakes import FakeTelegram
from tests.test_main import STARTUP, spawn, stop
from tests.test_webhook import free_port

SECRET = "shared_Webhook-secret"


async def test_processes_share_a_server_in_webhook_mode_and_refuse_a_polling_one(
    pg_databases: PgDatabases,
) -> None:
    url = await pg_databases.target("locks")
    first = await open_database(url, shared=True)
    second = await open_database(url, shared=True)
    try:
        with pytest.raises(Locked, match="used by another bot process"):
            await open_database(url, exclusive=True)
    finally:
        await first.close()
        await second.close()
    polling = await open_database(url, exclusive=True)
    try:
        with pytest.raises(Locked, match="polled by another bot process"):
            await open_database(url, shared=True)
    finally:
        await polling.close()


async def test_processes_starting_at_once_on_a_new_database_all_open_it(
    pg_databases: PgDatabases,
) -> None:
    for attempt in range(5):  # before: schema_version's CREATE TABLE IF NOT EXISTS collided
        url = await pg_databases.target(f"new{attempt}")
        opened = await asyncio.gather(
            *(open_database(url, shared=True) for _ in range(3)), return_exceptions=True
        )
        for db in opened:
            if isinstance(db, Database):
                assert await db.schema_version() == len(migrations())
                await db.close()
        assert all(isinstance(db, Database) for db in opened), opened


async def webhook_bot(
    tmp_path: Path,
    api_base: str,
    db: str,
    port: int,
    name: str,
    extra: dict[str, str] | None = None,
) -> tuple[asyncio.subprocess.Process, Path]:
    """``python -m bot`` in webhook mode on ``port``; ``extra``: more settings."""
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "BOT_TOKEN": TOKEN,
        "BOT_API_BASE": api_base,
        "DURAK_DB": db,
        "DURAK_LOG_LEVEL": "DEBUG",
        "DURAK_CHAT_INTERVAL": "0",
        "DURAK_WEBHOOK_URL": "https://durak.example.org/tg",
        "DURAK_WEBHOOK_PORT": str(port),
        "DURAK_WEBHOOK_SECRET": SECRET,
        **(extra or {}),
    }
    log = tmp_path / f"{name}.log"
    with log.open("wb") as stderr:
        process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot", env=env, cwd=Path(__file__).parent.parent, stderr=stderr
        )
    return process, log


async def test_two_webhook_processes_on_one_database_each_take_updates(
    tmp_path: Path, pg_databases: PgDatabases
) -> None:
    url = await pg_databases.target("two")
    async with FakeTelegram(token=TOKEN) as tg:
        anna = tg.add_user(1, "Аня")
        group = tg.add_group(-100, "Друзья", members=[anna])
        ports = [free_port(), free_port()]
        bots = [
            await webhook_bot(tmp_path, tg.base_url, url, port, f"bot{i}")
            for i, port in enumerate(ports)
        ]
        polling = None
        try:
            await tg.wait_for(lambda: tg.count("setWebhook") == 2, timeout=STARTUP)
            assert all(c.params["secret_token"] == SECRET for c in tg.calls_to("setWebhook"))
            polling, polling_log = await spawn(tmp_path, tg.base_url, "polling.log", db=url)
            await asyncio.wait_for(polling.wait(), STARTUP)
            assert polling.returncode == 1
            assert "used by another bot process" in polling_log.read_text()

            one, two = (f"http://127.0.0.1:{p}/tg" for p in ports)
            tg.start_private(anna)
            await tg.send_text(anna, group, "/durak")
            assert await tg.deliver_to_webhook(one) == [200, 200]  # the first takes these
            lobby = await tg.wait_for_message(group, lambda m: "Стол для игры" in (m.text or ""))
            press = await tg.press(anna, lobby, LobbyCb(table=1, op=LobbyOp.JOIN).pack())
            assert await tg.deliver_to_webhook(two) == [200]  # the second, this one
            assert (await press).text == "Вы за столом!"  # it found the table in the database
        finally:
            for process, _ in bots:
                await stop(process)
            if polling is not None:
                await stop(polling)
    for process, log in bots:
        text = log.read_text()
        assert process.returncode == 0 and "Traceback" not in text, text
        assert SECRET not in text


LOCK_HOLDERS = (
    "SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND granted"
    " AND database = (SELECT oid FROM pg_database WHERE datname = current_database())"
)


async def test_a_lock_whose_session_the_server_ended_is_taken_again(
    pg_databases: PgDatabases,
) -> None:
    url = await pg_databases.target("relock")
    held = await open_database(url, shared=True)
    try:
        (before,) = [int(r[0]) for r in await held.fetch_all(LOCK_HOLDERS)]
        await held.fetch_one("SELECT pg_terminate_backend(?)", (before,))
        after: list[int] = []
        for _ in range(200):
            after = [int(r[0]) for r in await held.fetch_all(LOCK_HOLDERS)]
            if after and after != [before]:
                break
            await asyncio.sleep(0.05)
        assert len(after) == 1 and after != [before]  # held again, on a new session
        with pytest.raises(Locked):
            await open_database(url, exclusive=True)  # a polling bot is still refused
    finally:
        await held.close()
    polling = await open_database(url, exclusive=True)  # let go at close: not taken again
    await polling.close()
