"""Stopping the bot lets the presses in hand finish, and confirms them to Telegram only
then (``bot.polling``): a process that died before would be sent them again."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path

import pytest

from bot.app import App
from bot.config import Config
from bot.outbox import Limits
from storage.connect import open_database
from storage.repos import GameRepo
from tests.e2e_helpers import (
    TOKEN,
    choose,
    hand_message,
    open_table,
    polling,
    seat_everyone,
    two_friends,
)
from tests.fakes import FakeTelegram
from tests.service_helpers import held


async def test_a_press_in_hand_at_shutdown_is_finished_first(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING)
    db = tmp_path / "db.sqlite3"
    limits = Limits(per_chat=0.0, group_per_minute=10**6, per_second=10**6)
    async with FakeTelegram(token=TOKEN) as tg:
        anna, boris, group = two_friends(tg)
        config = Config(token=TOKEN, db_path=str(db), api_base=tg.base_url, limits=limits)
        app = await App.create(config)
        await app.start()
        async with polling(app, tg):
            await open_table(tg, app, group, anna)
            await seat_everyone(tg, app, group, [anna, boris])
            game = app.service.game_of(1)
            live = held(app.service, game) if game is not None else None
            assert game is not None and live is not None
            attacker = (anna, boris)[live.seats[live.state.attacker].user_id == boris.id]
            message = hand_message(tg, attacker)
            assert message is not None
            data = choose(tg, message)
            assert data is not None
            await live.lock.acquire()  # the press will wait inside its handler
            press = await tg.press(attacker, message, data)
            await tg.wait_for(lambda: app.inflight.count == 1, what="the press in hand")
            await asyncio.sleep(1.0)  # polling goes on meanwhile, and does not confirm it
            assert [u["update_id"] for u in tg.pending_updates] == [press.update_id]
            asyncio.get_running_loop().call_later(0.3, live.lock.release)
        # Polling stopped once the press was handled, and confirmed it then.
        assert app.inflight.count == 0 and tg.pending_updates == []
        await app.stop()
        answer = await asyncio.wait_for(press, 5)
        assert answer is not None and not answer.show_alert
    assert not [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
    reopened = await open_database(db)
    assert len(await GameRepo(reopened).actions(game)) == 1  # the move was committed
    await reopened.close()
