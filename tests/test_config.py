"""Configuration: the token is required, checked, and never shown."""

from __future__ import annotations

import subprocess
import sys

import pytest

from bot.config import Config, ConfigError

TOKEN = "123456:" + "A" * 35


def test_missing_or_malformed_token_is_a_clear_error() -> None:
    with pytest.raises(ConfigError, match="BOT_TOKEN is not set"):
        Config.from_env({})
    with pytest.raises(ConfigError, match="does not look like a bot token"):
        Config.from_env({"BOT_TOKEN": "hello"})


def test_settings_come_from_the_environment_and_the_token_is_not_shown() -> None:
    config = Config.from_env(
        {"BOT_TOKEN": TOKEN, "DURAK_DB": "/tmp/x.sqlite3", "BOT_API_BASE": "http://127.0.0.1:9"}
    )
    assert (config.db_path, config.api_base) == ("/tmp/x.sqlite3", "http://127.0.0.1:9")
    assert TOKEN not in repr(config) and "AAAA" not in str(config)


def test_python_m_bot_exits_with_a_message_without_a_token() -> None:
    env = {"PATH": "/usr/bin:/bin"}
    done = subprocess.run(
        [sys.executable, "-m", "bot"], env=env, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 2
    assert "BOT_TOKEN is not set" in done.stderr
