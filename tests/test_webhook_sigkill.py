"""No press lost when a process dies holding it: two ``python -m bot`` webhook processes
(on PostgreSQL side by side, on a SQLite file one after the other), the test playing
Telegram and its proxy. A press is POSTed to the first, which is SIGKILLed before
Telegram has its 200: after its move was committed (the 200, with the press's answer
in it, lost on the way), or before (the database held it up). Telegram got no 200, so
it sends the press again, to the second process: the move is made once and the player
gets one answer."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import aiohttp
import asyncpg
import pytest

from bot.callbacks import LobbyCb, LobbyOp
from bot.webhook import SECRET_HEADER
from storage.connect import open_database
from storage.db import is_url
from tests.backends import db_target
from tests.e2e_helpers import TOKEN, choose, hand_message, two_friends
from tests.fakes import FakeTelegram, FakeUser, PressHandle
from tests.test_main import STARTUP, stop
from tests.test_multi_processes import webhook_bot
from tests.test_webhook import free_port

pytestmark = pytest.mark.usefixtures("backend")

SETTINGS = {"DURAK_BOT_PAUSE": "0", "DURAK_BOT_WORKERS": "1"}
WAIT = 60.0  # seconds for any one thing to happen; generous, the machine may be busy
HELD = 1.5  # seconds the first process waits for the database before it is killed


class Bot:
    """One ``python -m bot`` process in webhook mode."""

    def __init__(self, process: asyncio.subprocess.Process, log: Path, port: int) -> None:
        self.process, self.log, self.port = process, log, port

    @property
    def address(self) -> str:
        return f"http://127.0.0.1:{self.port}/tg"

    def said(self) -> str:
        return self.log.read_text()


async def started(tg: FakeTelegram, tmp_path: Path, db: str, name: str) -> Bot:
    """A process, once it has set its webhook."""
    webhooks, port = tg.count("setWebhook"), free_port()
    process, log = await webhook_bot(tmp_path, tg.base_url, db, port, name, SETTINGS)

    def up() -> bool:
        assert process.returncode is None, f"{name} exited:\n{log.read_text()}"
        return tg.count("setWebhook") > webhooks

    await tg.wait_for(up, STARTUP, what=f"{name}'s setWebhook")
    return Bot(process, log, port)


async def deliver(tg: FakeTelegram, bot: Bot) -> None:
    """Every pending update to ``bot``, each answered 200."""
    while tg.pending_updates:
        assert await tg.deliver_to_webhook(bot.address, limit=1) == [200]


async def a_game(tg: FakeTelegram, bot: Bot) -> tuple[FakeUser, str]:
    """Аня and Борис sit down at a table of two: the game starts; who opens, and the
    card they play."""
    anna, boris, group = two_friends(tg)
    await tg.send_text(anna, group, "/durak")
    await deliver(tg, bot)
    lobby = await tg.wait_for_message(group, lambda m: "Стол для игры" in (m.text or ""), WAIT)
    for user in (anna, boris):
        press = await tg.press(user, lobby, LobbyCb(table=1, op=LobbyOp.JOIN).pack())
        await deliver(tg, bot)
        assert (await press.wait_answer(WAIT)).text == "Вы за столом!"
    await tg.wait_for(lambda: hand_message(tg, anna) and hand_message(tg, boris), WAIT)
    await tg.wait_quiet(0.3, WAIT)
    user, data = next(
        (u, d) for u in (anna, boris) if (h := hand_message(tg, u)) and (d := choose(tg, h))
    )
    return user, data


@asynccontextmanager
async def database_held(db: str) -> AsyncIterator[None]:
    """No step commits until the block ends: SQLite's write lock, or the game's row."""
    if not is_url(db):
        holder = sqlite3.connect(db, isolation_level=None)
        holder.execute("BEGIN IMMEDIATE")
        try:
            yield
        finally:
            holder.execute("ROLLBACK")
            holder.close()
        return
    conn = await asyncpg.connect(db)
    try:
        async with conn.transaction():
            await conn.execute("SELECT id FROM games FOR UPDATE")
            yield
    finally:
        await conn.close()


async def posted_and_lost(tg: FakeTelegram, bot: Bot) -> tuple[int, dict[str, Any]]:
    """The next update POSTed to ``bot`` as by a proxy whose way back to Telegram broke:
    the bot's answer (its status and body returned) never reaches Telegram, which still
    has the update to send, and carries out no call named in it."""
    secret = tg.calls_to("setWebhook")[-1].params.get("secret_token")
    headers = {SECRET_HEADER: secret} if secret else {}
    async with (
        aiohttp.ClientSession() as session,
        session.post(bot.address, json=tg.pending_updates[0], headers=headers) as response,
    ):
        return response.status, await response.json()


async def killed(bot: Bot) -> None:
    bot.process.kill()
    await bot.process.wait()


@pytest.mark.parametrize("when", ["after_commit", "before_commit"])
async def test_a_press_held_by_a_killed_process_is_made_once_and_answered_once(
    tmp_path: Path, when: str
) -> None:
    db = await db_target(tmp_path / "db.sqlite3")
    shared = is_url(db)
    async with FakeTelegram(token=TOKEN) as tg:
        first = await started(tg, tmp_path, db, "first")
        second = await started(tg, tmp_path, db, "second") if shared else None
        try:
            user, data = await a_game(tg, first)
            hand = hand_message(tg, user)
            assert hand is not None
            press = await tg.press(user, hand, data)
            if when == "after_commit":
                status, lost = await posted_and_lost(tg, first)
                assert status == 200 and lost["method"] == "answerCallbackQuery"  # made
                await killed(first)
            else:
                async with database_held(db):
                    posting = asyncio.create_task(tg.deliver_to_webhook(first.address, limit=1))
                    await asyncio.sleep(HELD)
                    await killed(first)
                    with pytest.raises(aiohttp.ClientError):  # no 200: Telegram keeps it
                        await posting
            assert [u["update_id"] for u in tg.pending_updates] == [press.update_id]
            if second is None:  # one process at a time on a SQLite file
                second = await started(tg, tmp_path, db, "second")
            assert await tg.deliver_to_webhook(second.address) == [200]
            answer = await press.wait_answer(WAIT)
            assert answer.text is None  # a made move's answer: none
            await tg.wait_quiet(0.5, WAIT)
        finally:
            for bot in (first, second):
                if bot is not None:
                    await stop(bot.process)
        assert answered(tg, press) == [True]
    moves = await human_moves(db)
    assert moves == [1], moves  # the press, made once
    again = "was handled already" in second.said()
    assert again == (when == "after_commit"), second.said()
    assert "Traceback" not in second.said()


def answered(tg: FakeTelegram, press: PressHandle) -> list[bool]:
    """Whether each answer the bot gave to the press went through."""
    calls = tg.calls_to("answerCallbackQuery")
    return [c.ok for c in calls if c.params.get("callback_query_id") == press.query_id]


async def human_moves(db: str) -> list[int]:
    """The numbers of the moves people made (not the computer's or the timer's)."""
    database = await open_database(db)
    try:
        moves = await database.fetch_all("SELECT seq, auto FROM actions ORDER BY seq")
    finally:
        await database.close()
    return [int(m[0]) for m in moves if not m[1]]
