"""Logs: one line per event with the table and game ids, never a secret; a failing
handler does not stop the bot."""

from __future__ import annotations

import io
import logging
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace

import pytest
from aiogram import F
from aiogram.exceptions import TelegramNetworkError
from aiogram.methods import SendMessage
from aiogram.types import CallbackQuery, Message, User
from aiohttp import ClientOSError

from bot import logs
from bot.callbacks import CardCb, CheatCb, MoveCb, PageCb, PageName
from bot.outbox_jobs import why
from service import FakeClock
from service.logctx import log_scope
from tests.e2e_helpers import (
    TOKEN,
    hand_of,
    open_table,
    play_round,
    running_bot,
    seat_everyone,
    settle,
    two_friends,
)
from tests.fakes import FakeTelegram


@pytest.fixture
def stream() -> Iterator[io.StringIO]:
    """Everything logged during the test, formatted as the bot writes it to stderr."""
    out = io.StringIO()
    loggers = [logging.getLogger(name) for name in ("", "aiogram.event", "aiosqlite")]
    levels = [logger.level for logger in loggers]
    handler = logs.setup("DEBUG", [TOKEN, "webhook-secret"], out)
    yield out
    loggers[0].removeHandler(handler)
    for logger, level in zip(loggers, levels, strict=True):
        logger.setLevel(level)


def test_lines_carry_the_ids_of_their_scope_and_hide_secrets(stream: io.StringIO) -> None:
    log = logging.getLogger("durak.test")
    log.info("outside")
    with log_scope(table=3):
        log.info("lobby")
        with log_scope(game=7):
            log.warning("token %s and webhook-secret leaked", TOKEN)
    lines = stream.getvalue().splitlines()
    assert len(lines) == 3
    assert lines[0].endswith(" INFO durak.test: outside")
    assert lines[1].endswith(" INFO durak.test table=3: lobby")
    assert lines[2].endswith(
        " WARNING durak.test table=3 game=7: token <hidden> and <hidden> leaked"
    )


def test_a_failed_call_is_told_without_the_token() -> None:
    url = f"http://127.0.0.1:8081/bot{TOKEN}/sendMessage"
    lost = ClientOSError(None, f"Can not write request body for {url}")
    wrapped = TelegramNetworkError(SendMessage(chat_id=1, text="x"), f"ClientOSError: {lost}")
    for error in (lost, wrapped):
        told = why(error)
        assert TOKEN not in told and "/bot<hidden>/sendMessage" in told


async def test_a_game_can_be_followed_by_its_ids_and_errors_do_not_stop_the_bot(
    tmp_path: Path, stream: io.StringIO, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    clock = FakeClock()

    async def boom(event: Message | CallbackQuery) -> None:
        raise RuntimeError("the handler broke")

    async with FakeTelegram(token=TOKEN) as tg:
        anna, boris, group = two_friends(tg)
        async with running_bot(tg, tmp_path / "db.sqlite3", clock) as app:
            app.dp.message.register(boom, F.text == "сломайся")
            await open_table(tg, app, group, anna)
            await seat_everyone(tg, app, group, [anna, boris])
            await play_round(tg, app, [anna, boris])
            clock.advance(31)
            await app.service.fire_due()
            await settle(app)
            app.dp.callback_query.register(boom, F.data.startswith("c:"))
            answer = await (
                await tg.press(
                    anna,
                    hand_of(tg, anna),
                    CardCb(game=1, card="6S", k="0" * 8).pack(),
                    forge=True,
                )
            )
            assert answer.text == "Что-то пошло не так. Попробуйте ещё раз."
            await tg.send_text(anna, group, "сломайся")
            await tg.send_text(anna, group, "правила")  # the next update is still handled
            await tg.wait_for_message(group, lambda m: "Правила" in (m.text or ""))
    lines = stream.getvalue().splitlines()
    assert TOKEN not in stream.getvalue() and TOKEN not in caplog.text
    assert TOKEN.split(":")[1] not in caplog.text
    assert all(len(line) > 20 and line[:4].isdigit() for line in lines)  # one line per event
    failed = [line for line in lines if "failed" in line and "the handler broke" in line]
    assert len(failed) == 2 and all(" table=1 game=1: " in line for line in failed)
    started = next(line for line in lines if "game 1 started" in line)
    assert " table=1 game=1: " in started
    timeout = next(line for line in lines if "timeout at version" in line)
    assert " table=1 game=1: " in timeout
    pressed = next(line for line in lines if "table 1: game 1 started" in line)
    assert " table=1" in pressed  # the lobby's «Начать»: the game had no id yet


@pytest.mark.parametrize(
    "data",
    [
        CardCb(game=7, card="6S", k="0123abcd").pack(),
        MoveCb(game=7, a="take", k="0123abcd").pack(),
        PageCb(game=7, page=PageName.CHEAT, k="0123abcd").pack(),
        CheatCb(game=7, a="d 7S>9H", k="0123abcd").pack(),
    ],
)
async def test_every_hand_button_names_its_table_and_game(data: str) -> None:
    games = {7: SimpleNamespace(table_id=3)}
    service = SimpleNamespace(live=games.get)
    user = User(id=1, is_bot=False, first_name="Аня")
    query = CallbackQuery(id="1", from_user=user, chat_instance="c", data=data)
    assert await logs.ids_of(query, service) == (3, 7)  # type: ignore[arg-type]  # reads live() only
