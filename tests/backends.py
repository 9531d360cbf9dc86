"""The storage and service suites on both backends.

A module opts in with ``pytestmark = pytest.mark.usefixtures("backend")``: each
of its tests runs on SQLite files and on PostgreSQL, where every database file a
test names (through ``db_target``) becomes a fresh database on the server that
``DURAK_TEST_PG`` names (``.ci/run`` starts one and sets it). Without that
variable the PostgreSQL runs are skipped, unless ``DURAK_REQUIRE_PG`` is set
(CI), when they fail instead. ``@pytest.mark.sqlite_only`` keeps a test that is
about SQLite itself on SQLite.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Sequence
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import asyncpg

from storage.db import Database
from storage.sqlite import SqliteDatabase

PG_URL = os.environ.get("DURAK_TEST_PG", "")
REQUIRE_PG = bool(os.environ.get("DURAK_REQUIRE_PG"))


class PgDatabases:
    """The fresh databases of one test on the PostgreSQL server, one per file name."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.names: dict[str, str] = {}

    async def target(self, path: Path | str) -> str:
        name = self.names.get(str(path))
        if name is None:
            name = f"durak_test_{secrets.token_hex(6)}"
            conn = await asyncpg.connect(self.url)
            try:
                await conn.execute(f'CREATE DATABASE "{name}"')
            finally:
                await conn.close()
            self.names[str(path)] = name
        return urlunsplit(urlsplit(self.url)._replace(path=f"/{name}"))

    async def drop_all(self) -> None:
        conn = await asyncpg.connect(self.url)
        try:
            for name in self.names.values():
                try:
                    await conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
                except asyncpg.InsufficientPrivilegeError:
                    # An autovacuum worker on it, which only pg_signal_backend may end;
                    # without FORCE the server stops the worker itself.
                    await conn.execute(f'DROP DATABASE IF EXISTS "{name}"')
        finally:
            await conn.close()


current: list[PgDatabases] = []  # the running test's, while it runs on PostgreSQL


async def db_target(path: Path | str) -> str:
    """What to open for the database file ``path`` on the backend the test runs on."""
    return await current[-1].target(path) if current else str(path)


async def value_of(db: Database, sql: str, args: Sequence[object] = ()) -> object:
    """The first column of the row ``sql`` reads, which the test knows is there."""
    row = await db.fetch_one(sql, args)
    assert row is not None, f"no row: {sql}"
    return row[0]


def sqlite_file(db: Database) -> SqliteDatabase:
    """``db`` as the SQLite database the test knows it opened (its file, its lock)."""
    assert isinstance(db, SqliteDatabase), "a SQLite file"
    return db
