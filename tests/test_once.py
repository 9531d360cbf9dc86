"""Each update acts once: in webhook mode it is answered 200 only once handled, and one
that Telegram sends again (after a webhook answer it did not get, or to a polling bot
restarted before it confirmed the update) changes nothing again."""

from __future__ import annotations

import asyncio
import sqlite3
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from aiogram import Bot
from aiogram.client.session.middlewares.base import (
    BaseRequestMiddleware,
    NextRequestMiddlewareType,
)
from aiogram.methods import AnswerCallbackQuery, TelegramMethod

from bot import webhook
from bot.app import App
from bot.callbacks import LobbyCb, LobbyOp
from bot.config import Config
from storage.handled import HandledRepo
from tests.backends import db_target
from tests.e2e_helpers import (
    TOKEN,
    choose,
    hand_message,
    open_table,
    running_bot,
    seat_everyone,
    settle,
    two_friends,
)
from tests.fakes import FakeMessage, FakeTelegram, FakeUser
from tests.test_webhook import free_port

URL = "https://durak.example.org/tg"


@asynccontextmanager
async def webhook_app(
    tg: FakeTelegram, db: str, patience: float = webhook.PATIENCE, limit: float = webhook.LIMIT
) -> AsyncIterator[tuple[App, str]]:
    """The bot in webhook mode on ``db``, and the address of its route, with the route's
    ``patience`` and ``limit`` (``bot.webhook``)."""
    port = free_port()
    config = Config.from_env(
        {
            "BOT_TOKEN": TOKEN,
            "DURAK_DB": db,
            "BOT_API_BASE": tg.base_url,
            "DURAK_WEBHOOK_URL": URL,
            "DURAK_WEBHOOK_PORT": str(port),
            "DURAK_WEBHOOK_SECRET": "once_Webhook-secret",
        }
    )
    limits = replace(config.limits, per_chat=0.0, group_per_minute=10**6)
    app = await App.create(replace(config, limits=limits, bot_pause=(0.0, 0.0)))
    await app.start()
    try:
        async with webhook.listening(app.config, app.dp, app.bot, patience=patience, limit=limit):
            yield app, f"http://127.0.0.1:{port}/tg"
    finally:
        await app.stop()


async def test_a_webhook_update_is_answered_once_its_change_is_committed(
    tg: FakeTelegram, tmp_path: Path
) -> None:
    anna, _, group = two_friends(tg)
    async with webhook_app(tg, str(tmp_path / "db.sqlite3")) as (app, address):
        assert await tg.deliver_to_webhook(address) == [200, 200]  # their /start
        await tg.send_text(anna, group, "/durak")
        assert await tg.deliver_to_webhook(address) == [200]
        # before: answered at once, the table written later in the background
        assert await app.tables.in_chat(group.id) is not None
        lobby = await tg.wait_for_message(group, lambda m: "Стол для игры" in (m.text or ""))
        tg.inject_fault("timeout", methods=["answerCallbackQuery"], delay=1.0)
        press = await tg.press(anna, lobby, LobbyCb(table=1, op=LobbyOp.SET, arg="seats").pack())
        assert await tg.deliver_to_webhook(address) == [200]
        assert press.answered  # in the 200 (``bot.replies``), not by a call, which would hang
        assert (await press).text == "Теперь: 3 места."
        assert tg.calls_to("answerCallbackQuery")[-1].replied and tg.faults == 0


async def test_a_webhook_update_sent_again_acts_once(tg: FakeTelegram, tmp_path: Path) -> None:
    anna, _, group = two_friends(tg)
    async with webhook_app(tg, str(tmp_path / "db.sqlite3")) as (app, address):
        await tg.send_text(anna, group, "/durak")
        assert await tg.deliver_to_webhook(address) == [200, 200, 200]
        lobby = await tg.wait_for_message(group, lambda m: "Стол для игры" in (m.text or ""))
        press = await tg.press(anna, lobby, LobbyCb(table=1, op=LobbyOp.SET, arg="seats").pack())
        assert await tg.deliver_to_webhook(address) == [200]
        assert (await press).text == "Теперь: 3 места."
        for update in tg.updates[-2:]:  # Telegram did not get the answers: it sends both again
            tg.send_again(update["update_id"])
        assert await tg.deliver_to_webhook(address) == [200, 200]
        await tg.wait_quiet(0.3)
        table = await app.tables.in_chat(group.id)
        assert table is not None and table.settings.seats == 3  # not 4
        lobbies = [m for m in tg.messages(group) if "Стол для игры" in (m.text or "")]
        assert lobbies == [lobby]  # not a second lobby either
        assert app.once.repeats == 2
        assert tg.count("answerCallbackQuery") == 2  # the second refused: answered already
    assert tg.internal_errors == []


