"""What several bot processes share of their messages: those waiting for the process
that sends for their chat's shard (``bot.delivery.shared``), written by any process, read
in id order and deleted once sent by the one holding that shard's lease; and each hand's open page
(``bot.hand_pages``). The bodies are the bot's own (JSON); nothing here knows Telegram."""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import dataclass

from .db import Database, Listener, Tx
from .game_repo import _now

CHANNEL = "durak_outgoing"  # notified at the commit of every new row (no payload)


@dataclass(frozen=True)
class Outgoing:
    id: int
    shard: int
    body: str
    created_at: float


class OutgoingRepo:
    def __init__(self, db: Database) -> None:
        self.db = db

    @staticmethod
    async def put(c: Tx, shard: int, body: str) -> int:
        """Queue a message for the shard's holder; it hears of it when the transaction
        commits."""
        await c.effect()
        row_id = await c.insert(
            "INSERT INTO outgoing (shard, body, created_at) VALUES (?, ?, ?)",
            (shard, body, _now()),
        )
        await c.notify(CHANNEL, "")
        return row_id

    async def add(self, shard: int, body: str) -> int:
        """``put`` in a transaction of its own."""
        async with self.db.tx() as c:
            return await self.put(c, shard, body)

    async def waiting(
        self, shards: Collection[int] | None = None, limit: int = 200
    ) -> list[Outgoing]:
        """The oldest messages of the shards (None: of all) not yet sent, oldest first
        (an older bot's, of no shard, count as shard 0's)."""
        where: str = ""
        args: tuple[int, ...] = ()
        if shards is not None:
            if not shards:
                return []
            marks = ", ".join("?" for _ in shards)
            old = " OR shard IS NULL" if 0 in shards else ""
            where, args = f" WHERE shard IN ({marks}){old}", tuple(shards)
        rows = await self.db.fetch_all(
            f"SELECT id, coalesce(shard, 0), body, created_at FROM outgoing{where}"
            " ORDER BY id LIMIT ?",
            (*args, limit),
        )
        return [Outgoing(int(r[0]), int(r[1]), str(r[2]), float(r[3])) for r in rows]

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


class HandPageRepo:
    """A hand's open page, per game and player (``bot.hand_pages``)."""

    def __init__(self, db: Database) -> None:
        self.db = db

    async def put(self, game_id: int, user_id: int, body: str | None) -> None:
        """Note the page (None: closed), only while the game runs: the transaction that
        ends it deletes its pages (``GameRepo.drop_pages``). On PostgreSQL the game's row
        is locked against that change until this commits, so a page noted at the end
        is either refused or seen, and deleted, by it."""
        async with self.db.tx() as c:
            if body is None:
                await c.execute(
                    "DELETE FROM hand_pages WHERE game_id = ? AND user_id = ?", (game_id, user_id)
                )
                return
            lock = " FOR SHARE" if c.backend == "postgres" else ""
            await c.execute(
                "INSERT INTO hand_pages (game_id, user_id, body)"
                f" SELECT id, ?, ? FROM games WHERE id = ? AND status = 'playing'{lock}"
                " ON CONFLICT (game_id, user_id) DO UPDATE SET body = excluded.body",
                (user_id, body, game_id),
            )

    async def get(self, game_id: int, user_id: int) -> str | None:
        row = await self.db.fetch_one(
            "SELECT body FROM hand_pages WHERE game_id = ? AND user_id = ?", (game_id, user_id)
        )
        return None if row is None else str(row[0])
