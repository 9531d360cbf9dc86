"""One of several processes on a server: what it asks to show becomes a row of
``outgoing`` (a lobby change's in the change's own transaction, ``written``), and the
process holding the sending lease (``holder``) sends the rows in order through its
outbox (and learns what it must know to show the games: the bot's status in a group),
so Telegram's per-chat and per-group limits are counted in one place with the games'
edits, and a message whose process died before it went out is sent all the same.

A row is deleted once the outbox has sent it (or given it up); a holder that dies
between the two leaves it to the next holder, which sends it again (at least once,
never lost). A lobby is rendered when the holder takes its row, from the table as the
database has it then, so two processes' changes never show out of order. The reply to
a command that changes the database goes with its change (``Said``: a deep link's
join, /stop); one that changes nothing (/stats, /rules, /start, a refusal) has no
transaction to go in, and is a row of its own once the handler answers: a process that
dies before that loses it with the update it was handling.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import time
from typing import Any

from service.lobbies import Shown
from service.news import Update
from storage.db import Database, Lease, Listener, Tx
from storage.outgoing import Outgoing, OutgoingRepo
from storage.records import TableRecord

from ..presenter import Presenter
from .base import Delivery, Following, chat_of
from .holder import Holder
from .poster import Poster
from .posts import Admin, Closed, Hand, Lobby, Post, from_json, posts_of, to_json

log = logging.getLogger(__name__)

PERIOD = 1.0  # seconds between two reads of the waiting rows when nothing wakes the holder
ATTEMPTS = 3  # tries of a row whose sending fails before it is given up
STOP_WAIT = 2.0  # seconds for the database when stopping
# seconds a lobby row of the last seat taken waits: its process starts the game at once,
# and the holder then shows the game rather than a full lobby (drawn if the start failed)
FULL_WAIT = 2.0


class Shared(Delivery):
    def __init__(
        self, db: Database, lease: Lease, poster: Poster, presenter: Presenter, *,
        period: float = PERIOD,
    ) -> None:  # fmt: skip
        self.poster = poster
        self.presenter = presenter
        self.period = period
        self.holder = Holder(lease, presenter, poster.outbox, gained=self._wake_up)
        self.relayed = 0  # rows this process took and handed to its outbox
        self._repo = OutgoingRepo(db)
        self._wake = asyncio.Event()
        self._taken: set[int] = set()  # rows handed to the outbox, not yet deleted
        self._done: list[int] = []  # rows sent (or given up): to delete
        self._failures: dict[int, int] = {}  # row -> the tries that failed
        self._listener: Listener | None = None
        self._task: asyncio.Task[None] | None = None

    @property
    def showing(self) -> bool:
        """Whether this process holds the sending lease."""
        return self.holder.held

    # --- what this process asks for -----------------------------------------------

    async def post(self, post: Post) -> None:
        await self._repo.add(to_json(post))
        self._heard()  # (else the holder hears of it at the commit)

    async def lobby(self, table: TableRecord, *, new: bool, page: str | None = None) -> None:
        await self.post(Lobby(table.chat_id, table.id, page, new))

    async def hand(self, game_id: int, user_id: int) -> None:
        await self.post(Hand(user_id, game_id))

    async def bot_status(self, chat_id: int, admin: bool) -> None:
        await self.poster.deliver(Admin(chat_id, admin))
        await self.post(Admin(chat_id, admin))

    async def written(self, c: Tx, shown: Shown) -> None:
        """The change's rows, in its transaction: a death right after the commit loses
        nothing."""
        for post in posts_of(shown):
            await OutgoingRepo.put(c, to_json(post))

    async def committed(self, table: TableRecord, shown: Shown) -> None:
        self._heard()  # (else the holder hears of the rows at the commit)

    async def news(self, update: Update) -> None:
        """A move made here: shown only by the holder (elsewhere, a game that ended here
        leaves nothing of its hands' pages behind)."""
        if self.holder.held:
            await self.presenter.on_update(update)
        elif update.state.is_over:
            self.poster.pages.forget_game(update.game_id)

    def moved(self, game_id: int) -> None:
        """A move made in another process, now in this cache."""
        if self.holder.held:
            self.presenter.redraw(game_id)

    # --- running ------------------------------------------------------------------

    def start(self, games: Following) -> None:
        games.follow()
        self.holder.start(games)
        if self._task is None:
            self._task = asyncio.create_task(self._run(), name="relay")

    async def halt(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    async def drawn(self) -> None:
        """Nothing is drawn outside the outbox here."""

    async def stop(self) -> None:
        """What the outbox sent is deleted, the rest left waiting; only then the lease
        goes: the next holder starts where this one ended (and would show a just-ended
        game's result again)."""
        await self.halt()
        try:
            await asyncio.wait_for(self._forget_sent(), STOP_WAIT)
        except Exception:
            log.exception("forgetting the messages sent failed (they may come twice)")
        if self._listener is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._listener.close(), STOP_WAIT)
            self._listener = None
        await self.holder.stop()

    # --- the holder: sending the rows -------------------------------------------------

    def _wake_up(self) -> None:
        self._wake.set()

    def _heard(self) -> None:
        if self.holder.held:
            self._wake.set()

    async def _run(self) -> None:
        while True:
            self._wake.clear()
            try:
                if self._listener is None or not self._listener.alive:
                    if self._listener is not None:
                        with contextlib.suppress(Exception):
                            await self._listener.close()
                    self._listener = await self._repo.follow(self._heard)
                await self._forget_sent()
                if self.holder.held:
                    await self._take()
                else:
                    self._taken.clear()  # the holder now (re)sends whatever is left
            except Exception:
                log.exception("relaying the waiting messages failed: again in %s s", self.period)
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(self.period):
                    await self._wake.wait()

    async def _forget_sent(self) -> None:
        done, self._done = self._done, []
        try:
            await self._repo.sent(done)
        except BaseException:
            self._done += done  # deleted at the next turn
            raise
        self._taken.difference_update(done)

    async def _take(self) -> None:
        """Hand every waiting row to the outbox, in order per chat (a lobby rendered now)."""
        now = time.time()
        waiting: set[int] = set()  # chats whose rows wait for their new lobby message
        for row in await self._repo.waiting():
            if row.id in self._taken:
                continue
            post = _post_of(row)
            if isinstance(post, Lobby) and post.full and now - row.created_at < FULL_WAIT:
                continue  # (looked at again at the next turn, every ``period``)
            if post is not None and chat_of(post) in waiting:
                continue
            if isinstance(post, Lobby | Closed) and self.poster.posting(post.table_id):
                waiting.add(post.chat_id)  # it edits that message once noted (its
                continue  # sending wakes this loop)
            self._taken.add(row.id)
            try:
                sending = None if post is None else await self.poster.deliver(post)
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


def _post_of(row: Outgoing) -> Post | None:
    """The row's post; None (logged) for a body this bot cannot read."""
    try:
        return from_json(row.body)
    except (ValueError, KeyError, TypeError):
        log.warning("a waiting message of an unknown kind: %s", row.body[:200])
        return None
