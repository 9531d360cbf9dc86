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

    async def forget(self, keep: float = KEEP) -> int:
        """Delete the rows older than ``keep`` seconds; returns how many."""
        async with self.db.tx() as c:
            return await c.execute(
                "DELETE FROM handled_updates WHERE handled_at < ?", (_now() - keep,)
            )

    async def count(self) -> int:
        row = await self.db.fetch_one("SELECT count(*) FROM handled_updates")
        return 0 if row is None else int(row[0])
