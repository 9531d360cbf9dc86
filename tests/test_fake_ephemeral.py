"""The fake Telegram's ephemeral messages (Bot API 10.2), driven by a real aiogram Bot."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
from aiogram import Bot, Dispatcher, F, Router
from aiogram.exceptions import TelegramBadRequest, TelegramNotFound, TelegramRetryAfter
from aiogram.types import (
    CallbackQuery,
    EphemeralMessageParameters,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    Message,
)

from sandbox.snapshot import snapshot
from tests.fakes import FakeChat, FakeEphemeral, FakeTelegram, FakeUser, RateLimits, run_polling

KEYS = InlineKeyboardMarkup(
    inline_keyboard=[[InlineKeyboardButton(text="Тронуть", callback_data="touch")]]
)


def make_router(seen: list[Message]) -> Router:
    router = Router()

    @router.callback_query(F.data == "cards")
    async def cards(query: CallbackQuery, bot: Bot) -> None:
        assert query.message is not None
        params = EphemeralMessageParameters(
            receiver_user_id=query.from_user.id, callback_query_id=query.id
        )
        await bot.send_message(
            query.message.chat.id, "Только вам", reply_markup=KEYS,
            ephemeral_message_parameters=params,
        )  # fmt: skip
        await query.answer()

    @router.callback_query(F.data == "touch")
    async def touch(query: CallbackQuery) -> None:
        assert isinstance(query.message, Message)
        seen.append(query.message)
        await query.answer("Тронуто")

    return router


@pytest.fixture
async def bot(server: FakeTelegram) -> AsyncIterator[Bot]:
    bot = server.make_bot()
    yield bot
    await bot.session.close()


@pytest.fixture
def seen() -> list[Message]:
    return []


@pytest.fixture
async def polling(server: FakeTelegram, bot: Bot, seen: list[Message]) -> AsyncIterator[None]:
    dp = Dispatcher()
    dp.include_router(make_router(seen))
    async with run_polling(dp, bot, server):
        yield


def world(server: FakeTelegram, *, admin: bool = False) -> tuple[FakeUser, FakeUser, FakeChat]:
    anna, boris = server.add_user(1, "Аня"), server.add_user(2, "Борис")
    group = server.add_group(-100, "Друзья", members=[anna, boris], bot_admin=admin)
    return anna, boris, group


async def post_menu(bot: Bot, group: FakeChat) -> None:
    menu = InlineKeyboardMarkup(
        inline_keyboard=[[InlineKeyboardButton(text="Мои карты", callback_data="cards")]]
    )
    await bot.send_message(group.id, "Стол", reply_markup=menu)


def to(user: FakeUser, query: str | None = None) -> EphemeralMessageParameters:
    return EphemeralMessageParameters(receiver_user_id=user.id, callback_query_id=query)


async def test_only_the_receiver_sees_and_presses_it(
    server: FakeTelegram, bot: Bot, polling: None, seen: list[Message]
) -> None:
    anna, boris, group = world(server)
    await post_menu(bot, group)
    table = server.messages(group)[0]
    assert await (await server.press(anna, table, "cards"))
    (mine,) = server.ephemerals(group, anna)
    assert (mine.text, mine.message_id, mine.receiver) == ("Только вам", 0, anna)
    assert server.ephemerals(group, boris) == [] and server.messages(group) == [table]
    assert server.seen_by(anna, group) == [table, mine]
    assert server.seen_by(boris, group) == [table]
    sent = server.calls_to("sendMessage")[-1].response["result"]
    assert sent["message_id"] == 0 and sent["ephemeral_message_id"] == mine.ephemeral_id
    with pytest.raises(AssertionError, match="does not see"):
        await server.press(boris, mine, "touch")
    answer = await (await server.press(anna, mine, "touch"))
    assert answer.text == "Тронуто"
    assert seen[0].ephemeral_message_id == mine.ephemeral_id and seen[0].message_id == 0
    assert seen[0].receiver_user is not None and seen[0].receiver_user.id == anna.id


async def test_edits_and_deletion_address_chat_receiver_and_id(
    server: FakeTelegram, bot: Bot
) -> None:
    anna, boris, group = world(server, admin=True)
    sent = await bot.send_message(
        group.id, "Раз", reply_markup=KEYS, ephemeral_message_parameters=to(anna)
    )
    eid = sent.ephemeral_message_id
    assert eid is not None and sent.message_id == 0
    assert await bot.edit_ephemeral_message_text(
        chat_id=group.id, receiver_user_id=anna.id, ephemeral_message_id=eid, text="<b>Два</b>",
        parse_mode="HTML", reply_markup=KEYS,
    )  # fmt: skip
    message = server.ephemeral(group, eid)
    assert message is not None and message.text == "Два" and message.button_data() == ["touch"]
    assert await bot.edit_ephemeral_message_text(
        chat_id=group.id, receiver_user_id=anna.id, ephemeral_message_id=eid, text="Два"
    )  # no keyboard given: it goes
    assert message.keyboard == [] and len(message.history) == 2
    assert await bot.edit_ephemeral_message_reply_markup(
        chat_id=group.id, receiver_user_id=anna.id, ephemeral_message_id=eid, reply_markup=KEYS
    )
    assert message.button_data() == ["touch"]
    with pytest.raises(TelegramBadRequest, match="MESSAGE_ID_INVALID"):  # another receiver
        await bot.delete_ephemeral_message(
            chat_id=group.id, receiver_user_id=boris.id, ephemeral_message_id=eid
        )
    assert await bot.delete_ephemeral_message(
        chat_id=group.id, receiver_user_id=anna.id, ephemeral_message_id=eid
    )
    assert server.ephemerals(group, anna) == [] and message.deleted
    with pytest.raises(TelegramBadRequest, match="MESSAGE_ID_INVALID"):
        await bot.edit_ephemeral_message_text(
            chat_id=group.id, receiver_user_id=anna.id, ephemeral_message_id=eid, text="Три"
        )


async def test_the_15_second_and_administrator_rules(server: FakeTelegram, bot: Bot) -> None:
    anna, boris, group = world(server)
    stranger, robot = server.add_user(3, "Чужой"), server.add_user(4, "Робот")
    robot.is_bot = True
    group.members[robot.id] = "member"
    with pytest.raises(TelegramBadRequest, match="CHAT_ADMIN_REQUIRED"):  # nothing to answer
        await bot.send_message(group.id, "Нет", ephemeral_message_parameters=to(anna))
    await post_menu(bot, group)
    press = await server.press(anna, server.messages(group)[0], "cards", forge=True)
    with pytest.raises(TelegramBadRequest, match="CHAT_ADMIN_REQUIRED"):  # Борис did not press
        await bot.send_message(
            group.id, "Нет", ephemeral_message_parameters=to(boris, press.query_id)
        )
    await bot.send_message(group.id, "Да", ephemeral_message_parameters=to(anna, press.query_id))
    press.pressed_at -= server.eph.window + 0.1
    with pytest.raises(TelegramBadRequest, match="CHAT_ADMIN_REQUIRED"):  # too late
        await bot.send_message(
            group.id, "Поздно", ephemeral_message_parameters=to(anna, press.query_id)
        )
    group.bot_status = "administrator"  # an administrator may send one at any time
    await bot.send_message(group.id, "Админ", ephemeral_message_parameters=to(boris))
    assert [m.text for m in server.ephemerals(group)] == ["Да", "Админ"]
    with pytest.raises(TelegramBadRequest, match="USER_NOT_PARTICIPANT"):
        await bot.send_message(group.id, "Нет", ephemeral_message_parameters=to(stranger))
    with pytest.raises(TelegramBadRequest, match="USER_IS_BOT"):
        await bot.send_message(group.id, "Нет", ephemeral_message_parameters=to(robot))
    server.start_private(anna)
    with pytest.raises(TelegramBadRequest, match="PEER_ID_INVALID"):
        await bot.send_message(anna.id, "Нет", ephemeral_message_parameters=to(anna))


async def test_messages_may_disappear(server: FakeTelegram, bot: Bot) -> None:
    anna, _, group = world(server, admin=True)
    first = await bot.send_message(
        group.id, "Раз", reply_markup=KEYS, ephemeral_message_parameters=to(anna)
    )
    message = server.ephemeral(group, first.ephemeral_message_id or 0)
    assert isinstance(message, FakeEphemeral)
    server.vanish(message)  # the app dropped it: the server takes edits it cannot show
    assert server.ephemerals(group, anna) == [] and server.ephemerals(group, anna, seen=False)
    assert await bot.edit_ephemeral_message_text(
        chat_id=group.id, receiver_user_id=anna.id, ephemeral_message_id=message.ephemeral_id,
        text="Два",
    )  # fmt: skip
    with pytest.raises(AssertionError, match="does not see"):
        await server.press(anna, message, "touch")
    server.expire(message)  # gone for the server as well
    with pytest.raises(TelegramBadRequest, match="MESSAGE_ID_INVALID"):
        await bot.delete_ephemeral_message(
            chat_id=group.id, receiver_user_id=anna.id, ephemeral_message_id=message.ephemeral_id
        )
    server.lose_ephemeral()  # sent, but it never arrives
    lost = await bot.send_message(group.id, "Три", ephemeral_message_parameters=to(anna))
    assert lost.ephemeral_message_id and server.ephemerals(group, anna) == []


async def test_a_server_that_refuses_them(server: FakeTelegram, bot: Bot) -> None:
    anna, boris, group = world(server, admin=True)
    server.refuse_ephemeral(anna)
    with pytest.raises(TelegramBadRequest, match="not available"):
        await bot.send_message(group.id, "Нет", ephemeral_message_parameters=to(anna))
    await bot.send_message(group.id, "Да", ephemeral_message_parameters=to(boris))
    server.ephemeral_api = False  # older than Bot API 10.2: unknown methods, ignored fields
    with pytest.raises(TelegramNotFound):
        await bot.delete_ephemeral_message(
            chat_id=group.id, receiver_user_id=boris.id, ephemeral_message_id=1
        )
    public = await bot.send_message(group.id, "Всем", ephemeral_message_parameters=to(boris))
    assert public.message_id > 0 and public.ephemeral_message_id is None
    assert [m.text for m in server.messages(group)] == ["Всем"]


async def test_they_are_paced_like_a_private_chat_not_the_group(
    server: FakeTelegram, bot: Bot
) -> None:
    anna, boris, group = world(server, admin=True)
    server.enforce_rate_limits(RateLimits(per_chat=(100, 1.0), per_group=(2, 60.0)))
    for n in range(3):  # more than the group's budget, to two receivers
        await bot.send_message(group.id, f"{n}", ephemeral_message_parameters=to(anna))
        await bot.send_message(group.id, f"{n}", ephemeral_message_parameters=to(boris))
    await bot.send_message(group.id, "Стол")
    await bot.send_message(group.id, "Стол")  # the group's budget is whole
    with pytest.raises(TelegramRetryAfter):
        await bot.send_message(group.id, "Стол")
    server.enforce_rate_limits(RateLimits(per_chat=(100, 1.0), per_group=(2, 60.0)))
    server.eph.group_limits = True  # the other reading: they count against the group
    await bot.send_message(group.id, "Раз", ephemeral_message_parameters=to(anna))
    await bot.send_message(group.id, "Два", ephemeral_message_parameters=to(boris))
    with pytest.raises(TelegramRetryAfter):
        await bot.send_message(group.id, "Стол")


async def test_the_sandbox_shows_them_to_their_receiver_only(
    server: FakeTelegram, bot: Bot
) -> None:
    anna, boris, group = world(server, admin=True)
    await bot.send_message(group.id, "Всем")
    sent = await bot.send_message(
        group.id, "Вам", reply_markup=KEYS, ephemeral_message_parameters=to(anna)
    )

    def shown(user: FakeUser) -> list[tuple[int, str, bool]]:
        chat = snapshot(server, user)["chats"][0]
        return [(m["id"], m["html"], m["ephemeral"]) for m in chat["messages"]]

    assert shown(anna) == [(1, "Всем", False), (-(sent.ephemeral_message_id or 0), "Вам", True)]
    assert shown(boris) == [(1, "Всем", False)]
