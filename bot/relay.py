"""Lobby messages and command replies, from whichever process got the update.

Alone (SQLite, or one process on a server) they go straight to this process's outbox,
as they always did; a lobby change's message is drawn after the table's lock is let go
(drawing may ask Telegram: ``EphemeralHands.mode_line``), in its chat's order with the
other messages to that chat (``_later``).

One of several processes on a server (``share``): each becomes a row of ``outgoing`` (a
lobby change's in the change's own transaction, ``written``), and the process holding
the sending lease (``bot.sending``) sends the rows in order through its outbox (and
learns what it must know to show the games: the bot's status in a group), so Telegram's
per-chat and per-group limits are counted in one place with the games' edits, and a
message whose process died before it went out is sent all the same. A row is deleted
once the outbox has sent it (or given it up); a holder that dies between the two leaves
it to the next holder, which sends it again (at least once, never lost). A lobby is
rendered when the holder takes its row, from the table as the database has it then, so
two processes' changes never show out of order; a hand to show again is the presenter's
(``Presenter.refresh``). The reply to a command that changes the database goes with its
change (``Said``: a deep link's join, /stop); one that changes nothing (/stats, /rules,
/start, a refusal) has no transaction to go in, and is a row of its own once the handler
answers: a process that dies before that loses it with the update it was handling.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import asdict, dataclass, fields, replace
from typing import Any

from aiogram.types import InlineKeyboardMarkup, Message

from service.lobbies import Said, Shown
from service.tables import Tables
from storage.db import Database, Listener, Tx
from storage.outgoing import OutgoingRepo
from storage.repos import TableRecord

from .closing import show_closed
from .lobby_message import lobby_content, put_lobby
from .outbox import Outbox
from .presenter import Presenter

log = logging.getLogger(__name__)

PERIOD = 1.0  # seconds between two reads of the waiting rows when nothing wakes the holder
ATTEMPTS = 3  # tries of a row whose sending fails before it is given up
STOP_WAIT = 2.0  # seconds for the database when stopping
# seconds a lobby row of the last seat taken waits: its process starts the game at once,
# and the holder then shows the game rather than a full lobby (drawn if the start failed)
FULL_WAIT = 2.0


@dataclass(frozen=True)
class Post:
    """One row's body: what to send."""

    kind: str  # "send", "edit", "lobby", "closed", "hand" or "admin"
    chat_id: int = 0
    message_id: int | None = None  # edit: the message; lobby: see ``full``
    text: str | None = None  # edit: None for the keyboard only
    markup: str | None = None  # an InlineKeyboardMarkup as JSON
    thread_id: int | None = None  # send: into this topic of a forum
    reply_to: int | None = None  # send: as a reply to this message
    table_id: int | None = None  # lobby: the table, its page and whether posted anew
    page: str | None = None
    new: bool = False
    game_id: int | None = None  # hand: the game whose hand (``chat_id``'s) to show again
    closed: str | None = None  # closed: the text key saying why, the group's title, the
    title: str | None = None  # game it was playing (``game_id``)
    admin: bool = False  # admin: whether the bot is an administrator of the group now
    full: bool = False  # lobby: the last seat was taken (drawn after ``FULL_WAIT``, if
    # ``message_id`` is still the table's lobby message)

    def to_json(self) -> str:
        return json.dumps({k: v for k, v in asdict(self).items() if v not in (None, False)})

    @classmethod
    def from_json(cls, body: str) -> Post:
        data: dict[str, Any] = json.loads(body)
        return cls(**{f.name: data[f.name] for f in fields(cls) if f.name in data})

    def keyboard(self) -> InlineKeyboardMarkup | None:
        if self.markup is None:
            return None
        return InlineKeyboardMarkup.model_validate_json(self.markup)


def markup_json(markup: InlineKeyboardMarkup | None) -> str | None:
    return None if markup is None else markup.model_dump_json(exclude_none=True)


