"""The shards' sending leases among several processes on a PostgreSQL server: one
session advisory lock per shard, all on one connection of this process's own, beside a
shared lock every member holds on it (so the server counts the processes that share
the shards: ``pg_locks``). The server lets them all go when that connection ends (the
process died, or the network between them did), and the others take its shards at
their next look.

Why the marker lock rather than a table of heartbeats: it is the server's own record of
a live session, gone the moment the session is (a SIGKILL closes the socket at once),
with nothing to expire, clean or clock to trust; and it lives on the very connection
that holds the shards, so a process counted is one that can hold them.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging

import asyncpg

from .shards import MAX_SHARDS, Fleet

log = logging.getLogger(__name__)

CHECK_TIMEOUT = 2.0  # seconds the leases' connection may take to answer before it counts as lost
# The keys (64-bit: classid the high half, objid the low one, objsubid 1 in pg_locks):
# "durak" as the others (``storage.postgres``), then 0x10000 + the shard: its lease, and
# 0x20000 + the count of shards: the members' marker (so that a process told another
# count than the others' is seen, and holds nothing: they would not agree on the chats).
SPACE = 0x64757261
SHARD = 0x6B010000
MEMBER = 0x6B020000


def shard_key(shard: int) -> int:
    return (SPACE << 32) | (SHARD + shard)


def member_key(count: int) -> int:
    return (SPACE << 32) | (MEMBER + count)


_LOOK = (
    "SELECT pid, objid::bigint FROM pg_locks WHERE locktype = 'advisory' AND granted"
    " AND objsubid = 1 AND classid = $1::bigint::oid AND objid::bigint BETWEEN $2 AND $3"
    " AND database = (SELECT oid FROM pg_database WHERE datname = current_database())"
)


class PgShards:
    def __init__(self, target: str, count: int) -> None:
        self.target = target
        self.count = count
        self._conn: asyncpg.Connection | None = None
        self._held: set[int] = set()

    @property
    def held(self) -> frozenset[int]:
        """The shards held, on a connection not known to be lost (``look`` makes sure)."""
        if self._conn is None or self._conn.is_closed():
            return frozenset()
        return frozenset(self._held)

    async def look(self) -> Fleet:
        """Join the members if not yet one (a connection of its own), and read who holds
        what; raises when the connection is lost (then nothing is held any more)."""
        try:
            async with asyncio.timeout(CHECK_TIMEOUT):  # (not wait_for: on 3.11 a cancel
                conn = await self._joined()  # that meets the answer is lost)
                rows = await conn.fetch(_LOOK, SPACE, SHARD, MEMBER + MAX_SHARDS)
        except Exception as e:
            if self._conn is not None:
                log.warning("the connection holding the shards was lost: %s", e)
            await self.close()
            raise
        me = conn.get_server_pid()
        members = {int(r[0]): int(r[1]) - MEMBER for r in rows if int(r[1]) >= MEMBER}
        members[me] = self.count
        ranked = sorted(members)
        taken = frozenset(int(r[1]) - SHARD for r in rows if int(r[1]) < MEMBER)
        return Fleet(len(ranked), ranked.index(me), taken, frozenset(members.values()))

    async def take(self, shard: int) -> bool:
        """Try to take the shard's lease (True: held now)."""
        if shard in self.held:
            return True
        if await self._ask("SELECT pg_try_advisory_lock($1)", shard_key(shard)):
            self._held.add(shard)
            return True
        return False

    async def release(self, shard: int) -> None:
        """Let the shard's lease go (another process may take it at once)."""
        self._held.discard(shard)
        if self._conn is not None and not self._conn.is_closed():
            await self._ask("SELECT pg_advisory_unlock($1)", shard_key(shard))

    async def _ask(self, query: str, key: int) -> object:
        """One query on the leases' connection, in time or never: a connection that does
        not answer is closed (the server then lets every lease of it go) and this raises."""
        try:
            async with asyncio.timeout(CHECK_TIMEOUT):
                return await (await self._joined()).fetchval(query, key)
        except Exception as e:
            log.warning("the connection holding the shards was lost: %s", e)
            await self.close()
            raise

    async def close(self) -> None:
        """Let every lease go, and leave the members (closing the connection ends the
        session's locks)."""
        self._held.clear()
        conn, self._conn = self._conn, None
        if conn is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(conn.close(), CHECK_TIMEOUT)
            if not conn.is_closed():
                conn.terminate()

    async def _joined(self) -> asyncpg.Connection:
        if self._conn is None or self._conn.is_closed():
            self._held.clear()  # (a lost session's locks are gone with it)
            conn = await asyncpg.connect(self.target)
            try:
                await conn.execute("SELECT pg_advisory_lock_shared($1)", member_key(self.count))
            except BaseException:
                conn.terminate()
                raise
            self._conn = conn
        return self._conn
