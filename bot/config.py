"""Configuration from environment variables. The secrets (the bot's token, the webhook's
secret) are never logged."""

from __future__ import annotations

import argparse
import math
import os
import re
import secrets
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import tzinfo
from typing import NoReturn
from urllib.parse import urlsplit
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from service.thinking import default_workers
from storage.db import configured_path, is_url, password_of
from storage.shards import MAX_SHARDS, SHARDS

from .outbox import Limits

TOKEN = re.compile(r"^\d{1,20}:[A-Za-z0-9_-]{30,}$")
WEBHOOK_SECRET = re.compile(r"^[A-Za-z0-9_-]{1,256}$")  # what Telegram accepts
# a Mini App's direct link, as @BotFather gives it: t.me/<the bot>/<the app's short name>
MINIAPP_LINK = re.compile(r"^https://t\.me/[A-Za-z0-9_]{5,32}/[A-Za-z0-9_]{3,30}$")
DEFAULT_PAUSE = "0.7-1.2"  # seconds between two computer moves (DURAK_BOT_PAUSE)
SANDBOX_PORT = 8080


class ConfigError(Exception):
    pass


def _new_secret() -> str:
    return secrets.token_urlsafe(32)


def zone_from_env(env: dict[str, str] | None = None) -> tzinfo:
    """The time zone of the deadlines shown in groups: ``DURAK_TZ``, Moscow by default."""
    env = dict(os.environ if env is None else env)
    name = env.get("DURAK_TZ", "").strip() or "Europe/Moscow"
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        raise ConfigError(f"DURAK_TZ: unknown time zone {name!r} (e.g. Europe/Moscow)") from None


@dataclass(frozen=True)
class Config:
    token: str = field(repr=False)
    db_path: str
    api_base: str | None = None  # a self-hosted Bot API server, e.g. http://127.0.0.1:8081
    log_level: str = "INFO"
    limits: Limits = field(default_factory=Limits)
    webhook_url: str | None = None  # set: Telegram POSTs updates there instead of polling
    webhook_host: str = "127.0.0.1"  # where the local webhook server listens
    webhook_port: int = 8080
    webhook_secret: str = field(default_factory=_new_secret, repr=False)
    zone: tzinfo = field(default_factory=zone_from_env)  # DURAK_TZ
    bot_workers: int = field(default_factory=default_workers)  # DURAK_BOT_WORKERS
    bot_pause: tuple[float, float] = (0.7, 1.2)  # DURAK_BOT_PAUSE: seconds, low and high
    metrics_host: str = "127.0.0.1"  # DURAK_METRICS_HOST
    metrics_port: int | None = None  # DURAK_METRICS_PORT: the web server (/metrics, /app) there
    miniapp_url: str | None = None  # DURAK_MINIAPP_URL: the Mini App page's public https URL
    miniapp_link: str | None = None  # DURAK_MINIAPP_LINK: its direct link (for groups)
    shards: int = SHARDS  # DURAK_SHARDS: the chats' shards (the same in every process)

    @property
    def shared(self) -> bool:
        """Whether other bot processes may run beside this one: webhook mode on a
        PostgreSQL server (polling, or a SQLite file, is one process per database)."""
        return self.webhook_url is not None and is_url(self.db_path)

    @property
    def webhook_path(self) -> str:
        """The local route: the public URL's path (a reverse proxy keeps it)."""
        return urlsplit(self.webhook_url or "").path or "/"

    @property
    def secret_values(self) -> tuple[str, ...]:
        """What the logs never show: the token's secret part (so the token too), the
        webhook secret, the database server's password."""
        password = password_of(self.db_path) if is_url(self.db_path) else None
        return self.token.partition(":")[2], self.webhook_secret, password or ""

    @classmethod
    def from_env(cls, env: dict[str, str] | None = None) -> Config:
        env = dict(os.environ if env is None else env)
        token = env.get("BOT_TOKEN", "").strip()
        if not token:
            raise ConfigError(
                "BOT_TOKEN is not set: get a token from @BotFather and export it,"
                " or try the bot in a browser without one: .venv/bin/python -m bot --sandbox"
            )
        if not TOKEN.match(token):
            raise ConfigError("BOT_TOKEN does not look like a bot token (digits:secret)")
        url = env.get("DURAK_WEBHOOK_URL", "").strip() or None
        if url is not None and (urlsplit(url).scheme != "https" or not urlsplit(url).hostname):
            raise ConfigError("DURAK_WEBHOOK_URL must be a public https:// URL")
        db_path = _db_path(env)
        metrics_port = _port(env, "DURAK_METRICS_PORT")
        miniapp_url, miniapp_link = _miniapp(
            env, served=url is not None or metrics_port is not None
        )
        return cls(
            token=token,
            db_path=db_path,
            api_base=_api_base(env),
            log_level=_log_level(env),
            limits=Limits(
                per_chat=_seconds(env, "DURAK_CHAT_INTERVAL", "1.0"),
                chat_burst=_whole(env, "DURAK_CHAT_BURST", "3", 1, 100),
                group_per_minute=_whole(env, "DURAK_GROUP_PER_MINUTE", "20", 1, 6000),
            ),
            webhook_url=url,
            webhook_host=env.get("DURAK_WEBHOOK_HOST", "").strip() or "127.0.0.1",
            webhook_port=_whole(env, "DURAK_WEBHOOK_PORT", "8080", 0, 65535),
            webhook_secret=_webhook_secret(env, shared=url is not None and is_url(db_path)),
            zone=zone_from_env(env),
            bot_workers=_whole(env, "DURAK_BOT_WORKERS", str(default_workers()), 1, None),
            bot_pause=_pause(env),
            metrics_host=env.get("DURAK_METRICS_HOST", "").strip() or "127.0.0.1",
            metrics_port=metrics_port,
            miniapp_url=miniapp_url,
            miniapp_link=miniapp_link,
            shards=_whole(env, "DURAK_SHARDS", str(SHARDS), 1, MAX_SHARDS),
        )


