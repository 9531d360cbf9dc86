"""How this process shows what happens: ``Delivery``, one interface with two
implementations chosen once at start (``Alone``: this process shows everything;
``Shared``: one of several processes on one database, each showing the chats of its
shards and sending what every process asks for them).

The handlers send their messages through it, ``Tables`` its lobby changes (``Lobbies``),
the game service its committed steps (``Listener``)."""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Protocol

from aiogram.types import Message

from service.lobbies import Said, Shown
from service.news import Update
from storage.db import Tx
from storage.records import TableRecord

from ..keyboard import Keyboard
from .posts import Edit, Hand, Post, Send, markup_json


class Following(Protocol):
    """What a delivery needs of the game service once both are running."""

    def follow(self) -> None:
        """Keep up with the other processes' steps."""
        ...

    async def catch_up_all(self) -> int:
        """Catch up every game whose version here differs from the database's."""
        ...


class Delivery(ABC):
    # --- what the handlers say ---------------------------------------------------

    async def send(
        self,
        chat_id: int,
        text: str,
        markup: Keyboard | None = None,
        *,
        thread_id: int | None = None,
        reply_to: int | None = None,
    ) -> None:
        """A new message (``Outbox.send``)."""
        await self.post(Send(chat_id, text, markup_json(markup), thread_id, reply_to))

    async def reply(
        self,
        message: Message,
        text: str,
        markup: Keyboard | None = None,
        *,
        quote: bool = False,
    ) -> None:
        """What ``message.answer(text)`` does (``quote``: ``message.reply(text)``)."""
        said = self.said(message, text, quote=quote)
        await self.send(
            said.chat_id, text, markup, thread_id=said.thread_id, reply_to=said.reply_to
        )

    async def edit(
        self,
        chat_id: int,
        message_id: int,
        text: str | None,
        markup: Keyboard | None = None,
    ) -> None:
        """An edit (``text`` None: of the keyboard only)."""
        await self.post(Edit(chat_id, message_id, text, markup_json(markup)))

    def said(self, message: Message, text: str, *, quote: bool = False) -> Said:
        """The reply to ``message`` that ``reply`` would send, to go with a change."""
        thread = message.message_thread_id if message.is_topic_message else None
        to = message.message_id if quote else None
        return Said(message.chat.id, text, thread_id=thread, reply_to=to)

    @abstractmethod
    async def post(self, post: Post) -> None:
        """Show the post (in its chat's order with what was asked for before)."""

    @abstractmethod
    async def lobby(self, table: TableRecord, *, new: bool, page: str | None = None) -> None:
        """Post the table's lobby message (``new``) or edit it; ``page``: one of its rules
        pages."""

    @abstractmethod
    async def hand(self, game_id: int, user_id: int) -> None:
        """Show the user's hand again (a page or a target choice changed)."""

    @abstractmethod
    async def bot_status(self, chat_id: int, admin: bool) -> None:
        """The bot was made (or unmade) an administrator of the group: the process that
        shows the games pushes hands there (or not) from now on (``EphemeralHands``)."""

    # --- the lobby changes (``service.lobbies.Lobbies``) -------------------------------

    @abstractmethod
    async def written(self, c: Tx, shown: Shown) -> None:
        """In a lobby change's transaction."""

    @abstractmethod
    async def committed(self, table: TableRecord, shown: Shown) -> None:
        """After the change's commit, the table's lock still held."""

    # --- the game service's news (``service.news.Listener``) ----------------------------

    @abstractmethod
    async def news(self, update: Update) -> None: ...

    @abstractmethod
    def moved(self, game_id: int) -> None: ...

    # --- running -----------------------------------------------------------------------

    @property
    @abstractmethod
    def shards(self) -> int:
        """How many shards the chats fall into (``storage.shards``)."""

    def keeps(self, chat_id: int) -> bool:
        """Whether this process follows the chat's games (``service.follow``; one alone:
        every chat's)."""
        return True

    def kept(self) -> frozenset[int] | None:
        """The shards whose chats' games this process follows (None: every one)."""
        return None

    @property
    def showing(self) -> int:
        """How many shards this process shows the chats of now (one alone: all)."""
        return self.shards

    @abstractmethod
    def start(self, games: Following) -> None:
        """Show from now on (the restored games first)."""

    @abstractmethod
    async def halt(self) -> None:
        """Take nothing more to show (stopping: what was taken still goes out)."""

    @abstractmethod
    async def drawn(self) -> None:
        """Wait until everything taken is in the outbox (stopping, tests)."""

    @abstractmethod
    async def stop(self) -> None:
        """After the outbox has drained."""


def chat_of(post: Post) -> int:
    """The chat the post goes to (its order is kept per chat)."""
    match post:
        case Hand(user_id, _):
            return user_id
        case _:
            return post.chat_id
