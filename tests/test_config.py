"""Configuration: the token is required, checked, and never shown."""

from __future__ import annotations

import os
import subprocess
import sys
from zoneinfo import ZoneInfo

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


def test_webhook_settings_and_their_checks() -> None:
    base = {"BOT_TOKEN": TOKEN}
    polling = Config.from_env(base)
    assert polling.webhook_url is None and len(polling.webhook_secret) >= 32
    assert Config.from_env(base).webhook_secret != polling.webhook_secret  # random per start
    config = Config.from_env(
        {
            **base,
            "DURAK_WEBHOOK_URL": "https://durak.example.org/tg/updates",
            "DURAK_WEBHOOK_HOST": "0.0.0.0",
            "DURAK_WEBHOOK_PORT": "8443",
            "DURAK_WEBHOOK_SECRET": "abc_DEF-123",
        }
    )
    assert (config.webhook_host, config.webhook_port, config.webhook_path) == (
        "0.0.0.0",
        8443,
        "/tg/updates",
    )
    assert "abc_DEF-123" not in repr(config)
    assert config.secret_values == (TOKEN.split(":")[1], "abc_DEF-123", "")  # no database password
    bad = {
        "DURAK_WEBHOOK_URL": "http://durak.example.org/hook",
        "DURAK_WEBHOOK_SECRET": "no spaces allowed",
        "DURAK_WEBHOOK_PORT": "70000",
        "DURAK_CHAT_INTERVAL": "fast",
        "DURAK_LOG_LEVEL": "LOUD",
    }
    for name, value in bad.items():
        with pytest.raises(ConfigError, match=name):
            Config.from_env({**base, name: value})


def test_the_webhook_secret_is_required_where_processes_share_a_postgresql_database() -> None:
    hook = {"BOT_TOKEN": TOKEN, "DURAK_WEBHOOK_URL": "https://durak.example.org/tg"}
    server = {**hook, "DURAK_DB": "postgresql://durak:pw@db:5432/durak"}
    with pytest.raises(ConfigError, match="DURAK_WEBHOOK_SECRET must be set in webhook mode"):
        Config.from_env(server)
    assert Config.from_env({**server, "DURAK_WEBHOOK_SECRET": "shared_1"}).webhook_secret == (
        "shared_1"
    )
    with pytest.raises(ConfigError, match="DURAK_WEBHOOK_SECRET may hold"):
        Config.from_env({**server, "DURAK_WEBHOOK_SECRET": "a b"})
    # One process of its own: a file, or polling on a server: random at each start.
    for alone in (hook, {**server, "DURAK_WEBHOOK_URL": ""}):
        assert len(Config.from_env(alone).webhook_secret) >= 32


