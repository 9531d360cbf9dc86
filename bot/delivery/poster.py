"""Showing a post (``posts``) through this process's outbox: the one place that knows
how each kind is drawn, whichever process asked for it."""

from __future__ import annotations

import asyncio
from typing import Any

from service.records import Records
from storage.records import TableRecord, TableStatus

from ..closing import show_closed
from ..ephemeral import EphemeralHands
from ..hand_pages import HandPages
from ..keyboard import Keyboard
from ..lobby_message import lobby_content
from ..outbox import Outbox
from ..outgoing import Posted
from ..presenter import Presenter
from ..reach import Reach
from .posts import Admin, Closed, Edit, Hand, Lobby, Post, Send, keyboard

Sending = asyncio.Future[Any]


class Poster:
    def __init__(
        self,
        outbox: Outbox,
        records: Records,
        presenter: Presenter,
        pages: HandPages,
        reach: Reach,
        group_hands: EphemeralHands,
    ) -> None:
        self.outbox = outbox
        self.records = records
        self.presenter = presenter
        self.pages = pages
        self.reach = reach
        self.group_hands = group_hands
        self._posting: dict[int, asyncio.Future[Posted | None]] = {}  # table -> new lobby

    def posting(self, table_id: int) -> bool:
        """Whether the table's new lobby message is on its way (not yet noted)."""
        return table_id in self._posting

    async def deliver(self, post: Post) -> Sending | None:
        """Queue the post in the outbox (None: nothing to wait for)."""
        match post:
            case Send(chat_id, text, markup, thread_id, reply_to):
                return self.outbox.send(
                    chat_id, text, keyboard(markup), thread_id=thread_id, reply_to=reply_to
                )
            case Edit(chat_id, message_id, text, markup):
                return self.outbox.edit(chat_id, message_id, text, keyboard(markup))
            case Lobby(_, table_id, page, new, full, message_id):
                table = await self.records.table(table_id)
                if table is None or (full and table.lobby_message_id != message_id):
                    return None  # (a game started from that lobby, and ended: its result shows)
                return await self.lobby(table, page, new=new)
            case Closed(_, table_id, why, title, game_id):
                await self._noted(table_id)  # (a lobby on its way: then it says so too)
                table = await self.records.table(table_id)
                if table is None:
                    return None
                sending = await show_closed(self.outbox, self.records, table, why, title, game_id)
                return asyncio.gather(*sending) if sending else None
            case Hand(user_id, game_id):
                user = await self.records.user(user_id)
                if user is not None and user.can_message:  # (started the bot in another process)
                    self.reach.set(user_id, False)
                await self.pages.sync((game_id, user_id))
                self.presenter.refresh(game_id, user_id)
                return None
            case Admin(chat_id, admin):
                self.group_hands.status_changed(chat_id, admin)
                return None

    async def lobby(
        self, table: TableRecord, page: str | None, *, new: bool
    ) -> asyncio.Future[Posted | None] | None:
        """Queue the lobby message as the table is now (None: nothing to send). A new
        lobby message of the table still on its way is waited for: this one edits it."""
        await self._noted(table.id)
        lobby = table.lobby_message_id
        if table.status is TableStatus.PLAYING:  # started: a summary loses «Ещё партию» (else the
            if table.lobby_is_summary and lobby is not None:  # game shows in it now)
                return self.outbox.edit(table.chat_id, lobby, None)
            return None
        if table.status is not TableStatus.LOBBY:
            return None  # closed
        hands = self.group_hands
        while True:
            text, markup = await lobby_content(self.records, table, page, hands)
            now = await self.records.table(table.id)  # (drawing may have waited for Telegram)
            if now is None or now.status is not TableStatus.LOBBY or now.series != table.series:
                return None  # closed, a game started (or even ended) meanwhile
            if _lobby(now) == _lobby(table):
                break
            if not new:  # a change came that draws the lobby itself
                return None
            table = now  # (that change edits the old message: the new one is drawn here)
        if not (new or now.lobby_message_id is None or now.lobby_is_summary):
            return self.outbox.edit(now.chat_id, now.lobby_message_id, text, markup)
        return self._post_lobby(now, text, markup)

    async def _noted(self, table_id: int) -> None:
        """Once the table's new lobby message on its way is sent and noted."""
        posting = self._posting.get(table_id)
        if posting is not None:
            await asyncio.wait([posting])

    def _post_lobby(
        self, table: TableRecord, text: str, markup: Keyboard | None
    ) -> asyncio.Future[Posted | None]:
        """Post the lobby anew, noted as the table's once sent; a result it follows
        stays but loses «Ещё партию» (the game goes on from the lobby)."""
        if table.lobby_is_summary and table.lobby_message_id is not None:
            self.outbox.edit(table.chat_id, table.lobby_message_id, None)  # the keyboard only
        sending = self.outbox.send(table.chat_id, text, markup)

        async def noted() -> Posted | None:
            try:
                sent = await sending
                if sent is not None:
                    await self.records.set_lobby_message(table.id, sent.message_id, summary=False)
                return sent
            finally:
                if self._posting.get(table.id) is posting:
                    del self._posting[table.id]

        posting = self._posting[table.id] = asyncio.ensure_future(noted())
        return posting


def _lobby(table: TableRecord) -> tuple[object, ...]:
    """What a lobby message is drawn from, and whether a game was played since (not
    whether the lobby is a result: noting a new lobby changes that, not what it shows)."""
    return table.status, table.seats, table.settings_version, table.series
