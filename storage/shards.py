"""The shards of the chats: a fixed number of them (``DURAK_SHARDS``), a chat's shard
drawn from its id by a stable hash (the same in every process, across restarts and
versions of Python), and how many of them a process should hold among the processes
that share them (``storage.lease.PgShards`` holds one lease per shard).

Everything a group is sent goes through the process holding its shard, so Telegram's
per-group limits are counted by one outbox; a game belongs to its group's shard (its hands
too, though they go to the players' private chats, which therefore may hear from the
holders of several shards)."""

from __future__ import annotations

from dataclasses import dataclass

SHARDS = 64  # the default count (``DURAK_SHARDS``): every process of a fleet must agree
MAX_SHARDS = 4096
_MIX = 0x9E3779B97F4A7C15  # 2^64 / the golden ratio (Fibonacci hashing)
_MASK = (1 << 64) - 1


def shard_of(chat_id: int, shards: int) -> int:
    """The chat's shard among ``shards``: its id mixed by a multiplication modulo 2^64
    (ids that follow each other, as Telegram's do, land far apart).

    >>> shard_of(-1001234567890, 64), shard_of(-1001234567891, 64)
    (16, 22)
    >>> shard_of(42, 1)
    0
    """
    return (((chat_id * _MIX) & _MASK) >> 32) % shards


def share(shards: int, members: int, rank: int) -> int:
    """How many shards the process of ``rank`` (0 first) should hold among ``members``
    (the first ``shards % members`` hold one more).

    >>> [share(64, 3, r) for r in range(3)]
    [22, 21, 21]
    >>> share(64, 1, 0), share(2, 3, 2)
    (64, 0)
    """
    if members <= 0:
        return shards
    return shards // members + (1 if rank < shards % members else 0)


@dataclass(frozen=True)
class Fleet:
    """What the server says of the processes that share the shards, at one look."""

    members: int  # processes sharing the shards (this one included)
    rank: int  # this one's place among them (by server session: stable while it lives)
    taken: frozenset[int]  # shards held by any process, this one's included
    counts: frozenset[int]  # the counts of shards the members divide the chats into

    def want(self, shards: int) -> int:
        """How many shards this process should hold: none while the members do not all
        divide the chats into ``shards`` (two could send to one chat)."""
        if self.counts != {shards}:
            return 0
        return share(shards, self.members, self.rank)
