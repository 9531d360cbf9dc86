"""Shared set-up for the game service tests (the part the benchmarks use as well is
:mod:`bench.service_setup`)."""

from __future__ import annotations

from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any

import pytest

from bench.service_setup import CHAT, humans, new_table, next_move
from engine import Rules, State
from service import Clock, FakeClock, GameService, Seat, Update
from service.autoplay import forced_word
from service.tables import Person, TableError, Tables
from storage.db import Database
from storage.repos import UserRepo
from tests.backends import db_target

__all__ = [
    "ANNA",
    "BORIS",
    "CHAT",
    "VIKA",
    "humans",
    "new_table",
    "next_move",
    "open_service",
    "open_tables",
    "play_moves",
    "refused",
    "say_forced_words",
    "start",
]


async def open_service(path: Path, clock: Clock | None = None) -> GameService:
    """The service on the database ``path`` names (on the test's backend, see backends)."""
    db = await Database.open(await db_target(path))
    return GameService(db, clock=clock or FakeClock())


async def start(service: GameService, rules: Rules, seed: int, seats: list[Seat]) -> Update:
    table_id = await new_table(service, sum(s.kind == "human" for s in seats))
    return await service.create_game(table_id, rules, seats, seed)


def say_forced_words(state: State) -> None:
    """Say for people what the service says for them: each forced «Бито»/«Пас»,
    in the order the service looks at the seats (see ``autoplay.forced_word``)."""
    while not state.is_over:
        turn = state.turn()
        waiting = turn.seats if turn else ()
        order = [*waiting, *(s for s in range(state.n) if s not in waiting)]
        word = next((w for s in order if (w := forced_word(state, s)) is not None), None)
        if word is None:
            return
        state.apply(word, auto=True)


async def play_moves(service: GameService, game_id: int, limit: int) -> int:
    """Play up to ``limit`` greedy moves through the service (waiting for the computer
    players' moves after each); returns how many."""
    for made in range(limit):
        await service.idle()
        state = service.games[game_id].state
        if state.is_over:
            return made
        seat, text = next_move(state)
        await service.act(game_id, seat, text, len(state.history))
    await service.idle()
    return limit


ANNA, BORIS, VIKA = Person(1, "Аня"), Person(2, "Борис"), Person(3, "Вика")


async def open_tables(path: Path, people: tuple[Person, ...] = (ANNA, BORIS, VIKA)) -> Tables:
    """The lobbies over the service on ``path``; ``people`` known, each with the private
    chat with the bot open."""
    service = await open_service(path)
    tables = Tables(service.db, service)
    for p in people:
        await tables.remember(p)
        async with service.db.tx() as c:
            await UserRepo.set_can_message(c, p.id, True)
    return tables


def refused(code: str) -> AbstractContextManager[Any]:
    """Expects the lobby to refuse with ``code``."""
    return pytest.raises(TableError, match=f"^{code}$")
