"""A table with people at it, and a sensible next move: what the service's benchmarks and
its tests set up alike (``tests/service_helpers.py`` builds on this)."""

from __future__ import annotations

from engine import State
from engine.players import GreedyPlayer
from service import GameService, Seat
from storage.repos import ChatRepo, SeatKind, TableRepo, TableSettings, UserRepo

CHAT = -1001


async def new_table(service: GameService, users: int = 2, chat: int = CHAT) -> int:
    """A table in ``chat`` with default settings, its people 1..``users`` known by name."""
    async with service.db.tx() as c:
        await ChatRepo.upsert(c, chat, "Стол")
        for u in range(1, users + 1):
            await UserRepo.upsert(c, u, f"Игрок {u}")
        return await TableRepo.create(c, chat, 1, TableSettings(), [])


def humans(n: int) -> list[Seat]:
    """Seats for the people 1..``n`` of ``new_table``."""
    return [Seat(SeatKind.HUMAN, f"Игрок {u}", user_id=u) for u in range(1, n + 1)]


def next_move(state: State) -> tuple[int, str]:
    """A deterministic, sensible move for whoever should move (a greedy player's)."""
    player = GreedyPlayer()
    turn = state.turn()
    assert turn is not None
    order = [*turn.seats, *range(state.n)]
    for seat in order:
        action = player.choose(state.view(seat))
        if action is not None:
            return seat, action.text
    raise AssertionError("nobody can move")
