"""The example deployment (compose.yaml, docs/deploy/nginx.conf) fits the bot: its
settings are accepted and make the processes share the database, and the proxy sends
the webhook's path to every bot service, on the port they listen on, waits for an update
longer than a process holds it, and keeps a connection for each one Telegram posts."""

from __future__ import annotations

import re
from pathlib import Path

from bot.config import Config
from bot.webhook import CONNECTIONS, LIMIT

ROOT = Path(__file__).parent.parent


def bot_environment(compose: str) -> dict[str, str]:
    block = compose.split("  environment:\n", 1)[1].split("\n  depends_on:", 1)[0]
    env = {}
    for line in block.splitlines():
        name, _, value = line.strip().partition(": ")
        value = value.split("  #", 1)[0].strip().strip('"')
        env[name] = re.sub(r"\$\{(\w+):\?[^}]*\}", lambda m: f"x{m.group(1).lower()}", value)
    return env


def test_the_compose_example_runs_shared_webhook_processes_behind_nginx() -> None:
    compose = (ROOT / "compose.yaml").read_text()
    nginx = (ROOT / "docs/deploy/nginx.conf").read_text()
    env = bot_environment(compose)
    env["BOT_TOKEN"] = "123456789:" + "A" * 35
    config = Config.from_env(env)
    assert config.shared and config.webhook_host == "0.0.0.0"
    assert f"location = {config.webhook_path} " in nginx
    bots = re.findall(r"^  (bot\d+): \*bot$", compose, re.M)
    assert len(bots) >= 2
    upstreams = re.findall(r"^\s+server (\S+) ", nginx, re.M)
    assert upstreams == [f"{b}:{config.webhook_port}" for b in bots]
    read_timeout = re.search(r"proxy_read_timeout (\d+)s;", nginx)
    assert read_timeout is not None and int(read_timeout[1]) > LIMIT  # the bot answers first
    keepalive = re.search(r"keepalive (\d+);", nginx)
    assert keepalive is not None and int(keepalive[1]) >= CONNECTIONS
    assert "./docs/deploy/nginx.conf:/etc/nginx/nginx.conf" in compose
    assert (ROOT / "docs/deploy/Dockerfile").exists()
