"""SQLite: write transactions on the event loop's thread, reads and checkpoints in
aiosqlite's.

A step's transaction is a handful of statements on a few pages, with no fsync at
commit (WAL with ``synchronous = NORMAL``): a fraction of a millisecond of work.
Handed to aiosqlite's thread, each statement waited for a turn of the event loop to
come back, and the transaction held the database through every one of them: at a
thousand tables the queue for it grew to seconds while the loop had time to spare
(``bench/bot_load.py``). So ``tx()`` runs its statements right here, on its own
connection, and never waits for anything but its lock. What may take long goes to
aiosqlite's thread on a second, read-only connection: reads outside a transaction,
and the checkpoints that copy the log back into the file and fsync it, started
every ``CHECKPOINT_EVERY`` commits instead of inside one. (A ``:memory:`` database
is one connection's: there everything runs on the writer.)
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import sqlite3
import time
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from typing import Any

import aiosqlite

from .db import Conflict, Database, Row, Tx
from .gate import Gate
from .handling import Handling, Recorder
from .outage import Reach

log = logging.getLogger(__name__)

CHECKPOINT_EVERY = 500  # commits (a step writes a few pages: a log of a few MB at most)
BUSY = 5.0  # seconds to wait for another process's lock (a backup, the sqlite3 shell)
PRAGMAS = ("synchronous = NORMAL", "foreign_keys = ON")
READER_PRAGMAS = (*PRAGMAS, f"busy_timeout = {BUSY * 1000:.0f}", "query_only = ON")
# The writer waits for a lock in short blocking steps, the loop running between them.
WRITER_PRAGMAS = (
    "journal_mode = WAL",
    *PRAGMAS,
    "busy_timeout = 20",
    f"journal_size_limit = {64 * 2**20}",  # bytes: a log grown past this is cut back
    "wal_autocheckpoint = 0",
)


class SqliteTx:
    backend = "sqlite"

    def __init__(self, conn: sqlite3.Connection, recorder: Recorder | None = None) -> None:
        self.conn = conn
        self.recorder = recorder

    async def execute(self, sql: str, args: Sequence[Any] = ()) -> int:
        return self._run(sql, args).rowcount

    def _run(self, sql: str, args: Sequence[Any]) -> sqlite3.Cursor:
        try:
            return self.conn.execute(sql, tuple(args))
        except sqlite3.IntegrityError as e:
            raise Conflict(str(e)) from e

    async def fetch_one(self, sql: str, args: Sequence[Any] = ()) -> Row | None:
        row: Row | None = self.conn.execute(sql, tuple(args)).fetchone()
        return row

    async def fetch_all(self, sql: str, args: Sequence[Any] = ()) -> list[Row]:
        return self.conn.execute(sql, tuple(args)).fetchall()

    async def notify(self, channel: str, payload: str, *, chat: int | None = None) -> None:
        """Nobody to tell: one process per file."""

    async def insert(self, sql: str, args: Sequence[Any] = ()) -> int:
        cur = self._run(sql, args)
        assert cur.lastrowid is not None
        return cur.lastrowid

    async def effect(self) -> None:
        if self.recorder is not None:
            await self.recorder.effect(self)


class SqliteDatabase(Database):
    """Transactions one at a time (a lock, for bodies that await something else)."""

    def __init__(
        self, writer: sqlite3.Connection, reader: aiosqlite.Connection | None, path: str
    ) -> None:
        self.writer, self.reader = writer, reader
        self.target = self.path = path
        self.handling = Handling()
        self.reach = Reach()  # (a file: never out of reach)
        self._lock = Gate()  # (not asyncio.Lock: see storage.gate)
        self._commits = 0
        self._checkpoint: asyncio.Task[None] | None = None
        self._closing = False

    @classmethod
    async def connect(cls, path: str) -> SqliteDatabase:
        # (check_same_thread off: created where the loop may not run yet; used on its thread)
        writer = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        reader = None
        try:
            writer.row_factory = sqlite3.Row
            for pragma in WRITER_PRAGMAS:
                writer.execute(f"PRAGMA {pragma}")
            if path == ":memory:":
                return cls(writer, None, path)
            connecting = aiosqlite.connect(path, isolation_level=None)
            # Its thread only reads: one left behind (a database never closed) must not
            # keep the process from exiting, as a non-daemon thread does.
            connecting._thread.daemon = True
            reader = await connecting
            reader.row_factory = aiosqlite.Row
            for pragma in READER_PRAGMAS:  # (each read to its end: see _fold)
                await reader.execute_fetchall(f"PRAGMA {pragma}")
        except BaseException:
            writer.close()
            if reader is not None:
                await reader.close()
            raise
        return cls(writer, reader, path)

    async def close(self) -> None:
        """Both connections, whatever happens on the way: aiosqlite's thread left running
        would keep the process from exiting."""
        self._closing = True  # no checkpoint starts from now on
        try:
            if self._checkpoint is not None:
                with contextlib.suppress(Exception):
                    await asyncio.wait({self._checkpoint})
            with contextlib.suppress(sqlite3.Error):
                self.writer.execute("PRAGMA wal_checkpoint(TRUNCATE)")  # leave one file
        finally:
            self.writer.close()
            if self.reader is not None:
                await self.reader.close()

    async def stored_bytes(self) -> int:
        """The file's size once the write-ahead log is folded into it."""
        for _ in range(100):
            if self._checkpoint is not None:  # (one under way makes TRUNCATE busy)
                await self._checkpoint
            async with self._lock:
                busy = self.writer.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()[0]
            if not busy:
                break
            await asyncio.sleep(0.01)
        return os.path.getsize(self.path)

    async def schema_version(self) -> int:
        row = await self.fetch_one("PRAGMA user_version")
        return int(row[0]) if row else 0

    async def set_schema_version(self, tx: Tx, number: int) -> None:
        await tx.execute(f"PRAGMA user_version = {int(number)}")

    @asynccontextmanager
    async def tx(self) -> AsyncIterator[SqliteTx]:
        recorder = self.handling.recorder()
        async with self._lock:
            await self._begin()
            try:
                yield SqliteTx(self.writer, recorder)
                self.writer.execute("COMMIT")
            except BaseException:
                if self.writer.in_transaction:  # (a failed COMMIT may have ended it)
                    self.writer.execute("ROLLBACK")
                raise
        if recorder is not None:
            recorder.committed()
        self._commits += 1
        due = self._commits >= CHECKPOINT_EVERY and self.reader is not None
        if due and self._checkpoint is None and not self._closing:
            self._commits = 0
            self._checkpoint = asyncio.create_task(self._fold(), name="sqlite-checkpoint")

    async def _begin(self) -> None:
        """``BEGIN IMMEDIATE``, waiting for another process's write lock without
        stopping the loop for more than a few milliseconds at a time."""
        give_up = time.monotonic() + BUSY
        while True:
            try:
                self.writer.execute("BEGIN IMMEDIATE")
                return
            except sqlite3.OperationalError as e:
                if "locked" not in str(e) or time.monotonic() >= give_up:
                    raise
            await asyncio.sleep(0.05)

    async def _fold(self) -> None:
        """Copy the log's committed pages back into the file. The first pass runs beside
        the writes (``PASSIVE``: it waits for nobody); a second, short one between two
        transactions copies what they wrote meanwhile, so that the next one writes the
        log from its start again instead of growing it."""
        assert self.reader is not None
        try:  # (each read to its end: a statement left unfinished would hold a read
            # transaction open, and every later read would see the database as it was)
            await self.reader.execute_fetchall("PRAGMA wal_checkpoint(PASSIVE)")
            async with self._lock:
                await self.reader.execute_fetchall("PRAGMA wal_checkpoint(PASSIVE)")
        except Exception:  # (sqlite3's errors, or the reader closed under it)
            log.exception("checkpoint of %s failed: the log grows until the next one", self.path)
        finally:
            self._checkpoint = None

    async def fetch_one(self, sql: str, args: Sequence[Any] = ()) -> Row | None:
        rows = await self.fetch_all(sql, args)
        return rows[0] if rows else None

    async def fetch_all(self, sql: str, args: Sequence[Any] = ()) -> list[Row]:
        """In aiosqlite's thread (one trip: a cursor's execute, fetch and close are three),
        beside the transactions: the log keeps what was committed before it began."""
        if self.reader is None:
            async with self.tx() as c:  # not inside another coroutine's transaction
                return await c.fetch_all(sql, args)
        return list(await self.reader.execute_fetchall(sql, tuple(args)))
