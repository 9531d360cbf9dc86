"""The bot on PostgreSQL as a process: it plays, keeps the database's password out
of its log, and a second polling process on the same database exits with one line
(Telegram gives updates to one getUpdates at a time; several processes run in
webhook mode: tests/test_multi_processes.py)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from bench import service_speed
from bot.config import Config, ConfigError
from storage.connect import open_database
from storage.db import migrations, redacted
from storage.lock import Locked
from tests.backends import PgDatabases
from tests.e2e_helpers import TOKEN
from tests.fakes import FakeTelegram
from tests.test_main import STARTUP, spawn, stop, wait_until_polling


async def test_one_bot_per_postgresql_database_and_no_password_in_its_log(
    tmp_path: Path, pg_databases: PgDatabases
) -> None:
    url = await pg_databases.target("bot")
    password = urlsplit(url).password
    async with FakeTelegram(token=TOKEN) as tg:
        anna = tg.add_user(1, "Аня")
        first, first_log = await spawn(tmp_path, tg.base_url, db=url)
        second = None
        try:
            await wait_until_polling(tg, first, first_log)
            second, second_log = await spawn(tmp_path, tg.base_url, "second.log", db=url)
            await asyncio.wait_for(second.wait(), STARTUP)
            tg.start_private(anna)  # the first one answers, from the server's database
            await tg.wait_for_message(anna, lambda m: "Привет" in (m.text or ""), timeout=30)
        finally:
            await stop(first)
            if second is not None:
                await stop(second)
    lines = [line for line in second_log.read_text().splitlines() if " ERROR " in line]
    assert second.returncode == 1 and len(lines) == 1, lines
    assert " ERROR bot: stopped: " in lines[0] and "used by another bot process" in lines[0]
    assert redacted(url) in lines[0]
    for log in (first_log, second_log):
        text = log.read_text()
        assert "Traceback" not in text and (not password or password not in text)
    assert first.returncode == 0


async def test_a_second_bot_is_refused_before_it_changes_the_schema(
    pg_databases: PgDatabases,
) -> None:
    url = await pg_databases.target("old")
    first = await open_database(url, upto=5, exclusive=True)  # an older bot, still running
    try:
        with pytest.raises(Locked, match="used by another bot process"):
            await open_database(url, exclusive=True)  # a newer one, started beside it
        assert await first.schema_version() == 5  # it migrated nothing
    finally:
        await first.close()
    newer = await open_database(url, exclusive=True)  # once the old one is gone
    assert await newer.schema_version() == len(migrations())
    await newer.close()


def test_durak_db_takes_a_postgresql_url_with_a_host() -> None:
    url = "postgresql://durak:s3cret@db.example:5432/durak"
    config = Config.from_env({"BOT_TOKEN": TOKEN, "DURAK_DB": url})
    assert config.db_path == url and "s3cret" in config.secret_values
    query = "postgresql://durak@db.example/durak?password=s3cret"
    assert "s3cret" in Config.from_env({"BOT_TOKEN": TOKEN, "DURAK_DB": query}).secret_values
    with pytest.raises(ConfigError, match="host"):
        Config.from_env({"BOT_TOKEN": TOKEN, "DURAK_DB": "postgresql:///durak"})


def test_the_service_benchmark_runs_on_postgresql_beside_sqlite(
    pg_databases: PgDatabases, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["--games", "2", "--think", "0.001", "--postgres", pg_databases.url]
    assert service_speed.main(args) == 0
    out = capsys.readouterr().out
    assert "on sqlite:" in out and "on postgres:" in out
    assert out.count("KB per finished game") == 4  # both runs on both backends
