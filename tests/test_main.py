"""``python -m bot`` as a process: it answers through the fake Bot API, logs to stderr
without the token, stops cleanly on SIGTERM, and exits when Telegram is unreachable."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from pathlib import Path

import pytest

from tests.e2e_helpers import TOKEN
from tests.fakes import FakeTelegram

STARTUP = 120.0  # seconds; generous, as the tests may run next to benchmarks


async def spawn(
    tmp_path: Path, api_base: str, log_name: str = "stderr.log", db: str | None = None
) -> tuple[asyncio.subprocess.Process, Path]:
    """The bot as a process on ``tmp_path``'s database (or ``db``); its stderr goes to a
    file (a full pipe would block it)."""
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "BOT_TOKEN": TOKEN,
        "BOT_API_BASE": api_base,
        "DURAK_DB": db or str(tmp_path / "db.sqlite3"),
        "DURAK_LOG_LEVEL": "DEBUG",
        "DURAK_CHAT_INTERVAL": "0",
    }
    log = tmp_path / log_name
    with log.open("wb") as stderr:
        process = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "bot",
            env=env,
            cwd=Path(__file__).parent.parent,
            stderr=stderr,
        )
    return process, log


async def wait_until_polling(
    tg: FakeTelegram, process: asyncio.subprocess.Process, log: Path
) -> None:
    """Until the bot asks for updates; fails at once if it exits instead."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + STARTUP
    while tg.count("getUpdates") == 0:
        if process.returncode is not None:
            pytest.fail(f"the bot exited with {process.returncode}:\n{log.read_text()}")
        if loop.time() > deadline:
            pytest.fail(f"the bot did not poll within {STARTUP} s:\n{log.read_text()}")
        await asyncio.sleep(0.1)


async def test_the_bot_process_runs_logs_without_the_token_and_stops_on_sigterm(
    tmp_path: Path,
) -> None:
    async with FakeTelegram(token=TOKEN) as tg:
        anna = tg.add_user(1, "Аня")
        process, stderr = await spawn(tmp_path, tg.base_url)
        try:
            await wait_until_polling(tg, process, stderr)
            tg.start_private(anna)
            await tg.wait_for_message(anna, lambda m: "Привет" in (m.text or ""), timeout=30)
            process.send_signal(signal.SIGTERM)
            await asyncio.wait_for(process.wait(), 30)
        finally:
            if process.returncode is None:
                process.kill()
                await process.wait()
    log = stderr.read_text()
    assert process.returncode == 0, log
    assert TOKEN not in log and TOKEN.split(":")[1] not in log
    assert "restored 0 running games" in log and "polling for updates as @" in log
    assert tg.count("deleteWebhook") == 1
    # a clean stop is quiet (before: "Failed to fetch updates - ServerDisconnectedError")
    assert " ERROR " not in log and "Failed to fetch updates" not in log, log


async def test_the_bot_exits_with_one_line_when_telegram_is_unreachable(tmp_path: Path) -> None:
    process, stderr = await spawn(tmp_path, "http://127.0.0.1:9")  # nothing listens there
    try:
        await asyncio.wait_for(process.wait(), STARTUP)  # before: it never exited
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()
    log = stderr.read_text()
    assert process.returncode == 1, log
    last = log.splitlines()[-1]
    assert " ERROR bot: stopped: " in last and "cannot connect to 127.0.0.1:9" in last
    assert "Traceback" not in log and TOKEN not in log


async def stop(process: asyncio.subprocess.Process) -> None:
    """SIGTERM, then SIGKILL if it does not end."""
    if process.returncode is None:
        process.send_signal(signal.SIGTERM)
        try:
            await asyncio.wait_for(process.wait(), 30)
        except TimeoutError:
            process.kill()
            await process.wait()


async def test_a_second_bot_on_the_same_database_exits_and_the_first_goes_on(
    tmp_path: Path,
) -> None:
    async with FakeTelegram(token=TOKEN) as tg:
        anna = tg.add_user(1, "Аня")
        first, first_log = await spawn(tmp_path, tg.base_url)
        second = None
        try:
            await wait_until_polling(tg, first, first_log)
            polls = tg.count("getUpdates")
            second, second_log = await spawn(tmp_path, tg.base_url, "second.log")
            await asyncio.wait_for(second.wait(), STARTUP)  # before: it polled too
            tg.start_private(anna)  # the first one still answers
            await tg.wait_for_message(anna, lambda m: "Привет" in (m.text or ""), timeout=30)
            assert first.returncode is None
        finally:
            await stop(first)
            if second is not None:
                await stop(second)
    lines = second_log.read_text().splitlines()
    assert second.returncode == 1, lines
    lock = tmp_path / "db.sqlite3.lock"
    assert len(lines) == 1 and " ERROR bot: stopped: " in lines[0], lines
    assert f"{lock} is held by another bot process (pid {first.pid})" in lines[0]
    assert tg.count("getUpdates") > polls and first.returncode == 0
    assert "Traceback" not in first_log.read_text()


async def test_a_failing_set_my_commands_is_a_warning_not_a_failed_start(
    tmp_path: Path,
) -> None:
    async with FakeTelegram(token=TOKEN) as tg:
        anna = tg.add_user(1, "Аня")
        tg.inject_429(count=100, retry_after=60, methods=["setMyCommands"])
        process, stderr = await spawn(tmp_path, tg.base_url)
        try:
            await wait_until_polling(tg, process, stderr)  # before: exit 1 at start
            tg.start_private(anna)
            await tg.wait_for_message(anna, lambda m: "Привет" in (m.text or ""), timeout=30)
        finally:
            await stop(process)
    log = stderr.read_text()
    assert process.returncode == 0, log
    warnings = [line for line in log.splitlines() if " WARNING " in line and "menu" in line]
    assert len(warnings) == 1 and "setMyCommands" in warnings[0], log
    assert tg.my_commands == {}
