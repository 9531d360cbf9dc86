"""What the storage layer's parts share, beneath them all: a transaction's statements
(``Tx``), its rows, its one error (``Conflict``), and what a shared database offers
several processes (``Listener``, ``ShardLeases``)."""

from __future__ import annotations

from collections.abc import Collection, Iterator, Sequence
from typing import Any, Protocol

from .shards import Fleet


class Conflict(Exception):
    """A write broke a constraint (a unique key, a foreign key): on either backend."""


class Row(Protocol):
    """A result row: by column name or position, and iterable (both backends' rows are)."""

    def __getitem__(self, key: int | str, /) -> Any: ...
    def __iter__(self) -> Iterator[Any]: ...
    def __len__(self) -> int: ...


class Tx(Protocol):
    """The statements of one transaction."""

    backend: str  # "sqlite" or "postgres": for the few statements that differ

    async def execute(self, sql: str, args: Sequence[Any] = ()) -> int:
        """The number of rows it changed; raises ``Conflict`` when the statement breaks
        a constraint."""
        ...

    async def fetch_one(self, sql: str, args: Sequence[Any] = ()) -> Row | None: ...
    async def fetch_all(self, sql: str, args: Sequence[Any] = ()) -> list[Row]: ...
    async def notify(self, channel: str, payload: str, *, chat: int | None = None) -> None:
        """Tell the processes that ``listen`` on ``channel``, when this commits (only
        on a database opened ``shared``); ``chat``: only those that listen to its shard
        of that channel."""
        ...

    async def insert(self, sql: str, args: Sequence[Any] = ()) -> int:
        """An ``INSERT`` into a table with an ``id`` column; returns the new row's id."""
        ...

    async def effect(self) -> None:
        """This transaction makes a change someone asked for (a move, a table's change,
        a message queued): the update its task handles, if any, is recorded with it
        (``storage.handling``); raises ``AlreadyHandled`` when it was elsewhere."""
        ...


class Listener(Protocol):
    """A subscription of ``Database.listen``."""

    @property
    def alive(self) -> bool:
        """False once its connection was lost (notifications may have been missed)."""
        ...

    async def hear(self, shards: Collection[int]) -> None:
        """A sharded listener's: hear the notifications sent for the chats of these
        shards only (from now on; at first: every shard's)."""
        ...

    async def close(self) -> None: ...


class ShardLeases(Protocol):
    """The shards' sending leases, each held by one process at a time, and what the
    server says of the processes sharing them (``storage.lease``)."""

    count: int

    @property
    def held(self) -> frozenset[int]: ...
    async def look(self) -> Fleet: ...
    async def take(self, shard: int) -> bool: ...
    async def release(self, shard: int) -> None: ...
    async def close(self) -> None: ...
