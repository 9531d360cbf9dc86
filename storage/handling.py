"""Updates handled once. Telegram sends an update again when it got no answer for it (its
process died, or was slow); one whose handling has committed must not act twice.

So each update whose handling changes something is recorded in the transaction of that
change: the bot opens ``Handling.of(update)`` around an update's handling, and the first
transaction that the handling task commits with a change of consequence (a move, a
table's change, a message queued for the sender: the repositories that write them call
``Tx.effect``) writes the update's row. Transactions of other tasks (computer players,
timers, the outbox) and changes that are the same when made again (a person's name, a
message's id) record nothing. An update sent again finds its row (``storage.handled``);
one handled twice at once, in two processes, writes its row twice, and the second
transaction fails with ``AlreadyHandled`` and rolls back. Rows are kept ``KEEP`` seconds:
Telegram sends again within seconds or minutes.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field

from .tx import Conflict, Tx

KEEP = 3600.0  # seconds a handled update is remembered


class AlreadyHandled(Exception):
    """The update was handled (and recorded) elsewhere meanwhile: this transaction rolls
    back, and its handling stops."""


@dataclass(eq=False)
class Handled:
    """One update's handling: whether its change is recorded (committed) yet."""

    update_id: int
    task: asyncio.Task[object] | None = None  # the task handling it (set by ``Handling.of``)
    recorded: bool = False
    durable: asyncio.Event = field(default_factory=asyncio.Event)  # set once recorded


class Handling:
    """Which update the running task handles (a database has one of these)."""

    def __init__(self) -> None:
        self._current: ContextVar[Handled | None] = ContextVar("durak_handling", default=None)

    @contextmanager
    def of(self, handled: Handled) -> Iterator[Handled]:
        """The running task handles ``handled``'s update until the block ends (tasks it
        starts do not: they may outlive it, working for others)."""
        handled.task = asyncio.current_task()
        token = self._current.set(handled)
        try:
            yield handled
        finally:
            self._current.reset(token)

    def recorder(self) -> Recorder | None:
        """For a transaction beginning now: the update it may record (None: no update is
        handled by this task, or its change is recorded already)."""
        handled = self._current.get()
        if handled is None or handled.recorded or handled.task is not asyncio.current_task():
            return None
        return Recorder(handled)


class Recorder:
    """One transaction's part in its task's update: the row, written with its first
    change (``effect``) and known as committed once the transaction is (``committed``)."""

    def __init__(self, handled: Handled) -> None:
        self.handled = handled
        self.noted = False

    async def effect(self, c: Tx) -> None:
        if not self.noted:
            self.noted = True
            await note(c, self.handled.update_id)

    def committed(self) -> None:
        if self.noted:
            self.handled.recorded = True
            self.handled.durable.set()


async def note(c: Tx, update_id: int) -> None:
    """Record the update in the transaction of its change; ``AlreadyHandled`` when another
    transaction did (on PostgreSQL, one not yet committed is waited for)."""
    try:
        await c.execute(
            "INSERT INTO handled_updates (update_id, handled_at) VALUES (?, ?)",
            (update_id, time.time()),
        )
    except Conflict:
        raise AlreadyHandled(update_id) from None
