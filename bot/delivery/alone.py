"""One process shows everything (SQLite, or one process on a server): what the bot
asks for goes straight to its outbox. A lobby change's messages are drawn after the
table's lock is let go (drawing may ask Telegram: ``EphemeralHands.mode_line``), in
their chat's order with the other messages to that chat."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from functools import partial

from service.lobbies import Shown
from service.news import Update
from storage.db import Tx
from storage.records import TableRecord
from storage.shards import SHARDS

from ..presenter import Presenter
from .base import Delivery, Following, chat_of
from .poster import Poster
from .posts import Admin, Lobby, Post, posts_of

log = logging.getLogger(__name__)


class Alone(Delivery):
    def __init__(self, poster: Poster, presenter: Presenter, *, shards: int = SHARDS) -> None:
        """``shards``: all held here (a figure for the operators)."""
        self.poster = poster
        self.presenter = presenter
        self.count = shards
        self._drawing: dict[int, asyncio.Task[None]] = {}  # chat -> its last draw

    @property
    def shards(self) -> int:
        return self.count

    async def post(self, post: Post) -> None:
        await self._drawn(chat_of(post))
        await self.poster.deliver(post)

    async def lobby(self, table: TableRecord, *, new: bool, page: str | None = None) -> None:
        """Once it is sent (a new one is noted as the table's)."""
        await self._drawn(table.chat_id)
        sending = await self.poster.lobby(table, page, new=new)
        if sending is not None:
            await sending

    async def hand(self, game_id: int, user_id: int) -> None:
        self.presenter.refresh(game_id, user_id)

    async def bot_status(self, chat_id: int, admin: bool) -> None:
        await self.poster.deliver(Admin(chat_id, admin))

    async def written(self, c: Tx, shown: Shown) -> None:
        """Nothing: it is sent after the commit."""

    async def committed(self, table: TableRecord, shown: Shown) -> None:
        """Its messages are drawn as soon as the lock is let go (none for the last seat
        taken: the start follows, ``Tables.start_full``), and then the reply it had."""
        for post in posts_of(shown):
            match post:
                case Lobby(full=True):
                    pass
                case Lobby(page=page, new=new):  # as this change left the table: a draw
                    # that finds it changed since leaves it to the later change's draw
                    self._later(post.chat_id, partial(self.poster.lobby, table, page, new=new))
                case _:
                    self._later(chat_of(post), partial(self.poster.deliver, post))

    async def news(self, update: Update) -> None:
        await self.presenter.on_update(update)

    def moved(self, game_id: int) -> None:
        self.presenter.redraw(game_id)

    def start(self, games: Following) -> None:
        """The restored games' tables and hands again: the keyboards the last process
        drew may be out of date or of an older version of the bot (an edit that
        changes nothing is not sent)."""
        self.presenter.redraw_all()

    async def halt(self) -> None:
        """Nothing is taken from elsewhere."""

    async def drawn(self) -> None:
        while self._drawing:
            await asyncio.wait(list(self._drawing.values()))

    async def stop(self) -> None:
        """Nothing is left to hand over (``App.stop`` waited for ``drawn`` a while)."""

    def _later(self, chat_id: int, draw: Callable[[], Awaitable[object]]) -> None:
        """``draw`` once the chat's earlier draws are queued in the outbox, in a task of
        its own (the caller holds the table's lock; the outbox is not waited for)."""
        before = self._drawing.get(chat_id)

        async def run() -> None:
            if before is not None:
                await asyncio.wait([before])
            try:
                await draw()
            except Exception:
                log.exception("chat %s: drawing a lobby change's message failed", chat_id)
            finally:
                if self._drawing.get(chat_id) is task:
                    del self._drawing[chat_id]

        task = asyncio.create_task(run(), name=f"lobby draw {chat_id}")
        self._drawing[chat_id] = task

    async def _drawn(self, chat_id: int) -> None:
        """Wait until the chat's lobby draws are in the outbox (messages to a chat keep
        their order)."""
        task = self._drawing.get(chat_id)
        if task is not None:
            await asyncio.wait([task])
