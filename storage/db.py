"""The database: SQLite (a file, the embedded default) or PostgreSQL (a server).

``storage.connect.open_database(target)`` takes a file path or a ``postgresql://`` URL and
migrates the schema. Both backends speak the same SQL (SQLite's dialect, with
``?`` placeholders, translated for PostgreSQL in ``storage.postgres``) through
the same small interface: ``tx()`` for a write transaction, ``fetch_one`` and
``fetch_all`` for reads.
"""

from __future__ import annotations

import logging
import os
import re
from collections.abc import Callable, Sequence
from contextlib import AbstractAsyncContextManager
from importlib import resources
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, parse_qsl, urlencode, urlsplit, urlunsplit

from .handling import Handling
from .migrations import BACKFILLS
from .outage import Reach
from .tx import Conflict, Listener, Row, ShardLeases, Tx

__all__ = ["Conflict", "Database", "Listener", "Row", "ShardLeases", "Tx"]

log = logging.getLogger(__name__)

DEFAULT_PATH = "./durak.sqlite3"


def configured_path() -> str:
    """The database: ``DURAK_DB`` from the environment, or ``./durak.sqlite3``."""
    return os.environ.get("DURAK_DB") or DEFAULT_PATH


def is_url(target: str | Path) -> bool:
    """Whether ``target`` names a PostgreSQL server rather than a SQLite file."""
    return str(target).startswith(("postgresql://", "postgres://"))


def password_of(url: str) -> str | None:
    """The password in a server URL: after the user name, or as ``?password=``."""
    parts = urlsplit(url)
    return parts.password or next(iter(parse_qs(parts.query).get("password", [])), None)


def redacted(url: str) -> str:
    """A URL fit for a log line: without its password.

    >>> redacted("postgresql://durak:s3cret@db:5432/durak")
    'postgresql://durak:***@db:5432/durak'
    >>> redacted("postgresql://durak@db/durak?password=s3cret&sslmode=require")
    'postgresql://durak@db/durak?password=***&sslmode=require'
    """
    parts = urlsplit(url)
    netloc = parts.netloc
    if parts.password is not None:
        netloc = netloc.replace(f":{parts.password}@", ":***@", 1)
    query = [(k, "***" if k == "password" else v) for k, v in parse_qsl(parts.query)]
    return urlunsplit(parts._replace(netloc=netloc, query=urlencode(query, safe="*")))


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


def statements(sql: str) -> list[str]:
    """Split a migration file into statements (none of ours contain ';' in strings)."""
    lines = [line.split("--", 1)[0] for line in sql.splitlines()]
    return [s.strip() for s in "\n".join(lines).split(";") if s.strip()]


class Database:
    """What the repositories need of a database (``storage.connect.open_database`` picks
    the backend)."""

    target: str
    shared = False  # one of several bots (``hold_lock``): their steps are notified (``notify``)
    shards = 1  # the shards of the chats (``storage.shards``) the bots share
    handling: Handling  # which update each task handles, recorded with its change
    reach: Reach  # when the database could not be reached

    async def migrate(self, upto: int | None = None) -> None:
        """Apply the migrations the database has not seen, each in its own transaction."""
        current = await self.schema_version()
        for number, name, sql in migrations():
            if number <= current or (upto is not None and number > upto):
                continue
            log.info("applying migration %s", name)
            async with self.tx() as tx:
                for statement in statements(sql):
                    await tx.execute(self.dialect(statement))
                backfill = BACKFILLS.get(number)
                if backfill is not None:
                    await backfill(tx)
                await self.set_schema_version(tx, number)

    def dialect(self, statement: str) -> str:
        """A migration's statement as this backend writes it."""
        return statement

    # What each backend provides:

    def tx(self) -> AbstractAsyncContextManager[Tx]:
        """A write transaction: committed on success, rolled back on any error or
        cancellation."""
        raise NotImplementedError

    async def fetch_one(self, sql: str, args: Sequence[Any] = ()) -> Row | None:
        raise NotImplementedError

    async def fetch_all(self, sql: str, args: Sequence[Any] = ()) -> list[Row]:
        raise NotImplementedError

    async def schema_version(self) -> int:
        raise NotImplementedError

    async def set_schema_version(self, tx: Tx, number: int) -> None:
        raise NotImplementedError

    def shard_leases(self) -> ShardLeases | None:
        """The sending leases of the ``shards`` of the chats (``bot.delivery.holder``);
        None where only one process can use the database (SQLite)."""
        return None

    async def listen(
        self, channel: str, heard: Callable[[str], None], *, sharded: bool = False
    ) -> Listener | None:
        """Call ``heard(payload)`` for each notification on ``channel`` (on a connection
        of its own); ``sharded``: those sent for a chat (``Tx.notify``), of every shard
        until ``Listener.hear`` says which. None where only one process can use the
        database (SQLite)."""
        return None

    async def stored_bytes(self) -> int:
        """What the data takes up where it is stored (benchmarks)."""
        raise NotImplementedError

    async def hold_lock(self, *, shared: bool = False) -> None:
        """Make this process the database's only bot (``shared``: one of several), or
        raise ``storage.lock.Locked``. A SQLite file is locked apart, before the process
        starts its loop, and always for one process (see ``storage.lock``); a server
        takes the lock on a connection of its own."""
        self.shared = shared

    async def close(self) -> None:
        raise NotImplementedError