@dataclass(frozen=True)
class Options:
    """The command line: ``--sandbox`` plays the bot in a browser page on ``port``, with
    the database in ``db`` (None: a throw-away file)."""

    sandbox: bool = False
    port: int = SANDBOX_PORT
    db: str | None = None


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:  # one line, as for the variables
        raise ConfigError(message)


def parse_args(argv: Sequence[str]) -> Options:
    """``python -m bot [--sandbox [--port N] [--db FILE]]``; a mistake is a ConfigError."""
    parser = _Parser(prog="python -m bot", description="The Durak bot for Telegram groups.")
    parser.add_argument(
        "--sandbox",
        action="store_true",
        help="play the bot in a browser, without a token: a local Bot API and a web page",
    )
    parser.add_argument("--port", help=f"the sandbox page's port (default {SANDBOX_PORT})")
    parser.add_argument("--db", help="the sandbox's SQLite file (default: a throw-away one)")
    args = parser.parse_args(list(argv))
    if not args.sandbox and (args.port is not None or args.db is not None):
        raise ConfigError("--port and --db are options of --sandbox (python -m bot --sandbox)")
    port = _whole({"--port": args.port or ""}, "--port", str(SANDBOX_PORT), 0, 65535)
    if args.db is not None:
        _db_path({"DURAK_DB": args.db}, name="--db")
    return Options(sandbox=args.sandbox, port=port, db=args.db)


def _raw(env: dict[str, str], name: str, default: str) -> str:
    return env.get(name, "").strip() or default


def _seconds(env: dict[str, str], name: str, default: str) -> float:
    """A finite number of seconds, 0 or more."""
    raw = _raw(env, name, default)
    value = _float(raw)
    if value is None:
        raise ConfigError(f"{name} must be a number of seconds, 0 or more (e.g. 1.0), not {raw!r}")
    return value


def _float(raw: str) -> float | None:
    """``raw`` as a finite number >= 0, or None (``nan``, ``inf``, ``-1``, words)."""
    try:
        value = float(raw)
    except ValueError:
        return None
    return value if math.isfinite(value) and value >= 0 else None


def _whole(env: dict[str, str], name: str, default: str, low: int, high: int | None) -> int:
    """A whole number from ``low`` to ``high`` (None: no upper bound), in decimal digits."""
    raw = _raw(env, name, default)
    value = int(raw) if raw.isdecimal() and raw.isascii() and len(raw) <= 18 else None
    if value is None or value < low or (high is not None and value > high):
        what = f"{low}-{high}" if high is not None else f"{low} or more"
        raise ConfigError(f"{name} must be a whole number ({what}), not {raw!r}")
    return value


