"""Every call the bot makes to Telegram outside the outbox is one failed call at worst: a
proxy's HTML page, a 500 without ``ok``, a timeout or a reset in answer to the ephemeral
probe, ``getChatMember``, ``setMyCommands``, ``getMe``, the webhook's set-up or a press's
answer is retried or assumed away; no lobby, reply or process is lost."""

from __future__ import annotations

import logging
from dataclasses import replace
from pathlib import Path

import pytest
from aiogram.exceptions import TelegramAPIError

from bot import webhook
from bot.app import App
from bot.callbacks import LobbyCb, LobbyOp
from bot.config import Config
from tests.e2e_helpers import TOKEN, open_table, running_bot, settle, two_friends
from tests.fakes import FakeTelegram
from tests.test_webhook import free_port

FAULTS = ["502", "500", "timeout", "reset"]
PRIVATE = "Карты придут в личный чат"  # the lobby's line without ephemeral hands
HERE = "Карты — по кнопке «Мои карты»"  # the group can show them
FAILED = "Что-то пошло не так"


def errors(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]


@pytest.mark.parametrize("fault", FAULTS)
async def test_a_lobby_whose_probe_fails_is_drawn_and_the_probe_asked_again(
    tg: FakeTelegram, tmp_path: Path, fault: str, caplog: pytest.LogCaptureFixture
) -> None:
    anna, _, group = two_friends(tg)
    # before: the HTML page escaped as ClientDecodeError and the lobby was never drawn
    tg.inject_fault(fault, methods=["deleteEphemeralMessage"], delay=1.0)
    async with running_bot(tg, tmp_path / "db.sqlite3") as app:
        lobby = await open_table(tg, app, group, anna)
        assert PRIVATE in (lobby.text or "")  # no ephemeral hands for now
        assert app.group_hands.supported is None  # asked again next time
        await tg.send_text(anna, group, "/settings")  # the lobby again: asked again
        again = await tg.wait_for_message(
            group, lambda m: m is not lobby and "Стол" in (m.text or "")
        )
        assert HERE in (again.text or "") and app.group_hands.supported
    assert tg.count("deleteEphemeralMessage") == 2 and tg.faults == 1
    assert errors(caplog) == [] and tg.internal_errors == []


@pytest.mark.parametrize("fault", ["502", "500"])
async def test_a_lobby_whose_admin_question_fails_is_drawn(
    tg: FakeTelegram, tmp_path: Path, fault: str, caplog: pytest.LogCaptureFixture
) -> None:
    anna, _, group = two_friends(tg)
    tg.inject_fault(fault, methods=["getChatMember"])
    async with running_bot(tg, tmp_path / "db.sqlite3") as app:
        lobby = await open_table(tg, app, group, anna)
        assert HERE in (lobby.text or "")  # taken as no admin (an admin pushes them itself)
    assert tg.faults == 1 and errors(caplog) == []


@pytest.mark.parametrize("fault", FAULTS)
async def test_a_press_whose_answer_fails_once_is_answered(
    tg: FakeTelegram, tmp_path: Path, fault: str, caplog: pytest.LogCaptureFixture
) -> None:
    anna, _, group = two_friends(tg)
    async with running_bot(tg, tmp_path / "db.sqlite3") as app:
        lobby = await open_table(tg, app, group, anna)
        tg.inject_fault(fault, methods=["answerCallbackQuery"], delay=1.0)
        press = await tg.press(anna, lobby, LobbyCb(table=1, op=LobbyOp.JOIN).pack())
        answer = await press.wait_answer(15)
        assert answer.text == "Вы за столом!"  # before: the handler failed, «Что-то пошло…»
        await settle(app)
    assert [c.faulted for c in tg.calls_to("answerCallbackQuery")] == [True, False]
    assert errors(caplog) == [] and tg.unanswered_callbacks() == []


