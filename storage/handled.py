"""The handled updates' rows (``storage.handling`` writes them): whether an update was
handled, and their deletion once old."""

from __future__ import annotations

from .db import Database
from .game_repo import _now
from .handling import KEEP


class HandledRepo:
    def __init__(self, db: Database) -> None:
        self.db = db

    async def seen(self, update_id: int) -> bool:
        """Whether the update's handling changed something already."""
        row = await self.db.fetch_one(
            "SELECT 1 FROM handled_updates WHERE update_id = ?", (update_id,)
        )
        return row is not None

    async def newest(self) -> int:
        """The newest update recorded (0: none is)."""
        row = await self.db.fetch_one("SELECT max(update_id) FROM handled_updates")
        return 0 if row is None or row[0] is None else int(row[0])

    async def forget(self, keep: float = KEEP) -> int:
        """Delete the rows older than ``keep`` seconds; returns how many."""
        async with self.db.tx() as c:
            return await c.execute(
                "DELETE FROM handled_updates WHERE handled_at < ?", (_now() - keep,)
            )

    async def count(self) -> int:
        row = await self.db.fetch_one("SELECT count(*) FROM handled_updates")
        return 0 if row is None else int(row[0])

    async def stored_bytes(self) -> int:
        """What the rows and their index take where they are stored (benchmarks)."""
        if self.db.target.startswith(("postgresql://", "postgres://")):
            sql = "SELECT pg_total_relation_size('handled_updates')"
        else:  # (SQLite's dbstat: every page of the table and its index)
            sql = "SELECT sum(pgsize) FROM dbstat WHERE name LIKE 'handled_updates%'"
        row = await self.db.fetch_one(sql)
        return 0 if row is None or row[0] is None else int(row[0])
