"""Webhook mode end to end: setWebhook with a secret, updates POSTed to the bot's own
server (refused without the right secret), answers through the fake Bot API; then
back to polling."""

from __future__ import annotations

import asyncio
import socket
from dataclasses import replace
from pathlib import Path

from bot.app import App
from bot.callbacks import LobbyCb, LobbyOp
from bot.config import Config
from tests.e2e_helpers import TOKEN, latest, running_bot
from tests.fakes import ChatRef, FakeTelegram

URL = "https://durak.example.org/tg/updates"
SECRET = "s3cret_Webhook-token"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def bot_messages(tg: FakeTelegram, chat: ChatRef) -> list[str | None]:
    return [m.text for m in tg.messages(chat) if m.from_user is tg.bot_user]


async def test_webhook_mode_answers_only_requests_with_the_secret(
    tg: FakeTelegram, tmp_path: Path
) -> None:
    anna = tg.add_user(1, "Аня")
    group = tg.add_group(-100, "Друзья", members=[anna])
    port = free_port()
    config = Config.from_env(
        {
            "BOT_TOKEN": TOKEN,
            "DURAK_DB": str(tmp_path / "db.sqlite3"),
            "BOT_API_BASE": tg.base_url,
            "DURAK_WEBHOOK_URL": URL,
            "DURAK_WEBHOOK_PORT": str(port),
            "DURAK_WEBHOOK_SECRET": SECRET,
        }
    )
    app = await App.create(replace(config, limits=replace(config.limits, per_chat=0.0)))
    running = asyncio.create_task(app.run())
    try:
        call = await tg.wait_for_call("setWebhook")
        assert call.ok and tg.webhook_url == URL
        assert call.params["secret_token"] == SECRET
        assert call.params["max_connections"] == 100  # Telegram's most
        assert {"message", "callback_query", "my_chat_member"} <= set(
            call.params["allowed_updates"]
        )
        assert tg.count("getUpdates") == 0 and tg.count("deleteWebhook") == 0
        address = f"http://127.0.0.1:{port}/tg/updates"

        tg.start_private(anna)
        await tg.send_text(anna, group, "/durak")
        assert await tg.deliver_to_webhook(address, secret="wrong") == [401, 401]
        assert await tg.deliver_to_webhook(address, secret="") == [401, 401]
        await asyncio.sleep(0.2)
        assert bot_messages(tg, group) == [] and bot_messages(tg, anna) == []
        assert await app.tables.in_chat(group.id) is None
        assert len(tg.pending_updates) == 2  # Telegram would retry them

        assert await tg.deliver_to_webhook(address) == [200, 200]
        lobby = await tg.wait_for_message(group, lambda m: "Стол для игры" in (m.text or ""))
        press = await tg.press(anna, lobby, LobbyCb(table=1, op=LobbyOp.JOIN).pack())
        assert await tg.deliver_to_webhook(address) == [200]
        assert (await press).text == "Вы за столом!"
        assert tg.calls_to("answerCallbackQuery")[-1].replied  # in the 200 (``bot.replies``)
        await tg.wait_for(lambda: "Аня" in (latest(tg, group).text or ""))
    finally:
        running.cancel()
        await asyncio.gather(running, return_exceptions=True)
    assert running.cancelled() and tg.internal_errors == []

    async with running_bot(tg, tmp_path / "db.sqlite3"):  # polling again: webhook dropped
        assert tg.webhook_url is None and tg.count("deleteWebhook") == 1
        await tg.send_text(anna, group, "правила")
        await tg.wait_for_message(group, lambda m: "Правила" in m.text)
        press = await tg.press(anna, lobby, LobbyCb(table=1, op=LobbyOp.LEAVE).pack())
        assert (await press).text is not None  # a call of its own: no webhook to answer
        assert not tg.calls_to("answerCallbackQuery")[-1].replied
