"""Configuration from environment variables. The token is a secret: never logged."""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field

from storage.db import configured_path

from .outbox import Limits

TOKEN = re.compile(r"^\d{1,20}:[A-Za-z0-9_-]{30,}$")


class ConfigError(Exception):
    pass


@dataclass(frozen=True)
class Config:
    token: str = field(repr=False)
    db_path: str
    api_base: str | None = None  # a self-hosted Bot API server, e.g. http://127.0.0.1:8081
    log_level: str = "INFO"
    limits: Limits = field(default_factory=Limits)

    @classmethod
    def from_env(cls, env: dict[str, str] | None = None) -> Config:
        env = dict(os.environ if env is None else env)
        token = env.get("BOT_TOKEN", "").strip()
        if not token:
            raise ConfigError("BOT_TOKEN is not set: get a token from @BotFather and export it")
        if not TOKEN.match(token):
            raise ConfigError("BOT_TOKEN does not look like a bot token (digits:secret)")
        per_chat = float(env.get("DURAK_CHAT_INTERVAL", "1.0"))
        return cls(
            token=token,
            db_path=env.get("DURAK_DB") or configured_path(),
            api_base=env.get("BOT_API_BASE") or None,
            log_level=env.get("DURAK_LOG_LEVEL", "INFO").upper(),
            limits=Limits(per_chat=per_chat),
        )