class Relay:
    def __init__(
        self, outbox: Outbox, tables: Tables, presenter: Presenter, *, period: float = PERIOD
    ) -> None:
        self.outbox = outbox
        self.tables = tables
        self.presenter = presenter
        self.period = period
        self.relayed = 0  # rows this process took and handed to its outbox
        self._repo: OutgoingRepo | None = None
        self._held: Callable[[], bool] = lambda: False
        self._wake = asyncio.Event()
        self._taken: set[int] = set()  # rows handed to the outbox, not yet deleted
        self._done: list[int] = []  # rows sent (or given up): to delete
        self._failures: dict[int, int] = {}  # row -> the tries that failed
        self._listener: Listener | None = None
        self._task: asyncio.Task[None] | None = None
        self._drawing: dict[int, asyncio.Task[None]] = {}  # alone: chat -> its last draw

    def share(self, db: Database, held: Callable[[], bool]) -> None:
        """One of several processes: through the database, sent where ``held()``."""
        self._repo = OutgoingRepo(db)
        self._held = held

    # --- what the handlers say ------------------------------------------------------

    async def send(
        self,
        chat_id: int,
        text: str,
        markup: InlineKeyboardMarkup | None = None,
        *,
        thread_id: int | None = None,
        reply_to: int | None = None,
    ) -> None:
        """A new message (``Outbox.send``)."""
        if self._repo is None:
            await self._drawn(chat_id)
            self.outbox.send(chat_id, text, markup, thread_id=thread_id, reply_to=reply_to)
            return
        post = Post("send", chat_id, text=text, markup=markup_json(markup), thread_id=thread_id)
        await self._post(replace(post, reply_to=reply_to))

    async def reply(
        self,
        message: Message,
        text: str,
        markup: InlineKeyboardMarkup | None = None,
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
        markup: InlineKeyboardMarkup | None = None,
    ) -> None:
        """An edit (``text`` None: of the keyboard only)."""
        if self._repo is None:
            await self._drawn(chat_id)
            self.outbox.edit(chat_id, message_id, text, markup)
            return
        await self._post(Post("edit", chat_id, message_id, text, markup_json(markup)))

    async def lobby(self, table: TableRecord, *, new: bool, page: str | None = None) -> None:
        """Post the table's lobby message (``new``) or edit it; ``page``: one of its rules
        pages. Alone, once it is sent (a new one is noted as the table's)."""
        if self._repo is None:
            await self._drawn(table.chat_id)
            sending = await self._put_lobby(table, page, new=new)
            if sending is not None:
                await sending
            return
        await self._post(Post("lobby", table.chat_id, table_id=table.id, page=page, new=new))

    async def _put_lobby(
        self, table: TableRecord, page: str | None, *, new: bool
    ) -> asyncio.Future[Message | None] | None:
        """Queue the lobby message as the table is now (None: nothing to send)."""
        lobby = table.lobby_message_id
        if table.status == "playing":  # started: a summary loses «Ещё партию» (else the
            if table.lobby_is_summary and lobby is not None:  # game shows in it now)
                return self.outbox.edit(table.chat_id, lobby, None)
            return None
        if table.status != "lobby":
            return None  # closed
        text, markup = await lobby_content(self.tables, table, page, self.presenter.ephemeral)
        now = await self.tables.record(table.id)  # (drawing may have waited for Telegram)
        if now is None or _lobby(now) != _lobby(table):  # closed, a game started (or even
            return None  # ended) meanwhile, or a change came that draws the lobby itself
        return put_lobby(self.outbox, self.tables, table, text, markup, new=new)

    async def written(self, c: Tx, shown: Shown) -> None:
        """In a lobby change's transaction (``Tables``): one of several processes writes
        its lobby message's row there, so that a death right after the commit loses
        nothing (alone, nothing: it is sent after the commit)."""
        if self._repo is None:
            return
        closed = shown.closed is not None
        if shown.summary is not None:  # «Ещё партию» goes: the keyboard only
            post = Post("edit", shown.chat_id, shown.summary)
        else:
            post = Post(
                "closed" if closed else "lobby", shown.chat_id, table_id=shown.table_id,
                page=shown.page, new=shown.new, game_id=shown.game_id, closed=shown.closed,
                title=shown.title if closed else None, full=shown.full, message_id=shown.lobby,
            )  # fmt: skip
        await OutgoingRepo.put(c, post.to_json())
        if (said := shown.said) is not None:
            post = Post("send", said.chat_id, text=said.text, thread_id=said.thread_id)
            await OutgoingRepo.put(c, replace(post, reply_to=said.reply_to).to_json())

    def said(self, message: Message, text: str, *, quote: bool = False) -> Said:
        """The reply to ``message`` that ``reply`` would send, to go with a change."""
        thread = message.message_thread_id if message.is_topic_message else None
        to = message.message_id if quote else None
        return Said(message.chat.id, text, thread_id=thread, reply_to=to)

    async def committed(self, table: TableRecord, shown: Shown) -> None:
        """After the change's commit, the table's lock still held: alone, its lobby
        message is drawn as soon as the lock is let go (none for the last seat taken:
        the start follows), and then the reply it had."""
        if self._repo is not None:
            if self._held():
                self._wake.set()  # (else the holder hears of the row at the commit)
            return
        if shown.summary is not None:
            self._later(table.chat_id, functools.partial(self._take_off, shown))
        elif shown.closed is not None:
            why, title, game = shown.closed, shown.title, shown.game_id
            self._later(
                table.chat_id,
                lambda: show_closed(self.outbox, self.tables, table, why, title, game),
            )
        elif not shown.full:
            self._later(table.chat_id, lambda: self._put_lobby(table, shown.page, new=shown.new))
        if (said := shown.said) is not None:
            self._later(said.chat_id, functools.partial(self._say, said))

    async def _say(self, said: Said) -> None:
        self.outbox.send(said.chat_id, said.text, thread_id=said.thread_id, reply_to=said.reply_to)

    async def _take_off(self, shown: Shown) -> None:
        """A game started from a summary lobby: the summary loses «Ещё партию»."""
        assert shown.summary is not None
        self.outbox.edit(shown.chat_id, shown.summary, None)

    def _later(self, chat_id: int, draw: Callable[[], Awaitable[object]]) -> None:
        """Alone: ``draw`` once the chat's earlier draws are queued in the outbox, in a
        task of its own (the caller holds the table's lock; the outbox is not waited for)."""
        before = self._drawing.get(chat_id)

        async def run() -> None:
            if before is not None:
                await asyncio.wait([before])
            try:
                await draw()
            except Exception:
                log.exception("chat %s: drawing a lobby message failed", chat_id)
            finally:
                if self._drawing.get(chat_id) is task:
                    del self._drawing[chat_id]

        task = asyncio.create_task(run(), name=f"lobby draw {chat_id}")
        self._drawing[chat_id] = task

    async def _drawn(self, chat_id: int) -> None:
        """Alone: wait until the chat's lobby draws are in the outbox (messages to the
        chat keep their order)."""
        task = self._drawing.get(chat_id)
        if task is not None:
            await asyncio.wait([task])

    async def drawn(self) -> None:
        """Wait until every lobby draw is in the outbox (stopping, tests)."""
        while self._drawing:
            await asyncio.wait(list(self._drawing.values()))

    async def hand(self, game_id: int, user_id: int) -> None:
        """Show the user's hand again (``Presenter.refresh``) where the games are shown."""
        if self._repo is None:
            self.presenter.refresh(game_id, user_id)
            return
        await self._post(Post("hand", user_id, game_id=game_id))

    async def bot_status(self, chat_id: int, admin: bool) -> None:
        """The bot was made (or unmade) an administrator of the group: the process that
        shows the games pushes hands there (or not) from now on (``EphemeralHands``)."""
        self.presenter.ephemeral.status_changed(chat_id, admin)
        if self._repo is not None:
            await self._post(Post("admin", chat_id, admin=admin))

    async def _post(self, post: Post) -> None:
        assert self._repo is not None
        await self._repo.add(post.to_json())
        if self._held():
            self._wake.set()  # (else the holder hears of it at the commit)

    # --- the holder: sending the rows -----------------------------------------------

    def start(self) -> None:
        if self._repo is not None and self._task is None:
            self._task = asyncio.create_task(self._run(), name="relay")

    def wake(self) -> None:
        """Look at the waiting rows now (this process has just taken the lease)."""
        self._wake.set()

    async def halt(self) -> None:
        """Take no more rows (stopping: what was taken still goes out)."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    async def stop(self) -> None:
        """After the outbox has drained: what it sent is deleted, the rest left waiting."""
        await self.halt()
        if self._repo is not None:
            try:
                await asyncio.wait_for(self._forget_sent(), STOP_WAIT)
            except Exception:
                log.exception("forgetting the messages sent failed (they may come twice)")
        if self._listener is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._listener.close(), STOP_WAIT)
            self._listener = None

    async def _run(self) -> None:
        assert self._repo is not None
        while True:
            self._wake.clear()
            try:
                if self._listener is None or not self._listener.alive:
                    if self._listener is not None:
                        with contextlib.suppress(Exception):
                            await self._listener.close()
                    self._listener = await self._repo.follow(self._heard)
                await self._forget_sent()
                if self._held():
                    await self._take()
                else:
                    self._taken.clear()  # the holder now (re)sends whatever is left
            except Exception:
                log.exception("relaying the waiting messages failed: again in %s s", self.period)
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(self.period):
                    await self._wake.wait()

    def _heard(self) -> None:
        if self._held():
            self._wake.set()

    async def _forget_sent(self) -> None:
        assert self._repo is not None
        done, self._done = self._done, []
        try:
            await self._repo.sent(done)
        except BaseException:
            self._done += done  # deleted at the next turn
            raise
        self._taken.difference_update(done)

    async def _take(self) -> None:
        """Hand every waiting row to the outbox, in order (a lobby rendered now)."""
        assert self._repo is not None
        now = time.time()
        for row in await self._repo.waiting():
            if row.id in self._taken:
                continue
            post = Post.from_json(row.body)
            if post.full and now - row.created_at < FULL_WAIT:
                continue  # (looked at again at the next turn, every ``period``)
            self._taken.add(row.id)
            try:
                sending = await self._deliver(post)
            except Exception:
                failures = self._failures[row.id] = self._failures.get(row.id, 0) + 1
                log.exception("a waiting message could not be sent (try %s)", failures)
                if failures < ATTEMPTS:  # (a database hiccup): again, the later ones after it
                    self._taken.discard(row.id)
                    break
                log.warning("given up: %s", row.body[:200])
                sending = None
            self._failures.pop(row.id, None)
            self.relayed += 1
            if sending is None:
                self._done.append(row.id)
            else:
                sending.add_done_callback(functools.partial(self._sent, row.id))
        if self._done:
            self._wake.set()

    def _sent(self, row_id: int, _sending: asyncio.Future[Any]) -> None:
        self._done.append(row_id)
        self._wake.set()

    async def _deliver(self, post: Post) -> asyncio.Future[Any] | None:
        """Queue the post in this process's outbox (None: nothing to wait for)."""
        if post.kind == "send":
            assert post.text is not None
            return self.outbox.send(
                post.chat_id,
                post.text,
                post.keyboard(),
                thread_id=post.thread_id,
                reply_to=post.reply_to,
            )
        if post.kind == "edit":
            assert post.message_id is not None
            return self.outbox.edit(post.chat_id, post.message_id, post.text, post.keyboard())
        if post.kind == "hand":
            assert post.game_id is not None
            user = await self.tables.records.user(post.chat_id)
            if user is not None and user.can_message:  # (started the bot in another process)
                self.presenter.set_blocked(user.id, False)
            await self.presenter.hand_pages.sync((post.game_id, post.chat_id))
            self.presenter.refresh(post.game_id, post.chat_id)
            return None
        if post.kind == "closed":
            assert post.table_id is not None and post.closed is not None
            table = await self.tables.record(post.table_id)
            if table is None:
                return None
            why, title = post.closed, post.title or ""
            sending = await show_closed(self.outbox, self.tables, table, why, title, post.game_id)
            return asyncio.gather(*sending) if sending else None
        if post.kind == "admin":
            self.presenter.ephemeral.status_changed(post.chat_id, post.admin)
            return None
        if post.kind == "lobby":
            assert post.table_id is not None
            table = await self.tables.record(post.table_id)
            if table is None or (post.full and table.lobby_message_id != post.message_id):
                return None  # (a game started from that lobby, and ended: its result shows)
            return await self._put_lobby(table, post.page, new=post.new)
        log.warning("a waiting message of an unknown kind: %s", post.kind)
        return None


def _lobby(table: TableRecord) -> tuple[object, ...]:
    """What a lobby message is drawn from, and whether a game was played since."""
    return table.status, table.seats, table.settings_version, table.lobby_is_summary, table.series
