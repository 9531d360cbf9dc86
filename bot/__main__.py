"""``python -m bot``: run the Telegram bot (long polling, or a webhook when configured)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
import sys

from storage.lock import Locked, acquire

from . import logs
from .app import App
from .config import Config, ConfigError


def main() -> int:
    try:
        config = Config.from_env()
    except ConfigError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    logs.setup(config.log_level, config.secret_values)
    try:  # one process per database file; held until this process ends
        lock = None if config.db_path == ":memory:" else acquire(config.db_path)
    except (Locked, OSError) as e:
        logging.getLogger("bot").error("stopped: %s", e)
        return 1

    async def run() -> None:
        task = asyncio.current_task()
        assert task is not None
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):  # stop cleanly: timers, outbox, database
            loop.add_signal_handler(sig, task.cancel)
        app = await App.create(config)
        with contextlib.suppress(asyncio.CancelledError):
            await app.run()

    try:
        asyncio.run(run())
    except Exception as e:  # e.g. Telegram unreachable at start: one line, not a traceback
        logging.getLogger("bot").error("stopped: %s", e)
        return 1
    finally:
        if lock is not None:
            lock.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
