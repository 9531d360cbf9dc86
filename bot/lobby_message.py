"""The lobby message: what it shows (its settings and seats, or one of its rules pages);
``bot.delivery.poster`` posts or edits it."""

from __future__ import annotations

from service.records import Records
from storage.repos import TableRecord

from . import render, rules_text
from .ephemeral import EphemeralHands
from .outbox import Rendered


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