def test_a_bad_time_zone_is_a_clean_configuration_error() -> None:
    base = {"BOT_TOKEN": TOKEN}
    assert Config.from_env(base).zone == ZoneInfo("Europe/Moscow")
    assert Config.from_env({**base, "DURAK_TZ": "Asia/Novosibirsk"}).zone == ZoneInfo(
        "Asia/Novosibirsk"
    )
    with pytest.raises(ConfigError, match="DURAK_TZ: unknown time zone 'Mars/Olympus'"):
        Config.from_env({**base, "DURAK_TZ": "Mars/Olympus"})
    env = {"PATH": "/usr/bin:/bin", **base, "DURAK_TZ": "Mars/Olympus"}
    done = subprocess.run(
        [sys.executable, "-m", "bot"], env=env, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert "error: DURAK_TZ: unknown time zone" in done.stderr


BAD_VALUES = [
    ("DURAK_WEBHOOK_PORT", "nan", "a whole number (0-65535)"),  # before: a traceback
    ("DURAK_WEBHOOK_PORT", "80.5", "a whole number (0-65535)"),
    ("DURAK_WEBHOOK_PORT", "-1", "a whole number (0-65535)"),
    ("DURAK_METRICS_PORT", "metrics", "a whole number (0-65535)"),
    ("DURAK_METRICS_PORT", "65536", "a whole number (0-65535)"),
    ("DURAK_CHAT_INTERVAL", "nan", "a number of seconds, 0 or more"),  # before: accepted
    ("DURAK_CHAT_INTERVAL", "-1", "a number of seconds, 0 or more"),
    ("DURAK_CHAT_INTERVAL", "inf", "a number of seconds, 0 or more"),
    ("DURAK_CHAT_BURST", "0", "a whole number (1-100)"),
    ("DURAK_GROUP_PER_MINUTE", "2.5", "a whole number (1-6000)"),
    ("DURAK_BOT_WORKERS", "0", "a whole number (1 or more)"),
    ("DURAK_BOT_WORKERS", "2.5", "a whole number (1 or more)"),
    ("DURAK_BOT_WORKERS", "many", "a whole number (1 or more)"),
    ("DURAK_BOT_PAUSE", "1.2-0.7", "one number (0.9) or a range low-high (0.7-1.2)"),
    ("DURAK_BOT_PAUSE", "-1", "one number (0.9) or a range low-high (0.7-1.2)"),
    ("DURAK_BOT_PAUSE", "0.7-", "one number (0.9) or a range low-high (0.7-1.2)"),
    ("DURAK_BOT_PAUSE", "nan", "one number (0.9) or a range low-high (0.7-1.2)"),
    ("BOT_API_BASE", "localhost:8081", "an http:// or https:// URL"),
    ("DURAK_DB", "/no/such/folder/durak.sqlite3", "a file in an existing folder"),
]


@pytest.mark.parametrize(("name", "value", "accepts"), BAD_VALUES)
def test_a_bad_value_is_one_line_naming_the_variable_and_exit_2(
    name: str,
    value: str,
    accepts: str,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    from bot.__main__ import main

    monkeypatch.setenv("BOT_TOKEN", TOKEN)
    monkeypatch.setenv(name, value)
    assert main() == 2
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"error: {name} must be "), lines
    assert accepts in lines[0] and repr(value) in lines[0]


def test_a_nan_port_ends_the_process_with_one_line_not_a_traceback() -> None:
    env = {"PATH": "/usr/bin:/bin", "BOT_TOKEN": TOKEN, "DURAK_WEBHOOK_PORT": "nan"}
    done = subprocess.run(
        [sys.executable, "-m", "bot"], env=env, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 2 and done.stderr.splitlines() == [
        "error: DURAK_WEBHOOK_PORT must be a whole number (0-65535), not 'nan'"
    ]


def test_computer_players_workers_and_pause() -> None:
    base = {"BOT_TOKEN": TOKEN}
    default = Config.from_env(base)
    assert default.bot_workers == max(1, (os.cpu_count() or 1) - 1)
    assert default.bot_pause == (0.7, 1.2)
    config = Config.from_env({**base, "DURAK_BOT_WORKERS": "3", "DURAK_BOT_PAUSE": "0.9"})
    assert (config.bot_workers, config.bot_pause) == (3, (0.9, 0.9))
    assert Config.from_env({**base, "DURAK_BOT_PAUSE": "0"}).bot_pause == (0.0, 0.0)
    assert Config.from_env({**base, "DURAK_BOT_PAUSE": " 0.5 - 2 "}).bot_pause == (0.5, 2.0)
    assert Config.from_env({**base, "DURAK_CHAT_INTERVAL": "0"}).limits.per_chat == 0.0
    paced = Config.from_env({**base, "DURAK_CHAT_BURST": "1", "DURAK_GROUP_PER_MINUTE": "30"})
    assert (paced.limits.chat_burst, paced.limits.group_per_minute) == (1, 30)
    assert (default.limits.chat_burst, default.limits.group_per_minute) == (3, 20)


def test_the_health_endpoints_have_a_port_of_their_own_only_when_asked() -> None:
    base = {"BOT_TOKEN": TOKEN}
    default = Config.from_env(base)
    assert (default.metrics_host, default.metrics_port) == ("127.0.0.1", None)
    config = Config.from_env({**base, "DURAK_METRICS_PORT": "9108", "DURAK_METRICS_HOST": "::"})
    assert (config.metrics_host, config.metrics_port) == ("::", 9108)


def test_the_mini_app_needs_its_https_page_and_a_server_to_serve_it() -> None:
    base = {"BOT_TOKEN": TOKEN, "DURAK_DB": "/tmp/x.sqlite3"}
    assert Config.from_env(base).miniapp_url is None  # nothing of it by default
    link = "https://t.me/durak_bot/table"
    page = {"DURAK_MINIAPP_URL": "https://durak.example.org/app", "DURAK_MINIAPP_LINK": link}
    config = Config.from_env({**base, **page, "DURAK_METRICS_PORT": "9100"})
    assert (config.miniapp_url, config.miniapp_link) == (page["DURAK_MINIAPP_URL"], link)
    with pytest.raises(ConfigError, match="needs the bot's web server"):
        Config.from_env({**base, **page})  # polling, and no port to serve it on
    for url in ("http://durak.example.org/app", "https://durak.example.org/", "app"):
        with pytest.raises(ConfigError, match="DURAK_MINIAPP_URL must be"):
            Config.from_env({**base, "DURAK_MINIAPP_URL": url, "DURAK_METRICS_PORT": "9100"})
    for wrong in ("table", "https://t.me/durak_bot", "http://t.me/durak_bot/table"):
        with pytest.raises(ConfigError, match="DURAK_MINIAPP_LINK must be"):
            Config.from_env(
                {**base, **page, "DURAK_METRICS_PORT": "0", "DURAK_MINIAPP_LINK": wrong}
            )
    with pytest.raises(ConfigError, match="needs DURAK_MINIAPP_URL"):
        Config.from_env({**base, "DURAK_MINIAPP_LINK": link})
