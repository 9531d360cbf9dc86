"""The Bot API calls for an ephemeral message (Bot API 10.2), made by the outbox."""

from __future__ import annotations

from aiogram import Bot
from aiogram.methods import DeleteEphemeralMessage
from aiogram.types import EphemeralMessageParameters

from .keyboard import Keyboard
from .outgoing import EditEphemeralText, Posted, SendText


async def ephemeral_call(
    bot: Bot,
    chat_id: int,
    receiver: int,
    message_id: int | None,
    text: str | None,
    markup: Keyboard | None,
    *,
    query: str | None,
    delete: bool,
    timeout: int,
) -> Posted | None:
    """Send (``message_id`` None), edit or delete an ephemeral message to ``receiver``
    in the group. An edit's answer is True: a ``Posted`` standing for the edited one
    (message id 0) says it went. A server older than 10.2 sends a plain message: the caller sees no
    ``ephemeral_message_id`` in it."""
    if message_id is not None:
        if delete:
            gone = DeleteEphemeralMessage(
                chat_id=chat_id, receiver_user_id=receiver, ephemeral_message_id=message_id
            )
            await bot(gone, request_timeout=timeout)
            return None
        assert text is not None, "an ephemeral edit needs a text"
        edit = EditEphemeralText(
            chat_id=chat_id, receiver_user_id=receiver, ephemeral_message_id=message_id,
            text=text, reply_markup=markup,
        )  # fmt: skip
        await bot(edit, request_timeout=timeout)
        return Posted(message_id=0, ephemeral_message_id=message_id, reply_markup=None)
    assert text is not None, "a new message needs a text"
    to = EphemeralMessageParameters(receiver_user_id=receiver, callback_query_id=query)
    send = SendText(
        chat_id=chat_id, text=text, reply_markup=markup, ephemeral_message_parameters=to
    )
    return await bot(send, request_timeout=timeout)
