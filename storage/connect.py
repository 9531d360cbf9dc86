"""Opening the database: a file path (SQLite) or a ``postgresql://`` URL (PostgreSQL),
migrated to the newest schema. It stands above both backends, which it picks."""

from __future__ import annotations

from pathlib import Path

from .db import Database, configured_path, is_url
from .shards import SHARDS


async def open_database(
    target: str | Path | None = None,
    *,
    upto: int | None = None,
    exclusive: bool = False,
    shared: bool = False,
    shards: int = SHARDS,
) -> Database:
    """Open (creating if needed) and migrate to the newest schema, or to ``upto``.
    ``exclusive``: first make this process the database's only bot (``hold_lock``),
    so that a second one changes nothing before it is refused; ``shared``: one of
    several bots on a server, none of which may run beside an exclusive one, that
    tell each other their steps (alone, a process notifies nobody: a notification
    serializes the server's commits, a third of the moves per second at saturation);
    ``shards``: of the chats, the count every bot on the server agrees on (``storage.shards``;
    a server's only: a file is one bot's)."""
    target = configured_path() if target is None else target
    db: Database
    if is_url(target):
        from .postgres import PostgresDatabase  # asyncpg only where it is used

        db = await PostgresDatabase.connect(str(target), shards)
    else:
        from .sqlite import SqliteDatabase

        db = await SqliteDatabase.connect(str(target))
    try:
        if exclusive or shared:
            await db.hold_lock(shared=shared)
        await db.migrate(upto)
    except BaseException:
        await db.close()
        raise
    return db
