"""``python -m bot``: run the Telegram bot (long polling, or a webhook when configured);
``python -m bot --sandbox``: the same bot against a local Bot API, played in a browser."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import signal
import sys
import tempfile
from collections.abc import Callable, Coroutine, Sequence
from typing import Any

from storage.db import is_url
from storage.lock import Locked, acquire

from . import logs
from .app import App
from .config import Config, ConfigError, parse_args

log = logging.getLogger("bot")
Body = Callable[[Config], Coroutine[Any, Any, None]]
NO_SANDBOX = (
    "error: the sandbox is not installed with this copy of the bot;"
    " install the project with it: pip install -e '.[sandbox]' (in the project's folder)"
)


def main(argv: Sequence[str] = ()) -> int:
    try:
        options = parse_args(argv)
    except ConfigError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    if not options.sandbox:
        return serve(dict(os.environ), bot)
    try:  # a package of its own on top of the bot, imported only here
        import sandbox
    except ModuleNotFoundError as e:
        if e.name != "sandbox":
            raise
        print(NO_SANDBOX, file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory(prefix="durak-sandbox-") as scratch:
        env = sandbox.environment(options, scratch)
        return serve(env, lambda config: sandbox.play(config, options.port))


def cli() -> int:
    """The ``durak-bot`` command."""
    return main(sys.argv[1:])


def serve(env: dict[str, str], body: Body) -> int:
    """Reads the configuration from ``env``, holds the database's lock and runs ``body``
    until SIGINT or SIGTERM; 2 for a bad configuration, 1 for a failed start."""
    try:
        config = Config.from_env(env)
    except ConfigError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    logs.setup(config.log_level, config.secret_values)
    try:  # one process per database file; held until this process ends
        local = config.db_path != ":memory:" and not is_url(config.db_path)
        lock = acquire(config.db_path) if local else None  # a server's: see App.create
    except (Locked, OSError) as e:
        log.error("stopped: %s", e)
        return 1

    async def run() -> None:
        task = asyncio.current_task()
        assert task is not None
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):  # stop cleanly: timers, outbox, database
            loop.add_signal_handler(sig, task.cancel)
        with contextlib.suppress(asyncio.CancelledError):
            await body(config)

    try:
        asyncio.run(run())
    except Exception as e:  # e.g. Telegram unreachable at start: one line, not a traceback
        log.error("stopped: %s", e)
        return 1
    finally:
        if lock is not None:
            lock.close()
    return 0


async def bot(config: Config) -> None:
    app = await App.create(config)
    await app.run()


if __name__ == "__main__":
    sys.exit(cli())
