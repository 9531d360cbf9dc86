"""The fake Telegram server at the Bot API's own level: long polling's offsets and
conflicts, a restart, the chat queries, plain HTTP and the group privacy mode."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import aiohttp
import pytest
from aiogram import Bot, Dispatcher
from aiogram.exceptions import (
    TelegramBadRequest,
    TelegramConflictError,
    TelegramForbiddenError,
)
from aiogram.methods import GetUpdates
from aiogram.types import (
    BotCommand,
    BotCommandScopeAllGroupChats,
    Update,
)

from tests.fakes import FakeMessage, FakeTelegram, run_polling
from tests.test_fake_telegram import make_router


async def test_long_polling_offsets_timeouts_and_conflicts(server: FakeTelegram, bot: Bot) -> None:
    anna = server.add_user(1, "Анна")
    assert await bot(GetUpdates(timeout=0)) == []
    started = time.monotonic()
    assert await bot(GetUpdates(timeout=1)) == []
    assert 0.9 <= time.monotonic() - started < 2.0

    async def later() -> None:
        await asyncio.sleep(0.05)
        await server.send_text(anna, anna, "раз")

    started = time.monotonic()
    task = asyncio.create_task(later())
    updates = await bot(GetUpdates(timeout=10))
    await task
    assert time.monotonic() - started < 1.0
    assert [u.message.text for u in updates if u.message] == ["раз"]
    first = updates[0].update_id
    assert [u.update_id for u in await bot(GetUpdates(timeout=0))] == [first]  # not confirmed
    await server.send_text(anna, anna, "два")
    updates = await bot(GetUpdates(offset=first + 1, timeout=0))
    assert [u.update_id for u in updates] == [first + 1]
    assert [u["update_id"] for u in server.pending_updates] == [first + 1]

    # allowed_updates: other types are dropped, as Telegram does. Blocking and
    # writing again (which unblocks) give two my_chat_member updates.
    server.block(anna)
    await server.send_text(anna, anna, "три")
    updates = await bot(GetUpdates(offset=first + 2, timeout=0, allowed_updates=["message"]))
    assert [u.message.text for u in updates if u.message] == ["три"]
    assert [u["update_id"] for u in server.dropped_updates] == [first + 2, first + 3]

    # A second poller ends the first with 409.
    waiting = asyncio.create_task(bot(GetUpdates(offset=first + 5, timeout=5)))
    await server.wait_for(lambda: server.count("getUpdates") == 7)
    assert await bot(GetUpdates(offset=first + 5, timeout=0)) == []
    with pytest.raises(TelegramConflictError, match="terminated by other getUpdates"):
        await waiting


async def test_restarted_bot_gets_updates_queued_meanwhile(server: FakeTelegram) -> None:
    anna = server.add_user(1, "Анна", started=True)
    for round_ in range(2):
        log: list[tuple[Any, ...]] = []
        dp = Dispatcher()
        dp.include_router(make_router(log))
        async with run_polling(dp, server.make_bot(), server):
            await server.send_text(anna, anna, f"ход {round_}")

            def echoed(m: FakeMessage, r: int = round_) -> bool:
                return m.text == f"Эхо: ход {r}"

            await server.wait_for_message(anna, echoed)
        await server.send_text(anna, anna, f"пока бот спит {round_}")
    await asyncio.sleep(0)
    texts = [m.text for m in server.messages(anna) if m.from_user.is_bot]
    assert texts == ["Эхо: ход 0", "Эхо: пока бот спит 0", "Эхо: ход 1"]


async def test_chat_queries_and_commands_match_aiogram_models(
    server: FakeTelegram, bot: Bot
) -> None:
    anna = server.add_user(1, "Анна", username="anna")
    boris = server.add_user(2, "Борис", language_code="en")
    vera = server.add_user(3, "Вера")
    group = server.add_group(-10, "Друзья", members=[anna, boris], admins=[vera], bot_admin=True)

    me = await bot.get_me()
    assert (me.id, me.username, me.is_bot) == (42, "durak_test_bot", True)
    chat = await bot.get_chat(group.id)
    assert (chat.id, chat.type, chat.title) == (-10, "group", "Друзья")
    statuses = {uid: (await bot.get_chat_member(group.id, uid)).status for uid in (1, 2, 3, 42)}
    assert statuses == {1: "creator", 2: "member", 3: "administrator", 42: "administrator"}
    admins = await bot.get_chat_administrators(group.id)
    assert sorted(a.user.id for a in admins) == [1, 3, 42]
    private = await bot.get_chat(anna.id)
    assert (private.type, private.username) == ("private", "anna")
    with pytest.raises(TelegramBadRequest, match="chat not found"):
        await bot.get_chat(-999)

    commands = [BotCommand(command="durak", description="Открыть стол")]
    assert await bot.set_my_commands(commands, scope=BotCommandScopeAllGroupChats())
    assert await bot.get_my_commands() == []
    got = await bot.get_my_commands(scope=BotCommandScopeAllGroupChats())
    assert [(c.command, c.description) for c in got] == [("durak", "Открыть стол")]
    assert server.commands({"type": "all_group_chats"}) == [
        {"command": "durak", "description": "Открыть стол"}
    ]
    assert await bot.delete_webhook(drop_pending_updates=True)
    assert await bot.pin_chat_message(group.id, 1)  # unknown to the fake: recorded, ok
    assert server.unknown_methods == ["pinChatMessage"]
    assert await bot.leave_chat(group.id)
    assert group.bot_status == "left"
    with pytest.raises(TelegramForbiddenError, match="not a member of the group chat"):
        await bot.send_message(group.id, "x")
    update = Update.model_validate(server.updates[-1])
    assert update.my_chat_member is not None
    assert update.my_chat_member.new_chat_member.status == "left"


async def test_plain_http_json_get_and_bad_token(server: FakeTelegram) -> None:
    anna = server.add_user(1, "Анна", started=True)
    async with aiohttp.ClientSession() as http:
        async with http.get(f"{server.base_url}/bot42:TEST/getme") as response:
            body = await response.json()
            assert body["ok"] and body["result"]["id"] == 42
        url = f"{server.base_url}/bot42:TEST/sendMessage"
        markup = {"inline_keyboard": [[{"text": "A", "callback_data": "a"}]]}
        payload = {"chat_id": anna.id, "text": "hi", "reply_markup": markup}
        async with http.post(url, json=payload) as response:
            body = await response.json()
            assert body["result"]["reply_markup"] == markup
        async with http.post(f"{server.base_url}/bot1:WRONG/getMe") as response:
            assert response.status == 401
            assert await response.json() == {
                "ok": False,
                "error_code": 401,
                "description": "Unauthorized",
            }
    last = server.latest_message(anna)
    assert last is not None and server.keyboard(last) == [[("A", "a")]]


async def test_privacy_mode_hides_plain_group_text() -> None:
    async with FakeTelegram(privacy_mode=True) as server:
        anna = server.add_user(1, "Анна")
        group = server.add_group(-10, "Друзья", members=[anna])
        await server.send_text(anna, group, "дурак")
        await server.send_text(anna, group, "/durak")
        admin_group = server.add_group(-20, "Админы", members=[anna], bot_admin=True)
        await server.send_text(anna, admin_group, "дурак")
        texts = [u["message"]["text"] for u in server.pending_updates]
        assert texts == ["/durak", "дурак"]
        assert len(server.messages(group)) == 2
