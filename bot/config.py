"""Configuration from environment variables. The secrets (the bot's token, the webhook's
secret) are never logged."""

from __future__ import annotations

import os
import re
import secrets
from dataclasses import dataclass, field
from datetime import tzinfo
from urllib.parse import urlsplit
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from storage.db import configured_path

from .outbox import Limits

TOKEN = re.compile(r"^\d{1,20}:[A-Za-z0-9_-]{30,}$")
WEBHOOK_SECRET = re.compile(r"^[A-Za-z0-9_-]{1,256}$")  # what Telegram accepts


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

    @property
    def webhook_path(self) -> str:
        """The local route: the public URL's path (a reverse proxy keeps it)."""
        return urlsplit(self.webhook_url or "").path or "/"

    @property
    def secret_values(self) -> tuple[str, str]:
        """What the logs never show: the token's secret part (so the token too), the
        webhook secret."""
        return self.token.partition(":")[2], self.webhook_secret

    @classmethod
    def from_env(cls, env: dict[str, str] | None = None) -> Config:
        env = dict(os.environ if env is None else env)
        token = env.get("BOT_TOKEN", "").strip()
        if not token:
            raise ConfigError("BOT_TOKEN is not set: get a token from @BotFather and export it")
        if not TOKEN.match(token):
            raise ConfigError("BOT_TOKEN does not look like a bot token (digits:secret)")
        url = env.get("DURAK_WEBHOOK_URL", "").strip() or None
        if url is not None and (urlsplit(url).scheme != "https" or not urlsplit(url).hostname):
            raise ConfigError("DURAK_WEBHOOK_URL must be a public https:// URL")
        secret = env.get("DURAK_WEBHOOK_SECRET", "").strip() or _new_secret()
        if not WEBHOOK_SECRET.match(secret):
            raise ConfigError(
                "DURAK_WEBHOOK_SECRET may hold 1-256 characters: letters, digits, _ and -"
            )
        return cls(
            token=token,
            db_path=env.get("DURAK_DB") or configured_path(),
            api_base=env.get("BOT_API_BASE") or None,
            log_level=_log_level(env),
            limits=Limits(per_chat=_number(env, "DURAK_CHAT_INTERVAL", "1.0")),
            webhook_url=url,
            webhook_host=env.get("DURAK_WEBHOOK_HOST", "").strip() or "127.0.0.1",
            webhook_port=_port(env),
            webhook_secret=secret,
            zone=zone_from_env(env),
        )


def _number(env: dict[str, str], name: str, default: str) -> float:
    raw = env.get(name, "").strip() or default
    try:
        return float(raw)
    except ValueError:
        raise ConfigError(f"{name} must be a number, not {raw!r}") from None


def _port(env: dict[str, str]) -> int:
    port = _number(env, "DURAK_WEBHOOK_PORT", "8080")
    if port != int(port) or not 0 <= port <= 65535:
        raise ConfigError(f"DURAK_WEBHOOK_PORT must be a port number (0-65535), not {port:g}")
    return int(port)


def _log_level(env: dict[str, str]) -> str:
    level = env.get("DURAK_LOG_LEVEL", "").strip().upper() or "INFO"
    if level not in ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"):
        raise ConfigError(f"DURAK_LOG_LEVEL must be DEBUG, INFO, WARNING or ERROR, not {level!r}")
    return level
