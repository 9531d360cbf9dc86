"""What every table operation shares: the refusal a person is told, the table's lock
(``locked``), and the storage a lobby change writes to (``TableBase``)."""

from __future__ import annotations

import asyncio
import weakref
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from enum import StrEnum
from functools import wraps
from typing import Any, Concatenate, ParamSpec, TypeVar

from storage.db import Database, Tx
from storage.repos import TableRecord, TableRepo, TableStatus

from .games import GameService
from .lobbies import Lobbies, Shown
from .records import Records


class TableRefusal(StrEnum):
    """Why a lobby request was refused (its text: ``answer.<value>``)."""

    AGAIN_NOT_SEATED = "again_not_seated"  # «Ещё партию» from someone not seated at the last game
    AGAIN_OLD = "again_old"  # «Ещё партию» under an older result
    ALREADY_SEATED = "already_seated"  # the presser sits at this table already
    BAD_SETTINGS = "bad_settings"  # a setting the table cannot have
    CANNOT_LEAVE = "cannot_leave"  # a seat that may not be left now
    NEED_PRIVATE = "need_private"  # the presser must start the bot first
    NEED_TWO = "need_two"  # too few seated to start
    NO_TABLE = "no_table"  # no open table there
    NOT_FULL = "not_full"  # a start before every seat is taken
    NOT_NOW = "not_now"  # the table changed meanwhile
    NOT_SEATED = "not_seated"  # the presser has no seat here
    ONLY_CREATOR = "only_creator"  # the creator's to do
    OTHER_TABLE = "other_table"  # seated at another table
    PLAYING = "playing"  # a game is running
    RULES_CREATOR = "rules_creator"  # only the creator changes the rules
    SEATS_TAKEN = "seats_taken"  # fewer seats than are taken
    SETTINGS_MOVED = "settings_moved"  # the settings changed since the press
    TABLE_FULL = "table_full"  # every seat is taken


class TableError(Exception):
    """A refused lobby request: ``code`` says why, ``params`` fill in its text."""

    def __init__(self, code: TableRefusal, **params: Any) -> None:
        super().__init__(code)
        self.code = code
        self.params = params


@dataclass(frozen=True)
class Person:
    id: int
    name: str
    username: str | None = None
    lang: str = "ru"


P = ParamSpec("P")
R = TypeVar("R")
T = TypeVar("T", bound="TableBase")


class Moved(Exception):
    """The table's seats changed in the database since they were read (another
    process wrote them): read them again and decide again."""


RETRIES = 5  # reads of a table whose seats another process keeps changing


def locked(
    method: Callable[Concatenate[T, int, P], Awaitable[R]],
) -> Callable[Concatenate[T, int, P], Awaitable[R]]:
    """Hold the table's lock across the method: aiogram handles updates concurrently,
    and two presses must not both read the same seats or both start a game. Other
    processes do not see the lock: the seats are written only if they are still what
    was read (else the method runs again), and the database keeps one seat per person
    and one game per table."""

    @wraps(method)
    async def run(self: T, table_id: int, /, *args: P.args, **kwargs: P.kwargs) -> R:
        async with self._locks.setdefault(table_id, asyncio.Lock()):
            for _ in range(RETRIES - 1):
                try:
                    return await method(self, table_id, *args, **kwargs)
                except Moved:
                    continue
            try:
                return await method(self, table_id, *args, **kwargs)
            except Moved:
                raise TableError(TableRefusal.NOT_NOW) from None

    return run


class TableBase:
    """The storage and locks of the tables, and what their operations all do."""

    def __init__(
        self,
        db: Database,
        games: GameService,
        *,
        lobbies: Lobbies | None = None,
        records: Records | None = None,
    ) -> None:
        """``lobbies``: where each change's lobby message goes (none: tests)."""
        self.db = db
        self.games = games
        self.lobbies = lobbies
        self._repo = TableRepo(db)
        self.records = records or Records(db)  # people, chats, statistics, message ids
        self._locks: dict[int, asyncio.Lock] = {}  # table id -> its lock (see ``locked``)
        # person id -> the lock their joins take turns on (gone once no join holds it)
        self._joining: weakref.WeakValueDictionary[int, asyncio.Lock] = (
            weakref.WeakValueDictionary()
        )

    async def _written(self, c: Tx, shown: Shown) -> None:
        if self.lobbies is not None:
            await self.lobbies.written(c, shown)

    async def _committed(self, table: TableRecord, shown: Shown | None) -> TableRecord:
        if self.lobbies is not None and shown is not None:
            await self.lobbies.committed(table, shown)
        return table

    async def get(self, table_id: int) -> TableRecord:
        table = await self._repo.get(table_id)
        if table is None or table.status is TableStatus.CLOSED:
            raise TableError(TableRefusal.NO_TABLE)
        return table

    async def _as_creator(self, table_id: int, person: Person) -> TableRecord:
        table = await self.get(table_id)
        if person.id != table.creator_id:
            raise TableError(TableRefusal.ONLY_CREATOR)
        if table.status is not TableStatus.LOBBY:
            raise TableError(TableRefusal.PLAYING)
        return table

    async def _moved(self, table: TableRecord) -> Exception:
        """Why a settings change did not write: the settings were changed meanwhile by
        another process (refused: the creator decided on settings no longer there), or
        only the seats or the status were (``Moved``: read them again and decide again)."""
        now = await self._repo.get(table.id)
        if now is not None and now.settings_version != table.settings_version:
            return TableError(TableRefusal.SETTINGS_MOVED)
        return Moved()
