"""SQLite through aiosqlite: one connection, one lock for its statements."""

from __future__ import annotations

import asyncio
import os
import sqlite3
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from typing import Any

import aiosqlite

from .db import Conflict, Database, Row, Tx


class SqliteTx:
    backend = "sqlite"

    def __init__(self, conn: aiosqlite.Connection) -> None:
        self.conn = conn

    async def execute(self, sql: str, args: Sequence[Any] = ()) -> int:
        return int((await self._run(sql, args)).rowcount)

    async def _run(self, sql: str, args: Sequence[Any]) -> aiosqlite.Cursor:
        try:
            return await self.conn.execute(sql, tuple(args))
        except sqlite3.IntegrityError as e:
            raise Conflict(str(e)) from e

    async def fetch_one(self, sql: str, args: Sequence[Any] = ()) -> Row | None:
        async with self.conn.execute(sql, tuple(args)) as cur:
            row: Row | None = await cur.fetchone()
            return row

    async def fetch_all(self, sql: str, args: Sequence[Any] = ()) -> list[Row]:
        async with self.conn.execute(sql, tuple(args)) as cur:
            return list(await cur.fetchall())

    async def notify(self, channel: str, payload: str) -> None:
        """Nobody to tell: one process per file."""

    async def insert(self, sql: str, args: Sequence[Any] = ()) -> int:
        cur = await self._run(sql, args)
        assert cur.lastrowid is not None
        return cur.lastrowid


class SqliteDatabase(Database):
    """Every statement goes through one lock, so a transaction is never interleaved
    with another coroutine's statements."""

    def __init__(self, conn: aiosqlite.Connection, path: str) -> None:
        self.conn = conn
        self.target = self.path = path
        self._lock = asyncio.Lock()

    @classmethod
    async def connect(cls, path: str) -> SqliteDatabase:
        conn = await aiosqlite.connect(path, isolation_level=None)
        conn.row_factory = aiosqlite.Row
        await conn.execute("PRAGMA journal_mode = WAL")
        await conn.execute("PRAGMA synchronous = NORMAL")  # durable at WAL checkpoints
        await conn.execute("PRAGMA foreign_keys = ON")
        await conn.execute("PRAGMA busy_timeout = 5000")
        return cls(conn, path)

    async def close(self) -> None:
        await self.conn.close()

    async def stored_bytes(self) -> int:
        """The file's size once the write-ahead log is folded into it."""
        async with self._lock:
            await self.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        return os.path.getsize(self.path)

    async def schema_version(self) -> int:
        row = await self.fetch_one("PRAGMA user_version")
        return int(row[0]) if row else 0

    async def set_schema_version(self, tx: Tx, number: int) -> None:
        await tx.execute(f"PRAGMA user_version = {int(number)}")

    @asynccontextmanager
    async def tx(self) -> AsyncIterator[SqliteTx]:
        """aiosqlite's thread runs every statement it was handed (a BEGIN, a COMMIT)
        even when the caller is cancelled, so the rollback is queued after them and
        no transaction is left open for the next one to trip on."""
        async with self._lock:
            try:
                await self.conn.execute("BEGIN IMMEDIATE")
                yield SqliteTx(self.conn)
                await self.conn.commit()
            except BaseException:
                await asyncio.shield(self.conn.rollback())  # a no-op after a COMMIT
                raise

    async def fetch_one(self, sql: str, args: Sequence[Any] = ()) -> Row | None:
        async with self._lock, self.conn.execute(sql, tuple(args)) as cur:
            row: Row | None = await cur.fetchone()
            return row

    async def fetch_all(self, sql: str, args: Sequence[Any] = ()) -> list[Row]:
        async with self._lock, self.conn.execute(sql, tuple(args)) as cur:
            return list(await cur.fetchall())
