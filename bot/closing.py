"""The messages of a closed table say so and lose their buttons: drawn where the games
are shown, when they are sent (``bot.delivery``)."""

from __future__ import annotations

import asyncio
from html import escape

from service.records import Records
from storage.repos import TableRecord

from .i18n import t
from .outbox import Outbox
from .outgoing import Posted

Sending = asyncio.Future[Posted | None]


async def show_closed(
    outbox: Outbox, records: Records, table: TableRecord, why: str, title: str, game_id: int | None
) -> list[Sending]:
    """Queue the edits: the hands of the game it was playing say ``why`` (a text key) and
    lose their buttons (a finished game's keep their result); after /stop the group's
    table message says the table was closed, and the lobby (or the last result) loses
    its buttons."""
    sending: list[Sending] = []
    if why == "closed.stopped":  # else the bot was removed: the group cannot be edited
        sending += await _group(outbox, records, table, playing=game_id is not None)
    game = None if game_id is None else await records.game(game_id)
    for uid in (s.user_id for s in game.seats if s.user_id is not None) if game else ():
        message_id = await records.hand_message(game_id or 0, uid)
        if message_id is None:
            continue
        user = await records.user(uid)
        lang = user.lang if user else "ru"
        sending.append(outbox.edit(uid, message_id, t(lang, why, title=escape(title))))
    return sending


async def _group(
    outbox: Outbox, records: Records, table: TableRecord, *, playing: bool
) -> list[Sending]:
    """The group's messages of a table closed by /stop: none keeps a live button or move."""
    chat = await records.chat(table.chat_id)
    lang = chat.lang if chat else "ru"
    sending = []
    if playing and table.table_message_id is not None:
        sending.append(outbox.edit(table.chat_id, table.table_message_id, t(lang, "closed.table")))
    lobby = table.lobby_message_id
    if lobby is None or (playing and lobby == table.table_message_id):
        return sending
    if table.lobby_is_summary:  # the last game's result stays, without «Ещё партию»
        sending.append(outbox.edit(table.chat_id, lobby, None))
    else:
        sending.append(outbox.edit(table.chat_id, lobby, t(lang, "lobby.closed")))
    return sending
