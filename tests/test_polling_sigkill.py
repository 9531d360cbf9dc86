"""No press lost when a polling process dies holding it: ``python -m bot`` polls the
emulator on a SQLite file and is SIGKILLed while a press is in hand, after its move was
committed (its answer was on its way) or before (the database held it up). The press
was never confirmed to Telegram (``bot.polling``), so the next process is sent it: the
move is made once and the player gets an answer."""

from __future__ import annotations

import asyncio
import contextlib
from pathlib import Path

import pytest

from bot.callbacks import LobbyCb, LobbyOp
from tests.e2e_helpers import TOKEN, choose, hand_message, two_friends
from tests.fakes import FakeTelegram, FakeUser
from tests.test_main import spawn, stop, wait_until_polling
from tests.test_webhook_sigkill import HELD, WAIT, answered, database_held, human_moves

pytestmark = pytest.mark.sqlite_only  # a file, one process at a time


async def a_game(tg: FakeTelegram) -> tuple[FakeUser, str]:
    """Аня and Борис sit down at a table of two: who opens, and the card they play."""
    anna, boris, group = two_friends(tg)
    await tg.send_text(anna, group, "/durak")
    lobby = await tg.wait_for_message(group, lambda m: "Стол для игры" in (m.text or ""), WAIT)
    for user in (anna, boris):
        press = await tg.press(user, lobby, LobbyCb(table=1, op=LobbyOp.JOIN).pack())
        assert (await press.wait_answer(WAIT)).text == "Вы за столом!"
    await tg.wait_for(lambda: hand_message(tg, anna) and hand_message(tg, boris), WAIT)
    await tg.wait_quiet(0.3, WAIT)
    return next(
        (u, d) for u in (anna, boris) if (h := hand_message(tg, u)) and (d := choose(tg, h))
    )


@pytest.mark.parametrize("when", ["after_commit", "before_commit"])
async def test_a_press_held_by_a_killed_polling_process_is_made_once_and_answered(
    tmp_path: Path, when: str
) -> None:
    db = str(tmp_path / "db.sqlite3")
    async with FakeTelegram(token=TOKEN) as tg:
        first, log = await spawn(tmp_path, tg.base_url, "first.log", db)
        second = None
        try:
            await wait_until_polling(tg, first, log)
            user, data = await a_game(tg)
            hand = hand_message(tg, user)
            assert hand is not None
            held = database_held(db) if when == "before_commit" else contextlib.nullcontext()
            async with held:
                if when == "after_commit":  # its answer to the press hangs: it was made
                    tg.inject_fault("timeout", methods=["answerCallbackQuery"], delay=WAIT)
                press = await tg.press(user, hand, data)
                if when == "after_commit":
                    await tg.wait_for(lambda: tg.faults == 1, WAIT, what="the press's answer")
                else:
                    await asyncio.sleep(HELD)
                polls = tg.count("getUpdates")
                await tg.wait_for(lambda: tg.count("getUpdates") > polls, WAIT)  # (it asks on)
                first.kill()
                await first.wait()
            assert [u["update_id"] for u in tg.pending_updates] == [press.update_id]
            second, log = await spawn(tmp_path, tg.base_url, "second.log", db)
            answer = await press.wait_answer(WAIT)
            assert answer.text is None  # a made move's answer: none
            await tg.wait_quiet(0.5, WAIT)
            assert tg.pending_updates == []
        finally:
            for process in (first, second):
                if process is not None:
                    await stop(process)
        assert answered(tg, press) == ([False, True] if when == "after_commit" else [True])
    assert await human_moves(db) == [1]  # the press, made once
    said = log.read_text()
    assert ("was handled already" in said) == (when == "after_commit"), said
    assert "Traceback" not in said
