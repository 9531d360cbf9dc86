"""What a lobby change must show: its lobby message (``bot.delivery`` shows it)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from storage.db import Tx
from storage.records import TableRecord


@dataclass(frozen=True)
class Said:
    """The reply to the command that made a change (a deep link's join, /stop): sent
    after the change's messages, and where several processes run written in the change's
    transaction with them."""

    chat_id: int
    text: str
    thread_id: int | None = None
    reply_to: int | None = None


@dataclass(frozen=True)
class Shown:
    """What the lobby message shows of a change: posted ``new`` (a new table) or edited, on
    one of its rules ``page`` or the main one; once a game started from a summary lobby,
    the summary without «Ещё партию» (``summary``: that message, whatever the lobby is
    by the time it is shown: the new game may have ended). ``closed``: the table was
    closed, and its messages say so (the text key saying why, ``title`` the group's;
    ``game_id`` the game it was playing). ``full``: the change took the last seat, so a
    start follows: alone the lobby is shown only if that start does not happen
    (``Tables.start_full``); where several processes run the row is written all the same
    (its process may die before the start), and the holder draws it a moment later, once
    the game has most likely started (``bot.delivery.shared.FULL_WAIT``), and only while ``lobby``,
    the lobby message as the change read it, is still the table's (else a game started
    and ended meanwhile: its result is the lobby now)."""

    table_id: int
    chat_id: int
    new: bool = False
    page: str | None = None
    closed: str | None = None
    title: str = ""
    game_id: int | None = None
    full: bool = False
    summary: int | None = None
    lobby: int | None = None
    said: Said | None = None


class Lobbies(Protocol):
    """Where lobby messages go (``bot.delivery``): what a change must show is written in its
    transaction (where several processes send through one) and sent after its commit."""

    async def written(self, c: Tx, shown: Shown) -> None: ...
    async def committed(self, table: TableRecord, shown: Shown) -> None: ...
