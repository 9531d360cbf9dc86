"""The lobby message: what it shows (its settings and seats, or one of its rules pages)
and how it is posted or edited (``bot.delivery``)."""

from __future__ import annotations

import asyncio

from aiogram.types import InlineKeyboardMarkup, Message

from service.records import Records
from storage.repos import TableRecord

from . import render, rules_text
from .ephemeral import EphemeralHands
from .outbox import Outbox, Rendered


async def lobby_content(
    records: Records, table: TableRecord, page: str | None, hands: EphemeralHands | None
) -> Rendered:
    """The lobby in the table's language; ``page`` shows one of its rules pages instead
    (``rules`` or ``house``). ``hands``: the lobby says where the cards will be shown
    (in the group, or in the private chat)."""
    chat = await records.chat(table.chat_id)
    lang = chat.lang if chat else "ru"
    if page is not None:
        return rules_text.rules_page(lang, table, page)
    creator = await records.user(table.creator_id)
    text, markup = render.lobby(lang, table, creator.name if creator else "?")
    if hands is not None:
        text += "\n\n" + await hands.mode_line(lang, table.chat_id, table.creator_id)
    return text, markup


def put_lobby(
    outbox: Outbox,
    records: Records,
    table: TableRecord,
    text: str,
    markup: InlineKeyboardMarkup | None,
    *,
    new: bool,
) -> asyncio.Future[Message | None]:
    """Queue the lobby message: posted (``new``, or when the table has none, or its last
    one is a result, which stays but loses «Ещё партию»: the game goes on from the
    lobby) and noted as the table's once sent, or edited."""
    if new or table.lobby_message_id is None or table.lobby_is_summary:
        if table.lobby_is_summary and table.lobby_message_id is not None:
            outbox.edit(table.chat_id, table.lobby_message_id, None)  # the keyboard only
        sending = outbox.send(table.chat_id, text, markup)

        async def noted() -> Message | None:
            sent = await sending
            if sent is not None:
                await records.set_lobby_message(table.id, sent.message_id, summary=False)
            return sent

        return asyncio.ensure_future(noted())
    return outbox.edit(table.chat_id, table.lobby_message_id, text, markup)