def _port(env: dict[str, str], name: str) -> int | None:
    """A port (0-65535), or None when the variable is not set."""
    return _whole(env, name, "", 0, 65535) if _raw(env, name, "") else None


def _pause(env: dict[str, str]) -> tuple[float, float]:
    """``DURAK_BOT_PAUSE``: one number of seconds (``0.9``) or a range (``0.7-1.2``)."""
    raw = _raw(env, "DURAK_BOT_PAUSE", DEFAULT_PAUSE)
    low, dash, high = raw.partition("-")
    values = (_float(low.strip()), _float(high.strip()) if dash else _float(low.strip()))
    if values[0] is None or values[1] is None or values[0] > values[1]:
        raise ConfigError(
            "DURAK_BOT_PAUSE must be seconds between two computer moves, one number"
            f" (0.9) or a range low-high ({DEFAULT_PAUSE}), 0 or more, not {raw!r}"
        )
    return values[0], values[1]


def _webhook_secret(env: dict[str, str], *, shared: bool) -> str:
    """``DURAK_WEBHOOK_SECRET``; random for a process of its own, but required where
    several processes share a server: each registers the webhook, and the last one's
    secret is the one Telegram sends to all of them."""
    secret = env.get("DURAK_WEBHOOK_SECRET", "").strip()
    if not secret:
        if shared:
            raise ConfigError(
                "DURAK_WEBHOOK_SECRET must be set in webhook mode on PostgreSQL (DURAK_DB"
                " is a postgresql:// URL): every bot process on the database needs the same one"
            )
        return _new_secret()
    if not WEBHOOK_SECRET.match(secret):
        raise ConfigError(
            "DURAK_WEBHOOK_SECRET may hold 1-256 characters: letters, digits, _ and -"
        )
    return secret


def _miniapp(env: dict[str, str], *, served: bool) -> tuple[str | None, str | None]:
    """``DURAK_MINIAPP_URL`` (the page ``/app`` behind HTTPS, as Telegram opens it) and
    ``DURAK_MINIAPP_LINK`` (its direct link, which @BotFather's /newapp gives)."""
    url = env.get("DURAK_MINIAPP_URL", "").strip() or None
    link = env.get("DURAK_MINIAPP_LINK", "").strip().rstrip("/") or None
    if url is None:
        if link is not None:
            raise ConfigError("DURAK_MINIAPP_LINK needs DURAK_MINIAPP_URL (the page's URL)")
        return None, None
    parts = urlsplit(url)
    if parts.scheme != "https" or not parts.hostname or parts.path.rstrip("/") != "/app":
        raise ConfigError(
            "DURAK_MINIAPP_URL must be the public https:// URL of the bot's page /app"
            f" (e.g. https://durak.example.org/app), not {url!r}"
        )
    if not served:
        raise ConfigError(
            "DURAK_MINIAPP_URL needs the bot's web server: set DURAK_WEBHOOK_URL, or"
            " DURAK_METRICS_PORT for a bot that polls"
        )
    if link is not None and not MINIAPP_LINK.match(link):
        raise ConfigError(
            "DURAK_MINIAPP_LINK must be the Mini App's direct link from @BotFather,"
            f" https://t.me/<bot>/<short name>, not {link!r}"
        )
    return url, link


def _db_path(env: dict[str, str], name: str = "DURAK_DB") -> str:
    path = env.get("DURAK_DB", "").strip() or configured_path()
    if is_url(path):
        if not urlsplit(path).hostname:
            raise ConfigError(f"{name} must name the PostgreSQL server's host")
        return path
    folder = os.path.dirname(path) or "."
    if path != ":memory:" and not os.path.isdir(folder):
        raise ConfigError(f"{name} must be a file in an existing folder, not {path!r}")
    return path


def _api_base(env: dict[str, str]) -> str | None:
    raw = env.get("BOT_API_BASE", "").strip()
    if not raw:
        return None
    parts = urlsplit(raw)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ConfigError(f"BOT_API_BASE must be an http:// or https:// URL, not {raw!r}")
    return raw


def _log_level(env: dict[str, str]) -> str:
    level = env.get("DURAK_LOG_LEVEL", "").strip().upper() or "INFO"
    if level not in ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"):
        raise ConfigError(f"DURAK_LOG_LEVEL must be DEBUG, INFO, WARNING or ERROR, not {level!r}")
    return level
