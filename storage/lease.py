"""A role that one process at a time holds among several on a PostgreSQL server: a
session advisory lock on a connection of its own. The server lets it go when that
connection ends (the process died, or the network between them did), and another
process takes it at its next try.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging

import asyncpg

log = logging.getLogger(__name__)

CHECK_TIMEOUT = 2.0  # seconds a holder's connection may take to answer before it counts as lost


class PgLease:
    def __init__(self, target: str, key: int) -> None:
        self.target = target
        self.key = key
        self._conn: asyncpg.Connection | None = None
        self._held = False

    @property
    def held(self) -> bool:
        """Held on a connection not known to be lost (``check`` makes sure)."""
        return self._held and self._conn is not None and not self._conn.is_closed()

    async def take(self) -> bool:
        """Try to take the role (True when this process holds it now)."""
        if self.held:
            return True
        if self._conn is None or self._conn.is_closed():
            self._conn = await asyncpg.connect(self.target)
        self._held = bool(await self._conn.fetchval("SELECT pg_try_advisory_lock($1)", self.key))
        return self._held

    async def check(self) -> bool:
        """Whether the role is still held: its connection must answer in time."""
        if not self.held or self._conn is None:
            return False
        try:  # (not wait_for: on 3.11 a cancel that meets the answer is lost, and the
            async with asyncio.timeout(CHECK_TIMEOUT):  # holder's loop never stopped)
                await self._conn.fetchval("SELECT 1")
        except Exception as e:  # lost: the server has let the lock go, or soon will
            log.warning("the connection holding the lease %#x was lost: %s", self.key, e)
            await self.close()
        return self.held

    async def close(self) -> None:
        """Let the role go (closing its connection ends the session's lock)."""
        self._held = False
        conn, self._conn = self._conn, None
        if conn is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(conn.close(), CHECK_TIMEOUT)
            if not conn.is_closed():
                conn.terminate()
