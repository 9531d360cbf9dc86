"""The SQLite file: connection settings, numbered migrations, transactions."""

from __future__ import annotations

import asyncio
import logging
import os
import re
from collections.abc import AsyncIterator, Iterable
from contextlib import asynccontextmanager
from importlib import resources
from pathlib import Path
from typing import Any

import aiosqlite

log = logging.getLogger(__name__)

DEFAULT_PATH = "./durak.sqlite3"


def configured_path() -> str:
    """The database file: ``DURAK_DB`` from the environment, or ``./durak.sqlite3``."""
    return os.environ.get("DURAK_DB") or DEFAULT_PATH


_MIGRATION_NAME = re.compile(r"^(\d{4})_[a-z0-9_]+\.sql$")


def migrations() -> list[tuple[int, str, str]]:
    """(number, name, sql) of every migration shipped with the code, in order."""
    found = []
    for item in resources.files("storage.migrations").iterdir():
        m = _MIGRATION_NAME.match(item.name)
        if m:
            found.append((int(m.group(1)), item.name, item.read_text(encoding="utf-8")))
    found.sort()
    numbers = [n for n, _, _ in found]
    if numbers != list(range(1, len(found) + 1)):
        raise RuntimeError(f"migrations must be numbered 1, 2, 3, ...: {numbers}")
    return found


class Database:
    """One aiosqlite connection; every statement goes through one lock, so a
    transaction is never interleaved with another coroutine's statements."""

    def __init__(self, conn: aiosqlite.Connection, path: str) -> None:
        self.conn = conn
        self.path = path
        self._lock = asyncio.Lock()

    @classmethod
    async def open(cls, path: str | Path | None = None, *, upto: int | None = None) -> Database:
        """Open (creating if needed) and migrate to the newest schema, or to ``upto``."""
        path = configured_path() if path is None else path
        conn = await aiosqlite.connect(str(path), isolation_level=None)
        conn.row_factory = aiosqlite.Row
        await conn.execute("PRAGMA journal_mode = WAL")
        await conn.execute("PRAGMA synchronous = NORMAL")  # durable at WAL checkpoints
        await conn.execute("PRAGMA foreign_keys = ON")
        await conn.execute("PRAGMA busy_timeout = 5000")
        db = cls(conn, str(path))
        await db.migrate(upto)
        return db

    async def close(self) -> None:
        await self.conn.close()

    async def checkpoint(self) -> None:
        """Fold the write-ahead log into the main file (to measure its size)."""
        async with self._lock:
            await self.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")

    async def schema_version(self) -> int:
        async with self.conn.execute("PRAGMA user_version") as cur:
            row = await cur.fetchone()
        return int(row[0]) if row else 0

    async def migrate(self, upto: int | None = None) -> None:
        """Apply the migrations the file has not seen, each in its own transaction."""
        current = await self.schema_version()
        for number, name, sql in migrations():
            if number <= current or (upto is not None and number > upto):
                continue
            log.info("applying migration %s", name)
            async with self.tx() as conn:
                for statement in _statements(sql):
                    await conn.execute(statement)
                await conn.execute(f"PRAGMA user_version = {number}")

    @asynccontextmanager
    async def tx(self) -> AsyncIterator[aiosqlite.Connection]:
        """A write transaction: committed on success, rolled back on any error. So is a
        cancellation, wherever it comes: aiosqlite's thread still runs every statement
        it was handed (a BEGIN, a COMMIT), so the rollback is queued after them and no
        transaction is left open for the next one to trip on."""
        async with self._lock:
            try:
                await self.conn.execute("BEGIN IMMEDIATE")
                yield self.conn
                await self.conn.commit()
            except BaseException:
                await asyncio.shield(self.conn.rollback())  # a no-op after a COMMIT
                raise

    async def fetch_one(self, sql: str, args: Iterable[Any] = ()) -> aiosqlite.Row | None:
        async with self._lock, self.conn.execute(sql, tuple(args)) as cur:
            return await cur.fetchone()

    async def fetch_all(self, sql: str, args: Iterable[Any] = ()) -> list[aiosqlite.Row]:
        async with self._lock, self.conn.execute(sql, tuple(args)) as cur:
            return list(await cur.fetchall())


def _statements(sql: str) -> list[str]:
    """Split a migration file into statements (none of ours contain ';' in strings)."""
    lines = [line.split("--", 1)[0] for line in sql.splitlines()]
    return [s.strip() for s in "\n".join(lines).split(";") if s.strip()]
