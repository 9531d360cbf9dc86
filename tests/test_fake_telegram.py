"""The fake Telegram server driven by a real aiogram Bot and Dispatcher polling loop."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest
from aiogram import Bot, Dispatcher, F, Router
from aiogram.exceptions import (
    TelegramBadRequest,
    TelegramForbiddenError,
    TelegramMigrateToChat,
    TelegramRetryAfter,
)
from aiogram.filters import Command, CommandObject, CommandStart
from aiogram.types import (
    CallbackQuery,
    ChatMemberUpdated,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    Message,
    Update,
)

from tests.fakes import FakeTelegram, RateLimits, run_polling

MENU = InlineKeyboardMarkup(
    inline_keyboard=[
        [
            InlineKeyboardButton(text="Раз", callback_data="one"),
            InlineKeyboardButton(text="То же", callback_data="same"),
        ],
        [InlineKeyboardButton(text="Сайт", url="https://example.org")],
    ]
)


def make_router(log: list[tuple[Any, ...]]) -> Router:
    router = Router()

    @router.message(CommandStart())
    async def start(message: Message, command: CommandObject) -> None:
        await message.answer(f"Привет! {command.args or ''}".strip())

    @router.message(Command("menu"))
    async def menu(message: Message) -> None:
        await message.answer("Меню", reply_markup=MENU)

    @router.message(Command("dm"))
    async def direct(message: Message, bot: Bot) -> None:
        assert message.from_user is not None
        try:
            await bot.send_message(message.from_user.id, "Твои карты")
        except TelegramForbiddenError as error:
            log.append(("forbidden", message.from_user.id, error.message))
            await message.reply("Нажми Start в личке")

    @router.message(F.migrate_to_chat_id)
    async def migrated(message: Message) -> None:
        log.append(("migrate", message.chat.id, message.migrate_to_chat_id))

    @router.message(F.migrate_from_chat_id)
    async def migrated_from(message: Message) -> None:
        log.append(("migrate_from", message.chat.id, message.migrate_from_chat_id))

    @router.message(F.text)
    async def echo(message: Message) -> None:
        await message.answer(f"Эхо: {message.text}")

    @router.callback_query(F.data == "one")
    async def one(callback: CallbackQuery) -> None:
        assert isinstance(callback.message, Message)
        await callback.message.edit_text(
            f"Нажал {callback.from_user.first_name}", reply_markup=MENU
        )
        await callback.answer("Готово")

    @router.callback_query(F.data == "same")
    async def same(callback: CallbackQuery) -> None:
        assert isinstance(callback.message, Message)
        try:
            await callback.message.edit_text(callback.message.text or "", reply_markup=MENU)
        except TelegramBadRequest as error:
            await callback.answer(error.message, show_alert=True)

    @router.callback_query()
    async def other(callback: CallbackQuery) -> None:
        log.append(("callback", callback.from_user.id, callback.data))
        await callback.answer("Устаревшая кнопка")

    @router.my_chat_member()
    async def member(event: ChatMemberUpdated) -> None:
        log.append(("member", event.chat.id, event.new_chat_member.status))

    return router


@pytest.fixture
def log() -> list[tuple[Any, ...]]:
    return []


@pytest.fixture
async def polling(
    server: FakeTelegram, bot: Bot, log: list[tuple[Any, ...]]
) -> AsyncIterator[Dispatcher]:
    dp = Dispatcher()
    dp.include_router(make_router(log))
    async with run_polling(dp, bot, server):
        yield dp


async def test_updates_reach_handlers_and_calls_are_recorded(
    server: FakeTelegram, polling: Dispatcher
) -> None:
    anna = server.add_user(1, "Анна")
    boris = server.add_user(2, "Борис")
    group = server.add_group(-10, "Друзья", members=[anna, boris])

    server.start_private(anna, "join_7")
    greeting = await server.wait_for_message(anna)
    assert greeting.text == "Привет! join_7"
    await server.send_text(boris, group, "дурак")
    await server.wait_for_message(group, lambda m: m.text == "Эхо: дурак")
    await server.send_text(anna, group, "привет")
    await server.wait_for(lambda: len(server.messages(group)) == 4)

    assert [m.text for m in server.messages(group)] == [
        "дурак",
        "Эхо: дурак",
        "привет",
        "Эхо: привет",
    ]
    assert [m.message_id for m in server.messages(group)] == [1, 2, 3, 4]
    sends = server.calls_to("sendMessage", group)
    assert [call.params["text"] for call in sends] == ["Эхо: дурак", "Эхо: привет"]
    assert all(call.status == 200 and call.chat_id == -10 for call in sends)
    assert server.count("sendMessage") == 3
    assert server.count("sendMessage", anna) == 1
    assert server.latest_message(group) is server.messages(group)[-1]
    last = server.latest_message(group, from_bot=False)
    assert last is not None and last.text == "привет"
    ids = [update["update_id"] for update in server.updates]
    assert ids == sorted(ids) and len(set(ids)) == 3
    await server.wait_quiet()
    assert server.pending_updates == []


async def test_command_entities_follow_telegram() -> None:
    async with FakeTelegram() as server:
        anna = server.add_user(1, "Анна")
        group = server.add_group(-10, "Друзья", members=[anna])
        message = await server.send_text(anna, group, "🃏 /durak@durak_test_bot сейчас")
        update = Update.model_validate(server.updates[-1])
        assert update.message is not None and update.message.entities is not None
        entity = update.message.entities[0]
        assert (entity.type, entity.offset, entity.length) == ("bot_command", 3, 21)
        assert message.entities == [{"type": "bot_command", "offset": 3, "length": 21}]


async def test_callback_edits_message_and_answer_is_awaitable(
    server: FakeTelegram, polling: Dispatcher
) -> None:
    anna = server.add_user(1, "Анна")
    group = server.add_group(-10, "Друзья", members=[anna])
    await server.send_text(anna, group, "/menu")
    menu = await server.wait_for_message(group, lambda m: m.text == "Меню")
    assert server.keyboard(menu) == [[("Раз", "one"), ("То же", "same")], [("Сайт", None)]]

    answer = await (await server.press(anna, menu, "one"))
    assert answer.text == "Готово" and not answer.show_alert
    assert menu.text == "Нажал Анна" and menu.edit_date is not None
    assert menu.history == [("Меню", MENU.model_dump(exclude_none=True))]
    assert server.keyboard(menu)[0] == [("Раз", "one"), ("То же", "same")]
    edit = server.calls_to("editMessageText", group)[0]
    assert (edit.params["message_id"], edit.params["text"]) == (menu.message_id, "Нажал Анна")
    answer_call = server.calls_to("answerCallbackQuery")[0]
    assert answer_call.params["text"] == "Готово"

    # By button text, and a second answer to the same query is refused.
    handle = await server.press(anna, menu, button_text="То же")
    answer = await handle
    assert answer.show_alert
    assert answer.text is not None and "message is not modified" in answer.text
    bot = server.make_bot()
    try:
        with pytest.raises(TelegramBadRequest, match="query is too old"):
            await bot.answer_callback_query(handle.query_id, text="ещё раз")
    finally:
        await bot.session.close()
    assert server.unanswered_callbacks() == []


async def test_press_checks_the_keyboard_unless_forged(
    server: FakeTelegram, polling: Dispatcher, log: list[tuple[Any, ...]]
) -> None:
    anna = server.add_user(1, "Анна")
    stranger = server.add_user(3, "Чужой")
    group = server.add_group(-10, "Друзья", members=[anna])
    await server.send_text(anna, group, "/menu")
    menu = await server.wait_for_message(group)
    with pytest.raises(AssertionError, match="no button"):
        await server.press(anna, menu, "take:9")
    answer = await (await server.press(stranger, menu, "take:9", forge=True))
    assert answer.text == "Устаревшая кнопка"
    assert log == [("callback", 3, "take:9")]
    assert menu.text == "Меню" and server.count("editMessageText") == 0


async def test_not_modified_and_missing_message_are_bad_requests(
    server: FakeTelegram, bot: Bot
) -> None:
    anna = server.add_user(1, "Анна", started=True)
    sent = await bot.send_message(anna.id, "Рука", reply_markup=MENU)
    with pytest.raises(TelegramBadRequest, match="message is not modified"):
        await bot.edit_message_text(
            "Рука", chat_id=anna.id, message_id=sent.message_id, reply_markup=MENU
        )
    with pytest.raises(TelegramBadRequest, match="message is not modified"):
        await bot.edit_message_reply_markup(
            chat_id=anna.id, message_id=sent.message_id, reply_markup=MENU
        )
    with pytest.raises(TelegramBadRequest, match="message to edit not found"):
        await bot.edit_message_text("x", chat_id=anna.id, message_id=999)
    assert server.count("editMessageText", status=400) == 2

    # Like Telegram, an edit without reply_markup drops the inline keyboard.
    await bot.edit_message_text("Рука", chat_id=anna.id, message_id=sent.message_id)
    message = server.latest_message(anna)
    assert message is not None and message.reply_markup is None and server.keyboard(message) == []

    assert await bot.delete_message(anna.id, sent.message_id)
    assert server.messages(anna) == []
    with pytest.raises(TelegramBadRequest, match="message to delete not found"):
        await bot.delete_message(anna.id, sent.message_id)
    with pytest.raises(TelegramBadRequest, match="message to edit not found"):
        await bot.edit_message_text("y", chat_id=anna.id, message_id=sent.message_id)


async def test_html_is_parsed_and_checked(server: FakeTelegram, bot: Bot) -> None:
    anna = server.add_user(1, "Анна", started=True)
    sent = await bot.send_message(anna.id, "<b>Козырь</b>: 7&lt;Т", parse_mode="HTML")
    assert sent.text == "Козырь: 7<Т"
    with pytest.raises(TelegramBadRequest, match="can't parse entities"):
        await bot.send_message(anna.id, "строка<br>строка", parse_mode="HTML")
    with pytest.raises(TelegramBadRequest, match="message text is empty"):
        await bot.send_message(anna.id, " ")
    with pytest.raises(TelegramBadRequest, match="BUTTON_DATA_INVALID"):
        markup = InlineKeyboardMarkup(
            inline_keyboard=[[InlineKeyboardButton(text="x", callback_data="d" * 65)]]
        )
        await bot.send_message(anna.id, "x", reply_markup=markup)


async def test_forbidden_for_users_who_never_started_or_blocked(
    server: FakeTelegram, bot: Bot, polling: Dispatcher, log: list[tuple[Any, ...]]
) -> None:
    anna = server.add_user(1, "Анна")
    group = server.add_group(-10, "Друзья", members=[anna])
    with pytest.raises(TelegramForbiddenError, match="bot can't initiate conversation"):
        await bot.send_message(anna.id, "Твои карты")

    await server.send_text(anna, group, "/dm")
    await server.wait_for(lambda: log)
    assert log == [("forbidden", 1, "Forbidden: bot can't initiate conversation with a user")]
    reply = await server.wait_for_message(group)
    assert reply.text == "Нажми Start в личке" and reply.reply_to is not None

    server.start_private(anna)
    await server.wait_for_message(anna, lambda m: m.text == "Привет!")
    await bot.send_message(anna.id, "Твои карты")

    server.block(anna)
    with pytest.raises(TelegramForbiddenError, match="bot was blocked by the user"):
        await bot.send_message(anna.id, "Твои карты")
    await server.wait_for(lambda: ("member", 1, "kicked") in log)
    assert server.count("sendMessage", anna, status=403) == 3


async def test_injected_429_arrives_as_retry_after(server: FakeTelegram, bot: Bot) -> None:
    anna = server.add_user(1, "Анна", started=True)
    boris = server.add_user(2, "Борис", started=True)
    server.inject_429(count=1, retry_after=3)
    with pytest.raises(TelegramRetryAfter) as caught:
        await bot.send_message(anna.id, "раз")
    assert caught.value.retry_after == 3
    assert "Too Many Requests: retry after 3" in caught.value.message
    await bot.send_message(anna.id, "два")

    server.inject_429(count=2, retry_after=5, chat=boris)
    await bot.send_message(anna.id, "три")
    for _ in range(2):
        with pytest.raises(TelegramRetryAfter):
            await bot.send_message(boris.id, "раз")
    await bot.send_message(boris.id, "два")
    assert server.too_many_requests_sent == 3
    assert server.count(status=429) == 3 and server.count("sendMessage", boris, status=429) == 2


async def test_enforced_rate_limits_answer_429(server: FakeTelegram, bot: Bot) -> None:
    anna = server.add_user(1, "Анна", started=True)
    boris = server.add_user(2, "Борис", started=True)
    group = server.add_group(-10, "Друзья", members=[anna, boris])
    server.enforce_rate_limits()
    await bot.send_message(anna.id, "раз")
    with pytest.raises(TelegramRetryAfter) as caught:
        await bot.send_message(anna.id, "два")
    assert caught.value.retry_after == 1
    await bot.send_message(boris.id, "раз")  # another chat is fine
    assert server.rate_limited == 1

    server.enforce_rate_limits(RateLimits(per_chat=(100, 1.0), per_group=(3, 60.0)))
    for text in ("раз", "два", "три"):
        await bot.send_message(group.id, text)
    with pytest.raises(TelegramRetryAfter) as caught:
        await bot.send_message(group.id, "четыре")
    assert 55 <= caught.value.retry_after <= 60
    assert server.too_many_requests_sent == 2 and len(server.messages(group)) == 3


async def test_migration_and_removal_are_delivered(
    server: FakeTelegram, bot: Bot, polling: Dispatcher, log: list[tuple[Any, ...]]
) -> None:
    anna = server.add_user(1, "Анна")
    group = server.add_group(-10, "Друзья", members=[anna])
    super_group = server.migrate_to_supergroup(group, -100123)
    await server.wait_for(lambda: len(log) == 2)
    assert log == [("migrate", -10, -100123), ("migrate_from", -100123, -10)]
    with pytest.raises(TelegramMigrateToChat) as caught:
        await bot.send_message(group.id, "стол")
    assert caught.value.migrate_to_chat_id == -100123
    await bot.send_message(super_group.id, "стол")
    assert super_group.type == "supergroup" and super_group.members == group.members

    server.remove_bot_from(super_group)
    await server.wait_for(lambda: ("member", -100123, "kicked") in log)
    with pytest.raises(TelegramForbiddenError, match="bot was kicked from the supergroup chat"):
        await bot.send_message(super_group.id, "стол")
    await server.send_text(anna, super_group, "эй")  # not delivered: the bot is out
    server.add_bot_to(super_group, by=anna)
    await server.wait_for(lambda: ("member", -100123, "member") in log)
    assert not any(m.text == "Эхо: эй" for m in server.messages(super_group))
    for update in server.updates:  # every update parses as aiogram's Update
        Update.model_validate(update)
    assert server.internal_errors == []
