"""Several bot processes on one PostgreSQL database: each keeps its cache of the
running games as the database has them.

Every committed step sends a notification (``GameRepo.changed``); a process that
hears of a version it does not hold reloads that game (``catch_up``) and arms its
deadline, so a deadline fires even where nobody moved (it is claimed by one
process, see ``steps.write_step``). Every ``poll`` seconds, and whenever the
listening connection had to be made anew, the running games' versions are read
again (shared out: those of the games held, below), for what a lost notification
did not say. A game whose version has not
moved for ``adopt_after`` seconds gets its computer players looked at here too
(once per version): the process that was moving them may have died.

Where the processes share the chats out (``Keeping``: the games of its shards',
``bot.delivery.shared``, and of the tables a Mini App page open here shows), a process
follows only the games it keeps: it hears only the notifications of their shards, and
its poll reads only the versions of the games it holds (every running game's place is
read when it starts listening, when it keeps more shards, and every ``scan_every``
polls). Another's game is loaded when an update for it comes here (``catch_up``), made
its move in the database, and let go at the next ``sync`` (its timer with it: the
process keeping it fires its deadline).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Collection
from typing import Protocol

from engine import State
from storage.db import Database
from storage.db import Listener as Notifications
from storage.repos import GameRecord, GameRepo, GameStatus, TableRepo, TableStatus

from .live import LiveGame, bots_seed
from .logctx import log_scope
from .registry import LiveGames
from .restore import load, snapshot_of

Arm = Callable[[int, LiveGame, float | None], None]  # (game, live, deadline): its timer


class Keeping(Protocol):
    """Which games a process keeps, where several share the chats out."""

    def keeps(self, chat_id: int, table_id: int) -> bool:
        """Whether it keeps the games of this chat and table."""
        ...

    def shards(self) -> Collection[int] | None:
        """The shards of the chats whose games it keeps (None: every one)."""
        ...


log = logging.getLogger(__name__)

POLL = 2.0  # seconds between two reads of the running games' versions
SCAN_EVERY = 15  # polls between two reads of every running game's place (shared out)
ADOPT_AFTER = 10.0  # seconds a version stands before the computer players are looked at


class Follower:
    def __init__(
        self,
        db: Database,
        games: LiveGames,
        *,
        arm: Arm,
        kick: Callable[[int], None],
        moved: Callable[[int], None],
        keeping: Keeping | None = None,
        poll: float = POLL,
        adopt_after: float = ADOPT_AFTER,
        scan_every: int = SCAN_EVERY,
    ) -> None:
        """``arm``: set (or cancel) a game's timer; ``kick``: let its computer players
        look at it; ``moved``: told of each game this cache took from the database at a
        new version, or let go as its table was closed (the layer that shows the games
        shows it, or forgets it); ``keeping``: which games this process keeps (None:
        every one)."""
        self._held = games
        self._keeping = keeping
        self.poll = poll
        self.scan_every = scan_every
        self.adopt_after = adopt_after
        self._arm = arm
        self._kick = kick
        self._on_moved = moved
        self._games = GameRepo(db)
        self._tables = TableRepo(db)
        self._listener: Notifications | None = None
        self._task: asyncio.Task[None] | None = None
        self._pending: dict[int, asyncio.Task[None]] = {}  # game -> its catch-up
        self._again: set[int] = set()  # games heard of since their catch-up began
        self._seen: dict[int, tuple[int, float]] = {}  # game -> (version, since when)
        self._adopted: dict[int, int] = {}  # game -> the version adopted
        self._places: dict[int, tuple[int, int]] = {}  # running game -> (chat, table)
        self._hearing: frozenset[int] | None = None  # the shards heard (None: every one)
        self._tuning = asyncio.Lock()
        self._shards = db.shards
        self._polls = 0  # since every running game's place was read
        self._scan_due = True  # (kept until a scan succeeds)

    # ------------------------------------------------------------ catching up

    async def catch_up(self, game_id: int) -> bool:
        """Load the game as the database has it; False when it does not run (any more)."""
        live = self._held.live(game_id)
        if live is not None:
            async with live.lock:
                return await self.reload(game_id, live)
        record = await self._games.get(game_id)
        if record is None or record.status != GameStatus.PLAYING:
            return False
        table = await self._tables.get(record.table_id)
        if table is None or table.status == TableStatus.CLOSED:
            return False
        state = await self._state(record)
        if self._held.live(game_id) is not None:  # loaded meanwhile
            return True
        live = LiveGame(state, record.table_id, table.chat_id, record.seats, bots_seed(record.seed))
        live.time_added = record.time_added
        self._held.hold(game_id, live)
        self._arm(game_id, live, record.deadline)
        log.info("game %s: followed from the database at version %s", game_id, record.version)
        self._moved(game_id)
        return True

    async def reload(self, game_id: int, live: LiveGame) -> bool:
        """Under the game's lock: its cache as the database has it."""
        record = await self._games.get(game_id)
        if record is None or (record.status == GameStatus.OVER and record.outcome is None):
            self._arm(game_id, live, None)  # ended unfinished: its table was closed
            if self._held.let_go(game_id, live):
                self._moved(game_id)  # (its hands in the group go where they are shown)
            return False
        retimed = (record.deadline, record.time_added) != (live.deadline, live.time_added)
        live.time_added = record.time_added
        if record.version != len(live.state.history):
            live.state = await self._state(record)
            live.seats = record.seats
            live.moved_at = asyncio.get_running_loop().time()
            self._moved(game_id)
        elif retimed and not live.state.is_over:  # an outage added time (``outage``)
            self._arm(game_id, live, record.deadline)
            self._moved(game_id)  # the seconds left
        if live.state.is_over and any(  # heard of its end after a newer game's start
            g > game_id for g in self._held.of_table(live.table_id)
        ):
            self._arm(game_id, live, None)
            self._held.let_go(game_id, live)  # one game per table (as create_game)
            return False
        self._arm(game_id, live, record.deadline)
        return not live.state.is_over

    def _moved(self, game_id: int) -> None:
        try:
            self._on_moved(game_id)
        except Exception:
            log.exception("game %s: telling of its move failed", game_id)

    async def _state(self, record: GameRecord) -> State:
        """The game's state: its snapshot, or what its action log rebuilds."""
        state = snapshot_of(record)
        if state is None:
            state, _ = load(record, await self._games.actions(record.id))
        return state

    # ---------------------------------------------------------------- hearing

    def heard(self, game_id: int, version: int, retimed: bool = False) -> None:
        """A step committed somewhere (perhaps here), or its deadline moved there
        (``retimed``): catch up if this cache is behind."""
        live = self._held.live(game_id)
        held = None if live is None else len(live.state.history)
        if (
            held is not None
            and version >= 0
            and (held > version or (held == version and not retimed))
        ):
            return  # this process made it, or has already caught up
        if live is None and version < 0:
            return  # ended, and never held here
        place = self._places.get(game_id)
        if live is None and place is not None and not self._kept(place):
            return  # another process's
        self._again.add(game_id)  # a catch-up under way may have read the row before it
        if game_id not in self._pending:
            task = asyncio.create_task(self._catch_up(game_id), name=f"follow-{game_id}")
            self._pending[game_id] = task

    async def _catch_up(self, game_id: int) -> None:
        try:
            with log_scope(game=game_id):
                while game_id in self._again:
                    self._again.discard(game_id)
                    if self._held.live(game_id) is None and not await self._kept_game(game_id):
                        break  # another process's
                    await self.catch_up(game_id)
        except Exception:
            log.exception("game %s: catching up failed (the next poll tries again)", game_id)
            self._scan_due = True  # (a game not held yet is read at a scan only)
        finally:
            self._again.discard(game_id)
            self._pending.pop(game_id, None)

    async def sync(self, *, scan: bool = True) -> int:
        """Catch up every game kept whose version here differs from the database's (or
        that ended there), and let go of the others' games; returns how many caught up.
        Shared out, ``scan``: read every running game's place (else only the versions of
        the games held: the games this process starts keeping are heard of)."""
        if self._keeping is None:
            versions = await self._games.versions()
        elif scan:
            places = await self._games.places()
            self._places = {g: (chat, table) for g, (_, chat, table) in places.items()}
            versions = {g: p[0] for g, p in places.items() if self._kept(self._places[g])}
            self._let_go([g for g, place in self._places.items() if not self._kept(place)])
            self._polls, self._scan_due = 0, False
        else:
            held_at = {g: (live.chat_id, live.table_id) for g, live in self._held.items()}
            self._let_go([g for g, place in held_at.items() if not self._kept(place)])
            versions = await self._games.versions_of(
                [g for g, place in held_at.items() if self._kept(place)]
            )
        held = dict(self._held.items())
        behind = [
            g for g, v in versions.items() if g not in held or len(held[g].state.history) != v
        ]
        gone = [g for g, live in held.items() if g not in versions and not live.state.is_over]
        for game_id in behind + gone:
            try:
                with log_scope(game=game_id):
                    await self.catch_up(game_id)
            except Exception:
                log.exception("game %s: catching up failed", game_id)
        self._adopt(versions)
        return len(behind) + len(gone)

    def _kept(self, place: tuple[int, int]) -> bool:
        return self._keeping is None or self._keeping.keeps(*place)

    async def _kept_game(self, game_id: int) -> bool:
        """Whether this process keeps the game (its place read once, if need be)."""
        if self._keeping is None:
            return True
        if game_id not in self._places:
            record = await self._games.get(game_id)
            table = None if record is None else await self._tables.get(record.table_id)
            if table is None:
                return False
            self._places[game_id] = (table.chat_id, table.id)
        return self._kept(self._places[game_id])

    def _let_go(self, game_ids: list[int]) -> None:
        """Forget other processes' games loaded here for an update (not one in use)."""
        for game_id in game_ids:
            live = self._held.live(game_id)
            if live is not None and not live.lock.locked():
                self._arm(game_id, live, None)
                self._held.let_go(game_id, live)

    def _adopt(self, versions: dict[int, int]) -> None:
        now = asyncio.get_running_loop().time()
        for game_id, version in versions.items():
            seen = self._seen.get(game_id)
            if seen is None or seen[0] != version:
                self._seen[game_id] = (version, now)
            elif now - seen[1] >= self.adopt_after and self._adopted.get(game_id) != version:
                self._adopted[game_id] = version
                self._kick(game_id)
        for game_id in [g for g in self._seen if g not in versions]:
            self._seen.pop(game_id, None)
            self._adopted.pop(game_id, None)

    # -------------------------------------------------------------- lifecycle

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.create_task(self._run(), name="follow-games")

    async def stop(self) -> None:
        tasks = [t for t in (self._task, *self._pending.values()) if t is not None]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        self._task = None
        async with self._tuning:  # (a change of the channels under way ends first)
            listener, self._listener = self._listener, None  # (none to change from now on)
        if listener is not None:
            with contextlib.suppress(Exception):
                await listener.close()

    async def _run(self) -> None:
        while True:
            try:
                if self._listener is None or not self._listener.alive:
                    if self._listener is not None:
                        log.warning("the notification connection was lost: listening anew")
                        with contextlib.suppress(Exception):
                            await self._listener.close()
                    self._listener, self._hearing = await self._games.follow(self.heard), None
                    self._scan_due = True  # (what was said meanwhile was not heard)
                await self.hear()
                self._polls += 1
                await self.sync(scan=self._scan_due or self._polls >= self.scan_every)
            except Exception:
                log.exception("following the other processes failed: again in %s s", self.poll)
            await asyncio.sleep(self.poll)

    async def hear(self) -> None:
        """Listen to the shards whose games this process keeps now; when it keeps more of
        them, every game's place is read at the next sync (notifications of their steps
        may have gone unheard). A listener that was lost is left to the loop."""
        async with self._tuning:  # (one change of the listened channels at a time)
            wanted = None if self._keeping is None else self._keeping.shards()
            shards = None if wanted is None else frozenset(wanted)
            listener = self._listener
            if listener is None or not listener.alive or shards == self._hearing:
                return
            if self._hearing is not None and (shards is None or not shards <= self._hearing):
                self._scan_due = True
            await listener.hear(range(self._shards) if shards is None else shards)
            self._hearing = shards
