"""The Bot API calls for an ephemeral message (Bot API 10.2), made by the outbox."""

from __future__ import annotations

from datetime import UTC, datetime

from aiogram import Bot
from aiogram.types import Chat, EphemeralMessageParameters, InlineKeyboardMarkup, Message


async def ephemeral_call(
    bot: Bot,
    chat_id: int,
    receiver: int,
    message_id: int | None,
    text: str | None,
    markup: InlineKeyboardMarkup | None,
    *,
    query: str | None,
    delete: bool,
    timeout: int,
) -> Message | None:
    """Send (``message_id`` None), edit or delete an ephemeral message to ``receiver``
    in the group. An edit's answer is True: a message standing for the edited one (id 0)
    says it went. A server older than 10.2 sends a plain message: the caller sees no
    ``ephemeral_message_id`` in it."""
    if message_id is not None:
        if delete:
            await bot.delete_ephemeral_message(
                chat_id=chat_id, receiver_user_id=receiver, ephemeral_message_id=message_id,
                request_timeout=timeout,
            )  # fmt: skip
            return None
        assert text is not None, "an ephemeral edit needs a text"
        await bot.edit_ephemeral_message_text(
            chat_id=chat_id, receiver_user_id=receiver, ephemeral_message_id=message_id,
            text=text, reply_markup=markup, request_timeout=timeout,
        )  # fmt: skip
        return Message(
            message_id=0, date=datetime.now(UTC), chat=Chat(id=chat_id, type="supergroup"),
            ephemeral_message_id=message_id, text=text, reply_markup=markup,
        )  # fmt: skip
    assert text is not None, "a new message needs a text"
    to = EphemeralMessageParameters(receiver_user_id=receiver, callback_query_id=query)
    return await bot.send_message(
        chat_id, text, reply_markup=markup, ephemeral_message_parameters=to,
        request_timeout=timeout,
    )  # fmt: skip
