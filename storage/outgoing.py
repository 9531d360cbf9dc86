"""Messages waiting for the process that sends for all (``bot.relay``): written by any
process, read in id order and deleted once sent by the one holding the sending lease.
The body is the bot's own (JSON); nothing here knows Telegram."""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import dataclass

from .db import Database, Listener, Tx
from .game_repo import _now

CHANNEL = "durak_outgoing"  # notified at the commit of every new row (no payload)


@dataclass(frozen=True)
class Outgoing:
    id: int
    body: str
    created_at: float


class OutgoingRepo:
    def __init__(self, db: Database) -> None:
        self.db = db

    @staticmethod
    async def put(c: Tx, body: str) -> int:
        """Queue a message; the sender hears of it when the transaction commits."""
        row_id = await c.insert(
            "INSERT INTO outgoing (body, created_at) VALUES (?, ?)", (body, _now())
        )
        await c.notify(CHANNEL, "")
        return row_id

    async def add(self, body: str) -> int:
        """``put`` in a transaction of its own."""
        async with self.db.tx() as c:
            return await self.put(c, body)

    async def waiting(self, limit: int = 200) -> list[Outgoing]:
        """The oldest messages not yet sent, oldest first."""
        rows = await self.db.fetch_all(
            "SELECT id, body, created_at FROM outgoing ORDER BY id LIMIT ?", (limit,)
        )
        return [Outgoing(int(r[0]), str(r[1]), float(r[2])) for r in rows]

    async def sent(self, ids: Collection[int]) -> None:
        """Forget messages that were sent (or given up)."""
        if not ids:
            return
        marks = ", ".join("?" for _ in ids)
        async with self.db.tx() as c:
            await c.execute(f"DELETE FROM outgoing WHERE id IN ({marks})", tuple(ids))

    async def follow(self, heard: Callable[[], None]) -> Listener | None:
        """``heard()`` at each commit of a new row in another process (or this one);
        None where only one process uses the database (SQLite)."""
        return await self.db.listen(CHANNEL, lambda _payload: heard())