async def test_a_press_whose_answer_keeps_failing_is_handled_all_the_same(
    tg: FakeTelegram, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    anna, _, group = two_friends(tg)
    async with running_bot(tg, tmp_path / "db.sqlite3") as app:
        lobby = await open_table(tg, app, group, anna)
        tg.inject_fault("502", count=3, methods=["answerCallbackQuery"])
        await tg.press(anna, lobby, LobbyCb(table=1, op=LobbyOp.JOIN).pack())
        await tg.wait_for(lambda: tg.faults == 3, timeout=15)
        await tg.wait_for(lambda: "Аня" in (lobby.text or ""))  # the join stands
        await settle(app)
    assert tg.count("answerCallbackQuery") == 3  # no «Что-то пошло не так» after it
    (warning,) = [r.getMessage() for r in caplog.records if "taken as made" in r.getMessage()]
    assert "answerCallbackQuery failed 3 times" in warning and "HTTP 502" in warning
    assert errors(caplog) == []


@pytest.mark.parametrize("fault", ["502", "500"])
async def test_a_start_whose_command_menu_fails_starts(
    tg: FakeTelegram, tmp_path: Path, fault: str, caplog: pytest.LogCaptureFixture
) -> None:
    anna = tg.add_user(1, "Аня")
    tg.inject_fault(fault, methods=["setMyCommands"])
    async with running_bot(tg, tmp_path / "db.sqlite3"):  # before: exit 1, «Failed to decode»
        tg.start_private(anna)
        await tg.wait_for_message(anna, lambda m: "Привет" in (m.text or ""))
    menus = [r.getMessage() for r in caplog.records if "command menu" in r.getMessage()]
    assert len(menus) == 1 and f"HTTP {fault}" in menus[0]
    assert tg.count("setMyCommands") == 4 and len(tg.my_commands) == 3  # the others are set
    assert errors(caplog) == []


@pytest.mark.parametrize("method", ["getMe", "deleteWebhook"])
async def test_a_start_whose_first_get_me_or_webhook_deletion_fails_starts(
    tg: FakeTelegram, tmp_path: Path, method: str, caplog: pytest.LogCaptureFixture
) -> None:
    anna = tg.add_user(1, "Аня")
    tg.inject_fault("502", methods=[method])
    async with running_bot(tg, tmp_path / "db.sqlite3"):
        tg.start_private(anna)
        await tg.wait_for_message(anna, lambda m: "Привет" in (m.text or ""))
    assert [c.faulted for c in tg.calls_to(method)][:2] == [True, False]
    assert errors(caplog) == []


async def test_a_start_where_get_me_never_answers_fails_with_telegrams_error(
    tg: FakeTelegram, tmp_path: Path
) -> None:
    tg.inject_fault("500", count=10, methods=["getMe"])
    config = Config(token=TOKEN, db_path=str(tmp_path / "db.sqlite3"), api_base=tg.base_url)
    app = await App.create(config)
    try:
        with pytest.raises(TelegramAPIError, match="not a Bot API answer"):
            await app.start()
    finally:
        await app.stop()
    assert tg.count("getMe") == 4


async def test_a_webhook_whose_set_up_fails_is_set_on_a_later_try(
    tg: FakeTelegram, tmp_path: Path
) -> None:
    anna = tg.add_user(1, "Аня")
    port = free_port()
    config = Config.from_env(
        {
            "BOT_TOKEN": TOKEN,
            "DURAK_DB": str(tmp_path / "db.sqlite3"),
            "BOT_API_BASE": tg.base_url,
            "DURAK_WEBHOOK_URL": "https://durak.example.org/tg",
            "DURAK_WEBHOOK_PORT": str(port),
        }
    )
    app = await App.create(replace(config, limits=replace(config.limits, per_chat=0.0)))
    tg.inject_fault("502", count=2, methods=["setWebhook"])
    await app.start()
    try:
        async with webhook.listening(app.config, app.dp, app.bot):
            assert tg.webhook_url == "https://durak.example.org/tg"
            tg.start_private(anna)
            assert await tg.deliver_to_webhook(f"http://127.0.0.1:{port}/tg") == [200]
            await tg.wait_for_message(anna, lambda m: "Привет" in (m.text or ""))
    finally:
        await app.stop()
    assert [c.faulted for c in tg.calls_to("setWebhook")] == [True, True, False]
