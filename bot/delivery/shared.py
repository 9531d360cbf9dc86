"""One of several processes on a server, each showing the chats of its shards
(``storage.shards``, held by ``holder``): what a process asks to show becomes a row of
``outgoing`` for its chat's shard (a lobby change's in the change's own transaction,
``written``), and the process holding that shard sends the rows in order through its
outbox (and learns what it must know to show the games: the bot's status in a group),
so Telegram's per-chat and per-group limits are counted in one place with the games'
edits, and a message whose process died before it went out is sent all the same. A
game is shown by the holder of its group's shard: its own moves reach its presenter
directly, the others' through the follower (``service.follow``).

A row is deleted once the outbox has sent it (or given it up); a holder that dies
between the two leaves it to the next holder, which sends it again (at least once,
never lost). A shard let go to another process is first drained: no row or game of it
is taken from then on, and the lease goes once what was taken has been sent. A lobby
is rendered when the holder takes its row, from the table as the database has it
then, so two processes' changes never show out of order. The reply to a command that
changes the database goes with its change (``Said``: a deep link's join, /stop); one
that changes nothing (/stats, /rules, /start, a refusal) has no transaction to go in,
and is a row of its own once the handler answers: a process that dies before that
loses it with the update it was handling.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import time
from typing import Any

from service import LiveGame
from service.lobbies import Shown
from service.news import Update
from storage.db import Database, Listener, ShardLeases, Tx
from storage.outgoing import Outgoing, OutgoingRepo
from storage.records import TableRecord
from storage.shards import shard_of

from ..presenter import Presenter
from .base import Delivery, Following, chat_of
from .holder import Holder, Shards
from .poster import Poster
from .posts import Admin, Closed, Hand, Lobby, Post, from_json, posts_of, to_json

log = logging.getLogger(__name__)

PERIOD = 1.0  # seconds between two reads of the waiting rows when nothing wakes the holder
ATTEMPTS = 3  # tries of a row whose sending fails before it is given up
STOP_WAIT = 2.0  # seconds for the database when stopping
# seconds what was taken of a shard being let go may take to be sent (then it goes anyway)
RELEASE_WAIT = 10.0
# seconds a lobby row of the last seat taken waits: its process starts the game at once,
# and the holder then shows the game rather than a full lobby (drawn if the start failed)
FULL_WAIT = 2.0


class Shared(Delivery):
    def __init__(
        self, db: Database, leases: ShardLeases, poster: Poster, presenter: Presenter, *,
        period: float = PERIOD,
    ) -> None:  # fmt: skip
        self.poster = poster
        self.presenter = presenter
        self.period = period
        self.count = leases.count
        self.holder = Holder(leases, gained=self._gain, releasing=self._release, lost=self._lose)
        self.relayed = 0  # rows this process took and handed to its outbox
        self._repo = OutgoingRepo(db)
        self._wake = asyncio.Event()
        self._showing: set[int] = set()  # the shards whose chats this process shows
        self._kept: set[int] | None = None  # those whose games it follows (None: all)
        self._turn = asyncio.Lock()  # a turn of taking rows, or a shard being let go
        self._taken: dict[int, int] = {}  # rows handed to the outbox, not yet deleted: shard
        self._sending: dict[int, asyncio.Future[Any]] = {}  # those still on their way
        self._done: list[int] = []  # rows sent (or given up): to delete
        self._failures: dict[int, int] = {}  # row -> the tries that failed
        self._games: Following | None = None
        self._listener: Listener | None = None
        self._task: asyncio.Task[None] | None = None

    @property
    def showing(self) -> int:
        """The shards this process holds and shows the chats of."""
        return len(self._showing)

    @property
    def shards(self) -> int:
        return self.count

    def shows(self, chat_id: int) -> bool:
        """Whether this process shows what goes to the chat (its shard is held here)."""
        return shard_of(chat_id, self.count) in self._showing

    def keeps(self, chat_id: int) -> bool:
        """Whether this process follows the chat's games: those of its shards (from its
        first shard on; before, every game, as restored)."""
        return self._kept is None or shard_of(chat_id, self.count) in self._kept

    def kept(self) -> frozenset[int] | None:
        return None if self._kept is None else frozenset(self._kept)

    # --- what this process asks for -----------------------------------------------

    async def post(self, post: Post) -> None:
        await self._repo.add(self._shard(post), to_json(post))
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
            await OutgoingRepo.put(c, self._shard(post), to_json(post))

    async def committed(self, table: TableRecord, shown: Shown) -> None:
        self._heard()  # (else the holder hears of the rows at the commit)

    async def news(self, update: Update) -> None:
        """A move made here: shown only by the holder of the game's shard (elsewhere, a
        game that ended here leaves nothing of its hands' pages behind)."""
        if self._shows_game(update.game_id):
            await self.presenter.on_update(update)
        elif update.state.is_over:
            self.poster.pages.forget_game(update.game_id)

    def moved(self, game_id: int) -> None:
        """A move made in another process, now in this cache (or the game let go: what
        is shown of it here, if anything, goes)."""
        if self.presenter.games.live(game_id) is None or self._shows_game(game_id):
            self.presenter.redraw(game_id)

    def _shard(self, post: Post) -> int:
        """The shard whose holder shows the post: its chat's (a hand: its game's group's,
        whose holder draws the game)."""
        chat = chat_of(post)
        if isinstance(post, Hand) and (live := self.presenter.games.live(post.game_id)):
            chat = live.chat_id
        return shard_of(chat, self.count)

    def _shows_game(self, game_id: int) -> bool:
        live = self.presenter.games.live(game_id)
        return live is not None and self.shows(live.chat_id)

    # --- running ------------------------------------------------------------------

    def start(self, games: Following) -> None:
        self._games = games
        games.follow()
        self.holder.start()
        if self._task is None:
            self._task = asyncio.create_task(self._run(), name="relay")

    async def halt(self) -> None:
        await self.holder.halt()  # (the shards held stay held until ``stop``)
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    async def drawn(self) -> None:
        """Nothing is drawn outside the outbox here."""

    async def stop(self) -> None:
        """What the outbox sent is deleted, the rest left waiting; only then the shards
        go: their next holders start where this one ended (and would show a just-ended
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
        self._showing.clear()
        await self.holder.stop()

    # --- the shards coming and going ------------------------------------------------

    async def _gain(self, shards: Shards) -> None:
        """These shards' chats are shown here from now on: their games again, as the
        database has them (the last holder may have died between a commit and its
        edits), paced as if it had just sent to every chat."""
        self.poster.outbox.assume_busy()
        self._kept = (self._kept or set()) | shards  # (followed from the catch-up on)
        if self._games is not None:
            await self._games.catch_up_all()
        self._showing |= shards
        games = self._games_of(shards)
        for game_id, _ in games:
            if self.presenter.rendered(game_id) is not None:  # shown here before: its
                self.presenter.let_go(game_id)  # messages are read again
            self.presenter.redraw(game_id)
        log.info("showing %s more shards (%s held): %s running games", len(shards),
                 len(self._showing), len(games))  # fmt: skip
        self._wake.set()

    async def _release(self, shards: Shards) -> None:
        """Show these shards no more, and return once what was taken of them is sent:
        their games' news in hand, their rows (then deleted), every call to their chats
        and their players'."""
        async with self._turn:  # (not while a turn hands rows over)
            self._showing -= shards
        players: set[int] = set()
        try:
            async with asyncio.timeout(RELEASE_WAIT):
                for game_id, live in self._games_of(shards):
                    await self.presenter.ready(game_id)
                    self.presenter.let_go(game_id)
                    players.update(s.user_id for s in live.seats if s.user_id is not None)
                sending = [f for r, f in self._sending.items() if self._taken.get(r) in shards]
                if sending:
                    await asyncio.wait(sending)
                await self._forget_sent()
                await self.poster.outbox.quiet(
                    lambda chat: chat in players or shard_of(chat, self.count) in shards
                )
        except TimeoutError:
            log.warning("letting %s shards go with their messages still on their way", len(shards))
        for row in [r for r, shard in self._taken.items() if shard in shards]:
            del self._taken[row]  # (their next holder sends what is left)
        if self._kept is not None:
            self._kept -= shards  # (their games let go at the next catch-up)

    def _lose(self, shards: Shards) -> None:
        """The connection holding these shards was lost: another process may hold them
        already, so none of their games is shown from here any more (calls to their chats
        already queued may still go, for a moment)."""
        self._showing -= shards
        if self._kept is not None:
            self._kept -= shards
        for row in [r for r, shard in self._taken.items() if shard in shards]:
            del self._taken[row]
        for game_id, _ in self._games_of(shards):
            self.presenter.let_go(game_id)  # (calls already queued may still go: a moment)

    def _games_of(self, shards: Shards) -> list[tuple[int, LiveGame]]:
        games = self.presenter.games
        return [
            (g, live)
            for g in games.ids()
            if (live := games.live(g)) is not None and shard_of(live.chat_id, self.count) in shards
        ]

    # --- sending the rows of the shards held ----------------------------------------

    def _heard(self) -> None:
        if self._showing:
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
                if self._showing:
                    async with self._turn:
                        await self._take()
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
        for row in done:
            self._taken.pop(row, None)

    async def _take(self) -> None:
        """Hand every waiting row of the shards shown to the outbox, in order per chat
        (a lobby rendered now)."""
        now = time.time()
        waiting: set[int] = set()  # chats whose rows wait for their new lobby message
        for row in await self._repo.waiting(self._showing):
            if row.id in self._taken or row.shard not in self._showing:
                continue
            post = _post_of(row)
            if isinstance(post, Lobby) and post.full and now - row.created_at < FULL_WAIT:
                continue  # (looked at again at the next turn, every ``period``)
            if post is not None and chat_of(post) in waiting:
                continue
            if isinstance(post, Lobby | Closed) and self.poster.posting(post.table_id):
                waiting.add(post.chat_id)  # it edits that message once noted (its
                continue  # sending wakes this loop)
            self._taken[row.id] = row.shard
            try:
                sending = None if post is None else await self.poster.deliver(post)
            except Exception:
                failures = self._failures[row.id] = self._failures.get(row.id, 0) + 1
                log.exception("a waiting message could not be sent (try %s)", failures)
                if failures < ATTEMPTS:  # (a database hiccup): again, the later ones after it
                    del self._taken[row.id]
                    break
                log.warning("given up: %s", row.body[:200])
                sending = None
            self._failures.pop(row.id, None)
            self.relayed += 1
            if sending is None:
                self._done.append(row.id)
            else:
                self._sending[row.id] = sending
                sending.add_done_callback(functools.partial(self._sent, row.id))
        if self._done:
            self._wake.set()

    def _sent(self, row_id: int, _sending: asyncio.Future[Any]) -> None:
        self._sending.pop(row_id, None)
        self._done.append(row_id)
        self._wake.set()


def _post_of(row: Outgoing) -> Post | None:
    """The row's post; None (logged) for a body this bot cannot read."""
    try:
        return from_json(row.body)
    except (ValueError, KeyError, TypeError):
        log.warning("a waiting message of an unknown kind: %s", row.body[:200])
        return None
