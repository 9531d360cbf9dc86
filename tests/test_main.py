"""``python -m bot`` as a process: it answers through the fake Bot API, logs to stderr
without the token, and stops cleanly on SIGTERM."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from pathlib import Path

from tests.e2e_helpers import TOKEN
from tests.fakes import FakeTelegram


async def test_the_bot_process_runs_logs_without_the_token_and_stops_on_sigterm(
    tmp_path: Path,
) -> None:
    async with FakeTelegram(token=TOKEN) as tg:
        anna = tg.add_user(1, "Аня")
        env = {
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "BOT_TOKEN": TOKEN,
            "BOT_API_BASE": tg.base_url,
            "DURAK_DB": str(tmp_path / "db.sqlite3"),
            "DURAK_LOG_LEVEL": "DEBUG",
            "DURAK_CHAT_INTERVAL": "0",
        }
        process = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "bot",
            env=env,
            cwd=Path(__file__).parent.parent,
            stderr=asyncio.subprocess.PIPE,
        )
        try:
            await tg.wait_for(lambda: tg.count("getUpdates") > 0, timeout=30)
            tg.start_private(anna)
            await tg.wait_for_message(anna, lambda m: "Привет" in m.text, timeout=10)
            process.send_signal(signal.SIGTERM)
            _, stderr = await asyncio.wait_for(process.communicate(), 20)
        finally:
            if process.returncode is None:
                process.kill()
                await process.wait()
    log = stderr.decode()
    assert process.returncode == 0, log
    assert TOKEN not in log and TOKEN.split(":")[1] not in log
    assert "restored 0 running games" in log and "Start polling" in log
    assert tg.count("deleteWebhook") == 1
