"""A running game as this process holds it: the state as last committed (here, or
in another process and caught up since), and what the step loop needs beside it."""

from __future__ import annotations

import asyncio
import hashlib
from dataclasses import dataclass, field

from engine import State
from storage.repos import Seat


@dataclass
class LiveGame:
    state: State
    table_id: int
    chat_id: int
    seats: list[Seat]
    bots_seed: int = 0  # the computer players' decisions are seeded from it
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)  # this process's steps
    moved_at: float = 0.0  # loop time of the last committed step (the autoplay's pace)
    deadline: float | None = None  # when the current move times out (epoch seconds)
    time_added: float | None = None  # seconds an outage added to it (``outage``)

    def seat_of(self, user_id: int) -> int | None:
        """The person's seat (None: they do not play in this game)."""
        for seat, info in enumerate(self.seats):
            if info.user_id == user_id and info.human:
                return seat
        return None


def bots_seed(seed: int) -> int:
    """The computer players' seed, derived from the deal's (which it does not reveal)."""
    return int.from_bytes(hashlib.blake2b(b"bots:%d" % seed, digest_size=8).digest(), "big")