@pytest.mark.usefixtures("backend")
async def test_a_press_sent_again_to_a_restarted_polling_bot_acts_once(
    tg: FakeTelegram, tmp_path: Path
) -> None:
    db = await db_target(tmp_path / "db.sqlite3")
    anna, boris, group = two_friends(tg)
    async with running_bot(tg, db) as app:
        await open_table(tg, app, group, anna)
        opened = tg.updates[-1]["update_id"]  # /durak
        await seat_everyone(tg, app, group, [anna, boris])
        (game,) = app.service.game_ids()
        user, hand, data = next(
            (u, h, d) for u in (anna, boris) if (h := hand_message(tg, u)) and (d := choose(tg, h))
        )
        press = await tg.press(user, hand, data)
        assert (await press).text is None  # a move, made
        await settle(app)
        moves = len((await app.service.rebuild_from_log(game)).history)
        posted = len(tg.messages(group))
    # The bot stopped before it confirmed them (by its next getUpdates): Telegram sends
    # /durak and the press again to the bot started anew.
    tg.send_again(opened)
    tg.send_again(press.update_id)
    async with running_bot(tg, db) as again:
        await tg.wait_for(lambda: again.once.repeats == 2, what="both taken, not again")
        assert await again.inflight.settle(5)
        await settle(again)
        assert len((await again.service.rebuild_from_log(game)).history) == moves
        assert len(tg.messages(group)) == posted  # not the table's settings again
        assert await HandledRepo(again.db).seen(press.update_id)
    assert tg.internal_errors == []


class LateAnswers(BaseRequestMiddleware):
    """A session middleware: each press's answer asked for a second late."""

    async def __call__(
        self, make_request: NextRequestMiddlewareType[Any], bot: Bot, method: TelegramMethod[Any]
    ) -> Any:
        if isinstance(method, AnswerCallbackQuery):
            await asyncio.sleep(1.0)
        return await make_request(bot, method)


async def a_lobby(tg: FakeTelegram, address: str) -> tuple[FakeUser, FakeMessage]:
    anna, _, group = two_friends(tg)
    await tg.send_text(anna, group, "/durak")
    assert await tg.deliver_to_webhook(address) == [200, 200, 200]
    return anna, await tg.wait_for_message(group, lambda m: "Стол для игры" in (m.text or ""))


async def test_a_slow_update_is_answered_once_its_change_is_committed(
    tg: FakeTelegram, tmp_path: Path
) -> None:
    db = str(tmp_path / "db.sqlite3")
    async with webhook_app(tg, db, patience=0.5, limit=30) as (app, address):
        anna, lobby = await a_lobby(tg, address)
        app.bot.session.middleware(LateAnswers())  # past the patience: not in the 200
        tg.inject_fault("timeout", count=3, methods=["answerCallbackQuery"], delay=30)
        await tg.press(anna, lobby, LobbyCb(table=1, op=LobbyOp.SET, arg="seats").pack())
        began = time.monotonic()
        assert await tg.deliver_to_webhook(address) == [200]
        assert time.monotonic() - began < 5
        table = await app.tables.in_chat(lobby.chat.id)
        assert table is not None and table.settings.seats == 3
        await tg.wait_for(lambda: tg.faults == 1, what="its answer, a call of its own, tried")
        assert not tg.calls_to("answerCallbackQuery")[-1].replied


async def test_an_update_that_commits_nothing_in_time_is_given_back_and_acts_once(
    tg: FakeTelegram, tmp_path: Path
) -> None:
    db = str(tmp_path / "db.sqlite3")
    async with webhook_app(tg, db, patience=0.5, limit=1.5) as (app, address):
        anna, lobby = await a_lobby(tg, address)
        holder = sqlite3.connect(db, isolation_level=None)
        holder.execute("BEGIN IMMEDIATE")  # the database busy: nothing commits
        press = await tg.press(anna, lobby, LobbyCb(table=1, op=LobbyOp.SET, arg="seats").pack())
        assert await tg.deliver_to_webhook(address) == [503]  # Telegram will send it again
        holder.execute("ROLLBACK")  # the first handling goes on, and commits
        holder.close()
        assert (await press.wait_answer(10)).text == "Теперь: 3 места."
        assert await tg.deliver_to_webhook(address) == [200]
        table = await app.tables.in_chat(lobby.chat.id)
        assert table is not None and table.settings.seats == 3  # once
        assert app.once.repeats == 1
