"""bot.session: calls go as JSON bodies with the bot's defaults filled in, what JSON
cannot carry goes as a form, the keyboard's echo reaches the bot only when it tells
something (its styles did not come back), the bot's own keyboard (``bot.outgoing``)
goes as it is, and a pressed message comes as where it is only (its chat, its topic)."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from datetime import UTC, datetime

import pytest
from aiogram import Bot
from aiogram.client.default import DefaultBotProperties
from aiogram.client.session.aiohttp import AiohttpSession
from aiogram.client.telegram import TelegramAPIServer
from aiogram.exceptions import TelegramBadRequest, TelegramServerError
from aiogram.methods import BanChatMember, EditMessageText, GetUpdates, SendDocument, SendMessage
from aiogram.types import (
    BufferedInputFile,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    Message,
    ReplyParameters,
    Update,
)
from aiohttp import web

from bot.keyboard import Button, Keyboard
from bot.outgoing import EditText, Posted, SendText
from bot.session import JsonSession, lean
from tests.e2e_helpers import message_in
from tests.fakes import TOKEN, FakeTelegram, FakeUser

STYLED = InlineKeyboardMarkup(
    inline_keyboard=[[InlineKeyboardButton(text="6♠", callback_data="c:1", style="success")]]
)
PLAIN = InlineKeyboardMarkup(
    inline_keyboard=[[InlineKeyboardButton(text="Беру", callback_data="t")]]
)


@pytest.fixture
async def tg_bot() -> AsyncIterator[tuple[FakeTelegram, FakeUser, Bot]]:
    async with FakeTelegram(token=TOKEN) as tg:
        anna = tg.add_user(1, "Аня", started=True)
        session = JsonSession(api=TelegramAPIServer.from_base(tg.base_url))
        bot = Bot(TOKEN, session=session, default=DefaultBotProperties(parse_mode="HTML"))
        yield tg, anna, bot
        await bot.session.close()


def test_a_call_is_a_json_body_with_the_defaults_and_without_empty_fields() -> None:
    bot = Bot(TOKEN, default=DefaultBotProperties(parse_mode="HTML"))
    session = JsonSession()
    method = EditMessageText(chat_id=1, message_id=7, text="<b>ход</b>", reply_markup=STYLED)
    prepared = session.body(bot, method)
    assert prepared is not None
    body, styled = prepared
    assert styled
    assert json.loads(body) == {
        "chat_id": 1,
        "message_id": 7,
        "text": "<b>ход</b>",
        "parse_mode": "HTML",
        "reply_markup": {
            "inline_keyboard": [[{"text": "6♠", "callback_data": "c:1", "style": "success"}]]
        },
    }


def test_false_and_zero_are_sent_and_a_nested_default_is_the_bots() -> None:
    bot = Bot(TOKEN, default=DefaultBotProperties(parse_mode="HTML"))
    updates = JsonSession().body(bot, GetUpdates(offset=0, timeout=0, allowed_updates=[]))
    assert updates is not None
    assert json.loads(updates[0]) == {"offset": 0, "timeout": 0, "allowed_updates": []}
    quoted = ReplyParameters(message_id=5, allow_sending_without_reply=True)  # as the outbox
    prepared = JsonSession().body(bot, SendMessage(chat_id=1, text="итог", reply_parameters=quoted))
    assert prepared is not None
    assert json.loads(prepared[0])["reply_parameters"] == {
        "message_id": 5,
        "allow_sending_without_reply": True,
        "quote_parse_mode": "HTML",
    }
    unset = ReplyParameters(message_id=5)  # a default the bot leaves unset: aiogram drops it
    assert JsonSession().body(bot, SendMessage(chat_id=1, text="?", reply_parameters=unset)) is None


def test_what_json_cannot_carry_goes_as_a_form() -> None:
    bot, session = Bot(TOKEN), JsonSession()
    upload = SendDocument(chat_id=1, document=BufferedInputFile(b"x", "log.txt"))
    until = BanChatMember(chat_id=-5, user_id=2, until_date=datetime(2027, 1, 1, tzinfo=UTC))
    assert session.body(bot, upload) is None
    assert session.body(bot, until) is None


async def test_the_echo_is_dropped_where_the_styles_came_back(
    tg_bot: tuple[FakeTelegram, FakeUser, Bot],
) -> None:
    tg, anna, bot = tg_bot
    sent = await bot.send_message(1, "<i>рука</i>", reply_markup=STYLED)
    assert sent.text == "рука" and sent.reply_markup is None  # HTML parsed: the default
    plain = await bot.edit_message_text(
        "рука", chat_id=1, message_id=sent.message_id, reply_markup=PLAIN
    )
    assert not isinstance(plain, bool) and plain.reply_markup is None
    assert message_in(tg, anna, sent.message_id).reply_markup == {
        "inline_keyboard": [[{"text": "Беру", "callback_data": "t"}]]
    }
    tg.button_styles = False  # a server before Bot API 9.4
    dropped = await bot.edit_message_text(
        "рука!", chat_id=1, message_id=sent.message_id, reply_markup=STYLED
    )
    assert not isinstance(dropped, bool) and dropped.reply_markup is not None
    assert dropped.reply_markup.inline_keyboard[0][0].style is None


@pytest.mark.parametrize("fault", ["502", "500"])
async def test_a_reply_that_is_not_a_bot_api_answer_is_a_server_error(
    tg_bot: tuple[FakeTelegram, FakeUser, Bot], fault: str
) -> None:
    tg, _, bot = tg_bot
    tg.inject_fault(fault, methods=["sendMessage"])
    with pytest.raises(TelegramServerError, match=f"not a Bot API answer \\(HTTP {fault}\\)"):
        await bot.send_message(1, "итог")  # before: ClientDecodeError, not Telegram's error
    assert (await bot.send_message(1, "итог")).text == "итог"


@pytest.mark.parametrize("result", [{"chat": {"id": 1}}, {"message_id": "x"}, [], "ok"])
async def test_a_success_that_is_not_a_message_is_a_server_error(result: object) -> None:
    async def odd(request: web.Request) -> web.Response:  # a proxy that lost the message
        return web.json_response({"ok": True, "result": result})

    app = web.Application()
    app.router.add_post("/bot{token}/{method}", odd)
    runner = web.AppRunner(app)
    await runner.setup()
    await web.TCPSite(runner, "127.0.0.1", 0).start()
    base = f"http://127.0.0.1:{runner.addresses[0][1]}"
    bot = Bot(TOKEN, session=JsonSession(api=TelegramAPIServer.from_base(base)))
    hand = Keyboard([[Button("6♠", "c:1:0:6S")]])
    try:
        # as any answer that is not the Bot API's: worth another try (``bot.calls``)
        with pytest.raises(TelegramServerError, match="not a Bot API answer \\(HTTP 200\\)"):
            await bot(SendText(chat_id=1, text="рука", reply_markup=hand))
        with pytest.raises(TelegramServerError, match="not a Bot API answer \\(HTTP 200\\)"):
            await bot(EditText(chat_id=1, message_id=2, text="рука", reply_markup=hand))
    finally:
        await bot.session.close()
        await runner.cleanup()


async def test_the_bots_keyboard_goes_as_it_is_and_the_answer_says_if_styles_stayed(
    tg_bot: tuple[FakeTelegram, FakeUser, Bot],
) -> None:
    tg, anna, bot = tg_bot
    hand = Keyboard(
        [
            [Button("6♠", "c:1:0:6S", style="success"), Button("7♠", "c:1:1:7S")],
            [Button("🎴 Стол", app="https://durak.example.org/app?startapp=x")],
        ]
    )
    sent = await bot(SendText(chat_id=anna.id, text="<i>рука</i>", reply_markup=hand))
    assert isinstance(sent, Posted) and sent.styled
    shown = message_in(tg, anna, sent.message_id)
    assert shown.text == "рука" and shown.reply_markup == hand.json()  # HTML: the default
    assert Keyboard.from_json(hand.json()) == hand
    tg.button_styles = False  # a server before Bot API 9.4
    edit = EditText(chat_id=anna.id, message_id=sent.message_id, text="рука!", reply_markup=hand)
    dropped = await bot(edit)
    assert isinstance(dropped, Posted) and not dropped.styled
    with pytest.raises(TelegramBadRequest, match="message to edit not found"):
        await bot(EditText(chat_id=anna.id, message_id=999, text="рука", reply_markup=hand))


async def test_a_pressed_message_comes_as_where_it_is_only(
    tg_bot: tuple[FakeTelegram, FakeUser, Bot],
) -> None:
    tg, anna, bot = tg_bot
    hand = Keyboard([[Button("6♠", "c:1:0:6S")]])
    sent = await bot(SendText(chat_id=anna.id, text="<b>рука</b>", reply_markup=hand))
    await tg.press(anna, message_in(tg, anna, sent.message_id), "c:1:0:6S")
    (update,) = await bot.get_updates(timeout=0)
    query = update.callback_query
    assert query is not None and query.data == "c:1:0:6S" and isinstance(query.message, Message)
    message = query.message
    assert message.message_id == sent.message_id and message.chat.id == anna.id
    assert message.reply_markup is None and message.text is None and message.entities is None


def test_a_pressed_message_in_a_topic_keeps_its_topic() -> None:
    chat = {"id": -100, "type": "supergroup", "title": "Клуб", "is_forum": True}
    message = {
        "message_id": 9, "date": 1, "chat": chat, "message_thread_id": 4,
        "is_topic_message": True, "text": "Стол", "reply_markup": PLAIN.model_dump(),
    }  # fmt: skip
    raw = {
        "id": "1", "from": {"id": 1, "is_bot": False, "first_name": "Аня"},
        "chat_instance": "1", "data": "l:1:join", "message": message,
    }  # fmt: skip
    update = Update.model_validate(lean({"update_id": 1, "callback_query": raw}))
    pressed = update.callback_query.message if update.callback_query else None
    assert isinstance(pressed, Message) and pressed.text is None and pressed.reply_markup is None
    assert (pressed.chat.id, pressed.message_thread_id, pressed.is_topic_message) == (-100, 4, True)


async def test_the_bots_keyboard_goes_the_form_way_too(tg: FakeTelegram) -> None:
    anna = tg.add_user(1, "Аня", started=True)
    bot = Bot(TOKEN, session=AiohttpSession(api=TelegramAPIServer.from_base(tg.base_url)))
    hand = Keyboard([[Button("6♠", "c:1:0:6S", style="success")]])
    quoted = ReplyParameters(message_id=1, allow_sending_without_reply=True)  # (a default)
    assert JsonSession().body(bot, SendText(chat_id=1, text="?", reply_parameters=quoted)) is None
    sent = await bot(SendText(chat_id=anna.id, text="рука", reply_markup=hand))  # aiogram's
    assert isinstance(sent, Posted) and message_in(tg, anna, sent.message_id).reply_markup == {
        "inline_keyboard": [[{"text": "6♠", "callback_data": "c:1:0:6S", "style": "success"}]]
    }
    await bot.session.close()
